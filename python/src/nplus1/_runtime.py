# SPDX-License-Identifier: Apache-2.0
"""libnplus1rt through ctypes: finding the library, and the C structs it takes.

The structs mirror runtime/nplus1rt.h for generated-code format 2; at load
the library's own sizes (nplus1rt_struct_size) must match them, so a
library built for another layout is refused instead of misread.
"""
import ctypes
import ctypes.util
import os
import shutil

from ._errors import LibraryNotFoundError

#: The generated-code formats this package can describe to the runtime
#: (NPLUS1RT_FORMAT_VERSION in nplus1rt.h, the manifest's "format_version").
FORMAT_OLDEST = 1
FORMAT_VERSION = 2

#: nplus1rt_format.h's X-macro lists, as the manifest's "set_desc" spells them.
STRATEGIES = {"atomic": 0, "aggregated": 1, "ordered": 2, "chunked": 3, "tile": 4}
DISPATCHES = {"host": 0, "fused": 1, "auto": 2}
SPLITS = {"always": 0, "adaptive": 1, "never": 2, "measured": 3}
ELEMS = {"char": 0, "uchar": 1, "short": 2, "ushort": 3, "int": 4, "uint": 5,
         "long": 6, "ulong": 7, "half": 8, "float": 9, "double": 10}
ARG_KINDS = {"buffer": 0, "value": 1, "image": 2, "sampler": 3}

LIBRARY_NAMES = ("libnplus1rt.so.0", "libnplus1rt.so", "libnplus1rt.dylib", "nplus1rt.dll")


class Arg(ctypes.Structure):
    """nplus1rt_arg."""
    _fields_ = [("name", ctypes.c_char_p), ("type", ctypes.c_char_p),
                ("kind", ctypes.c_int), ("writable", ctypes.c_int),
                ("is_constant", ctypes.c_int), ("elem", ctypes.c_int),
                ("lanes", ctypes.c_uint), ("size", ctypes.c_size_t)]


class SetDesc(ctypes.Structure):
    """nplus1rt_set_desc (format 2)."""
    _fields_ = [("kernel", ctypes.c_char_p), ("source", ctypes.c_char_p),
                ("nargs", ctypes.c_uint), ("args", ctypes.POINTER(Arg)),
                ("nleaves", ctypes.c_uint), ("leaf_kernels", ctypes.POINTER(ctypes.c_char_p)),
                ("count_kernel", ctypes.c_char_p), ("scan_kernel", ctypes.c_char_p),
                ("scatter_kernel", ctypes.c_char_p), ("fused_kernel", ctypes.c_char_p),
                ("strategy", ctypes.c_int), ("dispatch", ctypes.c_int),
                ("wg", ctypes.c_uint), ("reqd_local", ctypes.c_size_t * 3),
                ("split", ctypes.c_int), ("format_version", ctypes.c_uint),
                ("tile_kernel", ctypes.c_char_p),
                ("predicted_split", ctypes.c_double), ("predicted_tile", ctypes.c_double)]


class ArgVal(ctypes.Structure):
    """nplus1rt_argval: what clSetKernelArg takes."""
    _fields_ = [("size", ctypes.c_size_t), ("value", ctypes.c_void_p)]


_P = ctypes.c_void_p
_SIGNATURES = {
    "nplus1rt_struct_size": (ctypes.c_size_t, [ctypes.c_char_p]),
    "nplus1rt_version": (ctypes.c_char_p, []),
    "nplus1rt_free": (None, [_P]),
    "nplus1_strerror": (ctypes.c_char_p, [ctypes.c_int]),
    "nplus1rt_set_create": (_P, [_P, _P, ctypes.POINTER(SetDesc), ctypes.c_char_p,
                                 ctypes.POINTER(ctypes.c_int), ctypes.POINTER(_P)]),
    "nplus1rt_set_enqueue": (ctypes.c_int, [_P, _P, ctypes.c_uint, ctypes.POINTER(ctypes.c_size_t),
                                            ctypes.POINTER(ctypes.c_size_t),
                                            ctypes.POINTER(ctypes.c_size_t),
                                            ctypes.POINTER(ArgVal)]),
    "nplus1rt_set_last_choice": (ctypes.c_char_p, [_P]),
    "nplus1rt_set_force_choice": (ctypes.c_int, [_P, ctypes.c_char_p]),
    "nplus1rt_set_measuring": (ctypes.c_int, [_P, ctypes.c_size_t]),
    "nplus1rt_set_last_counts": (ctypes.c_int, [_P, ctypes.POINTER(ctypes.c_uint), ctypes.c_uint]),
    "nplus1rt_set_errmsg": (ctypes.c_char_p, [_P]),
    "nplus1rt_set_release": (None, [_P]),
}

_lib = None


def _candidates():
    """Where libnplus1rt may be, in the documented order (docs/python.md)."""
    env = os.environ.get("NPLUS1_LIBRARY_PATH")
    if env:
        if os.path.isdir(env):
            for name in LIBRARY_NAMES:
                yield os.path.join(env, name)
        else:
            yield env
        return  # given: that one, or an error naming it
    here = os.path.dirname(os.path.abspath(__file__))
    for name in LIBRARY_NAMES:
        yield os.path.join(here, name)
    tool = os.environ.get("NPLUS1_TOOL") or shutil.which("nplus1gen")
    if tool:
        bindir = os.path.dirname(os.path.realpath(tool))
        prefix = os.path.dirname(bindir)
        dirs = [os.path.join(prefix, "lib")]
        lib = os.path.join(prefix, "lib")
        if os.path.isdir(lib):
            dirs += sorted(os.path.join(lib, d) for d in os.listdir(lib) if d.endswith("-linux-gnu"))
        dirs += [os.path.join(prefix, "lib64"), os.path.join(prefix, "runtime")]  # build tree
        for d in dirs:
            for name in LIBRARY_NAMES:
                yield os.path.join(d, name)
    found = ctypes.util.find_library("nplus1rt")
    for name in ([found] if found else []) + ["libnplus1rt.so.0"]:
        yield name  # the system's loader: ldconfig's paths, LD_LIBRARY_PATH


def _declare(lib):
    for name, (res, args) in _SIGNATURES.items():
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args
    for struct, cls in (("nplus1rt_set_desc", SetDesc), ("nplus1rt_arg", Arg),
                        ("nplus1rt_argval", ArgVal)):
        size = lib.nplus1rt_struct_size(struct.encode())
        if size != ctypes.sizeof(cls):
            raise LibraryNotFoundError(
                "%s: %s is %d bytes there, %d here: this nplus1 package does not match the "
                "library (install the nplus1 package of the same nplus1gen version)"
                % (lib._name, struct, size, ctypes.sizeof(cls)))
    return lib


def library():
    """The loaded libnplus1rt (found once per process), or LibraryNotFoundError."""
    global _lib
    if _lib is not None:
        return _lib
    tried = []
    for path in _candidates():
        if os.path.sep in path and not os.path.exists(path):
            tried.append(path + " (absent)")
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
            continue
        if not hasattr(lib, "nplus1rt_struct_size"):
            tried.append(path + " (a libnplus1rt older than this package: no nplus1rt_struct_size)")
            continue
        _lib = _declare(lib)
        return _lib
    raise LibraryNotFoundError(
        "libnplus1rt not found; set NPLUS1_LIBRARY_PATH to the library (or its folder), "
        "or install nplus1gen (docs/python.md). Tried:\n  " + "\n  ".join(tried))


def library_path():
    """The file the loaded libnplus1rt came from."""
    return library()._name
