# SPDX-License-Identifier: Apache-2.0
"""nplus1.load: a generated kernel set, called like a PyOpenCL kernel.

The set is libnplus1rt's (nplus1rt_set_create / nplus1rt_set_enqueue): the
runtime is the one implementation of the strategies and the measured
choice. This module only reads the manifest into an nplus1rt_set_desc and
hands PyOpenCL's handles (int_ptr) to the runtime.
"""
import ctypes
import json
import os

import numpy as np
import pyopencl as cl
import pyopencl.array  # noqa: F401 (cl.array.Array)

from . import _runtime as rt
from ._errors import Error

_ELEM_DTYPES = {"char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16,
                "int": np.int32, "uint": np.uint32, "long": np.int64, "ulong": np.uint64,
                "half": np.float16, "float": np.float32, "double": np.float64}


def _status(lib, code, what):
    return Error(code, lib.nplus1_strerror(code).decode(), what)


def _pick_kernel(manifest, path, kernel):
    kernels = manifest.get("kernels", [])
    names = [k["name"] for k in kernels]
    if kernel is None:
        if len(kernels) != 1:
            raise ValueError("%s holds %d kernels (%s): pass kernel=NAME"
                             % (path, len(kernels), ", ".join(names) or "none"))
        return kernels[0]
    for k in kernels:
        if k["name"] == kernel:
            return k
    for sk in manifest.get("skipped", []):
        if sk.get("name") == kernel:
            raise ValueError("%s has no set of kernel '%s': nplus1gen --skip-refused left it out "
                             "(%s%s); run the original kernel" % (
                                 path, kernel, sk.get("why", ""),
                                 " [%s]" % sk["rule"] if sk.get("rule") else ""))
    raise ValueError("%s has no kernel '%s' (it has: %s)" % (path, kernel, ", ".join(names) or "none"))


def _check_format(manifest, path):
    fmt = manifest.get("format_version", 0)
    if not rt.FORMAT_OLDEST <= fmt <= rt.FORMAT_VERSION:
        raise ValueError("%s was generated for format version %s, but this nplus1 package reads "
                         "format versions %d to %d: regenerate it with the matching nplus1gen, "
                         "or install the matching nplus1 package"
                         % (path, fmt, rt.FORMAT_OLDEST, rt.FORMAT_VERSION))


class _Desc:
    """An nplus1rt_set_desc and every buffer it points to (alive as long as the set)."""

    def __init__(self, manifest, entry, source, path):
        sd = entry.get("set_desc")
        if sd is None:
            raise ValueError("%s has no \"set_desc\" for kernel '%s': it was written by an "
                             "nplus1gen older than this package; regenerate it" % (path, entry["name"]))
        self.strings = []
        self.args = (rt.Arg * max(1, len(entry["args"])))()
        for i, (a, d) in enumerate(zip(entry["args"], sd["args"])):
            self.args[i] = rt.Arg(self._s(a["name"]), self._s(a["type"]), rt.ARG_KINDS[d["kind"]],
                                  int(d["writable"]), int(d["constant"]), rt.ELEMS[d["elem"]],
                                  d["lanes"], d["size"])
        leaves = sd["leaf_kernels"]
        self.leaves = (ctypes.c_char_p * max(1, len(leaves)))(*[self._s(n) for n in leaves])
        self.desc = rt.SetDesc(
            kernel=self._s(entry["name"]), source=self._s(source),
            nargs=len(entry["args"]), args=self.args,
            nleaves=len(leaves), leaf_kernels=self.leaves,
            count_kernel=self._s(sd["count_kernel"]), scan_kernel=self._s(sd["scan_kernel"]),
            scatter_kernel=self._s(sd["scatter_kernel"]), fused_kernel=self._s(sd["fused_kernel"]),
            strategy=rt.STRATEGIES[sd["strategy"]], dispatch=rt.DISPATCHES[sd["dispatch"]],
            wg=sd["wg"], reqd_local=(ctypes.c_size_t * 3)(*sd["reqd_local"]),
            split=rt.SPLITS[sd["split"]], format_version=sd.get("format_version", 1),
            tile_kernel=self._s(sd["tile_kernel"]),
            predicted_split=sd["predicted_split"], predicted_tile=sd["predicted_tile"])

    def _s(self, text):
        if text is None:
            return None
        b = text.encode()
        self.strings.append(b)
        return b


