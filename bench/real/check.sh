#!/usr/bin/env bash
# What nplus1gen does today with each kernel of the real-shaped set: compares
# the verdict lines of `nplus1gen K.cl --check` (split or skipped, and the
# split policy) with bench/real/verdicts.expected. A change in the tool that
# changes a verdict (issue 18's loops will) shows here: update the file and
# docs/performance.md together.   usage: bench/real/check.sh NPLUS1GEN
set -uo pipefail
tool=${1:?usage: $0 NPLUS1GEN}
here=$(cd "$(dirname "$0")" && pwd)
got=$(for k in $(awk -F'\t' '!/^#/ && $1 != "kernel" {print $1}' "$here/kernels.tsv" | uniq); do
    "$tool" "$here/$k.cl" --check 2>/dev/null | grep -E '^kernel |^  split:|^  merged:' |
        sed "s|^|$k.cl: |"
done)
if ! diff -u "$here/verdicts.expected" <(echo "$got"); then
    echo "bench/real/check.sh: the verdicts changed (above: - expected, + now)"
    exit 1
fi
echo "bench/real/check.sh: $(echo "$got" | grep -c ': kernel ') kernels, verdicts as expected"
