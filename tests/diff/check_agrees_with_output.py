#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
check_agrees_with_output.py - `--check` and `-o` give one verdict per input.

    check_agrees_with_output.py --tool PATH FILE...

For each FILE, runs `nplus1gen FILE --check` and `nplus1gen FILE -o DIR`. A
file --check accepts (exit 0) must be written (exit 0); a file it refuses
(exit 1) must be refused by -o too. Exit 3 (an internal error) fails either
way. Prints one line per file; exits 1 when any disagrees.
"""

import argparse
import subprocess
import sys
import tempfile


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    return p.returncode, (p.stderr or p.stdout).strip().splitlines()[:1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    bad = 0
    for f in args.files:
        check, _ = run([args.tool, f, "--check"])
        with tempfile.TemporaryDirectory() as out:
            write, first = run([args.tool, f, "-o", out, "-q"])
        ok = check in (0, 1) and write == check
        bad += not ok
        why = "" if ok else "  <- disagree: " + " ".join(first)
        print(f"{'PASS' if ok else 'FAIL'} --check {check}, -o {write}: {f}{why}")
    print(f"{len(args.files) - bad} of {len(args.files)} inputs agree")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
