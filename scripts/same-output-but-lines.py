#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""same-output-but-lines.py OLD NEW FILE.cl...: for a change that adds #line directives
and nothing else (scripts/same-output.sh's companion). Runs both binaries with -o under
the default options, --strategy tile / ordered / chunked and --split always, each with and
without --no-line, and checks that every difference in every written file is an added
#line line (or a #line line whose number moved), and that --no-line output is
byte-identical. The driver .c embeds the kernel file: its string lines and sizes are
left out of the comparison. Prints a summary; exit 1 when anything else differs."""
import difflib, os, re, subprocess, sys, tempfile, shutil
old, new, files = sys.argv[1], sys.argv[2], sys.argv[3:]
optsets = [["--strategy", "tile"], [], ["--strategy", "ordered"], ["--strategy", "chunked"], ["--split", "always"]]
isline = lambda l: re.match(r'^\s*"?#line \d+ ', l) is not None
stats = dict(runs=0, same=0, onlyline=0, bad=0, added=0, noline_same=0, noline_runs=0)
def run(b, f, opts, d):
    os.makedirs(d)
    p = subprocess.run([b, os.path.abspath(f), "-o", "out"] + opts, cwd=d, capture_output=True, text=True)
    return p.returncode, p.stdout.replace(b, "BIN"), p.stderr.replace(b, "BIN")
for f in files:
    for opts in optsets:
        for nl in (0, 1):
            o = opts + (["--no-line"] if nl else [])
            w = tempfile.mkdtemp()
            ra = run(old, f, o, w + "/a"); rb = run(new, f, o, w + "/b")
            stats["runs"] += 1
            if nl: stats["noline_runs"] += 1
            bad = ra != rb
            diffs = 0
            fa = sorted(os.listdir(w + "/a/out")) if os.path.isdir(w + "/a/out") else []
            fb = sorted(os.listdir(w + "/b/out")) if os.path.isdir(w + "/b/out") else []
            bad |= fa != fb
            for n in fa:
                A = open(w + "/a/out/" + n).read().split("\n"); B = open(w + "/b/out/" + n).read().split("\n")
                if n.endswith("_nplus1.c"):  # it embeds the kernel file: compare the rest
                    emb = lambda l: re.match(r'^\s+"|^\s+char p\d+\[\d+\];|.*sizeof nplus1_source == \d+', l)
                    A = [l for l in A if not emb(l)]; B = [l for l in B if not emb(l)]
                for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, A, B, autojunk=False).get_opcodes():
                    if tag == "equal": continue
                    diffs += 1
                    if tag == "insert" and all(isline(l) and "#line 0 " not in l for l in B[j1:j2]) and not nl:
                        stats["added"] += j2 - j1; continue
                    if tag == "replace" and not nl and all(isline(l) for l in A[i1:i2] + B[j1:j2]):
                        continue
                    bad = True
                    print("BAD", f, o, n, tag, A[i1:i2][:3], B[j1:j2][:3])
            if bad: stats["bad"] += 1
            elif diffs == 0:
                stats["same"] += 1
                if nl: stats["noline_same"] += 1
            else: stats["onlyline"] += 1
            shutil.rmtree(w)
print("linecheck: %(runs)d runs: %(same)d byte-identical, %(onlyline)d differ only by #line lines (%(added)d lines added), %(bad)d other; --no-line: %(noline_same)d of %(noline_runs)d byte-identical" % stats)
sys.exit(1 if stats["bad"] else 0)
