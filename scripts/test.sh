#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite (ctest).
# Set NPLUS1_SANITIZE=1 to build and test under ASan + UBSan in build-asan/.
# NPLUS1_CTEST_ARGS passes extra arguments to ctest (e.g. -E 'fuzzgen_200').
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
if [ "${NPLUS1_SANITIZE:-0}" = 1 ]; then
  BUILD_DIR=build-asan ./scripts/build.sh -DNPLUS1_SANITIZE=ON
  dir=build-asan
else
  ./scripts/build.sh
  dir=build
fi
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$PWD/$dir/pocl-cache}
mkdir -p "$POCL_CACHE_DIR"
cd "$dir" && ctest --output-on-failure -j"$(nproc)" ${NPLUS1_CTEST_ARGS:-}
