#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The cost terms of --profile's predictions (docs/cli.md, "Predictions of the candidates the
# set carries"), end to end on POCL under the H200's calibration:
# - a leaf of exp and log is predicted to gain more from the split than a leaf of as many
#   multiplies and adds as written (math builtins at their time on a GPU);
# - each if of an else-if chain is a decision the split regroups by ("split": true), and
#   the split of four interleaved leaves is predicted well above the first if's alone;
# - the tree's nodes carry their memory accesses and their math (profile.tree's eighth and
#   ninth numbers);
# - loads through a `restrict` parameter count as accesses: a kernel's tree is that of the
#   same kernel without `restrict`;
# - each access carries its coalescing class (profile.tree's tenth to twelfth numbers):
#   a[i] coalesced (4 bytes), a[idx[i]] a sector, a[0] broadcast; and the original's
#   predicted memory is the bytes they move on the item's path (45 an item: 12 coalesced, a
#   sector, a broadcast's 1 of a 32-item group's sector), not 5 sectors (160);
# - a pure math builtin called again on the same value is computed once: six cos and six sin
#   of one angle (a helper's loop, called twice) are one of each; on a second value, two.
#   model.sh NPLUS1GEN
set -uo pipefail
tool=$1
dir=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# the launch gaps weighed for 16M items (NPLUS1_PREDICT_ITEMS): the leaves' costs decide
export NPLUS1_CALIBRATION=$dir/../../docs/perf/h200_calibration.txt NPLUS1_CACHE=0 \
    NPLUS1_PREDICT_ITEMS=16777216
fail=0
for k in exp_leaf plain_leaf; do
    "$tool" "$dir/model.cl" -k "$k" --global 65536 --profile --split always \
        --profile-json "$out/$k.json" >"$out/$k.txt" 2>&1 || { echo "FAIL: --profile -k $k"; fail=1; }
done
"$tool" "$dir/model.cl" -k chain --global 65536 --arg kind=choice:0,1,2,3 --profile \
    --split always --profile-json "$out/chain.json" >"$out/chain.txt" 2>&1 ||
    { echo "FAIL: --profile -k chain"; fail=1; }
"$tool" "$dir/model.cl" -k exp_leaf --global 4096 --profile --split always \
    --emit-job "$out/job" >/dev/null 2>&1 || { echo "FAIL: --emit-job"; fail=1; }
for k in load_plain load_restrict; do
    "$tool" "$dir/model.cl" -k "$k" --global 4096 --profile --split always \
        --emit-job "$out/$k" >/dev/null 2>&1 || { echo "FAIL: --emit-job -k $k"; fail=1; }
done
NPLUS1_PREDICT_ITEMS=65536 "$tool" "$dir/model.cl" -k three_classes --global 65536 \
    --arg idx=range:0:65536 --profile --split always --emit-job "$out/three" >/dev/null 2>&1 ||
    { echo "FAIL: --emit-job -k three_classes"; fail=1; }
NPLUS1_PREDICT_ITEMS=65536 "$tool" "$dir/model.cl" -k three_classes --global 65536 \
    --arg idx=range:0:65536 --profile --profile-json "$out/three.json" \
    >"$out/three.txt" 2>&1 || { echo "FAIL: --profile -k three_classes"; fail=1; }
for k in math_once math_every; do
    "$tool" "$dir/model.cl" -k "$k" --global 4096 --profile --split always \
        --emit-job "$out/$k" >/dev/null 2>&1 || { echo "FAIL: --emit-job -k $k"; fail=1; }
done
python3 - "$out" "$NPLUS1_CALIBRATION" <<'PY' || fail=1
import json, sys
out = sys.argv[1]
def cands(name):
    k = json.load(open("%s/%s.json" % (out, name)))["kernels"][0]
    return k, {c["candidate"]: c for c in k.get("candidates", [])}
bad = 0
def check(ok, what):
    global bad
    print("%s: %s" % ("PASS" if ok else "FAIL", what))
    bad += not ok
_, e = cands("exp_leaf")
_, p = cands("plain_leaf")
se, sp = e["split"].get("speedup", 0), p["split"].get("speedup", 0)
check(se > sp * 1.2, "the exp and log leaf's split predicted above the plain leaf's "
      "(%.2fx against %.2fx)" % (se, sp))
check(e["split"]["cost"] > p["split"]["cost"] * 1.5,
      "the exp and log leaf's split costs over 1.5 times the plain one's (%.0f against %.0f)" %
      (e["split"]["cost"], p["split"]["cost"]))
k, c = cands("chain")
chain = [d for d in k.get("constructs", []) if d.get("construct") == "if"]
splits = [d.get("split") for d in chain]
check(len(splits) >= 3 and all(splits), "each if of the else-if chain is split (%s)" % splits)
s = c["split"].get("speedup", 0)
check(1.6 <= s <= 4.5, "four interleaved leaves, each its bucket: the split predicted well above "
      "the 1.33x of the chain's first if alone (%.2fx)" % s)
nodes = [l.split() for l in open(out + "/job/profile.tree") if l.startswith("node ")]
check(nodes and all(len(n) == 13 for n in nodes) and any(float(n[8]) > 0 for n in nodes) and any(float(n[9]) > 0 for n in nodes),
      "profile.tree's nodes carry their memory accesses and math")
def tree(name):  # its nodes and set line (the constructs name their lines)
    return [l for l in open("%s/%s/profile.tree" % (out, name))
            if l.split()[0] in ("seq", "node", "end", "set")]
plain, restrict = tree("load_plain"), tree("load_restrict")
sets = [l.split() for l in plain if l.startswith("set ")]
check(plain and plain == restrict and sets and float(sets[0][7]) == 3 and float(sets[0][10]) == 1,
      "a restrict input's loads count: the tree is the plain kernel's, 3 accesses, the "
      "classifier's read of in[i] (%s)" % (sets[0][7:] if sets else "no set line"))
# the three classes: the statement of a[i] + a[idx[i]] + a[0] (and idx[i]) and the store
nodes = [l.split() for l in open(out + "/three/profile.tree") if l.startswith("node ")]
classed = sorted((float(n[8]), float(n[10]), float(n[11]), float(n[12])) for n in nodes
                 if float(n[8]) > 0)
check(classed == [(1, 1, 4, 0), (4, 2, 8, 1)],
      "a[i] and idx[i] coalesce (4 bytes each), a[idx[i]] is a sector, a[0] a broadcast, "
      "out[i] coalesces (%s)" % classed)
fma_ns = [float(l.split()[1]) for l in open(sys.argv[2]) if l.startswith("fma_ns ")][0]
k = json.load(open(out + "/three.json"))["kernels"][0]
orig = [c for c in k["candidates"] if c["candidate"] == "original"][0]
memory = orig["cost"] - k["issued_work"] / k["items"]
want = 45 / 4800.0 / fma_ns
check(abs(memory - want) < 1e-6 * want,
      "the original's memory is 45 bytes an item at the DRAM's 4800 a ns (%.3f, want %.3f; "
      "a sector an access would be %.3f)" % (memory, want, 160 / 4800.0 / fma_ns))
def work(name):  # the summed cost of the tree's nodes
    return sum(float(l.split()[2]) for l in open("%s/%s/profile.tree" % (out, name))
               if l.startswith("node "))
once, every = work("math_once"), work("math_every")
check(35 <= every - once <= 40 and every < 2 * 36 + 60,
      "cos and sin of one angle computed once however often called (%.0f), of a second "
      "angle once more (%.0f: 36 and a multiply more; as written, 12 of each)" % (once, every))
sys.exit(1 if bad else 0)
PY
exit $fail
