#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
kernel_test.py - runs kernel tests: files whose head says how to run them and
what must come out (docs/testing.md, "Labels, matrices, and how to add a test").

    kernel_test.py [--tool PATH] [--timeout S] FILE|DIR...
    kernel_test.py --list [--tool PATH] FILE...     the runs as JSON (scripts/gpu-check.sh)

A kernel test is one file: a .cl kernel whose first comment lines carry the
header, or a .test file of header lines only that names a kernel kept elsewhere
(samples/, or a kernel several tests share). The header, read up to the first
line that is neither a `//` comment nor blank:

  // RUN: [env NAME=VALUE...] nplus1gen ARGS      one or more; each runs in turn, in the
                                                  test file's folder; a line ending in `\\`
                                                  goes on in the next RUN line
  // EXPECT: match                  exit 0, the last line "validation passed: the generated
                                    set matches the original" (or "... sets of all N
                                    strategy/dispatch pairs match ..."), no "FAILED"
  // EXPECT: match all-leaves       and no leaf "(not exercised)", nothing "inconclusive"
  // EXPECT: refused nplus1-RULE    exit 1 with the diagnostic's [nplus1-RULE]
  // EXPECT: exit N                 exit N (the OUTPUT lines say what it prints)
  // OUTPUT: REGEX                  must be found in the output (Python re, MULTILINE: `^`
                                    starts a line, `.` stays in it; [\\s\\S] crosses lines)
  // OUTPUT-NOT: REGEX              must not be found
  // XFAIL: why                     a known, unfixed tool bug: a failing run passes, a
                                    passing one fails (so the marker goes with the fix)
  // TIMEOUT: SECONDS               a run's limit (default --timeout, 240 s)
  // REQUIRES: PROGRAM              skip the file (exit 77, ctest's SKIP_RETURN_CODE) when
                                    PROGRAM (oclgrind) is not on the PATH

Substitutions in RUN lines: %s the test file, %S its folder, %samples the repository's
samples/, %tests its tests/, %{every_strategy} every strategy of the contract
(atomic,aggregated,ordered,chunked,tile). Every run, whatever it expects, fails on a
signal, a timeout, a sanitizer report, or exit 3 or more (unless `exit N` says so).

Prints PASS or FAIL for each run (on failure: the command, what was expected, what came
out, and the output), then "kernel tests: F files, R runs, N failures". Exits 0 when
every run did what its file says, 1 otherwise, 2 on a malformed header.
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
EVERY_STRATEGY = "atomic,aggregated,ordered,chunked,tile"
SUFFIXES = (".cl", ".test")

PASSED_RE = (r"^validation passed: the generated (?:set matches|sets of all [0-9]+ "
             r"strategy/dispatch pairs match) the original$")
RULE_RE = re.compile(r"\[(nplus1-[a-z0-9-]+)\]")
# Under ASan, LeakSanitizer's exit-time tracer sometimes crashes in a process
# with POCL's threads (google/sanitizers#1353): no leak report, a flake.
LSAN_TRACER_FLAKE = "LeakSanitizer has encountered a fatal error"
SANITIZER_REPORTS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error: ")
SUBST_RE = re.compile(r"%\{([a-z_]+)\}|%(samples|tests|S|s)(?![A-Za-z_])")


class HeaderError(Exception):
    pass


class Test:
    def __init__(self, path):
        self.path = os.path.abspath(path)
        self.runs = []        # the RUN lines as written (continuations joined)
        self.expect = None    # the EXPECT words
        self.output = []      # OUTPUT regexes
        self.output_not = []  # OUTPUT-NOT regexes
        self.xfail = None
        self.requires = []    # programs that must be on the PATH
        self.timeout = None   # seconds a run, when the file says


def read_header(path):
    """The Test of a file; HeaderError when its head is malformed."""
    t = Test(path)
    pending = None
    with open(path, encoding="utf-8-sig", errors="replace") as f:  # -sig: a byte-order mark
        for line in f:
            line = line.strip()
            if not line.startswith("//"):
                if line:
                    break
                continue
            body = line[2:].strip()
            key, _, rest = body.partition(":")
            rest = rest.strip()
            if key == "RUN":
                text = rest if pending is None else pending + " " + rest
                pending = text[:-1].rstrip() if text.endswith("\\") else None
                if pending is None:
                    t.runs.append(text)
            elif pending is not None:
                raise HeaderError("a RUN line ends in '\\' but no RUN line follows it")
            elif key == "EXPECT":
                if t.expect is not None:
                    raise HeaderError("two EXPECT lines")
                t.expect = rest.split()
            elif key == "OUTPUT":
                t.output.append(rest)
            elif key == "OUTPUT-NOT":
                t.output_not.append(rest)
            elif key == "XFAIL":
                t.xfail = rest
            elif key == "TIMEOUT":
                try:
                    t.timeout = float(rest)
                except ValueError:
                    raise HeaderError("TIMEOUT takes seconds, not '%s'" % rest)
            elif key == "REQUIRES":
                t.requires += rest.split()
    if pending is not None:
        raise HeaderError("the last RUN line ends in '\\'")
    if not t.runs:
        raise HeaderError("no '// RUN: nplus1gen ...' line")
    if not t.expect:
        raise HeaderError("no '// EXPECT: ...' line")
    e = t.expect
    if not (e == ["match"] or e == ["match", "all-leaves"]
            or (len(e) == 2 and e[0] == "refused" and e[1].startswith("nplus1-"))
            or (len(e) == 2 and e[0] == "exit" and e[1].isdigit())):
        raise HeaderError("EXPECT must be 'match', 'match all-leaves', 'refused nplus1-RULE' "
                          "or 'exit N', not '%s'" % " ".join(e))
    for r in t.output + t.output_not:
        try:
            re.compile(r)
        except re.error as err:
            raise HeaderError("bad OUTPUT regex %r: %s" % (r, err))
    return t


