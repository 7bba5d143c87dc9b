#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Turns nplus1bench CSV output into a PNG: speed-up over the original kernel
per variant, one panel per input distribution, leaf cost (ITERS) on x.

usage: bench/plot.py bench.csv out.png [--title TEXT]
A CSV of scripts/gpu-samples.sh (columns case,strategy,...,speedup) becomes one
bar per sample and strategy instead, and so does a real_wide.csv of
scripts/gpu-real.sh (columns kernel,mix,original_ms,atomic,...,tile,auto: one bar
per kernel and mix and strategy; kernels the tool does not split are left out).
Needs matplotlib (Debian: apt-get install python3-matplotlib).
"""
import csv
import sys
from collections import defaultdict


def real_wide_rows(rows):
    """bench/real's wide rows as (case, strategy, speedup) rows, auto last."""
    out = []
    for r in rows:
        if not r.get("original_ms"):
            continue
        for st in ("atomic", "aggregated", "ordered", "chunked", "tile", "auto"):
            if r.get(st):
                out.append({"case": "%s %s" % (r["kernel"], r["mix"]), "strategy": st,
                            "speedup": r[st].rstrip("x")})
    return out


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    src, dst = argv[1], argv[2]
    title = argv[argv.index("--title") + 1] if "--title" in argv else None
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot.py: matplotlib is missing: apt-get install python3-matplotlib", file=sys.stderr)
        return 1
    rows = list(csv.DictReader(open(src, newline="")))
    if not rows:
        print("plot.py: %s has no rows" % src, file=sys.stderr)
        return 1
    if "kernel" in rows[0] and "mix" in rows[0]:
        rows = real_wide_rows(rows)
    if "case" in rows[0]:
        return plot_samples(plt, rows, dst, title)
    inputs = sorted({r["input"] for r in rows}, key=["random", "skewed", "coherent"].index)
    series = defaultdict(dict)  # (input, variant) -> {iters: speedup}
    for r in rows:
        series[(r["input"], r["variant"])][int(r["iters"])] = float(r["speedup"])
    variants = []
    for r in rows:
        if r["variant"] not in variants and r["variant"] != "original":
            variants.append(r["variant"])
    fig, axes = plt.subplots(1, len(inputs), figsize=(5 * len(inputs), 4.2), sharey=True)
    if len(inputs) == 1:
        axes = [axes]
    for ax, inp in zip(axes, inputs):
        for v in variants:
            pts = sorted(series[(inp, v)].items())
            if not pts:
                continue
            style = "--" if v == "oracle" else "-"
            width = 2.5 if v.startswith("auto") else 1.2
            ax.plot([p[0] for p in pts], [p[1] for p in pts], style, marker="o", lw=width, label=v)
        ax.axhline(1.0, color="gray", lw=0.8)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log", base=2)
        ax.set_title("%s input" % inp)
        ax.set_xlabel("leaf cost (ITERS)")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("speed-up over the original (x)")
    axes[-1].legend(fontsize=8, loc="best")
    fig.suptitle(title or "%s, N=%s" % (rows[0]["device"], rows[0]["n"]))
    fig.tight_layout()
    fig.savefig(dst, dpi=110)
    print("plot.py: wrote %s" % dst)
    return 0


def plot_samples(plt, rows, dst, title):
    """Speed-up over the original per sample (x) and strategy (bars), log scale."""
    cases = sorted({r["case"] for r in rows})
    strategies = []
    for r in rows:
        if r["strategy"] not in strategies:
            strategies.append(r["strategy"])
    speed = {(r["case"], r["strategy"]): float(r["speedup"] or "nan") for r in rows}
    fig, ax = plt.subplots(figsize=(1.1 * len(cases) + 2, 4.2))
    width = 0.8 / len(strategies)
    for i, st in enumerate(strategies):
        xs = [c + (i - (len(strategies) - 1) / 2) * width for c in range(len(cases))]
        ax.bar(xs, [speed.get((c, st), float("nan")) for c in cases], width, label=st)
    ax.axhline(1.0, color="gray", lw=0.8)
    ax.set_yscale("log", base=2)
    ax.set_xticks(range(len(cases)))
    ax.set_xticklabels(cases, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("speed-up over the original (x)")
    ax.grid(True, axis="y", which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    ax.set_title(title or "samples, --split always")
    fig.tight_layout()
    fig.savefig(dst, dpi=110)
    print("plot.py: wrote %s" % dst)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
