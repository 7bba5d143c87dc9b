#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs on the GPU machine: builds nplus1gen-validate from the runtime alone
# (no libclang there) and runs the sample jobs scripts/gpu-samples-gen.sh
# prepared, each validating and timing one sample under one strategy.
# Leaves samples.csv (case,strategy,original_ms,generated_ms,speedup,result)
# and samples.log in $OUT (or ./bench-out); where gpu-samples-gen.sh made profile jobs,
# the device's calibration, each sample's profile under it ($OUT/profile/CASE.json) and
# samples_predicted.csv: each carried candidate's predicted ratio beside the measured one
# (bench/samples_predicted.py).
# SAMPLE_JOBS: a bash regex on the job names CASE_STRATEGY (default: every job).
# TILE_POLICIES: e.g. "0 2": each tile job runs once per NPLUS1_TILE_REGROUP value
# (the tile kernel with contexts in place, or regrouped every round; the CSV's strategy
# reads tile:R0, tile:R2), each run timing the original beside it. "off" (regrouping off:
# every tile kernel is the kernel's own body, launched as the original) sets
# NPLUS1_LOOP_REGROUP=off too (tile:Roff).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/bench-out}
mkdir -p "$OUT"
root=$PWD
runner=$root/build-gpu/nplus1gen-validate
. scripts/gpu-lib.sh
gpu_register_nvidia
gpu_build nplus1gen-validate || exit 1
export NPLUS1_PLATFORM=${NPLUS1_PLATFORM:-NVIDIA}
echo "case,strategy,original_ms,generated_ms,speedup,result" >"$OUT/samples.csv"
one() { # job dir, name, strategy label; the environment as the caller set it
  local log t res
  log=$(timeout 120 "$runner" "$1" 2>&1)
  echo "== $2 $3"$'\n'"$log" >>"$OUT/samples.log"
  t=$(echo "$log" | sed -n 's/.*original \([0-9.]*\) ms, generated \([0-9.]*\) ms, speedup \([0-9.]*\)x.*/\1,\2,\3/p' | head -1)
  res=$(echo "$log" | grep -q "validation passed" && echo ok || echo FAILED)
  echo "$2,$3,${t:-,,},$res" | tee -a "$OUT/samples.csv"
}
for d in .carry/sample-jobs/*/; do
  job=$(basename "$d"); strat=${job##*_}; name=${job%_*}
  [[ $job =~ ${SAMPLE_JOBS:-.} ]] || continue
  [ "$strat" = profile ] && continue
  if [ "$strat" = tile ] && [ -n "${TILE_POLICIES:-}" ]; then
    for r in $TILE_POLICIES; do
      if [ "$r" = off ] || [ "$r" = -1 ]; then
        NPLUS1_TILE_REGROUP=off NPLUS1_LOOP_REGROUP=off one "$d" "$name" "tile:Roff"
      else
        NPLUS1_TILE_REGROUP=$r one "$d" "$name" "tile:R$r"
      fi
    done
  else
    one "$d" "$name" "$strat"
  fi
done
# The samples' profiles (gpu-samples-gen.sh's <case>_profile jobs), under this device's
# calibration (made first, into $OUT/cache), and their predictions beside the measured
# strategies: samples_predicted.csv (bench/samples_predicted.py).
profiles=$(find .carry/sample-jobs -mindepth 1 -maxdepth 1 -type d -name '*_profile' | sort)
if [ -n "$profiles" ]; then
  mkdir -p "$OUT/profile"
  NPLUS1_CACHE_DIR=$OUT/cache "$runner" --calibrate >"$OUT/calibration.txt" 2>&1 || true
  for d in $profiles; do
    job=$(basename "$d"); name=${job%_profile}
    [[ $job =~ ${SAMPLE_JOBS:-.} ]] || continue
    NPLUS1_CACHE_DIR=$OUT/cache timeout 300 "$runner" "$d" \
      --profile-json "$OUT/profile/$name.json" >"$OUT/profile/$name.txt" 2>&1 ||
      echo "gpu-samples: the profile of $name printed no report" >&2
  done
  python3 bench/samples_predicted.py "$OUT/samples.csv" "$OUT/profile" \
    >"$OUT/samples_predicted.csv" && tail -1 "$OUT/samples_predicted.csv"
fi
