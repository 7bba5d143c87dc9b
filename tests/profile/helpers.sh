#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Divergence inside helpers (helpers.cl, issue 29): the kernels whose decisions and
# loops all sit in helpers land within 0.1 of their exact SIMT efficiency at width 32,
# each helper construct is reported at the helper's line with its call's line (two
# constructs for the helper called at two sites, only the first diverging), the
# path tracer's bounce loop in radiance() shows its trip divergence, and every
# instrumented run matched the original.
#   helpers.sh NPLUS1GEN
set -euo pipefail
tool=$1
dir=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$tool" "$dir/helpers.cl" --profile --global 4096 --arg trips=iota \
    --profile-json "$out/p.json" >"$out/report.txt"
python3 - "$out/p.json" <<'PY'
import json, sys
exact = {"alt_helper": 0.5, "trips_helper": 0.5, "two_sites": 2 / 3}
doc = json.load(open(sys.argv[1]))
ks = {k["name"]: k for k in doc["kernels"]}
bad = 0
def check(ok, what):
    global bad
    print("%-70s %s" % (what, "ok" if ok else "FAIL"))
    bad += not ok
for name, want in exact.items():
    k = ks[name]
    check(abs(k["simt_efficiency"] - want) <= 0.1 and k["values_compared"] > 0,
          "%s: %.3f (exact %.3f)" % (name, k["simt_efficiency"], want))
alt = ks["alt_helper"]["constructs"]
check(len(alt) == 1 and alt[0]["line"] == 20 and alt[0]["helper"] == "pick"
      and alt[0]["call_line"] == 30 and alt[0]["items_per_branch"] == [2048, 2048],
      "alt_helper: the if at pick's line 20, called at line 30")
loop = ks["trips_helper"]["constructs"][0]
check(loop["kind"] == "loop" and loop["line"] == 37 and loop["helper"] == "repeat"
      and abs(loop["lane_iterations"] / loop["issued_iterations"] - 0.5) < 0.01,
      "trips_helper: repeat's loop at line 37 runs half its issued iterations")
two = ks["two_sites"]["constructs"]
check([(c["line"], c["call_line"]) for c in two] == [(20, 54), (20, 55)],
      "two_sites: one construct per call (line 20, called at 54 and 55)")
check(two[0]["groups_diverged"] == two[0]["groups_reached"] > 0
      and two[1]["groups_diverged"] == 0 and two[1]["groups_reached"] > 0,
      "two_sites: the first call diverges in every group, the second in none")
b = ks["bounce"]
bl = [c for c in b["constructs"] if c["kind"] == "loop"][0]
check(bl["helper"] == "radiance" and bl["line"] == 72 and bl["call_line"] == 88
      and bl["lane_iterations"] / bl["issued_iterations"] < 0.5 and b["simt_efficiency"] < 0.5,
      "bounce: radiance's loop at line 72 shows its trip divergence (%.2f, kernel %.2f)"
      % (bl["lane_iterations"] / bl["issued_iterations"], b["simt_efficiency"]))
sys.exit(bad != 0)
PY
