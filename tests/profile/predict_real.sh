#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The predictions of --profile for the real-shaped set (bench/real/kernels.tsv),
# a regression table: every kernel and mix profiled here on POCL at the small
# size (64K items, 256x256; the inputs of scripts/gpu-real.sh gen --small) under
# the H200's calibration (docs/perf/h200_calibration.txt), one line per carried
# candidate: KERNEL MIX CANDIDATE PREDICTED (x, or "cannot" when the model cannot
# tell). The table is compared with predict_real.expected, so a change of the
# cost model shows up as a diff of predicted ratios.
#   predict_real.sh NPLUS1GEN [--write FILE] [--size small|full] [--kernels REGEX]
# --write FILE: write the table there instead of comparing it (to refresh the
# expected file, or, with --size full, the 1M-item table docs/performance.md
# compares with the GPU's measured ratios).
set -uo pipefail
tool=$1
shift
dir=$(cd "$(dirname "$0")" && pwd)
root=$dir/../..
write="" size=small kernels=.
while [ $# -gt 0 ]; do
    case "$1" in
    --write) write=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --kernels) kernels=$2; shift 2 ;;
    *) echo "predict_real.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
n=65536 w=256 h=256
[ "$size" = full ] && n=1048576 w=1024 h=1024
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$root/bench/real/gen_inputs.py" "$tmp/data" "$n" "$w" "$h" || exit 1
export NPLUS1_CALIBRATION=$root/docs/perf/h200_calibration.txt NPLUS1_CACHE=0
# the H200's tile: 4 items a work-item at 256 (runtime/set.c, tile_ipt_for: 48 KiB of local
# memory), which the tile and loop kernels' replays group the recorded items by
export NPLUS1_TILE_IPT=4
subst() {
    local t=$1
    t=${t//\{N2\}/$((n * 2))}
    t=${t//\{N\}/$n}
    t=${t//\{W\}/$w}
    t=${t//\{H\}/$h}
    echo "${t//\{D\}/$tmp/data}"
}
: >"$tmp/table"
while IFS=$'\t' read -r kernel mix global args; do
    case "$kernel" in ''|'#'*|kernel) continue ;; esac
    [[ "$kernel" =~ $kernels ]] || continue
    argv=()
    for a in $(subst "$args"); do argv+=(--arg "$a"); done
    json=$tmp/${kernel}__$mix.json
    if ! "$tool" "$root/bench/real/$kernel.cl" --global "$(subst "$global")" "${argv[@]}" \
         --profile --profile-json "$json" >"$tmp/out.txt" 2>&1; then
        echo "$kernel $mix - failed" >>"$tmp/table"
        continue
    fi
    python3 - "$json" "$kernel" "$mix" >>"$tmp/table" <<'PY'
import json, sys
prof = json.load(open(sys.argv[1]))
ks = [k for k in prof["kernels"] if k["name"] == sys.argv[2]] or prof["kernels"]
cands = ks[0].get("candidates", []) if ks else []
if not cands:
    print(sys.argv[2], sys.argv[3], "-", "none")
for c in cands:
    told = "%.2fx" % c["speedup"] if c.get("predicted") else "cannot"
    print(sys.argv[2], sys.argv[3], c["candidate"], told)
PY
done <"$root/bench/real/kernels.tsv"
if [ -n "$write" ]; then
    cp "$tmp/table" "$write"
    echo "predict_real: wrote $(wc -l <"$tmp/table") rows to $write"
    exit 0
fi
if diff -u "$dir/predict_real.expected" "$tmp/table"; then
    echo "PASS: predict_real: $(wc -l <"$tmp/table") predictions as expected"
else
    echo "FAIL: predict_real: the predictions moved (diff above: - expected, + now);" \
         "if the model changed on purpose, refresh tests/profile/predict_real.expected" \
         "with predict_real.sh NPLUS1GEN --write tests/profile/predict_real.expected"
    exit 1
fi
