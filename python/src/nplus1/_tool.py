# SPDX-License-Identifier: Apache-2.0
"""nplus1.generate and nplus1.profile: the nplus1gen tool, run from Python."""
import json
import os
import shutil
import subprocess
import tempfile
import warnings

from ._errors import ToolError


def tool_path(tool=None):
    """The nplus1gen to run: tool, else $NPLUS1_TOOL, else nplus1gen on PATH."""
    found = tool or os.environ.get("NPLUS1_TOOL") or shutil.which("nplus1gen")
    if not found:
        raise FileNotFoundError("nplus1gen not found: put it on PATH, set NPLUS1_TOOL, "
                                "or pass tool=PATH")
    return os.fspath(found)


def _common(source, kernels, defines, options):
    args = [os.fspath(source)]
    for k in ([kernels] if isinstance(kernels, str) else kernels or []):
        args += ["-k", k]
    items = defines.items() if isinstance(defines, dict) else [(d, None) for d in defines or []]
    for name, value in items:
        args.append("-D%s" % name if value is None else "-D%s=%s" % (name, value))
    return args + [str(o) for o in options]


class ToolWarning(UserWarning):
    """A warning nplus1gen printed on a run that succeeded."""


def _run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise ToolError(cmd, p.returncode, p.stderr)
    for line in p.stderr.splitlines():
        if ": warning: " in line:
            warnings.warn(line, ToolWarning, stacklevel=3)
    return p


def _stem(source, options):
    opts = [str(o) for o in options]
    for i, o in enumerate(opts):
        if o == "--stem" and i + 1 < len(opts):
            return opts[i + 1]
        if o.startswith("--stem="):
            return o[len("--stem="):]
    name = os.path.basename(os.fspath(source))
    return name[:-3] if name.endswith(".cl") else name


def generate(source, out_dir, kernels=None, defines=None, options=(), tool=None):
    """Runs `nplus1gen SOURCE -o OUT_DIR` and returns the manifest's path
    (OUT_DIR/<stem>.nplus1.json), for nplus1.load.

    kernels: a name or a list (-k); defines: {"N": 4, "FAST": None} or ["FAST"]
    (-D); options: more command-line options (["--strategy", "chunked"]).
    A refused kernel or a bad option raises ToolError with the diagnostics.
    """
    cmd = [tool_path(tool)] + _common(source, kernels, defines, options)
    cmd += ["-o", os.fspath(out_dir), "-q"]
    _run(cmd)
    return os.path.join(os.fspath(out_dir), _stem(source, options) + ".nplus1.json")


def profile(source, kernels=None, global_size=None, local_size=None, args=None, defines=None,
            options=(), tool=None):
    """Runs `nplus1gen SOURCE --profile` (the divergence profile of the original
    kernel on the validation inputs) and returns its --profile-json as a dict.

    global_size, local_size: ints or tuples (--global, --local); args: {"n": 65000,
    "nodes": "size:4096"} (--arg NAME=VALUE, see docs/cli.md).
    """
    fd, path = tempfile.mkstemp(prefix="nplus1-profile-", suffix=".json")
    os.close(fd)
    try:
        cmd = [tool_path(tool)] + _common(source, kernels, defines, options)
        cmd += ["--profile", "--profile-json", path]
        for flag, v in (("--global", global_size), ("--local", local_size)):
            if v is not None:
                cmd += [flag, ",".join(str(x) for x in (v if isinstance(v, (tuple, list)) else [v]))]
        for name, value in (args or {}).items():
            cmd += ["--arg", "%s=%s" % (name, value)]
        _run(cmd)
        with open(path) as f:
            return json.load(f)
    finally:
        os.unlink(path)
