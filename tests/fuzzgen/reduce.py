#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
reduce.py - shrinks a failing fuzzgen kernel while it keeps failing the same way.

    reduce.py DIR/kernel.cl [--tool PATH] [--expect mismatch|crash|refused] -- NPLUS1GEN-OPTIONS

Removes whole blocks (a line that opens a brace through the line that closes
it), then single lines, then shortens else-if chains, and keeps every change
after which `nplus1gen kernel.cl OPTIONS` still fails the same way (by
default: "validation FAILED", i.e. a mismatch). Writes the result beside the
input as kernel.reduced.cl. Each try runs the tool, so a validation failure
takes a few minutes to reduce.
"""

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run import default_tool, RULE_RE  # noqa: E402


def fails(tool, text, options, expect, path, timeout):
    with open(path, "w") as f:
        f.write(text)
    try:
        p = subprocess.run([tool, path] + options, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return expect == "crash"
    out = p.stdout.decode("utf-8", "replace")
    if expect == "mismatch":
        return p.returncode == 1 and "validation FAILED" in out
    if expect == "crash":
        return p.returncode >= 3 or p.returncode < 0
    return p.returncode == 1 and bool(RULE_RE.search(out))


def arm_end(lines, i):
    """The line that closes the brace opened at the end of line i, or None."""
    t = lines[i].strip()
    depth = t.count("{") - t.count("}") + (1 if t.startswith("}") else 0)
    for j in range(i + 1, len(lines)):
        u = lines[j].strip()
        if u.startswith("}"):
            depth -= 1
            if depth == 0:
                return j
            u = u[1:]
        depth += u.count("{") - u.count("}")
    return None


def candidates(lines):
    """Edits to try, biggest first."""
    out = []
    for i, l in enumerate(lines):
        if not l.rstrip().endswith("{"):
            continue
        j = arm_end(lines, i)
        if j is None:
            continue
        head, close = l.strip(), lines[j].strip()
        if head.startswith("} else"):
            out.append((j - i, lines[:i] + lines[j:]))          # drop this arm
        elif close.startswith("} else"):
            indent = lines[j][:len(lines[j]) - len(lines[j].lstrip())]
            rest = close[len("} else"):].strip()
            out.append((j - i, lines[:i] + [indent + rest] + lines[j + 1:]))  # drop the first arm
        else:
            out.append((j - i + 1, lines[:i] + lines[j + 1:]))  # drop the whole block
    for i, l in enumerate(lines):
        t = l.strip()
        # a helper's `return value;` stays: without it the kernel has undefined behaviour
        if t and not t.startswith("}") and not t.endswith("{") and not (
                t.startswith("return ") and t != "return;"):
            out.append((1, lines[:i] + lines[i + 1:]))
    out.sort(key=lambda c: -c[0])
    return [c[1] for c in out]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kernel")
    ap.add_argument("--tool", default=default_tool())
    ap.add_argument("--expect", default="mismatch", choices=["mismatch", "crash", "refused"])
    ap.add_argument("--timeout", type=float, default=120)
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    a = ap.parse_args(argv[:cut])
    opts = argv[cut + 1:]
    lines = open(a.kernel).read().split("\n")
    work = os.path.join(os.path.dirname(os.path.abspath(a.kernel)), "kernel.try.cl")
    if not fails(a.tool, "\n".join(lines), opts, a.expect, work, a.timeout):
        print("reduce.py: the input does not fail that way; nothing to do")
        return 1
    progress = True
    tries = 0
    while progress:
        progress = False
        for cand in candidates(lines):
            tries += 1
            if fails(a.tool, "\n".join(cand), opts, a.expect, work, a.timeout):
                lines = cand
                progress = True
                print("reduce.py: %d lines (%d tries)" % (len(lines), tries), flush=True)
                break
    out = os.path.join(os.path.dirname(os.path.abspath(a.kernel)), "kernel.reduced.cl")
    with open(out, "w") as f:
        f.write("\n".join(lines))
    os.unlink(work)
    print("reduce.py: wrote %s (%d lines, %d tries)" % (out, len(lines), tries))
    return 0


if __name__ == "__main__":
    sys.exit(main())
