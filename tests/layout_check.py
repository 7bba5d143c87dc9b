#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The stage layout holds (docs/design.md, "Folders and libraries"):

- every C file of tool/ sits in a stage folder (base, parse, analyze, plan,
  emit, profile, cli), none at tool/'s top;
- a file includes headers of its own stage, of the stages below it, of
  common/ and of runtime/'s contract only (an upward include also fails the
  build, since a stage's folder is on no lower stage's include path);
- a folder's *_int.h headers are included from that folder only;
- runner/ and common/ include nothing of tool/;
- the stages after the analysis read its facts and the IR, not libclang: no
  file of tool/plan/, tool/emit/ or tool/profile/ calls a clang_ function (a
  breach; they may carry cursors as opaque handles at most).

Usage: layout_check.py SOURCE_DIR. Prints each breach; exit 1 on any.
"""
import os
import re
import sys

# a stage may include its own folder and those it links (tool/CMakeLists.txt)
BELOW = {
    "base": [],
    "parse": ["base"],
    "analyze": ["parse", "base"],
    "plan": ["analyze", "parse", "base"],
    "emit": ["plan", "analyze", "parse", "base"],
    "profile": ["plan", "analyze", "parse", "base"],
    "cli": ["emit", "profile", "plan", "analyze", "parse", "base"],
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# after the analysis: no libclang call (NO_CLANG fails, CLANG_NOTED only counts)
NO_CLANG = ["tool/plan", "tool/emit", "tool/profile"]
CLANG_NOTED = []
CLANG_CALL = re.compile(r"\bclang_\w+\s*\(")
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def clang_calls(top, folder):
    """(file, line, call) of each libclang call in folder's C files, comments left out."""
    calls = []
    for f in sorted(os.listdir(os.path.join(top, folder))):
        if not f.endswith((".c", ".h")):
            continue
        text = open(os.path.join(top, folder, f), encoding="utf-8").read()
        code = COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
        for m in CLANG_CALL.finditer(code):
            calls.append(("%s/%s" % (folder, f), code.count("\n", 0, m.start()) + 1,
                          m.group(0).rstrip("( ")))
    return calls


def headers(top, folder):
    return {f for f in os.listdir(os.path.join(top, folder)) if f.endswith(".h")}


def main():
    top = sys.argv[1]
    bad = []
    owner = {}
    for stage in BELOW:
        for h in headers(top, "tool/" + stage):
            owner[h] = "tool/" + stage
    for folder in ("common", "runtime"):
        for h in headers(top, folder):
            owner.setdefault(h, folder)
    loose = [f for f in os.listdir(os.path.join(top, "tool")) if f.endswith((".c", ".h"))]
    bad += ["tool/%s: a C file outside a stage folder" % f for f in sorted(loose)]
    folders = ["tool/" + s for s in BELOW] + ["common", "runner"]
    for folder in folders:
        stage = folder.split("/")[1] if folder.startswith("tool/") else None
        allowed = {folder, "common", "runtime"}
        if stage:
            allowed |= {"tool/" + s for s in BELOW[stage]}
        for f in sorted(os.listdir(os.path.join(top, folder))):
            if not f.endswith((".c", ".h")):
                continue
            text = open(os.path.join(top, folder, f), encoding="utf-8").read()
            for inc in INCLUDE.findall(text):
                home = owner.get(inc)
                where = "%s/%s" % (folder, f)
                if home is None:
                    if folder != "runner":
                        bad.append("%s: includes %s, which no stage, common/ or runtime/ has"
                                   % (where, inc))
                    continue
                if home not in allowed and not (folder == "runner" and home == "runner"):
                    bad.append("%s: includes %s of %s (not below it)" % (where, inc, home))
                elif inc.endswith("_int.h") and home != folder:
                    bad.append("%s: includes %s, internal to %s" % (where, inc, home))
    for folder in NO_CLANG:
        bad += ["%s:%d: calls %s (ask the parse or analyze stage: parse_facts.h, emit_facts.h, plan_facts.h, the IR)" % c
                for c in clang_calls(top, folder)]
    for folder in CLANG_NOTED:
        calls = clang_calls(top, folder)
        print("layout: note: %s: %d libclang call(s) left (%s)" % (
            folder, len(calls), ", ".join(sorted({c[0].split("/")[-1] for c in calls})) or "none"))
    for b in bad:
        print("layout: " + b)
    print("layout: %d breach(es) in %s" % (len(bad), ", ".join(folders)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
