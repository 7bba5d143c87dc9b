# SPDX-License-Identifier: Apache-2.0
"""The package's exceptions."""


class Error(RuntimeError):
    """An OpenCL or nplus1 status from libnplus1rt.

    code: the status (a negative int: CL_INVALID_MEM_OBJECT -38, NPLUS1_ERR_BUILD -9002, ...);
    status: its name; what: the runtime's message (the build log, the argument's name).
    """

    def __init__(self, code, status, what):
        self.code, self.status, self.what = code, status, what
        if not what:
            text = "%s (%d)" % (status, code)
        elif status in what:  # the runtime's message names the status already
            text = what if "(%d)" % code in what else "%s (%d)" % (what, code)
        else:
            text = "%s (%d): %s" % (status, code, what)
        super().__init__(text)


class LibraryNotFoundError(OSError):
    """libnplus1rt could not be found or does not match this package."""


class ToolError(RuntimeError):
    """The nplus1gen tool failed: returncode (1: the input's fault, 2: usage, 3: a bug),
    the command, and its stderr (the diagnostics)."""

    def __init__(self, command, returncode, stderr):
        self.command, self.returncode, self.stderr = command, returncode, stderr
        first = next((l for l in stderr.splitlines() if "error" in l), stderr.strip()[:300])
        super().__init__("nplus1gen exited with %d: %s" % (returncode, first))
