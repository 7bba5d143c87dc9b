#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Prepares, here (where libclang is), the samples' validation jobs at GPU
# scale (4M items) under every strategy, with nplus1gen --validate --reps
# --emit-job (docs/cli.md, "Validating on another machine"). scripts/gpu-bench.sh --samples runs them on the GPU
# machine with nplus1gen-validate. Jobs go to .carry/sample-jobs/<case>_<strategy>/, and
# each sample's profile job (--profile, same inputs and launch) to <case>_profile/.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh -DNPLUS1_LLVM_ROOT=/usr/lib/llvm-14 >/dev/null
root=$PWD
out=.carry/sample-jobs
rm -rf "$out" && mkdir -p "$out"
S=samples
cases=(
  "oneKernel|$S/oneKernel.cl --global 4194304"
  "shade_materials|$S/shade_materials.cl --global 4194304"
  "particles|$S/particles.cl --global 4194304 --arg materials=size:8 --arg gravity=0,-0.5,0,0 --arg dt=0.25"
  "image_classify|$S/image_classify.cl --global 2048,2048 --arg width=2048"
  "option_payoffs|$S/option_payoffs.cl --global 4194304 --arg n=4190000 --arg paths=16 --arg steps=8 --arg kind_bias=1 --arg seed=12345 --arg strike=0.5 --arg rate=0.03 --arg skip=3"
  "mandelbrot|$S/mandelbrot.cl --global 2048,2048"
  "volume3d|$S/volume3d.cl --global 160,160,160 --offset 2,3,1 --arg nx=162 --arg ny=163 --arg nz=161 --arg alpha=0.1"
  "prologue_epilogue|$S/prologue_epilogue.cl --global 4194304 --arg threshold=0.6 --arg mode=1 --arg out=size:8388608"
  "histogram|$S/histogram.cl --global 4194304 --arg hist=size:64 --arg split=300"
  "spectral_bands|$S/spectral_bands.cl -I $S/include -DBAND_COUNT=4 -DHARMONICS=12 --global 4194304"
  "multi_kernel|$S/multi_kernel.cl -k quantize --global 4194304"
  "reqd_wg_size|$S/reqd_wg_size.cl --global 4194304 --local 64 --arg knee=1.0"
)
for c in "${cases[@]}"; do
  name=${c%%|*}; args=${c#*|}
  for s in atomic aggregated ordered chunked tile; do
    # shellcheck disable=SC2086
    ./build/tool/nplus1gen $args --validate --reps 9 --split always --strategy "$s" -q \
      --emit-job "$out/${name}_$s" >/dev/null
  done
  # its profile on the same inputs and launch: gpu-samples.sh runs it on the GPU, under
  # the GPU's calibration, for the predictions beside the measured strategies
  # shellcheck disable=SC2086
  ./build/tool/nplus1gen $args --profile --emit-job "$out/${name}_profile" >/dev/null ||
    echo "gpu-samples-gen: no profile job for $name" >&2
done
echo "gpu-samples-gen: $(ls "$out" | wc -l) jobs in $out"
