#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/gpu-real.sh's parse_job: a validation log -> its CSV rows and result (ok,
# inconclusive, FAILED, in-place). Runs here, no device: the logs below are the shapes
# nplus1gen-validate prints.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
eval "$(sed -n '/^parse_job() {/,/^}/p' "$root/scripts/gpu-real.sh")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
side='  side by side (median wall; x = original / variant):
    original                  0.024 ms  1.00x
    tile+context              0.025 ms  0.99x  forced'
# in place: matched, the only failure --require-all-leaves' count
printf '%s\n' "kernel k: 65536 values compared, 0 mismatches" \
  "  leaves not counted: the tile kernel ran in place (regrouping off: NPLUS1_TILE_REGROUP or NPLUS1_LOOP_REGROUP -1), the kernel's own body" \
  "$side" "validation FAILED (--require-all-leaves): kernel k's leaves were not counted (its tile kernel ran in place)" >"$work/inplace"
out=$(parse_job k mix tile "$work/inplace")
[ "$(echo "$out" | wc -l)" = 2 ] || fail "in place: two rows expected, got: $out"
echo "$out" | grep -q '^k,mix,tile,tile+context,0.025,0.99x,forced,in-place$' || fail "in place: $out"
# a mismatch with the same line is FAILED
sed 's/0 mismatches/3 mismatches/' "$work/inplace" >"$work/mismatch"
parse_job k mix tile "$work/mismatch" | grep -q ',FAILED$' || fail "a mismatch must read FAILED"
# a second failure besides it is FAILED
{ cat "$work/inplace"; echo "validation FAILED: outputs differ"; } >"$work/two"
parse_job k mix tile "$work/two" | grep -q ',FAILED$' || fail "two failures must read FAILED"
# passed, inconclusive
printf '%s\n' "$side" "validation passed: the generated set matches the original" >"$work/ok"
parse_job k mix tile "$work/ok" | grep -q ',ok$' || fail "passed must read ok"
printf '%s\n' "$side" "validation inconclusive: no item of kernel k reached a leaf" >"$work/inc"
parse_job k mix tile "$work/inc" | grep -q ',inconclusive$' || fail "inconclusive"
# --reps' leaves-alone line (the split's leaf kernels alone): one row, its text in "how"
printf '%s\n' "$side" \
  "    leaves-alone              0.012 ms  2.00x  leaf kernels only (profiling events): the split's ceiling if classifying and regrouping cost nothing" \
  "validation passed: the generated set matches the original" >"$work/leaves"
parse_job k mix auto "$work/leaves" | grep -q "^k,mix,auto,leaves-alone,0.012,2.00x,leaf kernels only (profiling events): the split's ceiling if classifying and regrouping cost nothing,ok$" ||
  fail "leaves-alone: $(parse_job k mix auto "$work/leaves")"
echo "parse_job: in-place, FAILED, ok, inconclusive and leaves-alone rows as expected"
