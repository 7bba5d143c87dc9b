#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The main job, from a fresh clone: install what is missing, build, transform
# the bundled sample, build both versions on POCL, validate, and print the
# leaves with their bucket counts.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh -DNPLUS1_LLVM_ROOT=/usr/lib/llvm-14  # the libclang install-deps.sh installs
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$PWD/build/pocl-cache}
echo "== nplus1gen samples/oneKernel.cl -o out/oneKernel --report"
./build/tool/nplus1gen samples/oneKernel.cl -o out/oneKernel --report
echo "== the generated driver against the original kernel, on identical random inputs"
./build/samples/oneKernel_demo samples/oneKernel.cl 65536 3
