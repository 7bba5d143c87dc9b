#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what is missing, builds, and runs the whole test suite (ctest).
# Set NPLUS1_SANITIZE=1 to build and test under ASan + UBSan in build-asan/.
# Set NPLUS1_LLVM=N to build and test against libclang N (installed with
# install-deps.sh --llvm N; built in build-llvm<N>/ with -DNPLUS1_LLVM_ROOT).
# Without NPLUS1_LLVM the build uses libclang 14, the one install-deps.sh
# installs by default, even where newer ones are installed too.
# NPLUS1_CTEST_ARGS passes extra arguments to ctest (e.g. -E 'fuzzgen_200',
# or -L fast for the unit, golden and a few differential tests).
# NPLUS1_CMAKE_ARGS passes extra arguments to the configure step (.ci/run
# gives -DNPLUS1_WERROR=ON: warnings are errors in CI).
# NPLUS1_BUILD=NAME builds and tests in NAME/ with CMAKE_BUILD_TYPE=Release
# and the compiler $CC (.ci/run: a gcc and a clang Release build).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck disable=SC2206 # word splitting wanted: several -D arguments
extra=(${NPLUS1_CMAKE_ARGS:-})
if [ -n "${NPLUS1_BUILD:-}" ]; then
  ./scripts/install-deps.sh
  dir=$NPLUS1_BUILD
  BUILD_DIR=$dir ./scripts/build.sh -DNPLUS1_LLVM_ROOT=/usr/lib/llvm-14 \
    -DCMAKE_BUILD_TYPE=Release "${extra[@]}"
elif [ -n "${NPLUS1_LLVM:-}" ]; then
  ./scripts/install-deps.sh --llvm "$NPLUS1_LLVM"
  dir=build-llvm$NPLUS1_LLVM
  BUILD_DIR=$dir ./scripts/build.sh -DNPLUS1_LLVM_ROOT=/usr/lib/llvm-"$NPLUS1_LLVM" "${extra[@]}"
elif [ "${NPLUS1_SANITIZE:-0}" = 1 ]; then
  ./scripts/install-deps.sh
  BUILD_DIR=build-asan ./scripts/build.sh -DNPLUS1_SANITIZE=ON -DNPLUS1_LLVM_ROOT=/usr/lib/llvm-14 \
    "${extra[@]}"
  dir=build-asan
else
  ./scripts/install-deps.sh
  ./scripts/build.sh -DNPLUS1_LLVM_ROOT=/usr/lib/llvm-14 "${extra[@]}"
  dir=build
fi
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$PWD/$dir/pocl-cache}
mkdir -p "$POCL_CACHE_DIR"
cd "$dir"
if ctest --output-on-failure -j"$(nproc)" ${NPLUS1_CTEST_ARGS:-}; then
  exit 0
fi
# LeakSanitizer's stop-the-world tracer sometimes crashes at process exit
# ("Tracer caught signal 11 ... LeakSanitizer has encountered a fatal error",
# google/sanitizers#1353): a crash of the sanitizer after the test's own
# checks passed, never a leak report. Under the sanitizers only, and only when
# every failed test shows that signature, the failed tests run once more.
failed=Testing/Temporary/LastTestsFailed.log
# Prints the output LastTest.log holds for test $1.
test_output() {
  awk -v t="$1" '$0 ~ "^[0-9]+/[0-9]+ Testing: " t "$" {on = 1}
                 on {print} on && /^Test (Passed|Failed)\./ {exit}' Testing/Temporary/LastTest.log
}
if [ "${NPLUS1_SANITIZE:-0}" = 1 ] && [ -s "$failed" ]; then
  only_tracer=1
  while IFS=: read -r _ name; do
    out=$(test_output "$name") # not piped into grep -q: pipefail and SIGPIPE
    grep -q "LeakSanitizer has encountered a fatal error" <<< "$out" || only_tracer=0
  done < "$failed"
  if [ "$only_tracer" = 1 ]; then
    echo "test.sh: $(wc -l < "$failed") failure(s), each LeakSanitizer's tracer crash: running them again"
    exec ctest --output-on-failure --rerun-failed ${NPLUS1_CTEST_ARGS:-}
  fi
fi
exit 1
