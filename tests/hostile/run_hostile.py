#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
run_hostile.py - nplus1gen on hostile input: no crash, no hang, no lost files.

    run_hostile.py [--tool PATH] [--work DIR] [--only NAME] [--big]

Every case runs nplus1gen under a timeout and checks that it
  - exits 1 (input cannot be transformed) or 2 (usage error), or 0 where the
    input is fine after all; never 3 or more, never a signal, never a hang;
  - says why in a clear first line: "nplus1gen: error: ..." or clang's own
    "file:line:col: error: ...";
  - leaves an existing output directory exactly as it was when it fails, and
    replaces the generated files (keeping the rest) when it succeeds.
Prints one line per case with its exit code and time, then a summary; exits
1 when a case fails. Cases that cannot run here (an unreadable file when
running as root) are SKIPPED with the reason.
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SAMPLE = os.path.join(ROOT, "samples", "oneKernel.cl")

FIRST_LINE_OK = ("nplus1gen: error: ", "error: ", "fatal error: ")
# ASan, LSan and UBSan exit 1 by default: their reports are crashes, not refusals
SANITIZER_REPORTS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error: ")

KERNEL = """__kernel void k(__global const int *a, __global float *o)
{
    int g = get_global_id(0);
    if (a[g] > 512)
        o[g] = 1.0f;
    else
        o[g] += 2.0f;
}
"""

REFUSED = """__kernel void k(__global const int *a, __global float *o)
{
    int g = get_global_id(0);
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (a[g] > 512)
        o[g] = 1.0f;
}
"""


class Result:
    def __init__(self, name):
        self.name = name
        self.status = "PASS"
        self.why = ""
        self.rc = None
        self.secs = 0.0
        self.first = ""

    def fail(self, why):
        if self.status != "FAIL":
            self.status, self.why = "FAIL", why

    def skip(self, why):
        self.status, self.why = "SKIP", why


class Suite:
    def __init__(self, tool, work):
        self.tool = tool
        self.work = work
        self.results = []

    def path(self, name):
        return os.path.join(self.work, name)

    def write(self, name, data, mode="w"):
        p = self.path(name)
        with open(p, mode) as f:
            f.write(data)
        return p

    def run(self, name, args, expect=(1,), timeout=60, xfail=None, env=None):
        """
        Runs nplus1gen; checks the exit code and the first line of stderr.
        xfail names a known, unfixed bug the case still shows: its failure is
        reported as XFAIL, and a pass as XPASS (a failure: remove the marker).
        env: variables to set for this run.
        """
        r = Result(name)
        r.xfail = xfail
        t0 = time.monotonic()
        try:
            p = subprocess.run([self.tool] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=timeout, stdin=subprocess.DEVNULL,
                               env=dict(os.environ, **env) if env else None)
            r.rc = p.returncode
            err = p.stderr.decode("utf-8", "replace")
            r.out = p.stdout.decode("utf-8", "replace")
        except subprocess.TimeoutExpired:
            r.secs = time.monotonic() - t0
            r.err = ""
            r.fail("no answer within %d s (hang)" % timeout)
            self.results.append(r)
            return r
        r.secs = time.monotonic() - t0
        r.err = err
        lines = [l for l in err.splitlines() if l.strip()]
        r.first = lines[0] if lines else ""
        if r.rc < 0:
            r.fail("killed by signal %d" % -r.rc)
        elif any(x in err for x in SANITIZER_REPORTS):
            r.fail("sanitizer report: %s" % next(l for l in err.splitlines()
                                                 if any(x in l for x in SANITIZER_REPORTS)))
        elif r.rc >= 3:
            r.fail("exit %d (internal error): %s" % (r.rc, r.first))
        elif r.rc not in expect:
            r.fail("exit %d, expected %s: %s" % (r.rc, "/".join(map(str, expect)), r.first))
        elif r.rc != 0 and not self.clear(r.first):
            r.fail("first line of stderr is not a clear error: %r" % r.first[:120])
        elif r.rc != 0 and any(ord(c) < 32 and c not in "\t\n\r" for c in err):
            r.fail("control characters in the diagnostics")
        self.results.append(r)
        return r

    @staticmethod
    def clear(line):
        if line.startswith(FIRST_LINE_OK):
            return True
        parts = line.split(": ", 2)   # file:line:col: error: message
        return len(parts) >= 2 and parts[1] in ("error", "fatal error") and \
            parts[0].count(":") >= 2

    def expect_in(self, r, text):
        if r.status == "PASS" and text not in r.err:
            r.fail("stderr lacks %r; first line: %s" % (text, r.first))

    def skip(self, name, why):
        r = Result(name)
        r.skip(why)
        self.results.append(r)


