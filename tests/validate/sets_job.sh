#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A job of several sets (--strategy atomic,tile --emit-job): one set broken by
# hand fails the job (exit 1) and is named, the other still passes on its own.
# usage: sets_job.sh NPLUS1GEN NPLUS1GEN_VALIDATE KERNEL WORK_DIR
set -eu
tool=$1 runner=$2 kernel=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
"$tool" "$kernel" --validate --global 4096 --strategy atomic,tile --emit-job "$work/job" -q
test -f "$work/job/set-atomic-auto.cl" && test -f "$work/job/set-tile-auto.cl"
test ! -e "$work/job/set.cl"
grep -q "^set atomic/auto set-atomic-auto.cl$" "$work/job/job.desc"
grep -q "^set tile/auto set-tile-auto.cl$" "$work/job/job.desc"
"$runner" "$work/job" > "$work/good.txt"
grep -q "^validation passed: the generated sets of all 2 strategy/dispatch pairs match" \
    "$work/good.txt"
# the tile set's leaf computes another value: that set, and only it, fails
sed -i 's/sin(a) \* 1\.5f/sin(a) * 2.5f/' "$work/job/set-tile-auto.cl"
grep -q "sin(a) \* 2\.5f" "$work/job/set-tile-auto.cl"
rc=0
"$runner" "$work/job" > "$work/bad.txt" || rc=$?
cat "$work/bad.txt"
test "$rc" -eq 1
grep -q "^validation passed for atomic/auto: the generated set matches the original$" \
    "$work/bad.txt"
grep -q "^validation FAILED for tile/auto: outputs differ$" "$work/bad.txt"
grep -q "^validation FAILED: 1 of the 2 sets did not pass: tile/auto (outputs differ)$" \
    "$work/bad.txt"
echo "a job of two sets: the broken one fails the job and is named: passed"
