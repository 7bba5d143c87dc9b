#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
run.py - random differential testing of nplus1gen.

    run.py --count N --seed S [--jobs J] [--tool PATH] [--failures DIR]
    run.py --regressions PATH... [--tool PATH]

Generates N kernels with gen.py (kernel i of the run uses seed S * 1000003 + i,
so any one can be regenerated alone with `gen.py SEED`), then:
  - legal kernels:   nplus1gen FILE --validate ...  must exit 0 ("validation
                     passed": original and generated set agree on POCL), or
                     exit 1 "validation inconclusive:" when constant
                     conditions leave no working leaf reachable (counted apart);
  - illegal kernels: nplus1gen FILE --check ...     must exit 1 with the
                     expected [nplus1-rule] diagnostic.
Any other outcome is a FAILURE, saved as DIR/<seed>/kernel.cl with cmd.txt
(the exact command line) and output.txt:
  mismatch          validation ran and found a difference
  crash             exit >= 3, a signal, or a timeout (hang)
  wrongly-refused   a legal kernel was refused (the generator's fault or a
                    tool bug: read the diagnostic)
  wrongly-accepted  an illegal kernel was not refused
  wrong-rule        refused, but without the expected rule
  clang-rejected    clang found an error in a generated kernel (generator bug)
  other             any other exit code or output
Exits 1 on any failure, 0 otherwise.

--regressions PATH... runs kernel tests (tests/regressions/*.cl; the files
named, or those of a folder named) through tests/kernel_test.py, which ctest
uses: the first lines of each file say how to run it (`// RUN: nplus1gen %s
OPTIONS`) and what must happen (`// EXPECT: match [all-leaves]`, `refused
nplus1-RULE`, `exit N`; docs/testing.md, "Labels, matrices, and how to add a
test").
"""

import argparse
import concurrent.futures
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402
import loopgen  # noqa: E402

RULE_RE = re.compile(r"\[(nplus1-[a-z-]+)\]")
# Under ASan, LeakSanitizer's exit-time tracer sometimes crashes in a process
# with POCL's threads (google/sanitizers#1353): no leak report, a flake.
LSAN_TRACER_FLAKE = "LeakSanitizer has encountered a fatal error"
# ASan, LSan and UBSan exit 1 by default: their reports are crashes, not refusals
SANITIZER_REPORTS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error: ")


def default_tool():
    root = os.path.dirname(os.path.dirname(HERE))
    return os.path.join(root, "build", "tool", "nplus1gen")


def run_tool(tool, path, options, timeout):
    """(exit code or None on timeout, signal or None, combined output, seconds)."""
    cmd = [tool, path] + options
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout)
    except subprocess.TimeoutExpired as e:
        out = e.output or b""
        return None, None, out.decode("utf-8", "replace"), time.monotonic() - t0
    out = p.stdout.decode("utf-8", "replace")
    sig = -p.returncode if p.returncode < 0 else None
    return p.returncode, sig, out, time.monotonic() - t0


def verdict(legal, rule, rc, sig, out):
    """'ok-matched' | 'ok-refused' | a failure kind, and a one-line reason."""
    rules = RULE_RE.findall(out)
    if rc is None:
        return "crash", "timed out (hang?)"
    for l in out.splitlines():
        if any(x in l for x in SANITIZER_REPORTS):
            return "crash", l.strip()[:200]
    if sig:
        return "crash", "killed by signal %d" % sig
    if rc >= 3:
        return "crash", "exit %d: %s" % (rc, last_error(out))
    if "error:" in out and not rules and rc == 1 and "validation FAILED" not in out:
        return "clang-rejected", last_error(out)
    if legal:
        if rc == 0 and "validation passed" in out:
            return "ok-matched", ""
        if rc == 1 and "validation inconclusive:" in out:
            # constant conditions can leave no working leaf reachable: nothing to prove
            return "ok-inconclusive", ""
        if rc == 1 and "validation FAILED" in out:
            return "mismatch", first_mismatch(out)
        if rc == 1 and rules:
            return "wrongly-refused", last_error(out)
        return "other", "exit %d: %s" % (rc, last_error(out))
    if rc == 0:
        return "wrongly-accepted", "exit 0, expected [%s]" % rule
    if rc == 1 and rule in rules:
        return "ok-refused", ""
    if rc == 1 and rules:
        return "wrong-rule", "got %s, expected [%s]" % (sorted(set(rules)), rule)
    return "other", "exit %d: %s" % (rc, last_error(out))


def last_error(out):
    lines = [l for l in out.splitlines() if "error" in l]
    return (lines[0] if lines else (out.strip().splitlines() or [""])[-1])[:200]


def first_mismatch(out):
    for l in out.splitlines():
        if "mismatch:" in l:
            return l.strip()[:200]
    return "outputs differ"


def check_options(options):
    """The --check form of --validate options: the front end alone, no device."""
    out, skip = [], 0
    for i, o in enumerate(options):
        if skip:
            skip -= 1
            continue
        if o in ("--global", "--local", "--offset", "--arg", "--seed", "--ulp", "--reps",
                 "--timeout", "--unordered", "--count", "--device"):
            skip = 1
            continue
        if o == "--require-all-leaves":   # --check refuses validation options (exit 2)
            continue
        out.append("--check" if o == "--validate" else o)
    return out


def save_failure(dirname, name, source, tool, options, out, kind, reason):
    d = os.path.join(dirname, name)
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "kernel.cl")
    with open(path, "w") as f:
        f.write(source)
    with open(os.path.join(d, "cmd.txt"), "w") as f:
        f.write("%s\n# %s: %s\n" % (" ".join(shlex.quote(x) for x in [tool, path] + options),
                                   kind, reason))
    with open(os.path.join(d, "output.txt"), "w") as f:
        f.write(out)
    return d


# ---- random kernels ------------------------------------------------------------------

def one_case(args, tmpdir, i):
    seed = args.seed * 1000003 + i
    if args.loops:
        case = loopgen.generate(seed)
    else:
        case = gen.generate(seed, illegal_rate=args.illegal_rate)
    path = os.path.join(tmpdir, "fz_%d.cl" % seed)
    with open(path, "w") as f:
        f.write(case.source)
    options = case.options
    if args.check_only and case.legal:
        options = check_options(options)
    rc, sig, out, secs = run_tool(args.tool, path, options, args.timeout)
    retried = LSAN_TRACER_FLAKE in out
    if retried:   # not a leak report: LeakSanitizer's own tracer crashed; run it again
        rc, sig, out, secs = run_tool(args.tool, path, options, args.timeout)
    kind, reason = verdict(case.legal, case.rule, rc, sig, out)
    if args.check_only and case.legal and kind == "other" and rc == 0:
        kind, reason = "ok-matched", ""
    shape = getattr(case, "shape", None)
    said = None
    if args.loops and shape not in (None, "classic"):
        said, secs2 = shape_verdict(args, path, case.options)
        secs += secs2
        if kind == "wrongly-refused" and said.startswith("refused "):
            kind, reason = "ok-refused-shape", ""   # the tool says why, at a rule: counted
        elif kind == "ok-matched":
            kind = "ok-matched-shape"
    elif args.loops and kind == "ok-matched" and "when loop at line" not in out:
        kind = "ok-matched-plain"   # validated, but the loop kept (not regrouped)
    if args.loops and getattr(case, "multi", 0):
        kind += "+multi"   # several decisions in the body (loopgen.second_decision)
    saved = None
    if not kind.startswith("ok"):
        saved = save_failure(args.failures, str(seed), case.source, args.tool, case.options,
                             out, kind, reason)
    os.unlink(path)
    case.said = said
    return seed, case, kind, reason, saved, secs, retried


def shape_verdict(args, path, options):
    """What the tool does with a kernel of a real-code shape (loopgen.SHAPES), from
    `--report --split auto` (no device): 'regrouped' (a loop regrouped round by round),
    'split' (split at a decision outside the loops), 'kept original' (split: never) or
    'refused RULE'; and the seconds it took."""
    env = dict(os.environ)
    env.pop("NPLUS1_SPLIT", None)   # ctest forces the split: ask what auto would do
    t0 = time.monotonic()
    try:
        p = subprocess.run([args.tool, path, "--report", "--split", "auto"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                           timeout=args.timeout)
        out = p.stdout.decode("utf-8", "replace")
        rc = p.returncode
    except subprocess.TimeoutExpired:
        return "report timed out", time.monotonic() - t0
    secs = time.monotonic() - t0
    rules = RULE_RE.findall(out)
    if rc != 0:
        return ("refused " + rules[0]) if rules else "report exit %d" % rc, secs
    if re.search(r"^  loop \(tile\): line \d+: regrouped round by round", out, re.M):
        return "regrouped", secs
    if "  split: never:" in out:
        return "kept original", secs
    return "split", secs


def interrupt(signum, frame):
    """SIGTERM stops a soak like Ctrl-C: the summary still counts what finished."""
    raise KeyboardInterrupt


def run_random(args):
    os.makedirs(args.failures, exist_ok=True)
    counts = {}
    legal = illegal = 0
    by_rule = {}
    shapes = {}   # --loops: shape -> {outcome: count}
    failures = []
    t0 = time.monotonic()
    tool_secs = 0.0
    done = 0
    flakes = 0
    with tempfile.TemporaryDirectory(prefix="nplus1-fuzzgen-") as tmpdir, \
            concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futs = [pool.submit(one_case, args, tmpdir, i) for i in range(args.count)]
        try:
            completed = concurrent.futures.as_completed(futs)
            for n, fut in enumerate(completed, 1):
                seed, case, kind, reason, saved, secs, retried = fut.result()
                done = n
                if args.loops:
                    row = shapes.setdefault(getattr(case, "shape", "classic"), {})
                    key = case.said or ("regrouped" if kind.startswith("ok-matched+") or
                                        kind == "ok-matched" else
                                        "kept in a plain tile" if kind.startswith(
                                            "ok-matched-plain") else None)
                    if key:
                        row[key] = row.get(key, 0) + 1
                    row["generated"] = row.get("generated", 0) + 1
                    if not kind.startswith("ok"):
                        row["FAILED"] = row.get("FAILED", 0) + 1
                    elif kind.startswith("ok-inconclusive"):
                        row["inconclusive"] = row.get("inconclusive", 0) + 1
                flakes += retried
                tool_secs += secs
                counts[kind] = counts.get(kind, 0) + 1
                if case.legal:
                    legal += 1
                else:
                    illegal += 1
                    by_rule[case.rule] = by_rule.get(case.rule, 0) + 1
                if saved:
                    failures.append((seed, kind, reason, saved))
                    print("FAIL %-16s seed %d: %s\n     saved in %s" % (kind, seed, reason, saved),
                          flush=True)
                if args.progress and n % args.progress == 0:
                    print("... %d/%d kernels, %d failures, %.0f s" % (
                        n, args.count, len(failures), time.monotonic() - t0), flush=True)
        except KeyboardInterrupt:   # Ctrl-C or SIGTERM: report what finished
            print("interrupted: stopping after the kernels in flight", flush=True)
            for f in futs:
                f.cancel()
    stopped = done < args.count
    args.count = done
    wall = time.monotonic() - t0
    multi = {k[:-len("+multi")]: c for k, c in counts.items() if k.endswith("+multi")}
    for k, c in multi.items():   # count them with the others, and apart below
        counts[k] = counts.get(k, 0) + c
        del counts[k + "+multi"]
    ok_m = counts.get("ok-matched", 0)
    ok_s = counts.get("ok-matched-shape", 0)
    ok_r = counts.get("ok-refused", 0)
    if stopped:
        print("fuzzgen: interrupted; the figures below count the %d kernels that finished" % done)
    print("fuzzgen: seed %d: %d kernels generated (%d legal, %d illegal) in %.1f s "
          "(%.2f s per kernel, %d jobs)" % (args.seed, args.count, legal, illegal, wall,
                                            tool_secs / max(args.count, 1), args.jobs))
    print("  transformed and matched: %d" % (ok_m + ok_s + counts.get("ok-matched-plain", 0)))
    if counts.get("ok-refused-shape"):
        print("  refused at a rule (a real-code shape the tool does not split yet): %d"
              % counts["ok-refused-shape"])
    if args.loops:
        print("    classic shape: the loop regrouped (its branches are the leaves): %d; kept in "
              "a plain tile: %d" % (ok_m, counts.get("ok-matched-plain", 0)))
        print("    real-code shapes (loopgen.SHAPES) that validated: %d" % ok_s)
        print("    with several decisions in the body: %d generated, %d regrouped and matched"
              % (sum(multi.values()), multi.get("ok-matched", 0)))
        print("  per shape (classic: --strategy tile; the others: the default set, --split "
              "always, and what --report --split auto says):")
        for sh in sorted(shapes, key=lambda k: (k != "classic", k)):
            row = dict(shapes[sh])
            total = row.pop("generated")
            print("    %-9s %3d: %s" % (sh, total, ", ".join(
                "%s %d" % (k, c) for k, c in sorted(row.items())) or "-"))
    if counts.get("ok-inconclusive"):
        print("  inconclusive (no item reached a working leaf: constant conditions): %d"
              % counts["ok-inconclusive"])
    print("  refused as expected:     %d  (%s)" % (ok_r, ", ".join(
        "%s %d" % (r, c) for r, c in sorted(by_rule.items()))))
    if flakes:
        print("  run again after LeakSanitizer's tracer crashed (google/sanitizers#1353): %d"
              % flakes)
    print("  FAILURES:                %d" % len(failures))
    for kind in sorted(counts):
        if not kind.startswith("ok"):
            print("    %-18s %d" % (kind, counts[kind]))
    for seed, kind, reason, saved in sorted(failures):
        print("    seed %d %s: %s (%s)" % (seed, kind, reason, saved))
    return 1 if failures else 0


# ---- regression kernels -------------------------------------------------------------

def run_regressions(args):
    """The kernel tests named (tests/kernel_test.py, which ctest runs one file a test)."""
    sys.path.insert(0, os.path.dirname(HERE))
    import kernel_test  # noqa: E402
    argv = ["--tool", args.tool, "--timeout", str(args.timeout)] + args.regressions
    sys.argv = [os.path.join(os.path.dirname(HERE), "kernel_test.py")] + argv
    return kernel_test.main()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].strip(),
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=200, help="kernels to generate (default 200)")
    ap.add_argument("--seed", type=int, default=int(os.environ.get("NPLUS1_FUZZGEN_SEED", "1")),
                    help="run seed (default $NPLUS1_FUZZGEN_SEED, else 1)")
    ap.add_argument("--jobs", type=int, default=2, help="parallel nplus1gen runs (default 2)")
    ap.add_argument("--tool", default=default_tool(), help="nplus1gen binary")
    ap.add_argument("--failures", default=os.path.join(os.getcwd(), "fuzzgen-failures"),
                    help="where failing kernels are saved (default ./fuzzgen-failures)")
    ap.add_argument("--timeout", type=float, default=120, help="seconds per nplus1gen run")
    ap.add_argument("--illegal-rate", type=float, default=0.25,
                    help="share of kernels with an illegal construct (default 0.25)")
    ap.add_argument("--progress", type=int, default=0, metavar="N",
                    help="print a progress line every N kernels")
    ap.add_argument("--no-pocl-cache", action="store_true",
                    help="POCL_KERNEL_CACHE=0: do not keep every compiled kernel (soaks)")
    ap.add_argument("--check-only", action="store_true",
                    help="legal kernels get --check instead of --validate (front end only, fast)")
    ap.add_argument("--regressions", metavar="PATH", nargs="+",
                    help="run the regression kernels: .cl files, or every .cl of a folder")
    ap.add_argument("--loops", action="store_true",
                    help="loop kernels (loopgen.py) under --strategy tile: the loop kernel")
    args = ap.parse_args()
    if not os.access(args.tool, os.X_OK):
        print("run.py: cannot run nplus1gen at '%s' (build it, or pass --tool)" % args.tool)
        return 2
    if args.no_pocl_cache:
        os.environ["POCL_KERNEL_CACHE"] = "0"
    if not os.environ.get("POCL_CACHE_DIR"):
        os.environ["POCL_CACHE_DIR"] = os.path.join(tempfile.gettempdir(), "nplus1-pocl-cache")
    if args.regressions:
        return run_regressions(args)
    signal.signal(signal.SIGTERM, interrupt)
    return run_random(args)


if __name__ == "__main__":
    sys.exit(main())
