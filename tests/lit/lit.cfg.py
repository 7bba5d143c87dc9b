# SPDX-License-Identifier: Apache-2.0
# lit configuration for nplus1gen's golden tests. Each test file carries its
# own RUN: and CHECK: lines. Comment lines (// ...) are stripped before the
# output is fed to FileCheck where a test compares text containing its own
# CHECK lines, so a CHECK line cannot match itself.
import os
import lit.formats

config.name = "nplus1gen"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".cl", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["inputs"]
if lit_config.params.get("exec_root"):
    config.test_exec_root = lit_config.params.get("exec_root")

params = lit_config.params
nplus1gen = params.get("nplus1gen")
filecheck = params.get("filecheck", "FileCheck")
samples = params.get("samples")
if not nplus1gen:
    lit_config.fatal("pass --param nplus1gen=/path/to/nplus1gen")
config.substitutions.append(("%nplus1gen", nplus1gen))
config.substitutions.append(("%FileCheck", filecheck + " --dump-input=fail"))
config.substitutions.append(("%samples", samples))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "inputs")))
# strip // comment lines (the test's own RUN/CHECK lines) from generated text
config.substitutions.append(("%strip", "grep -v '^ *//'"))
# `not` (invert an exit status) lives beside FileCheck in LLVM's bin directory
llvm_bin = os.path.dirname(filecheck)
if llvm_bin:
    config.environment["PATH"] = llvm_bin + os.pathsep + os.environ.get("PATH", "")
config.environment["POCL_CACHE_DIR"] = os.environ.get("POCL_CACHE_DIR", "/tmp/nplus1-pocl-cache")
# as in every test (tests/CMakeLists.txt): no choice cache unless a RUN line turns it on
config.environment["NPLUS1_CACHE"] = "0"

# Tests that run a device (--validate, --profile on POCL) say `REQUIRES: opencl-device`.
# --param device=0 (ctest's fast golden entry) leaves them out; device=only runs them alone.
device = params.get("device", "1")
if device != "0":
    config.available_features.add("opencl-device")


def needs_device(path):
    with open(path, errors="replace") as f:
        return "REQUIRES: opencl-device" in f.read()


if device == "only":  # leave out each file, and each folder, that runs no device
    for top, dirs, files in os.walk(config.test_source_root):
        tests = [n for n in files if os.path.splitext(n)[1] in config.suffixes]
        device_tests = [n for n in tests if needs_device(os.path.join(top, n))]
        if top != config.test_source_root and not device_tests:
            config.excludes.append(os.path.basename(top))
            dirs[:] = []
            continue
        config.excludes.extend(n for n in tests if n not in device_tests)
