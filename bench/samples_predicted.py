#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""samples.csv and the samples' profiles (scripts/gpu-samples.sh) -> predicted beside measured.

usage: bench/samples_predicted.py samples.csv PROFILE_DIR

samples.csv: one row per sample and strategy forced (case,strategy,original_ms,
generated_ms,speedup,result; x = original / generated). PROFILE_DIR: CASE.json, the
profile (`--profile-json`) of each sample on the same inputs and launch, run on the same
device under its calibration. For each candidate the profile predicts (original, split,
aggregated, tile): the predicted ratio ("cannot tell" with the reason, "-" none) beside
the measured one of the strategy that runs it (split: aggregated, the tool's default
strategy, which every sample's profiled set takes; aggregated: aggregated; tile: tile),
and whether the prediction is within 30% of the measurement. Last line: how
many are within, missed and cannot tell.
"""
import csv
import json
import os
import sys

RUNS = {"split": "aggregated", "aggregated": "aggregated", "tile": "tile"}


def measured(path):
    """{(case, strategy): x} of the validated rows (the first of a strategy)."""
    out = {}
    for row in csv.DictReader(open(path)):
        if row.get("result") != "ok" or not row.get("speedup"):
            continue
        out.setdefault((row["case"], row["strategy"]), float(row["speedup"]))
    return out


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    meas = measured(argv[1])
    cases = sorted({c for c, _ in meas} |
                   {f[:-5] for f in os.listdir(argv[2]) if f.endswith(".json")})
    w = csv.writer(sys.stdout)
    w.writerow(["case", "kernel", "candidate", "predicted", "measured", "strategy", "within_30"])
    within = missed = cannot = 0
    for case in cases:
        try:
            prof = json.load(open(os.path.join(argv[2], case + ".json")))
        except (OSError, ValueError):
            w.writerow([case, "", "", "no profile", "", "", ""])
            continue
        for k in prof.get("kernels", []):
            for c in k.get("candidates", []):
                cand = c.get("candidate")
                if cand not in RUNS:
                    continue
                strategy = RUNS[cand]
                x = meas.get((case, strategy))
                if not c.get("predicted"):
                    told, verdict = "cannot tell: " + c.get("why", ""), "cannot tell"
                    cannot += 1
                else:
                    told = "%.2fx" % c["speedup"]
                    verdict = ""
                    if x:
                        ok = abs(c["speedup"] - x) <= 0.3 * x
                        verdict = "yes" if ok else "no"
                        within += ok
                        missed += not ok
                w.writerow([case, k.get("name", ""), cand, told,
                            "%.2fx" % x if x else "", strategy, verdict])
    print("# within 30%%: %d, missed: %d, cannot tell: %d" % (within, missed, cannot))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
