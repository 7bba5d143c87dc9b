#!/usr/bin/env bash
# Runs on the GPU machine (through the device tool), from the root of the
# tree that carries C (default .carry/i11b, made by scripts/gpu-choice-gen.sh):
# builds the runtime, nplus1bench and nplus1gen-validate with cc (no CMake,
# no libclang), registers NVIDIA's OpenCL, runs every captured sample job
# (original, forced split, auto side by side) and the bench; logs and CSVs go
# to $OUT (or ./choice-out).
set -uo pipefail
C=${C:-.carry/i11b}
OUT=${OUT:-$PWD/choice-out}
mkdir -p "$OUT" /etc/OpenCL/vendors /tmp/nb
[ -f /usr/lib/libnvidia-opencl.so.1 ] && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
for f in "$C"/src/runtime/*.c; do
  cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$C/src/runtime" -I"$C/include" -c "$f" -o "/tmp/nb/$(basename "$f" .c).o" || exit 1
done
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$C/src/runtime" "$C/src/bench/nplus1bench.c" /tmp/nb/*.o \
   -lOpenCL -lm -lpthread -o /tmp/nb/nplus1bench || exit 1
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$C/src/runtime" -I"$C/src/runner" -I"$C/src/tool" \
   "$C"/src/runner/*.c "$C"/src/tool/{util,profile_replay,profile_job,profile_report}.c \
   /tmp/nb/*.o -lOpenCL -lm -lpthread -o /tmp/nb/nplus1gen-validate || exit 1
export NPLUS1_PLATFORM=${NPLUS1_PLATFORM:-NVIDIA}
for j in "$C"/jobs/*/; do
  j=${j%/}
  sed -e "s|@ROOT@|$PWD/$j|" -e "s|@SAMPLES@|$PWD/$C/samples|g" "$j/job.txt" > /tmp/nb/job.txt
  echo "== $(basename "$j")"
  timeout 120 /tmp/nb/nplus1gen-validate /tmp/nb/job.txt 2>&1
done | tee "$OUT/samples.log"
NPLUS1_BENCH_TRACE=${TRACE:-1} /tmp/nb/nplus1bench --dir "$C/bench-gen" --n 4194304 --iters "${ITERS:-8,16,32,64,128,256}" --reps 31 \
    --csv "$OUT/bench_4M.csv" 2>&1 | tee "$OUT/bench_4M.log"
/tmp/nb/nplus1bench --dir "$C/bench-gen" --n 1048576 --iters 8,64 --reps 31 \
    --csv "$OUT/bench_1M.csv" 2>&1 | tee "$OUT/bench_1M.log"
