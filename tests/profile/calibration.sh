#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The device's calibration on POCL (runtime/calibrate.c): nplus1gen --calibrate
# writes it into the cache folder (NPLUS1_CACHE_DIR, a temporary one here);
# --report then names the file and its constants, --profile predicts with it
# (through the runner, which keeps its own choice cache), a set created by
# --validate reads it; a corrupt file is ignored with a note (the defaults
# again), a new --calibrate replaces it, and NPLUS1_CACHE=0 uses the defaults.
#   calibration.sh NPLUS1GEN
set -uo pipefail
tool=$1
dir=$(cd "$(dirname "$0")" && pwd)
sample=$dir/../../samples/oneKernel.cl
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export NPLUS1_CACHE=1 NPLUS1_CACHE_DIR=$out/cache
unset NPLUS1_CALIBRATION NPLUS1_CALIBRATION_DIR
fail=0
expect() { # expect OK SENTENCE
    if [ "$1" = 0 ]; then echo "PASS: $2"; else echo "FAIL: $2"; fail=1; fi
}

"$tool" --calibrate > "$out/cal.txt"
expect $? "nplus1gen --calibrate exits 0 on POCL"
file=$(ls "$out"/cache/calibration-*.txt 2>/dev/null | head -1)
[ -n "$file" ] && head -1 "$file" | grep -qx 'nplus1-calibration 1'
expect $? "it wrote calibration-<hash>.txt into NPLUS1_CACHE_DIR, a calibration file"
grep -qx "stored in $file (.* ms)" "$out/cal.txt"
expect $? "it says where it stored the calibration"
[ -z "$(ls "$out"/cache/*.tmp 2>/dev/null)" ]
expect $? "no temporary file is left beside it"

round=$(awk '$1 == "round" {printf "%.0f", $2}' "$file")
word=$(awk '$1 == "word" {printf "%.1f", $2}' "$file")
"$tool" "$sample" --report > "$out/report.txt"
tail -1 "$out/report.txt" | grep -qx "calibration: $file (.*); a regrouping round costs $round plus $word a context word (FMA-equivalents per item)"
expect $? "--report names the calibration and its constants (round $round, word $word)"

"$tool" "$dir/known.cl" --profile -k alternating --global 1024 > "$out/profile.txt"
grep -qx "  predicted for the candidates the generated set carries (calibration: $file):" "$out/profile.txt"
expect $? "--profile predicts with the calibration, read through the runner"

printf 'nplus1-calibration 1\ndevice x\nword oops\n' > "$file"
"$tool" "$sample" --report > "$out/report2.txt" 2> "$out/report2.err"
tail -1 "$out/report2.txt" | grep -qx "calibration: defaults (no calibration of a device in $out/cache: nplus1gen --calibrate measures one); a regrouping round costs 70 plus 16.0 a context word (FMA-equivalents per item)"
expect $? "a corrupt calibration is not trusted: --report says defaults"
grep -qx "nplus1gen: note: the calibration $file is ignored: a figure is missing or not a number (fma_ns)" "$out/report2.err"
expect $? "... and a note names the file and what is wrong"

"$tool" "$sample" --validate --global 4096 > "$out/validate.txt" 2> "$out/validate.err" || true
grep -q "nplus1rt: note: the calibration $file is ignored: a figure is missing or not a number" "$out/validate.err"
expect $? "a set created by --validate reads the calibration and ignores the corrupt one with a note"

"$tool" --calibrate > /dev/null && "$tool" "$sample" --report | tail -1 | grep -q "^calibration: $file ("
expect $? "a new --calibrate replaces the corrupt file, and --report uses it again"

NPLUS1_CACHE=0 "$tool" "$sample" --report | tail -1 | grep -qx "calibration: defaults (the cache is off: NPLUS1_CACHE=0); a regrouping round costs 70 plus 16.0 a context word (FMA-equivalents per item)"
expect $? "NPLUS1_CACHE=0: the defaults"

NPLUS1_CALIBRATION=$file NPLUS1_CACHE=0 "$tool" "$sample" --report | tail -1 | grep -q "^calibration: $file ("
expect $? "NPLUS1_CALIBRATION=FILE names a calibration whatever the cache"

"$tool" --calibrate "$sample" > /dev/null 2>&1 && rc=0 || rc=$?
[ "$rc" = 2 ]
expect $? "--calibrate with an input file is a usage error (exit 2)"
exit $fail
