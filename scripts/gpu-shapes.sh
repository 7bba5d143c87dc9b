#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The state machine's shapes (tests/diff/machine, issue 28) at GPU scale: each
# kernel forced to its tile kernel under the tool's regroup policy, refill only
# (NPLUS1_LOOP_REGROUP=0) and regrouping off (-1), and under auto, validated and
# timed side by side by nplus1gen-validate --reps.
#
#   scripts/gpu-shapes.sh gen [DEST]   here (libclang): one job per kernel and variant
#                                      (--emit-job) in DEST (default .carry/shapes,
#                                      git-ignored), and each kernel's divergence
#                                      profile at 64K items on POCL in DEST/profile/
#   scripts/gpu-shapes.sh run [DEST]   there (OpenCL, no libclang): builds
#                                      nplus1gen-validate (build-shapes), runs every
#                                      job, writes shapes.log and one summary line per
#                                      job to $OUT (or DEST-out)
# Environment: N (items, default 1048576), REPS (default 10).
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
# file | global (N: the item count) | --arg values
KERNELS="decision_in_a_nested_block_of_the_loop_regroups|N|steps=6
decision_in_an_inner_loop_of_a_5x5_filter_is_cheap_against_a_round|W,W|w=W h=W
loop_below_a_branch_at_depth_2_regroups|N|mode=1 steps=5
decisions_in_and_after_the_loop_both_regroup|N|steps=4
two_loops_with_decisions_both_regroup|N|steps=4
costly_inner_decision_regroups_not_its_cheap_guard|N|steps=6
private_stack_too_large_to_move_runs_in_place|N|
pointer_to_private_variables_keeps_items_in_their_lanes|N|steps=5
union_in_the_state_moves_as_bytes|N|steps=5
union_decision_cheap_against_a_round_is_left_as_written|N|steps=5
pointer_to_private_variables_cheap_decision_is_left_as_written|N|steps=5
zero_point_refill_runs_a_private_stack_loop_in_its_lane|N|nnodes=255"

gen() {
    local dest=${1:-.carry/shapes} n=${N:-1048576} reps=${REPS:-10}
    local w
    w=$(python3 -c "import math; print(int(math.isqrt($n)))")
    ./scripts/build.sh >/dev/null || return 1
    rm -rf "$dest" && mkdir -p "$dest/jobs" "$dest/include" "$dest/profile"
    cp /usr/include/uthash.h "$dest/include/"
    local tool=./build/tool/nplus1gen line k global args a v
    while IFS='|' read -r k global args; do
        global=${global//N/$n}; global=${global//W/$w}; args=${args//W/$w}
        local -a argv=()
        for a in $args; do argv+=(--arg "$a"); done
        local pg=${global//$n/65536}; pg=${pg//$w/256}
        local pargs=${args//$w/256}; local -a pargv=()
        for a in $pargs; do pargv+=(--arg "$a"); done
        timeout 120 "$tool" "tests/diff/machine/$k.cl" --global "$pg" "${pargv[@]}" --profile \
            >"$dest/profile/$k.txt" 2>&1
        for v in tile tile-R0 tile-Roff auto; do
            local -a opts=(--split always --strategy tile)
            case $v in
                tile-R0) opts+=(-D NPLUS1_LOOP_REGROUP=0) ;;
                tile-Roff) opts+=(-D NPLUS1_LOOP_REGROUP=-1) ;;
                auto) opts=() ;;
            esac
            "$tool" "tests/diff/machine/$k.cl" --global "$global" "${argv[@]}" --validate \
                --reps "$reps" "${opts[@]}" --emit-job "$dest/jobs/${k}__$v" -q >/dev/null 2>&1 ||
                echo "gpu-shapes gen: no job for $k $v" >&2
        done
    done <<<"$KERNELS"
    echo "gpu-shapes gen: $(ls "$dest/jobs" | wc -l) jobs in $dest ($(du -sh "$dest" | cut -f1))"
}

run() {
    local dest=${1:-.carry/shapes} out=${OUT:-${1:-.carry/shapes}-out} j
    mkdir -p "$out"
    . scripts/gpu-lib.sh
    gpu_register_nvidia
    gpu_build nplus1gen-validate build-shapes "$dest/include" || return 1
    : >"$out/shapes.log"
    for j in "$dest"/jobs/*; do
        {
            echo "=== $(basename "$j")"
            NPLUS1_PLATFORM=${NPLUS1_PLATFORM:-NVIDIA} timeout 300 \
                build-shapes/nplus1gen-validate "$j" 2>&1
            echo "exit $?"
        } >>"$out/shapes.log"
    done
    grep -E '^===|^validation|x  |exit [0-9]' "$out/shapes.log" | head -400 >"$out/summary.txt"
    cat "$out/summary.txt"
}

case "$mode" in
    gen) shift; gen "$@" ;;
    run) shift; run "$@" ;;
    *) sed -n '2,16p' "$0"; exit 2 ;;
esac
