#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Configures and builds nplus1gen in ./build (or $BUILD_DIR). Extra arguments
# go to cmake's configure step, e.g. -DNPLUS1_SANITIZE=ON.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build "$BUILD_DIR" -j"$(nproc)"
