#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# expect.sh CODE REGEX CMD...: runs CMD, prints its output, and passes only
# when it exits CODE and its output (stdout and stderr) matches REGEX (grep -E).
# Used by the emitted-job test of tests/validate/CMakeLists.txt; a test of one nplus1gen
# run says the same in its own head (tests/kernel_test.py: EXPECT: exit N, OUTPUT: REGEX).
code=$1 regex=$2
shift 2
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -ne "$code" ]; then
    echo "expect.sh: exit $rc, expected $code" >&2
    exit 1
fi
if ! printf '%s\n' "$out" | grep -Eq -- "$regex"; then
    echo "expect.sh: output does not match: $regex" >&2
    exit 1
fi
