# SPDX-License-Identifier: Apache-2.0
"""nplus1: nplus1gen's n+1 kernel sets from PyOpenCL.

    manifest = nplus1.generate("k.cl", "out")        # the nplus1gen tool
    s = nplus1.load(ctx, manifest)                  # libnplus1rt builds the set
    evt = s(queue, global_size, local_size, *args)  # as the original kernel
    s.last_choice                                   # what the launch ran

docs/python.md in the nplus1gen repository is the guide.
"""
from ._errors import Error, LibraryNotFoundError, ToolError
from ._runtime import FORMAT_OLDEST, FORMAT_VERSION, library_path
from ._tool import ToolWarning, generate, profile, tool_path

__version__ = "0.1.0"
__all__ = ["load", "KernelSet", "generate", "profile", "tool_path", "library_path",
           "Error", "LibraryNotFoundError", "ToolError", "ToolWarning",
           "FORMAT_OLDEST", "FORMAT_VERSION"]


def load(ctx, manifest, kernel=None, build_options="", device=None):
    """The n+1 set of kernel (None: the manifest's only kernel) from a manifest
    (<out>/<stem>.nplus1.json), built for ctx's first device (or device) with
    build_options appended to the tool's own. Call it as the original kernel:
    s(queue, global_size, local_size, *args, global_offset=None, wait_for=None)
    returns a pyopencl.Event; s.last_choice says what the launch ran."""
    from ._set import load as _load
    return _load(ctx, manifest, kernel, build_options, device)


def __getattr__(name):
    if name == "KernelSet":  # imports PyOpenCL only when used
        from ._set import KernelSet
        return KernelSet
    raise AttributeError(name)
