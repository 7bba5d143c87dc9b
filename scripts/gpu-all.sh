#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Everything the GPU machine measures and validates, generated here and run
# there in one device call (docs/performance.md, docs/testing.md):
#
#   scripts/gpu-all.sh gen     here (libclang): the synthetic sweep's kernel sets
#                              (bench-gen.sh), the samples' jobs (gpu-samples-gen.sh),
#                              the real-shaped set (gpu-real.sh gen), every validation
#                              job (gpu-check.sh emit) and the samples' profile jobs
#                              (gpu-profile.sh gen), all under .carry/ (git-ignored)
#   scripts/gpu-all.sh run     there (OpenCL, no libclang): runs the steps named in
#                              STEPS (default: check profile real sweep samples) one
#                              after another and leaves in $OUT: summary.txt (one
#                              paragraph a step), the CSVs (bench.csv, samples.csv,
#                              real_wide.csv) and logs.tar.gz (every log and report)
#
# The device call carries .carry/bench-gen .carry/sample-jobs .carry/real
# .carry/gpu-check .carry/gpu-profile .carry/include (about 60 MB at 1M items,
# near the 64 MiB a call takes: gen also packs them into .carry/pack/gpu.tar.gz,
# 12 MB, to carry instead and unpack there with tar -xzf).
# One call may run 10 minutes: STEPS picks the steps of a call, e.g.
# STEPS="check profile" then STEPS="real sweep samples"; REAL_JOBS is passed to
# gpu-real.sh as JOBS (a regex on KERNEL__MIX__STRATEGY, e.g. '__auto$').
# SWEEP_ARGS replaces the sweep's nplus1bench arguments.
# Plots: bench/plot.py on bench.csv, here, after the files come back.
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}

gen() {
    ./scripts/build.sh -DNPLUS1_LLVM_ROOT=/usr/lib/llvm-14 >/dev/null || exit 1
    ./scripts/bench-gen.sh || exit 1
    ./scripts/gpu-samples-gen.sh >/dev/null || exit 1
    ./scripts/gpu-real.sh gen || exit 1
    ./scripts/gpu-check.sh emit build || exit 1
    ./scripts/gpu-profile.sh gen build || exit 1
    du -sh .carry/bench-gen .carry/sample-jobs .carry/real .carry/gpu-check \
           .carry/gpu-profile .carry/include
    mkdir -p .carry/pack
    tar -czf .carry/pack/gpu.tar.gz .carry/bench-gen .carry/sample-jobs .carry/real \
        .carry/gpu-check .carry/gpu-profile .carry/include && du -sh .carry/pack/gpu.tar.gz
}

# One step: its own output folder, its exit status and its time in summary.txt.
step() {
    local name=$1 start rc
    shift
    start=$(date +%s)
    mkdir -p "$work/$name"
    echo "== $name: $*" | tee -a "$OUT/summary.txt"
    OUT=$work/$name "$@" > "$work/$name/step.log" 2>&1
    rc=$?
    tail -n "${TAIL:-12}" "$work/$name/step.log" >> "$OUT/summary.txt"
    echo "== $name: exit $rc, $(( $(date +%s) - start )) s" | tee -a "$OUT/summary.txt"
    collect # after every step: a call cut off at its time limit keeps what ran
}

# The CSVs of the steps that ran, and one archive of every log and report.
collect() {
    local f
    for f in sweep/bench.csv samples/samples.csv real/real_wide.csv real/real.csv; do
        [ -f "$work/$f" ] && cp "$work/$f" "$OUT/"
    done
    tar -C "$work" -czf "$OUT/logs.tar.gz" . 2>/dev/null
}

run() {
    OUT=${OUT:-$PWD/gpu-all-out}
    mkdir -p "$OUT"
    work=$(mktemp -d)
    : > "$OUT/summary.txt"
    nvidia-smi -L >> "$OUT/summary.txt" 2>&1 || true
    for s in ${STEPS:-check profile real sweep samples}; do
        case $s in
        check) step check ./scripts/gpu-check.sh run .carry/gpu-check/jobs ;;
        profile) step profile ./scripts/gpu-profile.sh run .carry/gpu-profile/jobs ;;
        real) JOBS=${REAL_JOBS:-} step real ./scripts/gpu-real.sh run .carry/real ;;
        sweep) # shellcheck disable=SC2086
            step sweep ./scripts/gpu-bench.sh ${SWEEP_ARGS:---n 4194304 --iters 8,16,64,256 --reps 15} ;;
        samples) step samples ./scripts/gpu-samples.sh ;;
        *) echo "gpu-all: unknown step '$s'" | tee -a "$OUT/summary.txt" ;;
        esac
    done
    rm -rf "$work"
}

case $mode in
gen) gen ;;
run) run ;;
*) sed -n '2,22p' "$0"; exit 2 ;;
esac
