#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Profiles every sample on a GPU machine through profile jobs (docs/cli.md,
# "Profile jobs"), on the inputs of docs/performance.md's "Predicted vs
# measured" (--global 65536, width 32; the *_job cases use the --arg recipes
# of scripts/gpu-samples-gen.sh, the H200 runs' inputs).
#
#   scripts/gpu-profile.sh gen [BUILD_DIR]   here (libclang): writes the jobs into
#                                            .carry/gpu-profile/jobs (git-ignored) and
#                                            this machine's reports (POCL) beside them
#   scripts/gpu-profile.sh run [JOBS_DIR]    there (OpenCL, no libclang): builds
#                                            nplus1gen-validate alone, runs every job,
#                                            writes NAME.txt, NAME.json and summary.txt
#                                            to $OUT (or ./gpu-profile-out); first it
#                                            calibrates the device (--calibrate, into
#                                            $OUT/cache, copied to $OUT) so that the
#                                            reports predict with its cost model
#
# run registers NVIDIA's OpenCL when its library is there and prefers the NVIDIA
# platform, as scripts/gpu-check.sh does. Exit 0 when every job printed its report.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
S=samples
cases=(
  "histogram|$S/histogram.cl --global 65536"
  "histogram_job|$S/histogram.cl --global 65536 --arg hist=size:64 --arg split=300"
  "image_classify|$S/image_classify.cl --global 65536"
  "image_classify_job|$S/image_classify.cl --global 256,256 --arg width=256"
  "mandelbrot|$S/mandelbrot.cl --global 65536"
  "multi_kernel|$S/multi_kernel.cl --global 65536"
  "oneKernel|$S/oneKernel.cl --global 65536"
  "option_payoffs|$S/option_payoffs.cl --global 65536"
  "option_payoffs_job|$S/option_payoffs.cl --global 65536 --arg n=65000 --arg paths=16
     --arg steps=8 --arg kind_bias=1 --arg seed=12345 --arg strike=0.5 --arg rate=0.03 --arg skip=3"
  "particles|$S/particles.cl --global 65536"
  "particles_job|$S/particles.cl --global 65536 --arg materials=size:8
     --arg gravity=0,-0.5,0,0 --arg dt=0.25"
  "prologue_epilogue|$S/prologue_epilogue.cl --global 65536 --arg out=size:131072"
  "reqd_wg_size|$S/reqd_wg_size.cl --global 65536 --local 64"
  "shade_materials|$S/shade_materials.cl --global 65536"
  "spectral_bands|$S/spectral_bands.cl -I $S/include -DBAND_COUNT=4 --global 65536"
  "volume3d|$S/volume3d.cl --global 65536"
)

gen() {
    local build=${1:-build} dir=.carry/gpu-profile
    rm -rf "$dir" && mkdir -p "$dir/jobs" "$dir/here"
    local n=0
    for c in "${cases[@]}"; do
        local name=${c%%|*} args
        read -r -d "" -a args <<<"${c#*|}" || true
        "$build/tool/nplus1gen" "${args[@]}" --profile --simd-width 32 \
            --emit-job "$dir/jobs/$name" >/dev/null
        "$build/tool/nplus1gen" "${args[@]}" --profile --simd-width 32 \
            --profile-json "$dir/here/$name.json" > "$dir/here/$name.txt" 2>&1 || true
        n=$((n + 1))
    done
    echo "gpu-profile: $n jobs in $dir/jobs (this machine's reports in $dir/here)"
}

build_runner() {
    . scripts/gpu-lib.sh
    gpu_register_nvidia
    if [ -n "${NPLUS1_VALIDATE:-}" ]; then
        return
    fi
    gpu_build nplus1gen-validate || return 1
    NPLUS1_VALIDATE=$PWD/build-gpu/nplus1gen-validate
}

run() {
    local jobs=${1:-.carry/gpu-profile/jobs} out=${OUT:-$PWD/gpu-profile-out} failed=0 n=0
    build_runner || return 1
    export NPLUS1_PLATFORM=${NPLUS1_PLATFORM:-NVIDIA}
    mkdir -p "$out"
    : > "$out/summary.txt"
    # the device's cost model first (runtime/calibrate.c): the reports' predictions use it
    export NPLUS1_CACHE_DIR=$out/cache
    "$NPLUS1_VALIDATE" --calibrate | tee "$out/calibration.txt" >> "$out/summary.txt" || true
    cp "$out"/cache/calibration-*.txt "$out/" 2>/dev/null || true
    for job in $(find "$jobs" -mindepth 1 -maxdepth 1 -type d | sort); do
        local name rc=0
        name=$(basename "$job")
        n=$((n + 1))
        timeout 300 "$NPLUS1_VALIDATE" "$job" --profile-json "$out/$name.json" \
            > "$out/$name.txt" 2>&1 || rc=$?
        [ "$rc" -eq 0 ] || failed=$((failed + 1))
        {
            echo "== $name (exit $rc)"
            grep -E '^profiling on|^kernel |predicted|^    (original|split|aggregated|tile|auto tries)' \
                "$out/$name.txt" || tail -3 "$out/$name.txt"
        } >> "$out/summary.txt"
    done
    echo "gpu-profile: $n jobs, $failed did not print a report" | tee -a "$out/summary.txt"
    [ "$failed" -eq 0 ] && [ "$n" -gt 0 ]
}

case "$mode" in
gen) shift; gen "$@" ;;
run) shift; run "$@" ;;
*) sed -n '2,16p' "$0" >&2; exit 2 ;;
esac
