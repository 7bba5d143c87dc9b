#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The real-shaped set (bench/real, docs/performance.md): every kernel and
# input mix of bench/real/kernels.tsv under every strategy forced and under
# auto, validated and timed side by side by nplus1gen-validate --reps.
#
#   scripts/gpu-real.sh gen [--small] [DEST]  here (libclang): the tool's verdict per
#                                    kernel, the file: inputs, and one job per kernel,
#                                    mix and strategy (--emit-job) in DEST
#                                    (default .carry/real, git-ignored); --small: 64K
#                                    items (256x256) instead of 1M (1024x1024); and
#                                    each kernel and mix's divergence profile on the
#                                    same inputs (--profile --profile-json, here on
#                                    POCL: the recording does not depend on the device
#                                    where control flow depends only on the inputs)
#                                    in DEST/profile/KERNEL__MIX.json
#   scripts/gpu-real.sh run [DEST]   there (OpenCL, no libclang): builds
#                                    nplus1gen-validate without the tool (CMake,
#                                    -DNPLUS1_BUILD_TOOL=OFF, in build-real),
#                                    runs every job one after another, writes real.csv
#                                    (one row per variant timed), real_wide.csv (with
#                                    the profile's predicted speed-up bounds beside the
#                                    measured split, tile and auto), real.log
#                                    and verdicts.txt to $OUT (or .carry/real-out)
#
# Each row's result: ok, inconclusive, FAILED, or in-place (matched, and the tile kernel ran
# the kernel's own body, regrouping off, so --require-all-leaves had no leaves to count).
# Jobs: atomic, aggregated, ordered, chunked and tile with --split always, and
# auto (no --split, no --strategy: the default set as a user gets it). Each
# prints the original, its split forced, every other candidate the set
# carries forced, and auto with what it chose. A kernel the tool does not
# split (today: decisions only inside loops) gets no job; gen lists it in
# DEST/skipped.txt with the tool's reason, and run copies that list into the
# CSV, so the set measures it as soon as the tool splits it.
# Environment: STRATEGIES (gen: the jobs' strategies, default every one and auto), REPS (gen, default 9), PROFILE_TIMEOUT (gen: seconds for one
# profile here on the CPU, default 120; a profile that takes longer is left out),
# PROFILE_TILE_IPT (gen: items a work-item in the tiles the profiles replay, default 4:
# the H200's and H100's, 48 KiB of local memory at 256; runtime/set.c, tile_ipt_for), KERNELS (gen: a bash regex on the kernel names,
# e.g. '^shade_switch$', to try a few), NPLUS1GEN (gen: the tool to run, default
# ./build/tool/nplus1gen: another build's, to measure two versions side by side), PART=K/M (run: only every M-th job from
# the K-th, 1-based, to spread the set over several device calls), JOBS (run: a
# bash regex on the job names KERNEL__MIX__STRATEGY, e.g. '__auto$'), NPLUS1_PLATFORM
# (run, default NVIDIA), JOB_TIMEOUT (run, seconds per job, default 120).
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
STRATEGIES=${STRATEGIES:-atomic aggregated ordered chunked tile auto}

