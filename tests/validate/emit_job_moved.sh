#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A job emitted with --emit-job, moved to another folder, and run by
# nplus1gen-validate from a third working directory: every path in the job
# is relative to it, and the file: input travels inside it.
# usage: emit_job_moved.sh NPLUS1GEN NPLUS1GEN_VALIDATE SOURCE_DIR WORK_DIR
set -eu
tool=$1 runner=$2 src=$3 work=$4
rm -rf "$work"
mkdir -p "$work/emit" "$work/third"
python3 -c "import struct,sys; sys.stdout.buffer.write(b''.join(struct.pack('<i', i % 3) for i in range(1000)))" \
    > "$work/emit/fromfile.bin"
cd "$work/emit"
"$tool" "$src/recipes.cl" --validate --global 1000 --require-all-leaves \
    --arg filled=fill:7 --arg ids=iota --arg ranged=range:-3:-2 --arg picked=choice:-5,9 \
    --arg fromfile=file:fromfile.bin --emit-job job
test -f job/job.desc && test -f job/set.cl && test -f job/original.cl && test -f job/inputs/fromfile.bin
if grep -q "$work" job/job.desc; then
    echo "FAIL: the job names an absolute path of the machine it was emitted on" >&2
    exit 1
fi
mv job "$work/moved"
cd "$work" && rm -rf emit
cd "$work/third"
"$runner" ../moved | tee out.txt
grep -q "validation passed" out.txt
grep -q "leaf 4 -> kernel 4: *200 items" out.txt
echo "emitted job moved and run from a third folder: passed"
