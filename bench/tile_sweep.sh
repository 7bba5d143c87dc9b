#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Tile tuning on the GPU machine (after scripts/gpu-bench.sh built the bench):
# the tile strategy against the original and the oracle, for work-group sizes
# and items per work-item. usage: bench/tile_sweep.sh DIR "WG:IPT ..." [ITERS] [MODES]
set -uo pipefail
cd "$(dirname "$0")/.."
dir=$1; confs=$2; iters=${3:-8,64,256}; modes=${4:-random,coherent}
export NPLUS1_PLATFORM=${NPLUS1_PLATFORM:-NVIDIA} NPLUS1_BENCH_VARIANTS=oracle,tile
for c in $confs; do
  NPLUS1_BENCH_WG=${c%%:*} NPLUS1_TILE_IPT=${c##*:} ./build-gpu/bench/nplus1bench --dir "$dir" \
      --iters "$iters" --modes "$modes" --reps 11 2>&1 |
    awk -v c="$c $dir" '/^N=/{split($2,a,"=");split($3,b,"=");k=a[2]" "b[2]} /^  (original|oracle|tile) /{print c, k, $1, $2, $4, $5}'
done
