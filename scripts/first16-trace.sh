#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A fresh auto set's first 16 launches, launch by launch, for the real-shaped
# set (bench/real/kernels.tsv) on this machine's device (POCL here): what each
# launch ran and the choice so far (NPLUS1_TRACE_FIRST=1 of --validate --reps 16).
#
#   scripts/first16-trace.sh [DEST]   DEST (default /tmp/nplus1-first16): the inputs
#                                     and DEST/trace.log, one "== KERNEL__MIX" block each
#
# Environment: KERNELS (a bash regex on the kernel names), N (items of a 1-D
# launch, default 65536; 2-D: 256x256), and any NPLUS1_* knob of the runtime
# (docs/driver.md), e.g. NPLUS1_FIRST=classic to trace the old start.
set -uo pipefail
cd "$(dirname "$0")/.."
dest=$(realpath -m "${1:-/tmp/nplus1-first16}")
n=${N:-65536} w=256 h=256
tool=./build/tool/nplus1gen
mkdir -p "$dest"
[ -d "$dest/data" ] || python3 bench/real/gen_inputs.py "$dest/data" "$n" "$w" "$h" || exit 1
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$PWD/build/pocl-cache}
: >"$dest/trace.log"
while IFS=$'\t' read -r kernel mix global args; do
    case "$kernel" in ''|'#'*|kernel) continue ;; esac
    [[ "$kernel" =~ ${KERNELS:-.} ]] || continue
    t=$args
    t=${t//\{N2\}/$((n * 2))}; t=${t//\{N\}/$n}; t=${t//\{W\}/$w}; t=${t//\{H\}/$h}
    t=${t//\{D\}/$dest/data}
    g=$global
    g=${g//\{N\}/$n}; g=${g//\{W\}/$w}; g=${g//\{H\}/$h}
    argv=()
    for a in $t; do argv+=(--arg "$a"); done
    {
        echo "== ${kernel}__$mix"
        NPLUS1_TRACE_FIRST=1 "$tool" "bench/real/$kernel.cl" --global "$g" "${argv[@]}" \
            --validate --reps 16 2>&1 | grep -E '^auto-first16|auto |auto-first16 |error|PROBE'
    } >>"$dest/trace.log"
done <bench/real/kernels.tsv
echo "first16-trace: $dest/trace.log"