gen() {
    local small=0
    if [ "${1:-}" = --small ]; then small=1; shift; fi
    local dest=${1:-.carry/real} n=1048576 w=1024 h=1024
    [ "$small" = 1 ] && n=65536 w=256 h=256
    ./scripts/build.sh >/dev/null || return 1
    dest=$(realpath -m "$dest")
    rm -rf "$dest" && mkdir -p "$dest/jobs" "$dest/store" "$dest/include" "$dest/report" \
        "$dest/profile"
    cp /usr/include/uthash.h "$dest/include/"
    python3 bench/real/gen_inputs.py "$dest/data" "$n" "$w" "$h" || return 1
    local tool=${NPLUS1GEN:-./build/tool/nplus1gen} reps=${REPS:-9} k
    : >"$dest/skipped.txt"
    : >"$dest/verdicts.txt"
    for k in $(awk -F'\t' '!/^#/ && NR > 1 && $1 != "kernel" {print $1}' bench/real/kernels.tsv |
               uniq); do
        [[ "$k" =~ ${KERNELS:-.} ]] || continue
        { "$tool" "bench/real/$k.cl" --check 2>&1 | sed "s/^/$k: /"; } >>"$dest/verdicts.txt"
        "$tool" "bench/real/$k.cl" --report >"$dest/report/$k.txt" 2>&1
    done
    local kernel mix global args
    while IFS=$'\t' read -r kernel mix global args; do
        case "$kernel" in ''|'#'*|kernel) continue ;; esac
        [[ "$kernel" =~ ${KERNELS:-.} ]] || continue
        global=$(subst "$global" "$n" "$w" "$h" "$dest/data")
        args=$(subst "$args" "$n" "$w" "$h" "$dest/data")
        local a s opts job out
        local -a argv=()
        for a in $args; do argv+=(--arg "$a"); done
        # the prediction, on the job's inputs (same --global, --arg, seed), with the GPU's
        # tile: the tile and loop kernels' replays group the recorded items by it
        NPLUS1_TILE_IPT=${PROFILE_TILE_IPT:-4} timeout "${PROFILE_TIMEOUT:-120}" \
            "$tool" "bench/real/$kernel.cl" --global "$global" "${argv[@]}" --profile \
            --profile-json "$dest/profile/${kernel}__$mix.json" \
            >"$dest/profile/${kernel}__$mix.txt" 2>&1 || rm -f "$dest/profile/${kernel}__$mix.json"
        for s in $STRATEGIES; do
            opts=(--split always --strategy "$s")
            [ "$s" = auto ] && opts=()
            job="$dest/jobs/${kernel}__${mix}__$s"
            if ! out=$("$tool" "bench/real/$kernel.cl" --global "$global" "${argv[@]}" \
                       --validate --reps "$reps" --require-all-leaves "${opts[@]}" \
                       --emit-job "$job" -q 2>&1); then
                printf '%s\t%s\t%s\t%s\n' "$kernel" "$mix" "$s" \
                    "$(echo "$out" | grep -m1 'error:' | sed 's/.*error: //')" >>"$dest/skipped.txt"
                rm -rf "$job"
                continue
            fi
            dedup_inputs "$job" "$dest/store"
        done
    done <bench/real/kernels.tsv
    rm -rf "$dest/data" # the jobs read their inputs from the store: carry each file once
    echo "gpu-real gen: $(find "$dest/jobs" -mindepth 1 -maxdepth 1 | wc -l) jobs in $dest," \
         "$(cut -f1,2 "$dest/skipped.txt" | sort -u | wc -l) kernel/mix rows without one" \
         "($(du -sh "$dest" | cut -f1))"
}

