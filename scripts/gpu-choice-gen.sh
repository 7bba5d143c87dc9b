#!/usr/bin/env bash
# Prepares the measured-choice run for a GPU machine that has no libclang
# (scripts/gpu-choice.sh runs it there): generates the bench's kernel sets
# (auto sets of the default and of the chunked strategy too), and captures one
# --validate job per sample at 1M+ items, with --reps, for the default strategy
# and for chunked. A job is the description nplus1gen writes for
# nplus1gen-validate plus the files it names, caught by a stand-in runner
# (NPLUS1_VALIDATE_RUNNER) and copied to DEST/jobs/NAME with paths made
# relative (@ROOT@ is replaced there).
# usage: scripts/gpu-choice-gen.sh DEST [REPS]
set -euo pipefail
cd "$(dirname "$0")/.."
DEST=$(realpath -m "${1:?usage: $0 DEST [REPS]}")
REPS=${2:-21}
ROOT=$PWD
./scripts/build.sh >/dev/null
rm -rf "$DEST" && mkdir -p "$DEST/bench-gen" "$DEST/include" "$DEST/jobs"
G=./build/tool/nplus1gen
for s in atomic aggregated ordered chunked tile; do
  $G samples/oneKernel.cl -o "$DEST/bench-gen" --stem "oneKernel_$s" --strategy "$s" --split always -q
done
for k in 8 16 32 64 128 256; do
  $G samples/oneKernel.cl -o "$DEST/bench-gen" --stem "oneKernel_auto_$k" -DITERS=$k -q
done
cp /usr/include/uthash.h "$DEST/include/"
cp -r samples "$DEST/samples"
mkdir -p "$DEST/src" && cp -r runtime runner bench tool "$DEST/src/"

catcher=$(mktemp)
cat > "$catcher" <<'SH'
#!/usr/bin/env bash
# stands in for nplus1gen-validate: keeps the description and its two files
set -eu
d="$JOB_DIR"; mkdir -p "$d"
src=$(sed -n 's/^source //p' "$1"); orig=$(sed -n 's/^original //p' "$1")
cp "$src" "$d/source.cl"; cp "$orig" "$d/original.cl"
sed -e "s|^source .*|source @ROOT@/source.cl|" -e "s|^original .*|original @ROOT@/original.cl|" \
    -e "s|$ROOT_DIR/samples|@SAMPLES@|g" "$1" > "$d/job.txt"
echo "validation passed: captured"
SH
chmod +x "$catcher"
job() { # NAME SAMPLE ARGS...
  local name=$1; shift
  for st in default chunked; do
    local extra=()
    [ "$st" = chunked ] && extra=(--strategy chunked)
    JOB_DIR="$DEST/jobs/${name}_$st" ROOT_DIR="$ROOT" NPLUS1_VALIDATE_RUNNER="$catcher" \
      $G "$@" --validate --reps "$REPS" "${extra[@]}" >/dev/null
  done
}
M=1048576
job oneKernel samples/oneKernel.cl --global $M
job image_classify samples/image_classify.cl --global 1024,1024 --arg width=1024
job mandelbrot samples/mandelbrot.cl --global 1024,1024
job volume3d samples/volume3d.cl --global 128,128,64 --arg nx=128 --arg ny=128 --arg nz=64 --arg alpha=0.1
job prologue_epilogue samples/prologue_epilogue.cl --global $M --arg threshold=0.6 --arg mode=1 --arg out=size:$((2 * M))
job histogram samples/histogram.cl --global $M --arg hist=size:64 --arg split=300
job spectral_bands samples/spectral_bands.cl -I samples/include -DBAND_COUNT=4 -DHARMONICS=12 --global $M
job multi_kernel samples/multi_kernel.cl --global $M
job shade_materials samples/shade_materials.cl --global $M
job particles samples/particles.cl --global $M --arg materials=size:8 --arg gravity=0,-0.5,0,0 --arg dt=0.25
job option_payoffs samples/option_payoffs.cl --global $M --arg n=1000000 --arg paths=16 --arg steps=8 \
    --arg kind_bias=1 --arg seed=12345 --arg strike=0.5 --arg rate=0.03 --arg skip=3
job reqd_wg_size samples/reqd_wg_size.cl --global $M --local 64 --arg knee=1.0
rm -f "$catcher"
echo "gpu-choice-gen: $(ls "$DEST/jobs" | wc -l) jobs and the bench sets in $DEST"
