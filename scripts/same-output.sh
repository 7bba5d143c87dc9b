#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks that two nplus1gen binaries give byte-identical results over the
# project's kernels: stdout, stderr and exit status of --report, --check and
# -o (every file written), under the default options and under --strategy
# tile / ordered / chunked and --split always, and of --dump-ir. For structure changes that must
# not change behaviour (docs/testing.md).
#   scripts/same-output.sh OLD_BINARY NEW_BINARY [KERNEL.cl ...]
# Without kernels: samples/, tests/ and bench/real/ (every .cl, recursively).
# Prints one line per difference and a summary; exit 1 when any differs.
set -uo pipefail
old=$1 new=$2; shift 2
cd "$(dirname "$0")/.."
if [ $# -gt 0 ]; then files=("$@"); else
  mapfile -t files < <(find samples tests bench/real -name '*.cl' | sort)
fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
n=0 bad=0
run() { # run BIN TAG FILE ARGS...: output under $work/TAG
  local bin=$1 tag=$2 f=$3; shift 3
  rm -rf "$work/$tag"; mkdir -p "$work/$tag"
  (cd "$work/$tag" && "$bin" "$OLDPWD/$f" "$@" >stdout 2>stderr; echo $? >rc) 
  sed -i "s#$bin#BIN#g" "$work/$tag"/stdout "$work/$tag"/stderr
}
for f in "${files[@]}"; do
  for opts in "--report" "--check" "-o out" "-o out --strategy tile" "-o out --strategy ordered" \
              "-o out --strategy chunked" "-o out --split always" "--report --strategy tile" \
              "--check --strategy tile" "--dump-ir"; do
    # shellcheck disable=SC2086 # the options are words
    run "$old" a "$f" $opts; run "$new" b "$f" $opts
    n=$((n + 1))
    if ! diff -r "$work/a" "$work/b" >/dev/null; then
      bad=$((bad + 1)); echo "differs: $f $opts"
    fi
  done
done
echo "same-output: $((n - bad)) of $n runs byte-identical (${#files[@]} kernels)"
[ "$bad" = 0 ]
