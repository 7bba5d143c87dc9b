#!/usr/bin/env bash
# --profile-map on 2-D launches of known.cl: the pictures have the launch's
# size and known pixel counts per colour. alternating (64 x 8): half the
# items take each path (blue, orange), every group of 32 diverged (red);
# runs64 (128 x 4): two paths, no group diverged (green).
#   map.sh NPLUS1GEN
set -euo pipefail
tool=$1
dir=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$tool" "$dir/known.cl" --profile -k alternating --global 64,8 --profile-map "$out/alt.png" >/dev/null
"$tool" "$dir/known.cl" --profile -k runs64 --global 128,4 --profile-map "$out/runs.png" >/dev/null
python3 - "$out" <<'PY'
import struct, sys, zlib
from collections import Counter

def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    pos, idat, w, h = 8, b"", 0, 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype == 2, "8-bit RGB"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, prev, px = zlib.decompress(idat), w * 3, bytearray(w * 3), []
    for y in range(h):
        f, row = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = row[i - 3] if i >= 3 else 0
            b, c = prev[i], prev[i - 3] if i >= 3 else 0
            if f == 1: row[i] = (row[i] + a) & 255
            elif f == 2: row[i] = (row[i] + b) & 255
            elif f == 3: row[i] = (row[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        px += ["%02x%02x%02x" % tuple(row[i:i + 3]) for i in range(0, stride, 3)]
        prev = row
    return w, h, Counter(px)

want = {
    "alt.png": (64, 8, {"1f77b4": 256, "ff7f0e": 256}),
    "alt.groups.png": (64, 8, {"c62828": 512}),
    "runs.png": (128, 4, {"1f77b4": 256, "ff7f0e": 256}),
    "runs.groups.png": (128, 4, {"2e7d32": 512}),
}
bad = 0
for name, (w, h, colours) in sorted(want.items()):
    got = read_png(sys.argv[1] + "/" + name)
    ok = got == (w, h, Counter(colours))
    print("%-16s %dx%d %s %s" % (name, got[0], got[1], dict(got[2]), "ok" if ok else "FAIL"))
    bad += not ok
sys.exit(bad != 0)
PY
