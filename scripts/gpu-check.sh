#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Validates on a GPU machine through jobs (docs/cli.md, "Validating on another
# machine"): every differential test and the random kernel generator's 200
# kernels, transformed here and run there by nplus1gen-validate.
#
#   scripts/gpu-check.sh emit [BUILD_DIR]   here (libclang): writes the jobs into
#                                           .carry/gpu-check/jobs (git-ignored)
#   scripts/gpu-check.sh run [JOBS_DIR]     there (OpenCL, no libclang): builds the
#                                           runtime only with nplus1gen-validate,
#                                           runs every job, prints a summary
#
# emit reads the differential tests from ctest (the kernel tests, run by
# tests/kernel_test.py: each RUN line that runs nplus1gen --validate becomes a job
# with its EXPECT and OUTPUT lines; runs that need oclgrind or an environment
# variable are left out) and takes the legal
# kernels of tests/fuzzgen (seed 1, 200 cases, as CI). run registers NVIDIA's
# OpenCL when its library is there, prefers the NVIDIA platform, and writes
# the log and summary to $OUT (or ./gpu-check-out). Exit 0 when every job
# exited as expected. GPU_CHECK_TESTS (emit): a regex on the test names, to
# emit only those (and none of the random kernels).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}

emit() {
    local build=${1:-build}
    local jobs=.carry/gpu-check/jobs
    rm -rf "$jobs"
    mkdir -p "$jobs"
    (cd "$build" && ctest --show-only=json-v1) > .carry/gpu-check/tests.json
    python3 - "$jobs" "$build" <<'EOF'
import json, os, re, subprocess, sys
sys.path.insert(0, "tests/fuzzgen")
import gen

jobs, build = sys.argv[1], sys.argv[2]
tool = os.path.abspath(os.path.join(build, "tool", "nplus1gen"))
emitted = skipped = 0

def emit_one(name, cmd, cwd, expect, regex=None):
    global emitted, skipped
    out = os.path.abspath(os.path.join(jobs, name))
    p = subprocess.run(cmd + ["--emit-job", out, "-q"], cwd=cwd, capture_output=True, text=True)
    if p.returncode != 0:
        print("gpu-check: cannot emit %s: %s" % (name, (p.stderr or p.stdout).strip()[-300:]))
        skipped += 1
        return
    with open(os.path.join(out, "expect"), "w") as f:
        f.write("%d\n" % expect)
    if regex:   # ctest's PASS_REGULAR_EXPRESSION: the output decides, not the exit status
        with open(os.path.join(out, "expect_regex.json"), "w") as f:
            json.dump(regex, f)  # alternatives that may span lines: matched as ctest does
    emitted += 1

tests = json.load(open(os.path.join(jobs, "..", "tests.json")))["tests"]
only = os.environ.get("GPU_CHECK_TESTS")  # a regex on the test names: those only, no fuzz
def kernel_test_jobs(t, cmd):
    """The jobs of a kernel test file (tests/kernel_test.py --list): one per RUN line."""
    global skipped
    if only and not re.search(only, t["name"]):
        return
    p = subprocess.run([sys.executable, "tests/kernel_test.py", "--list", "--tool", tool,
                        cmd[-1]], capture_output=True, text=True, check=True)
    for r in json.loads(p.stdout):
        name = t["name"] + ("_%d" % r["run"] if r["runs"] > 1 else "")
        if "--validate" not in r["argv"]:
            continue
        if r["env"] or r["requires"] or "oclgrind" in r["argv"]:
            skipped += 1
            continue
        # every OUTPUT line found, no OUTPUT-NOT line (one regex: the run side takes any);
        # with --report the lines are the tool's report, printed here (ctest checks them),
        # not by the job: the job is judged by its exit status alone
        if "--report" in r["argv"]:
            r["output"], r["output_not"] = [], []
        rx = "(?m)\\A" + "".join("(?=[\\s\\S]*?(?:%s))" % o for o in r["output"]) \
            + "".join("(?![\\s\\S]*?(?:%s))" % o for o in r["output_not"])
        emit_one(name, r["argv"], r["cwd"], r["exit"],
                 [rx] if r["output"] or r["output_not"] else None)

for t in tests:
    cmd = t.get("command") or []
    if any(w.endswith("kernel_test.py") for w in cmd[1:3]):  # python3 [-S] kernel_test.py
        kernel_test_jobs(t, cmd)
        continue
    cwd = next((p["value"] for p in t.get("properties", []) if p["name"] == "WORKING_DIRECTORY"),
               build)
    expect = 0
    if cmd and cmd[0].endswith("expect.sh"):
        expect, cmd = int(cmd[1]), cmd[3:]
    if len(cmd) > 4 and cmd[1:3] == ["-E", "chdir"]:
        cwd, cmd = cmd[3], cmd[4:]
    if not cmd or os.path.basename(cmd[0]) != "nplus1gen" or "--validate" not in cmd:
        continue
    if only and not re.search(only, t["name"]):
        continue
    if "oclgrind" in t["name"] or "oclgrind" in cmd:
        skipped += 1
        continue
    regex = next((p["value"] for p in t.get("properties", [])
                  if p["name"] == "PASS_REGULAR_EXPRESSION"), None)
    emit_one(t["name"], cmd, cwd, expect, regex)

tmp = os.path.join(jobs, "..", "fuzz-src")
fuzz_cases = 0 if only else 200
os.makedirs(tmp, exist_ok=True)
for i in range(fuzz_cases):
    seed = 1 * 1000003 + i
    case = gen.generate(seed)
    if not case.legal or "--validate" not in case.options:
        continue
    path = os.path.abspath(os.path.join(tmp, "fz_%d.cl" % seed))
    with open(path, "w") as f:
        f.write(case.source)
    emit_one("fuzz_%d_%s" % (seed, case.kind), [tool, path] + case.options, build, 0)
print("gpu-check: %d jobs written to %s (%d left out)" % (emitted, jobs, skipped))
EOF
}

