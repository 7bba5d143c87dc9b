#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Tool speed: median wall time of nplus1gen on a 500-line kernel file (several
# branchy kernels, helpers, a switch, guards), parse + analyze + plan + emit,
# over REPS runs. usage: bench/tool_speed.sh [REPS] [NPLUS1GEN]
set -euo pipefail
cd "$(dirname "$0")/.."
REPS=${1:-21}
TOOL=${2:-./build/tool/nplus1gen}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$work/big.cl
# 500 lines: the samples' kernels, every function and macro renamed apart
python3 - "$src" samples/oneKernel.cl samples/shade_materials.cl samples/particles.cl \
    samples/mandelbrot.cl <<'PY'
import re, sys
out, files = sys.argv[1], sys.argv[2:]
text, i = [], 0
while sum(t.count("\n") for t in text) < 500:
    for f in files:
        src = re.sub(r"^#include.*$", "", open(f).read(), flags=re.M)
        names = set(re.findall(r"^\s*(?:static\s+)?(?:inline\s+)?(?:__kernel\s+)?[A-Za-z_][\w ]*?\b([A-Za-z_]\w*)\s*\(", src, re.M))
        names |= set(re.findall(r"^#\s*define\s+([A-Za-z_]\w*)", src, re.M))
        names -= {"if", "for", "while", "switch", "return", "sizeof"}
        for n in sorted(names, key=len, reverse=True):
            src = re.sub(r"\b%s\b" % n, "%s_%d" % (n, i), src)
        text.append(src)
        i += 1
open(out, "w").write("".join(text))
PY
lines=$(wc -l < "$src")
"$TOOL" "$src" --check > /dev/null || { echo "tool_speed: the generated file does not pass --check" >&2; exit 1; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
run() {
  for _ in $(seq "$REPS"); do
    s=$(date +%s.%N); "$@" > /dev/null 2>&1; e=$(date +%s.%N)
    echo "$e - $s" | bc -l
  done | median
}
check=$(run "$TOOL" "$src" --check)
full=$(run "$TOOL" "$src" -o "$work/out" -q)
kernels=$(grep -c '__kernel' "$src")
printf 'tool_speed: %s lines, %s kernels, median of %s runs\n' "$lines" "$kernels" "$REPS"
printf '  --check (parse + analyze + plan): %.3f s\n' "$check"
printf '  -o     (+ emit + atomic write):   %.3f s\n' "$full"