def _handle(obj, what):
    """A cl_mem / cl_sampler handle (PyOpenCL's int_ptr), or None for NULL."""
    if obj is None:
        return None
    if isinstance(obj, cl.array.Array):
        obj = obj.data  # raises for an array with an offset, as PyOpenCL does
    try:
        return obj.int_ptr
    except AttributeError:
        raise TypeError("%s: a PyOpenCL %s is needed, got %s" % (what, "Sampler" if "sampler" in what
                                                                 else "Buffer or Image",
                                                                 type(obj).__name__)) from None


def _value_bytes(v, arg, d, what):
    """The bytes clSetKernelArg takes for a by-value argument."""
    if isinstance(v, (bytes, bytearray, memoryview)):
        return bytes(v)
    if isinstance(v, (np.generic, np.ndarray)):
        return np.ascontiguousarray(v).tobytes()
    dtype = _ELEM_DTYPES[d["elem"]]
    if isinstance(v, (bool, int, float)) and d["lanes"] == 1:
        if isinstance(v, int) and np.issubdtype(dtype, np.integer):
            info = np.iinfo(dtype)
            if not info.min <= v <= info.max:
                raise OverflowError("%s: %d does not fit %s" % (what, v, arg["type"]))
        return np.array(v, dtype=dtype).tobytes()
    if isinstance(v, (tuple, list)) and d["lanes"] > 1:
        lanes = np.zeros(4 if d["lanes"] == 3 else d["lanes"], dtype=dtype)
        lanes[:len(v)] = v
        return lanes.tobytes()
    raise TypeError("%s (%s): pass a NumPy scalar (or a Python number, a tuple for a vector, "
                    "bytes or a NumPy record for a struct), got %s" % (what, arg["type"], type(v).__name__))


def _sizes(v, name, dims=None):
    if v is None:
        return None
    v = tuple(int(x) for x in (v if isinstance(v, (tuple, list)) else (v,)))
    if dims is not None and len(v) != dims:
        raise ValueError("%s has %d entries, global_size %d" % (name, len(v), dims))
    return v