build_runner() {
    . scripts/gpu-lib.sh
    gpu_register_nvidia
    if [ -n "${NPLUS1_VALIDATE:-}" ]; then
        return
    fi
    gpu_build nplus1gen-validate || return 1
    NPLUS1_VALIDATE=$PWD/build-gpu/nplus1gen-validate
}

# One job: its output in $out/jobs/NAME.txt, its verdict in $out/jobs/NAME.verdict.
run_one() {
    local job=$1 out=$2 name expect rc=0 verdict=failed
    name=$(basename "$job")
    expect=$(cat "$job/expect" 2>/dev/null || echo 0)
    timeout 300 "$NPLUS1_VALIDATE" "$job" > "$out/jobs/$name.txt" 2>&1 || rc=$?
    if [ -f "$job/expect_regex.json" ]; then # any alternative found anywhere in the output
        python3 -c 'import json, re, sys
out = open(sys.argv[2], errors="replace").read()
sys.exit(not any(re.search(r, out) for r in json.load(open(sys.argv[1]))))' \
            "$job/expect_regex.json" "$out/jobs/$name.txt" && verdict=passed
    elif [ "$rc" -eq "$expect" ]; then
        verdict=passed
    elif [ "$rc" -eq 1 ] && [ "${name#fuzz_}" != "$name" ] &&
         grep -q "^validation inconclusive:" "$out/jobs/$name.txt"; then
        verdict=inconclusive # a random kernel whose constant conditions reach no working leaf
    fi
    echo "$verdict exit $rc, expected $expect" > "$out/jobs/$name.verdict"
}

run() {
    local jobs=${1:-.carry/gpu-check/jobs}
    local out=${OUT:-$PWD/gpu-check-out}
    build_runner || return 1
    export NPLUS1_PLATFORM=${NPLUS1_PLATFORM:-NVIDIA} NPLUS1_VALIDATE
    export -f run_one
    rm -rf "$out/jobs"
    mkdir -p "$out/jobs"
    # the OpenCL compiler takes most of a job's time: run them side by side
    find "$jobs" -mindepth 1 -maxdepth 1 -type d | sort |
        xargs -P "${GPU_CHECK_JOBS:-$(nproc)}" -I{} bash -c 'run_one "$1" "$2"' _ {} "$out"
    local n passed inconclusive failed
    n=$(find "$out/jobs" -name '*.verdict' | wc -l)
    passed=$(cat "$out"/jobs/*.verdict 2>/dev/null | grep -c '^passed' || true)
    inconclusive=$(cat "$out"/jobs/*.verdict 2>/dev/null | grep -c '^inconclusive' || true)
    failed=$((n - passed - inconclusive))
    (cd "$out/jobs" && for f in *.txt; do echo "=== ${f%.txt}"; cat "$f"; done) > "$out/gpu-check.log"
    {
        echo "gpu-check: $n jobs, platform '$NPLUS1_PLATFORM'" \
             "$( (clinfo -l 2>/dev/null || true) | grep -m1 -i "$NPLUS1_PLATFORM" -A1 | tr -s ' \n' ' ')"
        echo "gpu-check: $passed exited as expected, $inconclusive inconclusive (random kernels" \
             "with no reachable working leaf), $failed did not"
        (grep -l '^failed' "$out"/jobs/*.verdict 2>/dev/null || true) | while read -r v; do
            echo "  $(basename "$v" .verdict): $(cut -d' ' -f2- "$v")"
        done
    } | tee "$out/summary.txt"
    rm -rf "$out/jobs"
    [ "$failed" -eq 0 ] && [ "$n" -gt 0 ]
}

case "$mode" in
emit) shift; emit "$@" ;;
run) shift; run "$@" ;;
*) sed -n '2,19p' "$0" >&2; exit 2 ;;
esac
