#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs on the GPU machine (through the device tool): builds only the runtime
# and bench (no libclang there), registers NVIDIA's OpenCL, runs nplus1bench
# on the kernels generated here by scripts/bench-gen.sh, and leaves the CSV
# and the log in $OUT (or ./bench-out).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/bench-out}
mkdir -p "$OUT"
. scripts/gpu-lib.sh
gpu_register_nvidia
gpu_build nplus1bench
export NPLUS1_PLATFORM=${NPLUS1_PLATFORM:-NVIDIA}
./build-gpu/bench/nplus1bench --dir .carry/bench-gen --csv "$OUT/bench.csv" "$@" 2>&1 | tee "$OUT/bench.log"
