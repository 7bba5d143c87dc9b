#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Generates the benchmark's kernel sets here (where libclang is) into
# .carry/bench-gen, and copies uthash.h into .carry/include, for a machine
# that builds only the runtime and the bench (scripts/gpu-bench.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh >/dev/null
mkdir -p .carry/bench-gen .carry/include
for s in atomic aggregated ordered chunked tile; do
  ./build/tool/nplus1gen samples/oneKernel.cl -o .carry/bench-gen --stem "oneKernel_$s" \
      --strategy "$s" --split always -q
done
for k in 8 16 32 64 128 256; do  # --split auto decides per leaf cost, so one set per ITERS
  ./build/tool/nplus1gen samples/oneKernel.cl -o .carry/bench-gen --stem "oneKernel_auto_$k" \
      -DITERS=$k -q
done
cp /usr/include/uthash.h .carry/include/
echo "bench-gen: kernels in .carry/bench-gen"