# {N} {N2} {W} {H} {D} of kernels.tsv.
subst() {
    local t=$1
    t=${t//\{N2\}/$(($2 * 2))}
    t=${t//\{N\}/$2}
    t=${t//\{W\}/$3}
    t=${t//\{H\}/$4}
    echo "${t//\{D\}/$5}"
}

# A job's file: inputs move to one store (by content), so the carried folder
# holds each once; run links them back.
dedup_inputs() {
    local job=$1 store=$2 f sum
    [ -d "$job/inputs" ] || return 0
    for f in "$job"/inputs/*; do
        sum=$(sha1sum "$f" | cut -c1-20)
        [ -f "$store/$sum" ] || mv "$f" "$store/$sum"
        rm -f "$f"
        echo "$(basename "$f") $sum" >>"$job/inputs.links"
    done
}

build_runner() {
    local dest=$1
    . scripts/gpu-lib.sh
    gpu_register_nvidia
    if [ -n "${NPLUS1_VALIDATE:-}" ]; then
        return 0
    fi
    gpu_build nplus1gen-validate build-real "$dest/include" || return 1
    NPLUS1_VALIDATE=$PWD/build-real/nplus1gen-validate
}

# One job's log -> CSV rows: kernel,mix,job,variant,ms,x,how,result
parse_job() {
    local kernel=$1 mix=$2 job=$3 log=$4 result
    if grep -q '^validation passed' "$log"; then
        result=ok
    elif grep -q '^validation FAILED (--require-all-leaves): .*(its tile kernel ran in place)$' \
            "$log" && ! grep -q 'values compared, [1-9][0-9]* mismatch' "$log" &&
         [ "$(grep -c '^validation FAILED' "$log")" = 1 ]; then
        result=in-place # matched; the tile kernel ran the kernel's own body (no leaves to count)
    elif grep -q '^validation inconclusive' "$log"; then
        result=inconclusive
    else
        result=FAILED
    fi
    awk -v pre="$kernel,$mix,$job" -v res="$result" '
        /side by side/ { on = 1; next }
        on && $3 == "ms" { # "original T ms 1.00x" or "NAME T ms X forced|chose WHAT"
            how = $5
            for (i = 6; i <= NF; i++)
                how = how " " $i
            printf "%s,%s,%s,%s,%s,%s\n", pre, $1, $2, $4, how, res
            rows++
            next
        }
        on { on = 0 }
        END { if (!rows) printf "%s,,,,,%s\n", pre, res }' "$log"
}

run() {
    local dest=${1:-.carry/real}
    local out=${OUT:-$PWD/.carry/real-out} part=${PART:-1/1}
    local k=${part%/*} m=${part#*/} i=0 j name kernel mix s
    build_runner "$dest" || return 1
    export NPLUS1_PLATFORM=${NPLUS1_PLATFORM:-NVIDIA}
    mkdir -p "$out" && : >"$out/real.log"
    echo "kernel,mix,job,variant,ms,x,how,result" >"$out/real.csv"
    for j in "$dest"/jobs/*/; do
        j=${j%/}
        name=$(basename "$j")
        [[ "$name" =~ ${JOBS:-.} ]] || continue
        i=$((i + 1))
        [ $(((i - k) % m)) -eq 0 ] || continue
        kernel=${name%%__*}; s=${name##*__}; mix=${name#*__}; mix=${mix%__*}
        if [ -f "$j/inputs.links" ]; then
            mkdir -p "$j/inputs"
            while read -r f sum; do
                ln -sfn "$(realpath "$dest/store/$sum")" "$j/inputs/$f"
            done <"$j/inputs.links"
        fi
        timeout "${JOB_TIMEOUT:-120}" "$NPLUS1_VALIDATE" "$j" >"$out/job.txt" 2>&1
        { echo "== $name"; cat "$out/job.txt"; } >>"$out/real.log"
        parse_job "$kernel" "$mix" "$s" "$out/job.txt" | tee -a "$out/real.csv"
    done
    rm -f "$out/job.txt"
    # the rows the tool does not split today: in the CSV with the reason
    awk -F'\t' '{ gsub(/,/, ";", $4); printf "%s,%s,%s,,,,not split: %s,\n", $1, $2, $3, $4 }' \
        "$dest/skipped.txt" >>"$out/real.csv"
    cp "$dest/verdicts.txt" "$out/verdicts.txt"
    mkdir -p "$out/profile" && cp "$dest"/profile/*.json "$out/profile/" 2>/dev/null
    python3 bench/real/summarize.py "$out/real.csv" --profiles "$out/profile" \
        --device "$NPLUS1_PLATFORM" >"$out/real_wide.csv" || true
    local failed
    failed=$(grep -c ',FAILED$\|,inconclusive$' "$out/real.csv" || true)
    echo "gpu-real run ($NPLUS1_PLATFORM, part $part): $(($(wc -l <"$out/real.csv") - 1))" \
         "rows, $failed failed or inconclusive; $out/real.csv"
    [ "$failed" -eq 0 ]
}

case "$mode" in
gen) shift; gen "$@" ;;
run) shift; run "$@" ;;
*) sed -n '2,30p' "$0" >&2; exit 2 ;;
esac