def substitute(word, path):
    def one(m):
        name = m.group(1) or m.group(2)
        table = {"s": path, "S": os.path.dirname(path),
                 "samples": os.path.join(ROOT, "samples"), "tests": HERE,
                 "every_strategy": EVERY_STRATEGY}
        if name not in table:
            raise HeaderError("unknown substitution %%{%s}" % name)
        return table[name]
    return SUBST_RE.sub(one, word)


def command(run, path, tool):
    """(environment additions, argv) of one RUN line."""
    words = [substitute(w, path) for w in shlex.split(run)]
    env = {}
    if words and words[0] == "env":
        words.pop(0)
        while words and "=" in words[0] and not words[0].startswith("-"):
            name, _, value = words.pop(0).partition("=")
            env[name] = value
    if not words or words[0] != "nplus1gen":
        raise HeaderError("a RUN line runs nplus1gen ('// RUN: [env N=V...] nplus1gen ARGS'), "
                          "not: %s" % run)
    return env, [tool] + words[1:]


def execute(argv, env, cwd, timeout):
    """(exit code or None on timeout, output, seconds)."""
    full_env = dict(os.environ)
    full_env.update(env)
    t0 = time.monotonic()
    try:
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           env=full_env, cwd=cwd, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        out = (e.output or b"").decode("utf-8", "replace")
        return None, out, time.monotonic() - t0
    return p.returncode, p.stdout.decode("utf-8", "replace"), time.monotonic() - t0


def expected_text(t):
    """What the header asks for, in words (printed on failure)."""
    e = t.expect
    if e[0] == "match":
        s = "exit 0, '%s', no 'FAILED'" % PASSED_RE
        if len(e) > 1:
            s += ", no 'not exercised' or 'inconclusive'"
    elif e[0] == "refused":
        s = "exit 1 with [%s]" % e[1]
    else:
        s = "exit %s" % e[1]
    for r in t.output:
        s += "\n            output matches: %s" % r
    for r in t.output_not:
        s += "\n            output does not match: %s" % r
    return s


def judge(t, rc, out):
    """'' when the run did what the header says, else why not (one line)."""
    e = t.expect
    if rc is None:
        return "timed out (hang?)"
    for line in out.splitlines():
        if any(x in line for x in SANITIZER_REPORTS):
            return "sanitizer report: " + line.strip()[:200]
    if rc < 0:
        return "killed by signal %d" % -rc
    want_rc = {"match": 0, "refused": 1}.get(e[0])
    if want_rc is None:
        want_rc = int(e[1])
    if rc != want_rc:
        return "exit %d, expected %d%s" % (rc, want_rc, first_error(out))
    if e[0] == "match":
        if not re.search(PASSED_RE, out, re.M):
            return "no line 'validation passed: the generated set(s) ... match the original'"
        if "FAILED" in out:
            return "the output says FAILED"
        if len(e) > 1 and ("not exercised" in out or "inconclusive" in out):
            return "a leaf got no items (not exercised), or the run was inconclusive"
    elif e[0] == "refused":
        rules = RULE_RE.findall(out)
        if e[1] not in rules:
            return "refused with %s, expected [%s]" % (sorted(set(rules)) or "no rule", e[1])
    for i, r in enumerate(t.output, 1):
        if not re.search(r, out, re.M):
            return "OUTPUT line %d of %d not found in the output (below)" % (i, len(t.output))
    for r in t.output_not:
        m = re.search(r, out, re.M)
        if m:
            return "the output has %r, which OUTPUT-NOT %s refuses" % (m.group(0)[:200], r)
    return ""


def first_error(out):
    lines = [l for l in out.splitlines() if "error" in l or "FAILED" in l]
    return (": " + lines[0].strip()[:200]) if lines else ""