class KernelSet:
    """A generated n+1 kernel set, called like a PyOpenCL kernel (see nplus1.load)."""

    def __init__(self, ctx, manifest_path, kernel=None, build_options="", device=None):
        lib = rt.library()
        with open(manifest_path) as f:
            manifest = json.load(f)
        _check_format(manifest, manifest_path)
        entry = _pick_kernel(manifest, manifest_path, kernel)
        kernel_file = os.path.join(os.path.dirname(os.path.abspath(manifest_path)),
                                   manifest["kernel_file"])
        with open(kernel_file) as f:
            source = f.read()
        self._lib, self._ctx = lib, ctx
        self._device = device if device is not None else ctx.devices[0]
        self._entry = entry
        self._args = entry["args"]
        self._descs = entry["set_desc"]["args"] if "set_desc" in entry else []
        self._desc = _Desc(manifest, entry, source, manifest_path)
        self.name = entry["name"]
        self.manifest_path = manifest_path
        if isinstance(build_options, (list, tuple)):
            build_options = " ".join(build_options)
        err = ctypes.c_int(0)
        msg = ctypes.c_void_p()
        self._set = lib.nplus1rt_set_create(ctx.int_ptr, self._device.int_ptr,
                                            ctypes.byref(self._desc.desc),
                                            (build_options or "").encode(), ctypes.byref(err),
                                            ctypes.byref(msg))
        if not self._set:
            what = ctypes.string_at(msg).decode(errors="replace") if msg.value else ""
            if msg.value:
                lib.nplus1rt_free(msg)
            raise _status(lib, err.value, what or "nplus1rt_set_create failed")

    # ---- calling it like a kernel ------------------------------------------

    def __call__(self, queue, global_size, local_size, *args, global_offset=None, wait_for=None):
        if not self._set:
            raise ValueError("the set of '%s' was released" % self.name)
        if len(args) != len(self._args):
            raise TypeError("%s takes %d arguments (%s), got %d"
                            % (self.name, len(self._args),
                               ", ".join(a["name"] for a in self._args), len(args)))
        if queue.context != self._ctx or queue.device != self._device:
            raise ValueError("the queue is not for the set's context and device")
        if queue.properties & cl.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE:
            raise ValueError("the set runs on in-order queues only (docs/driver.md)")
        gsz = _sizes(global_size, "global_size")
        lsz = _sizes(local_size, "local_size", len(gsz))
        goff = _sizes(global_offset, "global_offset", len(gsz))
        vals, keep = self._argvals(args)
        if wait_for:
            cl.enqueue_barrier(queue, wait_for=wait_for)
        arr = lambda t: (ctypes.c_size_t * len(t))(*t) if t is not None else None
        code = self._lib.nplus1rt_set_enqueue(self._set, queue.int_ptr, len(gsz), arr(goff),
                                              arr(gsz), arr(lsz), vals)
        del keep
        if code != 0:
            raise _status(self._lib, code, self._lib.nplus1rt_set_errmsg(self._set).decode())
        # in-order queue: the marker completes when every kernel of the set has
        return cl.enqueue_marker(queue)

    def _argvals(self, args):
        vals = (rt.ArgVal * max(1, len(args)))()
        keep = []
        for i, (v, a, d) in enumerate(zip(args, self._args, self._descs)):
            what = "argument %d ('%s') of %s" % (i, a["name"], self.name)
            if d["kind"] == "value":
                b = ctypes.create_string_buffer(_value_bytes(v, a, d, what))
                size = len(b) - 1  # create_string_buffer adds a NUL
            else:
                b = ctypes.c_void_p(_handle(v, what))
                size = ctypes.sizeof(ctypes.c_void_p)
            keep.append(b)
            vals[i] = rt.ArgVal(size, ctypes.addressof(b))
        return vals, keep

    # ---- what the set did, and steering it -----------------------------------

    @property
    def last_choice(self):
        """What the last launch ran: "original", "tile", or the split as "<strategy>/<dispatch>"
        ("aggregated/host", ...); "none" before the first launch."""
        return self._lib.nplus1rt_set_last_choice(self._set).decode() if self._set else "none"

    def force_choice(self, name):
        """Later launches run candidate name ("original", "split", "tile", ...); None or
        "auto" measures again."""
        code = self._lib.nplus1rt_set_force_choice(self._set, name.encode() if name else None)
        if code != 0:
            raise _status(self._lib, code, "the set of '%s' has no candidate '%s' (it has: %s)"
                          % (self.name, name, ", ".join(self.candidates)))

    def measuring(self, items):
        """True while launches of that many work-items are still being measured."""
        return bool(self._lib.nplus1rt_set_measuring(self._set, items))

    def last_counts(self):
        """The last launch's bucket sizes, one per leaf kernel (a blocking read)."""
        n = len(self._entry["set_desc"]["leaf_kernels"])
        counts = (ctypes.c_uint * max(1, n))()
        code = self._lib.nplus1rt_set_last_counts(self._set, counts, n)
        if code != 0:
            raise _status(self._lib, code, self._lib.nplus1rt_set_errmsg(self._set).decode())
        return list(counts)[:n]

    @property
    def candidates(self):
        """What the measured choice may run (the manifest's "candidates")."""
        return list(self._entry.get("candidates", []))

    @property
    def leaf_conditions(self):
        """Each non-empty leaf's condition path, as source text."""
        return [lf["condition"] for lf in self._entry["leaves"] if not lf["empty"]]

    @property
    def arg_names(self):
        return [a["name"] for a in self._args]

    def release(self):
        """Releases the set's kernels and buffers now (else when it is collected)."""
        if getattr(self, "_set", None):
            self._lib.nplus1rt_set_release(self._set)
            self._set = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.release()

    def __del__(self):
        self.release()

    def __repr__(self):
        return "<nplus1.KernelSet '%s' from %s, last_choice=%s>" % (
            self.name, self.manifest_path, self.last_choice)


def load(ctx, manifest, kernel=None, build_options="", device=None):
    """The n+1 set of kernel (None: the manifest's only kernel) from a manifest
    (<out>/<stem>.nplus1.json), built for ctx's first device (or device) with
    build_options appended to the tool's own; called like the original kernel."""
    return KernelSet(ctx, os.fspath(manifest), kernel, build_options, device)
