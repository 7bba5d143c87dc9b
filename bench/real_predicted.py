#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A bench/real prediction table beside a GPU run's measured ratios.

usage: bench/real_predicted.py TABLE REAL_WIDE_CSV

TABLE: tests/profile/predict_real.sh's (--write): KERNEL MIX CANDIDATE PREDICTED, one
line per carried candidate ("cannot" where the model cannot tell). REAL_WIDE_CSV: the
GPU's real_wide.csv (scripts/gpu-real.sh), whose measured_split@... and measured_tile@...
columns are the measured ratios of the set's split and tile (a loop set's split, the loop
kernel, is compared with its tile column: tile+loop, as docs/performance.md does). Prints CSV: kernel, mix,
candidate, predicted, measured, within_30; last line the counts.
"""
import csv
import sys


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    meas = {}
    for row in csv.DictReader(open(argv[2])):
        for cand in ("split", "tile"):
            col = [c for c in row if c.startswith("measured_%s@" % cand)]
            v = row[col[0]].rstrip("x") if col else ""
            # a loop set's split is its loop kernel, measured in the tile column (tile+loop)
            if cand == "split" and not v and row.get("predicted_tile") == "not carried":
                col = [c for c in row if c.startswith("measured_tile@")]
                v = row[col[0]].rstrip("x") if col else ""
            try:
                meas[(row["kernel"], row["mix"], cand)] = float(v)
            except ValueError:
                pass
    w = csv.writer(sys.stdout)
    w.writerow(["kernel", "mix", "candidate", "predicted", "measured", "within_30"])
    within = missed = cannot = 0
    for line in open(argv[1]):
        f = line.split()
        if len(f) != 4 or f[2] not in ("split", "tile"):
            continue
        kernel, mix, cand, told = f
        x = meas.get((kernel, mix, cand))
        verdict = ""
        if told == "cannot":
            verdict = "cannot tell"
            cannot += 1
        elif x:
            p = float(told.rstrip("x"))
            ok = abs(p - x) <= 0.3 * x
            verdict = "yes" if ok else "no (%.0f%%)" % (100 * abs(p - x) / x)
            within += ok
            missed += not ok
        w.writerow([kernel, mix, cand, told, "%.2fx" % x if x else "", verdict])
    print("# within 30%%: %d, missed: %d, cannot tell: %d" % (within, missed, cannot))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
