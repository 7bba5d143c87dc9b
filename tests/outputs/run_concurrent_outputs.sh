#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Two nplus1gen runs at once into one output folder with one stem must leave
# one run's set: the .cl, _nplus1.h, _nplus1.c, .json and depfile all from
# the same run, and the driver compiles. Two kernels, kalpha and kbeta, both
# in a file named k.cl (in two folders), race PAIRS times.
#
# usage: run_concurrent_outputs.sh --tool NPLUS1GEN --include DIR --work-dir DIR
#                                  [--cc CC] [--pairs N]
set -euo pipefail

tool="" inc="" work="" cc=cc pairs=40
while [ $# -gt 0 ]; do
  case "$1" in
    --tool) tool=$2 ;;
    --include) inc=$2 ;;
    --work-dir) work=$2 ;;
    --cc) cc=$2 ;;
    --pairs) pairs=$2 ;;
    *) echo "run_concurrent_outputs.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift 2
done
[ -n "$tool" ] && [ -n "$inc" ] && [ -n "$work" ] || {
  echo "usage: run_concurrent_outputs.sh --tool T --include DIR --work-dir DIR [--cc CC] [--pairs N]" >&2
  exit 2
}

rm -rf "$work"
mkdir -p "$work/alpha" "$work/beta" "$work/out"
kernel() { # NAME: a two-leaf kernel called NAME
  cat <<K
__kernel void $1(__global const int *in, __global float *out)
{
    int gid = get_global_id(0);
    int v = in[gid];
    if (v % 4 == 3)
        out[gid] = (float)v * 2.0f;
    else
        out[gid] = (float)v + 1.0f;
}
K
}
kernel kalpha >"$work/alpha/k.cl"
kernel kbeta >"$work/beta/k.cl"

out=$work/out
files=("$out/k.nplus1.cl" "$out/k_nplus1.h" "$out/k_nplus1.c" "$out/k.nplus1.json" "$out/k.d")

# Which run wrote FILE: alpha, beta, both or none (by the kernel's name, or
# for the depfile the input's folder).
owner() {
  local a=0 b=0
  grep -Eq "kalpha|$work/alpha/k.cl" "$1" && a=1
  grep -Eq "kbeta|$work/beta/k.cl" "$1" && b=1
  case "$a$b" in 10) echo alpha ;; 01) echo beta ;; 11) echo both ;; *) echo none ;; esac
}

mixed=0 uncompiled=0
for ((i = 1; i <= pairs; i++)); do
  "$tool" "$work/alpha/k.cl" -o "$out" --depfile "$out/k.d" -q &
  pa=$!
  "$tool" "$work/beta/k.cl" -o "$out" --depfile "$out/k.d" -q &
  pb=$!
  wait "$pa" || { echo "FAIL: pair $i: the kalpha run failed" >&2; exit 1; }
  wait "$pb" || { echo "FAIL: pair $i: the kbeta run failed" >&2; exit 1; }
  owners=()
  for f in "${files[@]}"; do
    owners+=("$(owner "$f")")
  done
  if [ "$(printf '%s\n' "${owners[@]}" | sort -u | wc -l)" != 1 ] ||
     [ "${owners[0]}" = both ] || [ "${owners[0]}" = none ]; then
    mixed=$((mixed + 1))
    echo "pair $i: mixed set: .cl ${owners[0]}, .h ${owners[1]}, .c ${owners[2]}," \
         ".json ${owners[3]}, .d ${owners[4]}"
  fi
  if ! "$cc" -std=c11 -c -I"$inc" -I"$out" "$out/k_nplus1.c" -o "$work/k_nplus1.o" \
       2>"$work/cc.log"; then
    uncompiled=$((uncompiled + 1))
    echo "pair $i: the driver does not compile: $(head -n1 "$work/cc.log")"
  fi
  leftovers=$(find "$out" -name '.*' -type f | wc -l)
  [ "$leftovers" = 0 ] || { echo "FAIL: pair $i left hidden files: $(ls -A "$out")" >&2; exit 1; }
done
echo "$pairs pairs: $mixed mixed sets, $uncompiled drivers that do not compile"
[ "$mixed" = 0 ] && [ "$uncompiled" = 0 ] || { echo FAIL >&2; exit 1; }
echo PASS
