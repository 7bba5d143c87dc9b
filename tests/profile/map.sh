#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# --profile-map on launches of known.cl: each picture has a title, a legend
# and, under the groups map, an efficiency scale; the map inside it (where
# its nplus1-map tEXt chunk says) has known pixel counts per colour.
# alternating (64 x 8, a cell 8 px): half the items take each path (blue,
# orange); every group of 32 has the same efficiency, below 1 (one colour,
# not green). runs64 (128 x 4, a cell 4 px): two paths, no group diverged
# (green). A 1-D launch (alternating, 4096 items) is wrapped in rows of 64;
# past 2^20 items (runs64, 1179648 items) a cell is a SIMD group of 32.
#   map.sh NPLUS1GEN
set -euo pipefail
tool=$1
dir=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$tool" "$dir/known.cl" --profile -k alternating --global 64,8 --profile-map "$out/alt.png" >/dev/null
"$tool" "$dir/known.cl" --profile -k runs64 --global 128,4 --profile-map "$out/runs.png" >/dev/null
"$tool" "$dir/known.cl" --profile -k alternating --global 4096 --profile-map "$out/alt1d.png" >/dev/null
"$tool" "$dir/known.cl" --profile -k runs64 --global 1179648 --profile-map "$out/big.png" >/dev/null
PYTHONPATH="$dir" python3 - "$out" <<'PY'
import sys
from collections import Counter
from pngread import map_region

GREEN = "2e7d32"
# name: (map w, h, zoom, span, {colour: pixels} or None: one colour, not green)
want = {
    "alt.png": (512, 64, 8, 1, {"1f77b4": 256 * 64, "ff7f0e": 256 * 64}),
    "alt.groups.png": (512, 64, 8, 1, None),
    "runs.png": (512, 16, 4, 1, {"1f77b4": 256 * 16, "ff7f0e": 256 * 16}),
    "runs.groups.png": (512, 16, 4, 1, {GREEN: 512 * 16}),
    "alt1d.png": (512, 512, 8, 1, {"1f77b4": 2048 * 64, "ff7f0e": 2048 * 64}),
    "alt1d.groups.png": (512, 512, 8, 1, None),
    # 36864 groups in rows of 192 cells, 2 px each: half the groups on each path
    "big.png": (384, 384, 2, 32, {"1f77b4": 18432 * 4, "ff7f0e": 18432 * 4}),
    "big.groups.png": (384, 384, 2, 32, {GREEN: 36864 * 4}),
}
bad = 0
for name, (mw, mh, zoom, span, colours) in sorted(want.items()):
    size, region, meta, px = map_region(sys.argv[1] + "/" + name)
    got = Counter(region)
    ok = (int(meta["w"]), int(meta["h"]), int(meta["zoom"]), int(meta["span"])) == \
        (mw, mh, zoom, span)
    if colours is None:
        ok &= len(got) == 1 and GREEN not in got and len(region) == mw * mh
    else:
        ok &= got == Counter(colours)
    # a title and a legend around the map: ink (the font's colour) outside it
    ok &= size[1] > mh + 40 and px.count("212121") > 200
    if name.endswith(".groups.png"):  # the scale: a bar of at least 200 colours
        ok &= len(set(px)) - len(got) > 200
    print("%-17s picture %dx%d, map %sx%s zoom %s span %s: %s %s" % (
        name, size[0], size[1], meta["w"], meta["h"], meta["zoom"], meta["span"],
        dict(got.most_common(3)), "ok" if ok else "FAIL"))
    bad += not ok
sys.exit(bad != 0)
PY
