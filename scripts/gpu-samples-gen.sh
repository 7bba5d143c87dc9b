#!/usr/bin/env bash
# Prepares, here (where libclang is), the samples' validation jobs at GPU
# scale (4M items) under every strategy: nplus1gen --validate --reps runs with
# a runner that keeps the job (description, generated source, original)
# instead of running it. scripts/gpu-bench.sh --samples runs them on the GPU
# machine with nplus1gen-validate. Jobs go to .carry/sample-jobs/<case>_<strategy>/.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh >/dev/null
root=$PWD
out=.carry/sample-jobs
rm -rf "$out" && mkdir -p "$out"
keep=$(mktemp)
cat >"$keep" <<'KEEP'
#!/usr/bin/env bash
# A stand-in for nplus1gen-validate: copies the job into $NPLUS1_KEEP_JOB.
set -e
d=$NPLUS1_KEEP_JOB; mkdir -p "$d"
src=$(sed -n 's/^source //p' "$1"); orig=$(sed -n 's/^original //p' "$1")
cp "$src" "$d/generated.cl"; cp "$orig" "$d/original.cl"
sed -e "s#^source .*#source generated.cl#" -e "s#^original .*#original original.cl#" \
    -e "s#$NPLUS1_KEEP_ROOT/##g" -e 's/^\(check [0-9]* [0-9]* [0-9]*\) 1$/\1 0/' "$1" >"$d/job.txt"
echo "validation passed: the generated set matches the original"
KEEP
chmod +x "$keep"
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
    NPLUS1_VALIDATE_RUNNER=$keep NPLUS1_KEEP_JOB=$root/$out/${name}_$s NPLUS1_KEEP_ROOT=$root \
      ./build/tool/nplus1gen $args --validate --reps 9 --split always --strategy "$s" -q >/dev/null
  done
done
rm -f "$keep"
echo "gpu-samples-gen: $(ls "$out" | wc -l) jobs in $out"
