#!/usr/bin/env python3
"""real.csv (scripts/gpu-real.sh run) -> one row per kernel and mix.

usage: bench/real/summarize.py real.csv [--markdown]

Columns: the original's median ms (the median over the jobs, which each time it
right before their variants), then x = original / variant for each strategy
forced (from its own job: the split that job forces, e.g. chunked/fused), tile
forced, auto steady state and what auto chose (from the auto job), and whether
every job validated. A kernel/mix the tool does not split has "not split: ...".
"""
import csv
import statistics
import sys

FORCED = ["atomic", "aggregated", "ordered", "chunked", "tile"]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rows = list(csv.DictReader(open(sys.argv[1])))
    markdown = "--markdown" in sys.argv
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
    head = ["kernel", "mix", "original_ms"] + FORCED + ["auto", "auto_chose", "valid"]
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
            line += [c.get("auto", ""), c.get("chose", ""), "/".join(sorted(c["valid"]))]
        print(("| " + " | ".join(line) + " |") if markdown else ",".join(line))


if __name__ == "__main__":
    main()
