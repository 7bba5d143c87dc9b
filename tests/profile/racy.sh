#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A mismatch that neither a second run of the original nor the race scan explains is
# a warning beside the report, exit 0, never exit 3 (issue 29: an original whose items
# race where its text does not show it). POCL runs the items of a kernel in one order,
# so a real race of that kind rarely shows here: the job's original.cl is edited to
# compute otherwise, a deterministic stand-in for the instrumented copy running the
# racing items in another order. (The unit test test_profile_replay checks the report's
# side of it and of the items a longer second run leaves out.)
#   racy.sh NPLUS1GEN
set -euo pipefail
tool=$1
runner=$(dirname "$tool")/nplus1gen-validate
dir=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$tool" "$dir/helpers.cl" -k alt_helper --profile --global 1024 --emit-job "$out/job" >/dev/null
sed -i 's/return heavy(x, 0.5f);/return heavy(x, 0.75f);/' "$out/job/original.cl"
grep -q 'heavy(x, 0.75f)' "$out/job/original.cl"
rc=0
"$runner" "$out/job" >"$out/report.txt" 2>"$out/err.txt" || rc=$?
cat "$out/err.txt" "$out/report.txt"
[ "$rc" = 0 ] || { echo "FAIL: exit $rc, want 0"; exit 1; }
grep -q "warning: kernel 'alt_helper': the instrumented run differs from the original in [0-9]* of 1024 values, and a second run of the original agrees with its first: its items may race" "$out/err.txt" || { echo "FAIL: no warning"; exit 1; }
grep -q "^kernel alt_helper: SIMT efficiency 0\.[0-9]* (width 32, 1024 items)" "$out/report.txt" || { echo "FAIL: no report"; exit 1; }
grep -q "^  instrumented run differs from the original in [0-9]* of 1024 values: possible race between items" "$out/report.txt" || { echo "FAIL: the report does not say it"; exit 1; }
grep -q "^  decision line 20 (if, data) in pick called at line 30" "$out/report.txt" || { echo "FAIL: no measurement"; exit 1; }
echo ok
