#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the libFuzzer target fuzz/fuzz_frontend.c with clang-14 straight from
# the tool's sources (the project itself builds with gcc): ASan + UBSan +
# libFuzzer, into $OUT (default build-fuzz/). Then, for example:
#   build-fuzz/fuzz_frontend -max_total_time=600 -max_len=65536 \
#       build-fuzz/corpus fuzz/seeds   (see docs/testing.md)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-build-fuzz}
CC=${CC:-clang-14}
LLVM=${LLVM:-/usr/lib/llvm-14}
mkdir -p "$OUT/corpus"

# the built-in templates, as the CMake build embeds them
inputs=$(ls templates/*.tmpl | tr '\n' '|')
cmake -DOUTPUT="$OUT/templates_embedded.c" "-DINPUTS=${inputs%|}" -P cmake/embed_templates.cmake

version=$(sed -n 's/^project(nplus1gen VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
format=$(sed -n 's/^#define NPLUS1RT_FORMAT_VERSION \([0-9]*\).*/\1/p' runtime/nplus1rt.h)
# the stage libraries' sources (tool/CMakeLists.txt) and common/'s, less main.c and the
# commands (the fuzzer runs the front end through front_end_run)
srcs=$(ls tool/base/*.c tool/parse/*.c tool/analyze/*.c tool/plan/*.c tool/emit/*.c \
          tool/profile/profile_tree.c tool/profile/profile_emit.c tool/cli/report.c \
          common/util.c common/profile_replay.c common/profile_job.c common/profile_report.c \
          common/profile_loop.c)
incs=$(printf -- '-I%s ' tool/base tool/parse tool/analyze tool/plan tool/emit tool/profile tool/cli common)
"$CC" -std=c11 -g -O1 -fno-omit-frame-pointer \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -Wall -Wextra -Werror \
    -DNPLUS1_VERSION="\"$version\"" -D_POSIX_C_SOURCE=200809L \
    -DNPLUS1_FORMAT_VERSION="$format" $incs -Iruntime -I"$LLVM/include" \
    fuzz/fuzz_frontend.c $srcs "$OUT/templates_embedded.c" \
    -L"$LLVM/lib" -Wl,-rpath,"$LLVM/lib" -lclang \
    -o "$OUT/fuzz_frontend"

# the seed corpus: every sample kernel (and the fuzzgen regressions)
for f in samples/*.cl samples/*/*.cl tests/regressions/*.cl; do
    [ -f "$f" ] && cp "$f" "$OUT/corpus/seed_$(basename "$(dirname "$f")")_$(basename "$f")"
done
echo "built $OUT/fuzz_frontend; seed corpus in $OUT/corpus ($(ls "$OUT/corpus" | wc -l) files)"
