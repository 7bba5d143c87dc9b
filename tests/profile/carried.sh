#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# --profile predicts exactly the candidates the generated set carries: for each
# case, the profile's "candidates" (--profile-json) name the same candidates, in
# the same order, as the manifest's "candidates" of the set -o writes with the
# same options (a loop set, a tile set, --split always, two kernels of known.cl),
# and a kernel without a set gets none.
#   carried.sh NPLUS1GEN
set -uo pipefail
tool=$1
dir=$(cd "$(dirname "$0")" && pwd)
loops=$dir/../diff/loops
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail=0
one() { # one NAME FILE "OPTIONS" ["INPUT OPTIONS"]: profile and generate with OPTIONS
    local name=$1 file=$2 opts inputs
    read -r -a opts <<<"$3"
    read -r -a inputs <<<"${4:-}"
    "$tool" "$file" --profile --profile-json "$out/$name.json" "${opts[@]}" "${inputs[@]}" \
        --global 2048 > "$out/$name.txt" 2>&1 || {
        echo "FAIL: $name: --profile failed"
        fail=1
        return
    }
    "$tool" "$file" -o "$out/$name" -q "${opts[@]}" 2>/dev/null || true
    python3 - "$out/$name.json" "$out/$name" "$name" <<'PY' || fail=1
import glob, json, sys
prof = json.load(open(sys.argv[1]))
sets = {}
for m in glob.glob(sys.argv[2] + "/*.nplus1.json"):
    for k in json.load(open(m))["kernels"]:
        sets[k["name"]] = k.get("candidates", [])
bad = 0
for k in prof["kernels"]:
    got = [c["candidate"] for c in k.get("candidates", [])]
    want = sets.get(k["name"], [])
    ok = got == want and (not got or k.get("auto_first") in got)
    print("%s: %s: kernel %s: predicted %s, the set carries %s" %
          ("PASS" if ok else "FAIL", sys.argv[3], k["name"], got, want))
    bad += not ok
sys.exit(1 if bad else 0)
PY
}
one loop_set "$loops/collatz_parity.cl" "" "--arg start=range:1:100000"
one tile_set "$dir/known.cl" "-k alternating --strategy tile"
one split_always "$dir/known.cl" "-k three_ways --split always"
one auto_set "$dir/known.cl" "-k alternating -k three_ways"
one no_set "$dir/known.cl" "-k trips"
exit $fail
