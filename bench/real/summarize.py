#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""real.csv (scripts/gpu-real.sh run) -> one row per kernel and mix.

usage: bench/real/summarize.py real.csv [--markdown] [--profiles DIR] [--device NAME]

Columns: the original's median ms (the median over the jobs, which each time it
right before their variants), then x = original / variant for each strategy
forced (from its own job: the split that job forces, e.g. chunked/fused), tile
forced, auto steady state and what auto chose, auto's first 16 launches of a fresh
set (probes and trials included; x = original median / their mean, from the auto
job) cold and over a warm choice cache (a later process), and whether
every job validated. A kernel/mix the tool does not split has "not split: ...".

With --profiles DIR (the KERNEL__MIX.json files `nplus1gen --profile --profile-json`
wrote at gen time, on the job's inputs): the measured SIMT efficiency and the best
speed-up bound of the profile (efficiency alone), then predicted_split and predicted_tile, the
profile's predictions of the carried candidates ("candidates": the replayed schedule
with its classifier, regrouping rounds and launches, under the calibration the
profile used; "cannot tell" for memory-bound kernels, "not carried"), or with an
older profile its speed-up bounds (SIMD efficiency only), beside
measured_split and measured_tile (the auto job's candidates forced: original /
candidate, on the device that ran the jobs; --device NAME labels them, e.g.
measured_split@pocl-cpu: CPU timings are no GPU speed-ups) and auto.
"""
import csv
import json
import os
import statistics
import sys

FORCED = ["atomic", "aggregated", "ordered", "chunked", "tile"]
PREDICTED = ["predicted_split", "predicted_tile", "measured_split", "measured_tile"]


def profile_of(folder, kernel, mix):
    """The profile's SIMT efficiency and its best speed-up bound, "" where there is none."""
    try:
        prof = json.load(open(os.path.join(folder, "%s__%s.json" % (kernel, mix))))
    except (OSError, ValueError):
        return "", ""
    ks = [k for k in prof.get("kernels", []) if k.get("name") == kernel] or prof.get("kernels")
    if not ks or "simt_efficiency" not in ks[0]:
        return "", ""
    bounds = [p.get("speedup_bound", 0) for p in ks[0].get("predictions", [])]
    return ("%.2f" % ks[0]["simt_efficiency"],
            ("%.2fx" % max(bounds)) if bounds else "")


def predictions(folder, kernel, mix):
    """(split bound, tile bound) from folder/KERNEL__MIX.json, "" where there is none."""
    path = os.path.join(folder, "%s__%s.json" % (kernel, mix))
    try:
        prof = json.load(open(path))
    except (OSError, ValueError):
        return "", ""
    ks = [k for k in prof.get("kernels", []) if k.get("name") == kernel] or prof.get("kernels")
    if ks and "candidates" in ks[0]:  # the carried candidates' predictions, costs included
        told = {c["candidate"]: ("%.2fx" % c["speedup"]) if c.get("predicted") else "cannot tell"
                for c in ks[0]["candidates"]}
        return told.get("split", "not carried"), told.get("tile", "not carried")
    bounds = {p["strategy"]: "%.2fx" % p["speedup_bound"]
              for p in (ks[0].get("predictions", []) if ks else [])}
    return bounds.get("split", ""), bounds.get("tile", "")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rows = list(csv.DictReader(open(sys.argv[1])))
    markdown = "--markdown" in sys.argv
    folder = sys.argv[sys.argv.index("--profiles") + 1] if "--profiles" in sys.argv else None
    keys = []
    cells = {}
    for r in rows:
        key = (r["kernel"], r["mix"])
        if key not in cells:
            keys.append(key)
            cells[key] = {"orig": [], "valid": set(), "note": ""}
        c = cells[key]
        if r["how"].startswith("not split"):
            c["note"] = r["how"]
            continue
        c["valid"].add(r["result"])
        if r["variant"] == "original":
            c["orig"].append(float(r["ms"]))
        elif r["job"] != "auto" and r["how"] == "forced" and r["job"] not in c:
            c[r["job"]] = r["x"]  # the job's split comes first (chunked on a CPU: aggregated)
        elif r["job"] == "auto" and r["variant"] == "auto":
            c["auto"] = r["x"]
            c["chose"] = r["how"].replace("chose ", "")
        elif r["job"] == "auto" and r["variant"] == "auto-first16":
            c["auto_first16"] = r["x"]
        elif r["job"] == "auto" and r["variant"] == "auto-first16-warm":
            c["auto_first16_warm"] = r["x"]
        elif r["variant"] == "leaves-alone":  # the split's leaf kernels alone (its ceiling)
            c.setdefault("leaves_alone", r["x"])
        elif r["job"] == "auto" and r["how"] == "forced":
            kind = "measured_tile" if r["variant"].startswith("tile") else "measured_split"
            c.setdefault(kind, r["x"])  # the auto set's split comes first
    head = ["kernel", "mix", "original_ms"] + FORCED
    device = sys.argv[sys.argv.index("--device") + 1] if "--device" in sys.argv else None
    label = "@" + device if device else ""
    head += ["efficiency", "bound"] if folder else []
    head += [h + (label if h.startswith("measured") else "") for h in PREDICTED] if folder else []
    head += ["auto", "auto_chose", "auto_first16", "auto_first16_warm", "leaves_alone", "valid"]
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
    else:
        print(",".join(head))
    for key in keys:
        c = cells[key]
        if c["note"] and not c["orig"]:
            line = list(key) + [""] * (len(head) - 3)
            line[-1] = c["note"]
        else:
            orig = "%.3f" % statistics.median(c["orig"]) if c["orig"] else ""
            line = list(key) + [orig] + [c.get(s, "") for s in FORCED]
            if folder:
                line += list(profile_of(folder, *key))
                line += list(predictions(folder, *key))
                line += [c.get("measured_split", ""), c.get("measured_tile", "")]
            line += [c.get("auto", ""), c.get("chose", ""), c.get("auto_first16", ""),
                     c.get("auto_first16_warm", ""), c.get("leaves_alone", ""),
                     "/".join(sorted(c["valid"]))]
        print(("| " + " | ".join(line) + " |") if markdown else ",".join(line))


if __name__ == "__main__":
    main()
