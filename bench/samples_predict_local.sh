#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The samples' predictions made here (POCL), beside a GPU run's measured ratios: each
# sample profiled with --profile on the inputs of scripts/gpu-samples-gen.sh under a
# device's calibration, then bench/samples_predicted.py pairs each carried candidate's
# predicted ratio with the measured one.
#   bench/samples_predict_local.sh [--items N] [--measured CSV] [--out DIR] [--cases REGEX]
# --items: 4194304 (default: the GPU run's launch, exactly gpu-samples-gen.sh's arguments),
#   or fewer (1048576, 262144...): the 1-D samples launch N items, the 2-D ones sqrt(N)
#   a side, volume3d cbrt(N); the inputs are drawn the same way, so the path mix is the
#   same (the launch gaps weigh more per item at fewer items).
# --measured: the GPU's samples.csv (default docs/perf/h200_s7_samples.csv).
# NPLUS1_CALIBRATION: the device's constants (default docs/perf/h200_calibration.txt);
# NPLUS1_TILE_IPT=4 (an H200's tile) unless set. Writes DIR/CASE.json, DIR/CASE.txt and
# DIR/predicted.csv (default DIR: a temporary folder), and prints predicted.csv.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
tool=${NPLUS1GEN:-$root/build/tool/nplus1gen}
items=4194304 measured=$root/docs/perf/h200_s7_samples.csv out="" only=.
while [ $# -gt 0 ]; do
    case "$1" in
    --items) items=$2; shift 2 ;;
    --measured) measured=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --cases) only=$2; shift 2 ;;
    *) echo "samples_predict_local: unknown option $1" >&2; exit 2 ;;
    esac
done
[ -x "$tool" ] || { echo "samples_predict_local: no $tool (build first)" >&2; exit 2; }
[ -n "$out" ] || out=$(mktemp -d)
mkdir -p "$out"
export NPLUS1_CALIBRATION=${NPLUS1_CALIBRATION:-$root/docs/perf/h200_calibration.txt}
export NPLUS1_TILE_IPT=${NPLUS1_TILE_IPT:-4} NPLUS1_CACHE=0
N=$items
side=$(python3 -c "import math; print(int(round(math.sqrt($N))))")
cube=$(python3 -c "print(int(round($N ** (1 / 3))))")
[ "$N" = 4194304 ] && cube=160
guard=$((N - N * 4304 / 4194304)) # option_payoffs: n=4190000 of 4194304
S=samples
cases=(
  "oneKernel|$S/oneKernel.cl --global $N"
  "shade_materials|$S/shade_materials.cl --global $N"
  "particles|$S/particles.cl --global $N --arg materials=size:8 --arg gravity=0,-0.5,0,0 --arg dt=0.25"
  "image_classify|$S/image_classify.cl --global $side,$side --arg width=$side"
  "option_payoffs|$S/option_payoffs.cl --global $N --arg n=$guard --arg paths=16 --arg steps=8 --arg kind_bias=1 --arg seed=12345 --arg strike=0.5 --arg rate=0.03 --arg skip=3"
  "mandelbrot|$S/mandelbrot.cl --global $side,$side"
  "volume3d|$S/volume3d.cl --global $cube,$cube,$cube --offset 2,3,1 --arg nx=$((cube + 2)) --arg ny=$((cube + 3)) --arg nz=$((cube + 1)) --arg alpha=0.1"
  "prologue_epilogue|$S/prologue_epilogue.cl --global $N --arg threshold=0.6 --arg mode=1 --arg out=size:$((2 * N))"
  "histogram|$S/histogram.cl --global $N --arg hist=size:64 --arg split=300"
  "spectral_bands|$S/spectral_bands.cl -I $S/include -DBAND_COUNT=4 -DHARMONICS=12 --global $N"
  "multi_kernel|$S/multi_kernel.cl -k quantize --global $N"
  "reqd_wg_size|$S/reqd_wg_size.cl --global $N --local 64 --arg knee=1.0"
)
for c in "${cases[@]}"; do
    name=${c%%|*} args=${c#*|}
    [[ $name =~ $only ]] || continue
    # shellcheck disable=SC2086
    nice "$tool" $args --profile --profile-json "$out/$name.json" >"$out/$name.txt" 2>&1 ||
        echo "samples_predict_local: the profile of $name failed ($out/$name.txt)" >&2
done
python3 bench/samples_predicted.py "$measured" "$out" >"$out/predicted.csv"
cat "$out/predicted.csv"
