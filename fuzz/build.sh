#!/usr/bin/env bash
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
# nplus1front's sources (tool/CMakeLists.txt) and those of nplus1prof it links
srcs="diag.c parse.c analyze.c params.c plan.c auto_tile.c walk.c slice.c rules_slice.c context.c loop.c
      keep_in_leaf.c front_end.c emit.c loop_emit.c emit_kernel.c emit_driver.c emit_manifest.c
      text_edits.c safety_net.c syntax.c effects.c access.c opencl_builtins.c cursor_map.c
      big_stack.c cond_tree.c macro_deps.c legality.c rules.c divergence.c divergence_eval.c
      paths.c template.c report.c version.c tree.c reaching_defs.c cond_inputs.c
      profile_tree.c profile_emit.c profile_in.c
      util.c profile_replay.c profile_job.c profile_report.c"
"$CC" -std=c11 -g -O1 -fno-omit-frame-pointer \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -Wall -Wextra -Werror \
    -DNPLUS1_VERSION="\"$version\"" -D_POSIX_C_SOURCE=200809L \
    -DNPLUS1_FORMAT_VERSION="$format" -Itool -Iruntime -I"$LLVM/include" \
    fuzz/fuzz_frontend.c $(printf 'tool/%s ' $srcs) "$OUT/templates_embedded.c" \
    -L"$LLVM/lib" -Wl,-rpath,"$LLVM/lib" -lclang \
    -o "$OUT/fuzz_frontend"

# the seed corpus: every sample kernel (and the fuzzgen regressions)
for f in samples/*.cl samples/*/*.cl tests/regressions/*.cl; do
    [ -f "$f" ] && cp "$f" "$OUT/corpus/seed_$(basename "$(dirname "$f")")_$(basename "$f")"
done
echo "built $OUT/fuzz_frontend; seed corpus in $OUT/corpus ($(ls "$OUT/corpus" | wc -l) files)"
