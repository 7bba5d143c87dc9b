#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The generated kernel file of every sample and test kernel builds alone.

Issue 26: the driver embeds the generated .nplus1.cl and builds it from a string,
without -I, so the file must be self-contained (user headers inlined, no #include
left that needs the input's folder). For each .cl file under the folders given,
this runs `nplus1gen FILE -o OUT` (with the -I and -D of the file's own
`// RUN: nplus1gen %s` or lit `%nplus1gen %s` line, when it has one), copies the
generated .nplus1.cl into an empty folder and runs

    clang -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -fsyntax-only

there, without -I. A file nplus1gen does not generate from (refused, a header, a
kernel that needs other options) is skipped and counted; a generated file clang
rejects is a failure. Prints one line per failure and a summary:
`generated files build alone: N built, M skipped, F failures`.

usage: generated_builds_alone.py --tool NPLUS1GEN --clang CLANG [--samples DIR]
                                 [--options NAME=OPTIONS]... PATH...
(--options: the options of the file named NAME, for a file without a RUN line.)
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

RUN = re.compile(r"^\s*(?://|;)\s*RUN:\s*%?nplus1gen\s+%s\b(.*)$")


def run_options(path, samples):
    """The -I/-D options of the file's first RUN line that generates from it (%s)."""
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            head = [next(f, "") for _ in range(40)]
    except OSError:
        return []
    for line in head:
        m = RUN.match(line)
        if not m:
            continue
        # a RUN line ending in `\` goes on in the next one (docs/testing.md): the -I/-D
        # options of this line are enough here, the backslash is not a word
        words = shlex.split(m.group(1).rstrip().rstrip("\\").replace("%samples", samples or "")
                            .replace("%S", os.path.dirname(os.path.abspath(path))))
        opts, i = [], 0
        while i < len(words):
            w = words[i]
            if w in ("-I", "-D") and i + 1 < len(words):
                opts += [w, words[i + 1]]
                i += 2
                continue
            if w.startswith(("-I", "-D")):
                opts.append(w)
            i += 1
        return opts
    return []


def kernel_files(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            for top, _, names in os.walk(p):
                files += [os.path.join(top, n) for n in names if n.endswith(".cl")
                          and not n.endswith(".nplus1.cl")]
        elif p.endswith(".cl"):
            files.append(p)
    return sorted(set(files))


def check_one(args, path, work):
    """('built' | 'skipped' | 'failed', detail)."""
    out = os.path.join(work, "out")
    empty = os.path.join(work, "empty")
    os.makedirs(out)
    os.makedirs(empty)
    given = dict(o.split("=", 1) for o in args.options)
    name = os.path.basename(path)
    opts = shlex.split(given[name]) if name in given else run_options(path, args.samples)
    gen = subprocess.run([args.tool, path, "-o", out, "-q", "--no-line"] + opts,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         errors="replace", timeout=300)
    if gen.returncode == 3:
        return "failed", "nplus1gen exit 3 (an internal error):\n" + gen.stdout[-2000:]
    generated = [n for n in os.listdir(out) if n.endswith(".nplus1.cl")]
    if gen.returncode != 0 or not generated:
        return "skipped", "nplus1gen exit %d" % gen.returncode
    shutil.copy(os.path.join(out, generated[0]), os.path.join(empty, generated[0]))
    cc = subprocess.run([args.clang, "-x", "cl", "-cl-std=CL1.2", "-Xclang",
                         "-finclude-default-header", "-fsyntax-only", generated[0]],
                        cwd=empty, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                        text=True, errors="replace", timeout=300)
    if cc.returncode != 0:
        return "failed", "clang rejects %s built alone (options %s):\n%s" % (
            generated[0], " ".join(opts) or "none", cc.stdout[-3000:])
    return "built", ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--clang", required=True)
    ap.add_argument("--samples")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--options", action="append", default=[])
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()
    files = kernel_files(args.paths)
    with tempfile.TemporaryDirectory(prefix="nplus1-alone-") as tmp:
        def one(i):
            return check_one(args, files[i], os.path.join(tmp, str(i)))
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
            results = list(ex.map(one, range(len(files))))
    counts = {"built": 0, "skipped": 0, "failed": 0}
    for path, (kind, detail) in zip(files, results):
        counts[kind] += 1
        if kind == "failed":
            print("FAIL %s: %s" % (path, detail))
        elif kind == "skipped" and os.environ.get("VERBOSE"):
            print("skip %s: %s" % (path, detail))
    print("generated files build alone: %d built, %d skipped, %d failures"
          % (counts["built"], counts["skipped"], counts["failed"]))
    return 1 if counts["failed"] or not counts["built"] else 0


if __name__ == "__main__":
    sys.exit(main())
