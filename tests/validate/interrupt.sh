#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# interrupt.sh NPLUS1GEN KERNEL OUTDIR: nplus1gen --validate, stopped by SIGTERM (as
# `timeout` stops it) and by SIGINT (Ctrl-C) while its runner runs a kernel for minutes,
# leaves no runner behind and ends by that signal (status 128 + its number). The runner has a process group of its own, which neither
# signal reaches; before the fix it kept a CPU busy after nplus1gen had ended.
tool=$1 kernel=$2 out=$3
status=0
for sig in TERM INT; do
    marker="nplus1_interrupt_test_$$_$sig"
    rm -rf "$out"
    env NPLUS1_INTERRUPT_MARKER="$marker" timeout --preserve-status -s "$sig" 4 "$tool" \
        "$kernel" -o "$out" --validate --global 64 --arg out=range:0:12 --arg n=2000000000 -q
    rc=$?
    case $sig in TERM) want=143 ;; *) want=130 ;; esac
    if [ "$rc" -ne "$want" ]; then
        echo "interrupt.sh: SIG$sig: nplus1gen ended with $rc, not $want (by the signal)" >&2
        status=1
    fi
    left=""
    for try in 1 2 3 4 5 6 7 8 9 10; do
        left=$(grep -l "$marker" /proc/[0-9]*/environ 2>/dev/null)
        [ -z "$left" ] && break
        sleep 0.5
    done
    if [ -n "$left" ]; then
        echo "interrupt.sh: SIG$sig: processes left behind: $left" >&2
        for f in $left; do
            p=${f#/proc/}
            p=${p%/environ}
            cat "/proc/$p/cmdline" 2>/dev/null | tr '\0' ' ' >&2
            echo >&2
            kill -9 "$p" 2>/dev/null
        done
        status=1
    else
        echo "interrupt.sh: SIG$sig: nplus1gen and its runner ended"
    fi
done
exit $status
