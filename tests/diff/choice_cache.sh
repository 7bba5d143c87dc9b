#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The measured choice persists across processes (docs/driver.md, "The choice
# cache"), through the generated driver of samples/oneKernel.cl:
#  1. a first process measures (both candidates tried) and stores one choice
#     per size class in NPLUS1_CACHE_DIR;
#  2. a second process starts each class on the stored candidate and runs it
#     through the first 15 launches (no trial; the 16th is the periodic probe),
#     every launch matching the original;
#  3. two processes at once leave a whole file (temp file + rename), 4 times;
#  4. a corrupt entry is ignored with a note and rewritten; a foreign one
#     (another program's hash line) too;
#  5. a stale entry (a candidate the set no longer carries) is ignored with a note and
#     rewritten;
#  6. NPLUS1_CACHE=0 writes nothing;
#  7. in one process, a second set starts on the choices the first stored (the file is
#     written off the launch, by the runtime's writer thread; a set's creation waits).
# usage: choice_cache.sh TEST_BINARY samples/oneKernel.cl
set -euo pipefail
bin=$1 cl=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export NPLUS1_CACHE=1 NPLUS1_CACHE_DIR=$work/cache
fail() { echo "FAIL: $*"; exit 1; }
n=4096 # size classes 12 (4096 items) and 10 (1365)

"$bin" "$cl" $n 0 both > "$work/first.log" || { cat "$work/first.log"; fail "first process"; }
files=("$work"/cache/choice-*.txt)
[ ${#files[@]} = 1 ] && [ -f "${files[0]}" ] || fail "no single cache file after the first process"
entry=${files[0]}
echo "--- the cache entry the first process stored:"; cat "$entry"
[ "$(head -1 "$entry")" = "nplus1-choice-cache 1" ] || fail "the entry has no header"
grep -q '^class 12 ' "$entry" && grep -q '^class 10 ' "$entry" ||
  fail "the entry lacks the size classes 12 (4096 items) and 10 (1365)"

"$bin" "$cl" $n 0 cached > "$work/second.log" || { cat "$work/second.log"; fail "second process"; }
cat "$work/second.log" | tail -3
firsts=$(sed -n 's/^first launch of each size class: //p' "$work/second.log")
for pair in "12:${firsts%%, *}" "10:${firsts##*, }"; do
  cls=${pair%%:*} ran=${pair#*:}
  stored=$(sed -n "s/^class $cls //p" "$entry")
  case "$stored:$ran" in
    original:original | split:*/* | tile:tile) ;;
    *) fail "class $cls stored '$stored', and the second process began it with '$ran'" ;;
  esac
done
echo "second process: each class began on its stored choice and kept it"

for round in 1 2 3 4; do
  "$bin" "$cl" $n 0 any > /dev/null & a=$!
  "$bin" "$cl" $n 0 any > /dev/null & b=$!
  wait $a && wait $b || fail "concurrent processes, round $round"
  [ "$(head -1 "$entry")" = "nplus1-choice-cache 1" ] && [ "$(grep -c '^class ' "$entry")" = 2 ] ||
    fail "concurrent processes left a torn entry in round $round"
  ls "$work"/cache | grep -q tmp && fail "a temporary file was left behind"
done
echo "concurrent processes: 4 rounds, the entry whole each time"

printf 'garbage\x01\n' > "$entry"
"$bin" "$cl" $n 0 any > "$work/corrupt.log" 2> "$work/corrupt.err" || fail "over a corrupt entry"
grep -q "choice cache entry .* is ignored: it is not a choice cache file" "$work/corrupt.err" ||
  fail "no note about the corrupt entry"
[ "$(head -1 "$entry")" = "nplus1-choice-cache 1" ] || fail "the corrupt entry was not rewritten"
sed -i 's/^program [0-9a-f]*/program 0123456789abcdef/' "$entry"
"$bin" "$cl" $n 0 any > /dev/null 2> "$work/foreign.err" || fail "over a foreign entry"
grep -q "is ignored: it was written for another generated program" "$work/foreign.err" ||
  fail "no note about the foreign entry"
echo "corrupt and foreign entries: ignored with a note, rewritten"

# a stale entry: this program's, whole, but naming a candidate the set no longer carries
# (as when a newer tool stops offering one: a tile built with regrouping off is not timed)
"$bin" "$cl" $n 0 any > /dev/null || fail "rewriting the entry"
sed -i 's/^class 12 .*/class 12 ordered\/host/' "$entry"
"$bin" "$cl" $n 0 any > /dev/null 2> "$work/stale.err" || fail "over a stale entry"
grep -q "is ignored: it names a candidate this set does not carry" "$work/stale.err" ||
  fail "no note about the stale entry"
grep -q '^class 12 ordered/host' "$entry" && fail "the stale entry was not rewritten"
grep -q '^class 12 ' "$entry" || fail "the rewritten entry lacks class 12"
echo "a stale entry (a candidate the set does not carry): ignored with a note, rewritten"

rm -rf "$work/cache"
NPLUS1_CACHE=0 "$bin" "$cl" $n 0 any > /dev/null || fail "with NPLUS1_CACHE=0"
[ ! -e "$work/cache" ] || fail "NPLUS1_CACHE=0 wrote a cache"

# one process: a second set begins on what the first stored (a fresh folder: nothing before)
NPLUS1_CACHE_DIR=$work/cache2 "$bin" "$cl" $n 0 reuse > "$work/reuse.log" ||
  { cat "$work/reuse.log"; fail "a second set in one process"; }
ls "$work"/cache2/choice-*.txt > /dev/null 2>&1 || fail "the first set of the process stored nothing"
echo "one process: its second set began on the first set's stored choices"
echo "the choice cache persists, survives concurrency and bad entries, and turns off"
