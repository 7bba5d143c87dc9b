#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A profile job run elsewhere prints what --profile prints here: each case is
# profiled directly, then emitted (--profile --emit-job), the job moved to
# another folder and run there by nplus1gen-validate. The printed reports
# must be identical and the JSON identical but for "input" (the job keeps the
# file's name, not its path); the job must hold no path of this machine.
# The cases: known.cl (four kernels, one run), spectral_bands (a header of
# an -I folder, -D), a loop whose paths outgrow the first run's slots (the
# runner runs again with room for them), and a file: input.
#   job.sh NPLUS1GEN
set -euo pipefail
tool=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
runner=$(dirname "$tool")/nplus1gen-validate
dir=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$dir/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
head -c 16384 /dev/urandom > "$out/sel.bin"
cases=(
  "known|$dir/known.cl --global 4096 --arg sel=choice:0,1,2"
  "spectral|$root/samples/spectral_bands.cl -I $root/samples/include -DBAND_COUNT=4 --global 8192"
  "long_loop|$root/tests/lit/inputs/profile_long_loop.cl --global 4096"
  "file_input|$dir/known.cl -k three_ways --global 4096 --arg sel=file:$out/sel.bin"
)
bad=0
for c in "${cases[@]}"; do
    name=${c%%|*}
    read -r -a args <<<"${c#*|}"
    "$tool" "${args[@]}" --profile --profile-json "$out/$name.here.json" > "$out/$name.here.txt"
    "$tool" "${args[@]}" --profile --emit-job "$out/$name.job" > "$out/$name.emit.txt"
    grep -q "^wrote the profile job to $out/$name.job" "$out/$name.emit.txt"
    mkdir -p "$out/elsewhere"
    mv "$out/$name.job" "$out/elsewhere/$name"
    if grep -rq -e "$root" -e "$out" "$out/elsewhere/$name/job.desc"; then
        echo "FAIL $name: the job names a path of this machine"; bad=1
    fi
    (cd / && "$runner" "$out/elsewhere/$name" --profile-json "$out/$name.there.json") \
        > "$out/$name.there.txt"
    test -s "$out/$name.there.txt"
    test -s "$out/elsewhere/$name/profile.tree"
    if ! diff "$out/$name.here.txt" "$out/$name.there.txt"; then
        echo "FAIL $name: the reports differ"; bad=1
    fi
    if ! diff <(grep -v '"input"' "$out/$name.here.json") \
              <(grep -v '"input"' "$out/$name.there.json"); then
        echo "FAIL $name: the JSON differs"; bad=1
    fi
    # without --profile-json, the JSON goes into the job
    "$runner" "$out/elsewhere/$name" > /dev/null
    cmp -s "$out/$name.there.json" "$out/elsewhere/$name/profile.json" ||
        { echo "FAIL $name: profile.json in the job differs"; bad=1; }
    [ "$bad" = 0 ] && echo "ok $name: $(head -2 "$out/$name.there.txt" | tail -1)"
done
exit "$bad"