def test_files(paths):
    """The test files named, and those with a RUN line in the folders named, sorted."""
    files = []
    for p in paths:
        if not os.path.isdir(p):
            files.append(p)
            continue
        for f in sorted(os.listdir(p)):
            if f.endswith(SUFFIXES):
                with open(os.path.join(p, f), encoding="utf-8-sig", errors="replace") as fh:
                    head = fh.read(4096)
                if re.search(r"^\s*//\s*RUN:", head, re.M):
                    files.append(os.path.join(p, f))
    return sorted(files)


def run_test(args, path):
    """Number of runs that failed (or did not fail under XFAIL), printing each."""
    name = os.path.relpath(path, ROOT)
    try:
        t = read_header(path)
        cmds = [(run, command(run, t.path, args.tool)) for run in t.runs]
    except (HeaderError, OSError, ValueError) as err:
        print("BAD HEADER %s: %s" % (name, err))
        return None
    missing = [p for p in t.requires if not shutil.which(p)]
    if missing:
        print("SKIP  %s: REQUIRES %s, not found on the PATH" % (name, " ".join(missing)))
        return "skipped"
    bad = 0
    for i, (run, (env, argv)) in enumerate(cmds, 1):
        limit = t.timeout or args.timeout
        rc, out, secs = execute(argv, env, os.path.dirname(t.path), limit)
        if LSAN_TRACER_FLAKE in out:   # LeakSanitizer's tracer crashed: not a leak report
            rc, out, secs = execute(argv, env, os.path.dirname(t.path), limit)
        why = judge(t, rc, out)
        which = "%s, RUN %d of %d" % (name, i, len(cmds))
        if t.xfail and why:
            print("XFAIL %s: %s (known bug: %s)" % (which, why, t.xfail))
        elif t.xfail:
            print("XPASS %s: passes now; remove its XFAIL line (%s)" % (which, t.xfail))
            bad += 1
        elif not why:
            print("PASS  %s (%.1f s): %s" % (which, secs, run))
        else:
            shown = " ".join(shlex.quote(w) for w in
                             ["%s=%s" % kv for kv in env.items()] + argv)
            print("FAIL  %s (%.1f s)\n  RUN:      %s\n  command:  cd %s && %s\n"
                  "  expected: %s\n  got:      %s\n  output:\n%s"
                  % (which, secs, run, shlex.quote(os.path.dirname(t.path)), shown,
                     expected_text(t), why, indent(out)))
            bad += 1
    return bad


def indent(out):
    lines = out.rstrip("\n").splitlines() or ["(no output)"]
    return "\n".join("    | " + l for l in lines)


def list_runs(args, files):
    """The runs of each file, resolved, as JSON (for scripts/gpu-check.sh)."""
    import json
    result = []
    for path in files:
        t = read_header(path)
        for i, run in enumerate(t.runs, 1):
            env, argv = command(run, t.path, args.tool)
            want = {"match": 0, "refused": 1}.get(t.expect[0])
            result.append({"file": t.path, "run": i, "runs": len(t.runs), "env": env,
                           "argv": argv, "cwd": os.path.dirname(t.path),
                           "exit": int(t.expect[1]) if want is None else want,
                           "expect": t.expect, "requires": t.requires,
                           "output": ([PASSED_RE] if t.expect[0] == "match" else [])
                           + t.output, "output_not": t.output_not})
    json.dump(result, sys.stdout, indent=1)
    print()
    return 0


def default_tool():
    return os.path.join(ROOT, "build", "tool", "nplus1gen")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].strip(),
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+", metavar="FILE|DIR",
                    help="test files, or folders whose .cl/.test files with a RUN line run")
    ap.add_argument("--tool", default=default_tool(), help="nplus1gen binary")
    ap.add_argument("--timeout", type=float, default=240, help="seconds per run (default 240)")
    ap.add_argument("--list", action="store_true", help="print the runs as JSON, run nothing")
    args = ap.parse_args()
    files = test_files(args.paths)
    if args.list:
        return list_runs(args, files)
    if not os.access(args.tool, os.X_OK):
        print("kernel_test.py: cannot run nplus1gen at '%s' (build it, or pass --tool)"
              % args.tool)
        return 2
    # as ctest's NPLUS1_TEST_ENV, when run by hand
    if not os.environ.get("POCL_CACHE_DIR"):
        os.environ["POCL_CACHE_DIR"] = os.path.join(ROOT, "build", "pocl-cache")
    os.environ.setdefault("NPLUS1_SPLIT", "always")
    bad = runs = skipped = 0
    malformed = False
    for path in files:
        n = run_test(args, path)
        if n is None:
            malformed = True
        elif n == "skipped":
            skipped += 1
        else:
            bad += n
            runs += len(read_header(path).runs)
    print("kernel tests: %d files, %d runs, %d failures%s%s"
          % (len(files), runs, bad, ", %d skipped" % skipped if skipped else "",
             ", a malformed header" if malformed else ""))
    if malformed:
        return 2
    if bad:
        return 1
    return 77 if files and skipped == len(files) else 0


if __name__ == "__main__":
    sys.exit(main())
