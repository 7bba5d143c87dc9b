#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The four kernels of known.cl land within 0.1 of their exact SIMT
# efficiency at width 32 (the alternating one also at 64), and every
# kernel's instrumented run matched the original (values compared > 0).
#   known.sh NPLUS1GEN
set -euo pipefail
tool=$1
dir=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$tool" "$dir/known.cl" --profile --global 4096 --arg sel=choice:0,1,2 \
    --profile-json "$out/w32.json" >/dev/null
"$tool" "$dir/known.cl" --profile -k alternating -k runs64 --global 4096 --simd-width 64 \
    --profile-json "$out/w64.json" >/dev/null
python3 - "$out/w32.json" "$out/w64.json" <<'PY'
import json, sys
exact = {32: {"alternating": 0.5, "runs64": 1.0, "trips": 0.5, "three_ways": 1 / 3},
         64: {"alternating": 0.5, "runs64": 1.0}}
bad = 0
for path in sys.argv[1:]:
    doc = json.load(open(path))
    for k in doc["kernels"]:
        want = exact[k["width"]][k["name"]]
        ok = abs(k["simt_efficiency"] - want) <= 0.1 and k["values_compared"] > 0
        print("%-12s width %2d: %.3f (exact %.3f) %s" % (k["name"], k["width"],
              k["simt_efficiency"], want, "ok" if ok else "FAIL"))
        bad += not ok
sys.exit(bad != 0)
PY
