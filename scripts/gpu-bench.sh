#!/usr/bin/env bash
# Runs on the GPU machine (through the device tool): builds only the runtime
# and bench (no libclang there), registers NVIDIA's OpenCL, runs nplus1bench
# on the kernels generated here by scripts/bench-gen.sh, and leaves the CSV
# and the log in $OUT (or ./bench-out).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/bench-out}
mkdir -p "$OUT" /etc/OpenCL/vendors
[ -f /usr/lib/libnvidia-opencl.so.1 ] && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
cmake -S . -B build-gpu -DNPLUS1_BUILD_TOOL=OFF -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_C_FLAGS="-I$PWD/.carry/include" >/dev/null
cmake --build build-gpu -j 16 --target nplus1bench >/dev/null
export NPLUS1_PLATFORM=${NPLUS1_PLATFORM:-NVIDIA}
./build-gpu/bench/nplus1bench --dir .carry/bench-gen --csv "$OUT/bench.csv" "$@" 2>&1 | tee "$OUT/bench.log"