# ---- outdir helpers -------------------------------------------------------------------

def snapshot(d):
    """{relative path: bytes} of every file under d (directories as None)."""
    out = {}
    for root, dirs, files in os.walk(d):
        for x in dirs:
            out[os.path.relpath(os.path.join(root, x), d)] = None
        for x in files:
            p = os.path.join(root, x)
            with open(p, "rb") as f:
                out[os.path.relpath(p, d)] = f.read()
    return out


def old_outdir(s, name, stem="k"):
    d = s.path(name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for f in ("%s.nplus1.cl" % stem, "%s_nplus1.h" % stem, "%s_nplus1.c" % stem,
              "%s.nplus1.json" % stem, "keep-me.txt"):
        with open(os.path.join(d, f), "w") as fh:
            fh.write("old contents of %s\n" % f)
    return d


# ---- the cases ---------------------------------------------------------------------------

def big_file(size):
    """About size bytes of valid OpenCL C: one branchy kernel and many helpers."""
    r = random.Random(1)
    parts = [KERNEL]
    n = len(KERNEL)
    i = 0
    while n < size:
        body = "".join("    a = a * %d.5f + (float)%d;\n    if (a > %d.0f)\n        a -= %d.0f;\n"
                       % (r.randrange(9), j, r.randrange(1000), r.randrange(9)) for j in range(40))
        f = "static float pad_%d(float x)\n{\n    float a = x;\n%s    return a;\n}\n" % (i, body)
        parts.append(f)
        n += len(f)
        i += 1
    return "".join(parts)


def many_kernels(n):
    return "".join(
        "__kernel void k%d(__global const int *a, __global float *o)\n{\n"
        "    int g = get_global_id(0);\n    if (a[g] > %d)\n        o[g] = %d.0f;\n"
        "    else\n        o[g] += 1.0f;\n}\n" % (i, i % 1000, i % 7) for i in range(n))


def nested_ifs(depth, braces):
    s = ["__kernel void deep(__global const int *a, __global int *o)\n{\n",
         "    int g = get_global_id(0);\n    int v = a[g];\n"]
    for d in range(depth):
        s.append("    if (v > %d)%s\n" % (d, " {" if braces else ""))
    s.append("    o[g] = v;\n")
    if braces:
        s.append("    }" * depth + "\n")
    s.append("}\n")
    return "".join(s)


def ifs_in_a_row(n):
    s = ["__kernel void row(__global const int *a, __global int *o)\n{\n",
         "    int g = get_global_id(0);\n    int v = a[g];\n"]
    for i in range(n):
        s.append("    if (v & %d)\n        o[g] += %d;\n    else\n        o[g] -= 1;\n"
                 % (1 << (i % 30), i))
    s.append("}\n")
    return "".join(s)


def small_functions(count, by_size=False):
    """KERNEL and count tiny helpers nobody calls (by_size: as many as fill count bytes)."""
    parts = [KERNEL]
    n = len(KERNEL)
    i = 0
    while (n if by_size else i) < count:
        f = "static float pad_%d(float x)\n{\n    return x * %d.0f + 1.0f;\n}\n" % (i, i % 97)
        parts.append(f)
        n += len(f)
        i += 1
    return "".join(parts)


def called_functions(n):
    """n helpers, each calling the one before; the kernel calls each of them in a branch."""
    parts = ["static int wid_0(int x)\n{\n    return x + (int)get_global_id(0);\n}\n"]
    parts += ["static int wid_%d(int x)\n{\n    return wid_%d(x) %% %d;\n}\n" % (i, i - 1, i + 7)
              for i in range(1, n)]
    parts.append("__kernel void k(__global const int *a, __global int *o)\n{\n"
                 "    int g = get_global_id(0);\n    if (a[g] > 512) {\n")
    parts += ["        o[g] += wid_%d(a[g]);\n" % i for i in range(0, n, max(1, n // 2000))]
    parts.append("    } else {\n        o[g] = 2;\n    }\n}\n")
    return "".join(parts)


def one_line(n, newline):
    """A kernel whose last line holds n statements (and its closing brace)."""
    body = " ".join("o[g] += %d.0f;" % (i % 10) for i in range(n))
    return KERNEL[:KERNEL.rindex("}")] + "    " + body + " }" + ("\n" if newline else "")


def long_sum(n):
    """A kernel whose branch assigns a sum of n terms (a left-nested tree n deep)."""
    terms = " + ".join("a[g + %d]" % (i % 8) for i in range(n))
    return ("__kernel void k(__global const int *a, __global int *o)\n{\n"
            "    int g = get_global_id(0);\n    if (a[g] > 512)\n        o[g] = %s;\n"
            "    else\n        o[g] = 2;\n}\n" % terms)


def cases_input_files(s):
    s.expect_in(s.run("empty file", [s.write("empty.cl", ""), "--check"]),
                "defines no __kernel")
    rng = random.Random(2)
    junk = bytes(rng.randrange(256) for _ in range(4096))
    s.expect_in(s.run("binary junk (with NUL bytes)", [s.write("junk.bin", junk, "wb"), "--check"]),
                "NUL bytes")
    junk2 = bytes(b for b in junk if b)
    s.run("binary junk (no NUL bytes)", [s.write("junk2.cl", junk2, "wb"), "--check"])
    s.expect_in(s.run("a directory as input", [s.work, "--check"]), "directory")
    s.expect_in(s.run("a missing file", [s.path("no-such-file.cl"), "--check"]),
                "No such file")
    p = s.write("unreadable.cl", KERNEL)
    os.chmod(p, 0)
    if os.access(p, os.R_OK):
        s.skip("an unreadable file", "running as root: chmod 000 does not stop reads")
    else:
        s.expect_in(s.run("an unreadable file", [p, "--check"]), "Permission denied")
    os.chmod(p, 0o644)
    s.expect_in(s.run("/dev/zero as input (endless)", ["/dev/zero", "--check"], timeout=20),
                "not a regular file")
    fifo = s.path("fifo.cl")
    if not os.path.exists(fifo):
        os.mkfifo(fifo)
    s.expect_in(s.run("a FIFO as input (nobody writes)", [fifo, "--check"], timeout=20),
                "not a regular file")
    latin1 = b"/* caf\xe9, na\xefve, \xff\xfe */\n" + KERNEL.encode()
    s.run("non-UTF-8 bytes in a comment", [s.write("latin1.cl", latin1, "wb"),
                                           "-o", s.path("out-latin1"), "-q"], expect=(0,))
    bad_ident = KERNEL.replace("int g =", "int g\xe9 = 0; int g =").encode("latin-1")
    s.run("non-UTF-8 bytes in code", [s.write("latin1code.cl", bad_ident, "wb"), "--check"])
    s.run("a file that includes itself", [s.write("self.cl", '#include "self.cl"\n' + KERNEL),
                                          "--check"])
    s.run("one 1 MB line", [s.write("longline.cl", KERNEL.replace(
        "int g", "/*" + "x" * (1 << 20) + "*/ int g")), "--check"], expect=(0,))


def cases_size(s):
    big = s.write("big10mb.cl", big_file(10 << 20))
    r = s.run("a 10 MB kernel file (--check)", [big, "--check", "-q"], expect=(0,), timeout=600)
    r.why = r.why or "%.1f MB" % (os.path.getsize(big) / 1048576.0)
    s.run("a 10 MB kernel file (-o)", [big, "-o", s.path("out-big"), "-q"], expect=(0,),
          timeout=600)
    many = s.write("k10000.cl", many_kernels(10000))
    s.run("10,000 kernels in one file (--check)", [many, "--check", "-q"], expect=(0,),
          timeout=600)
    s.run("10,000 kernels in one file (-o)", [many, "-o", s.path("out-many"), "-q"], expect=(0,),
          timeout=600)
    # more than 64 paths: the outer levels that fit are split, the inner ones stay in the leaves
    s.run("200-deep nested ifs", [s.write("deep200.cl", nested_ifs(200, True)), "--check"],
          expect=(0,))
    s.run("300-deep nested blocks (over clang's bracket limit)",
          [s.write("deep300.cl", nested_ifs(300, True)), "--check"])
    s.run("40 if/else in a row (2^40 paths)", [s.write("seq40.cl", ifs_in_a_row(40)), "--check"],
          expect=(0,), timeout=30)
    # only the helpers a kernel reaches are summarised, found by hash (issue 16, item 8)
    s.run("60,000 small helper functions, none called", [s.write("small60k.cl", small_functions(
        60000)), "--check", "-q"], expect=(0,), timeout=60)
    s.run("10 MB of 160,000 small helper functions", [s.write("small10mb.cl", small_functions(
        10 << 20, by_size=True)), "--check", "-q"], expect=(0,), timeout=60)
    s.run("a kernel that calls 20,000 helpers (-o)", [s.write("calls20k.cl", called_functions(
        20000)), "-o", s.path("out-calls"), "-q"], expect=(0,), timeout=60)
    # columns from nplus1gen's own line table: clang's scan of a last line took 468 s (item 9)
    s.run("100,000 statements on a last line without a newline (-o)",
          [s.write("line100k.cl", one_line(100000, newline=False)), "-o", s.path("out-line"),
           "-q"], expect=(0,), timeout=120)
    s.run("100,000 statements on a last line with a newline (-o)",
          [s.write("line100k-nl.cl", one_line(100000, newline=True)), "-o", s.path("out-line-nl"),
           "-q"], expect=(0,), timeout=120)
    # a large stack, and linear operator reading (item 10): clang crashed on 25,000 terms
    s.run("a 25,000-term expression (-o)", [s.write("sum25k.cl", long_sum(25000)), "-o",
                                             s.path("out-sum"), "-q"], expect=(0,), timeout=60)
    s.run("a 100,000-term expression (--check)", [s.write("sum100k.cl", long_sum(100000)),
                                                  "--check", "-q"], expect=(0,), timeout=120)
    s.expect_in(s.run("a 100,000-term expression on an 8 MiB stack (refused, no signal)",
                      [s.path("sum100k.cl"), "--check", "-q"], env={"NPLUS1_STACK_MB": "8"},
                      timeout=120), "nests too deeply")
    s.run("1000-deep nested ifs without braces",
          [s.write("deep1000.cl", nested_ifs(1000, False)), "--check"], expect=(0,), timeout=120)


def cases_options(s):
    k = s.write("k.cl", KERNEL)
    s.expect_in(s.run("unknown -k name", [k, "-k", "nope", "--check"]), "nplus1-unknown-kernel")
    s.expect_in(s.run("unknown option", [k, "--frobnicate"], expect=(2,)), "unknown option")
    s.run("unknown short option", [k, "-x"], expect=(2,))
    s.run("no input file", ["--check"], expect=(2,))
    s.run("two input files", [k, k, "--check"], expect=(2,))
    s.run("-o without a directory", [k, "-o"], expect=(2,))
    s.run("no -o and no --check", [k], expect=(2,))
    s.run("-D that breaks the code", [k, "-D", "if=while(", "--check"])
    s.run("-D that redefines int", [k, "-Dint=struct nope", "--check"])
    s.run("-D without a name", [k, "--check", "-D"], expect=(2,))
    s.run("-D=VALUE without a name", [k, "--check", "-D=1"], expect=(1, 2))
    for wg in ("0", "3", "512", "-1", "abc", "", "1e2", "99999999999999999999"):
        s.expect_in(s.run("--wg %r" % wg, [k, "--check", "--wg", wg], expect=(2,)), "--wg")
    s.run("--strategy nonsense", [k, "--check", "--strategy", "fastest"], expect=(2,))
    s.run("--cl-std nonsense", [k, "--check", "--cl-std", "CL9.9"], expect=(1, 2))
    s.run("-T a missing template directory", [k, "-o", s.path("out-t"), "-T",
                                              s.path("no-templates")], expect=(1, 2))
    s.run("--global 0", [k, "--validate", "--global", "0"], expect=(2,))
    s.run("--global a,b", [k, "--validate", "--global", "a,b"], expect=(2,))
    s.run("--global with 4 dimensions", [k, "--validate", "--global", "4,4,4,4"], expect=(2,))
    s.run("--global beyond 2^32 items", [k, "--validate", "--global", "4000000000,4000000000"],
          expect=(2,))
    s.run("--local with other dimensions than --global",
          [k, "--validate", "--global", "64,64", "--local", "8"], expect=(2,))
    s.run("--local that does not divide --global",
          [k, "--validate", "--global", "1000", "--local", "3"], expect=(2,))
    s.run("--arg without '='", [k, "--validate", "--global", "64", "--arg", "foo"], expect=(2,))
    s.run("--arg with an empty name", [k, "--validate", "--global", "64", "--arg", "=3"],
          expect=(2,))
    s.run("--seed -1", [k, "--validate", "--seed", "-1"], expect=(2,))


def cases_outdir(s):
    k = s.write("k.cl", KERNEL)
    s.expect_in(s.run("outdir under /proc (cannot be created)", [k, "-o", "/proc/nplus1gen-x"]),
                "cannot create output directory")
    f = s.write("a-file", "x")
    s.run("outdir is an existing file", [k, "-o", f])
    s.run("outdir under a file", [k, "-o", os.path.join(f, "sub")])
    ro = s.path("read-only")
    os.makedirs(ro, exist_ok=True)
    os.chmod(ro, 0o555)
    if os.access(ro, os.W_OK):
        s.skip("outdir in a read-only directory", "running as root: mode 555 does not stop writes")
    else:
        s.run("outdir in a read-only directory", [k, "-o", os.path.join(ro, "out")])
    os.chmod(ro, 0o755)

    # a refused kernel: the old outdir stays byte for byte
    d = old_outdir(s, "out-old-refused")
    before = snapshot(d)
    r = s.run("existing outdir, refused kernel", [s.write("refused.cl", REFUSED), "-o", d,
                                                   "--stem", "k"])
    if snapshot(d) != before:
        r.fail("the old outdir changed")
    # a write that fails half-way (one target is a directory): nothing replaced
    d = old_outdir(s, "out-old-blocked")
    os.remove(os.path.join(d, "k.nplus1.json"))
    os.makedirs(os.path.join(d, "k.nplus1.json"))
    before = snapshot(d)
    r = s.run("existing outdir, one output blocked by a directory", [k, "-o", d, "-q"])
    if snapshot(d) != before:
        r.fail("the old outdir changed: %s" % sorted(
            x for x in set(snapshot(d)) | set(before) if snapshot(d).get(x) != before.get(x)))
    # a depfile that cannot be written: the outdir stays as it was
    d = old_outdir(s, "out-old-depfile")
    before = snapshot(d)
    r = s.run("existing outdir, depfile cannot be written",
              [k, "-o", d, "-q", "--depfile", "/proc/nplus1gen-x/k.d"])
    if snapshot(d) != before:
        r.fail("the old outdir changed")
    # success: the four files are replaced, the rest kept, no temporary files left
    d = old_outdir(s, "out-old-success")
    r = s.run("existing outdir, successful run", [k, "-o", d, "-q"], expect=(0,))
    after = snapshot(d)
    if r.status == "PASS":
        stale = [x for x, v in after.items() if v and v.startswith(b"old contents") and
                 x != "keep-me.txt"]
        extra = sorted(set(after) - {"k.nplus1.cl", "k_nplus1.h", "k_nplus1.c", "k.nplus1.json",
                                     "keep-me.txt"})
        if stale or extra or after.get("keep-me.txt") != b"old contents of keep-me.txt\n":
            r.fail("after success: stale %s, extra %s" % (stale, extra))
    # a new outdir that cannot be filled is not left behind half-made
    d = s.path("out-new-refused")
    shutil.rmtree(d, ignore_errors=True)
    r = s.run("new outdir, refused kernel", [s.path("refused.cl"), "-o", d])
    if os.path.exists(d):
        r.fail("a new outdir was created for a refused kernel")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].strip())
    ap.add_argument("--tool", default=os.path.join(ROOT, "build", "tool", "nplus1gen"))
    ap.add_argument("--work", help="scratch directory (default: a fresh temporary one)")
    ap.add_argument("--no-size", action="store_true",
                    help="skip the 10 MB and 10,000-kernel files (quick run)")
    a = ap.parse_args()
    if not os.access(a.tool, os.X_OK):
        print("run_hostile.py: cannot run nplus1gen at '%s' (build it, or pass --tool)" % a.tool)
        return 2
    work = a.work or tempfile.mkdtemp(prefix="nplus1-hostile-")
    os.makedirs(work, exist_ok=True)
    s = Suite(os.path.abspath(a.tool), work)
    cases_input_files(s)
    cases_options(s)
    cases_outdir(s)
    if not a.no_size:
        cases_size(s)
    for r in s.results:
        if getattr(r, "xfail", None):
            if r.status == "FAIL":
                r.status, r.why = "XFAIL", "%s (known bug: %s)" % (r.why, r.xfail)
            elif r.status == "PASS":
                r.status, r.why = "XPASS", "passes now: remove the xfail of '%s'" % r.xfail
    width = max(len(r.name) for r in s.results)
    for r in s.results:
        rc = "-" if r.rc is None else str(r.rc)
        print("%-4s %-*s  exit %-2s %7.2f s  %s" % (r.status, width, r.name, rc, r.secs,
                                                   r.why or r.first[:100]))
    bad = [r for r in s.results if r.status in ("FAIL", "XPASS")]
    skipped = [r for r in s.results if r.status == "SKIP"]
    print("hostile input: %d cases, %d failed, %d skipped" % (len(s.results), len(bad),
                                                              len(skipped)))
    if not a.work:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
