# SPDX-License-Identifier: Apache-2.0
"""The PyOpenCL script of the Python package's test (tests/python/venv_test.sh):
generates sets of sample kernels with nplus1.generate, runs each through
nplus1.load beside the original kernel run by PyOpenCL itself on identical
inputs (outputs poisoned first), and checks the results, last_choice, the
forced candidates, the errors and nplus1.profile.

usage: run_sets.py SAMPLES_DIR WORK_DIR   (nplus1gen: NPLUS1_TOOL or PATH;
libnplus1rt: NPLUS1_LIBRARY_PATH or the package's search, docs/python.md)
"""
import os
import sys
import time

import numpy as np
import pyopencl as cl
import pyopencl.cltypes as cltypes

import nplus1

SAMPLES, WORK = sys.argv[1], sys.argv[2]
failures = []


def check(cond, what):
    print("%s: %s" % ("ok" if cond else "FAILED", what))
    if not cond:
        failures.append(what)


def pocl_context():
    for p in cl.get_platforms():
        if "Portable Computing Language" in p.name:
            return cl.Context(p.get_devices()[:1])
    sys.exit("no POCL platform")


ctx = pocl_context()
queue = cl.CommandQueue(ctx)
rng = np.random.default_rng(7)
mf = cl.mem_flags


def buf(a):
    return cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=a)


def poisoned(like):
    p = np.empty_like(like)
    p.view(np.uint8)[...] = 0xA5
    if p.dtype.kind == "f":
        p[...] = np.nan
    return p


def ulp_equal(a, b, ulps=4):
    """Integers bitwise; floats within ulps units in the last place, NaN (the poison, in
    the elements the kernel leaves alone) in the same places."""
    if a.dtype.kind != "f":
        return np.array_equal(a.view(np.uint8), b.view(np.uint8))
    if not np.array_equal(np.isnan(a), np.isnan(b)):
        return False
    a, b = a[~np.isnan(a)], b[~np.isnan(b)]
    ia, ib = a.view(np.int32).astype(np.int64), b.view(np.int32).astype(np.int64)
    ia = np.where(ia < 0, -(ia & 0x7FFFFFFF), ia)
    ib = np.where(ib < 0, -(ib & 0x7FFFFFFF), ib)
    return bool(np.all(np.abs(ia - ib) <= ulps))


def run_pair(name, s, prg_kernel, gsz, lsz, inputs, outputs, scalars, offset=None):
    """Runs the original and the set on copies of inputs; outputs poisoned; returns (orig, set)."""
    results = []
    for runner in ("original", "set"):
        bufs_out = [buf(poisoned(o)) for o in outputs]
        bufs_in = [buf(i.copy()) for i in inputs]
        args = bufs_in + bufs_out + list(scalars)
        if runner == "original":
            evt = prg_kernel(queue, gsz, lsz, *args, global_offset=offset)
        else:
            evt = s(queue, gsz, lsz, *args, global_offset=offset)
        if runner == "set" and not isinstance(evt, cl.Event):
            check(False, "%s: the set returns a pyopencl.Event, not %r" % (name, evt))
        evt.wait()
        got = [np.empty_like(o) for o in outputs]
        for b, g in zip(bufs_out, got):
            cl.enqueue_copy(queue, g, b)
        results.append(got)
    return results


def compare(name, results):
    orig, gen = results
    for i, (o, g) in enumerate(zip(orig, gen)):
        check(ulp_equal(o, g), "%s: output %d equals the original's (%d elements)" % (name, i, o.size))


def _pair_struct(s, kernel, params, vals):
    """tone(params, in, out) by the original and the set; params a NumPy record."""
    results = []
    for runner in (kernel, s):
        out = buf(poisoned(vals))
        runner(queue, (vals.size,), None, params, buf(vals), out).wait()
        got = np.empty_like(vals)
        cl.enqueue_copy(queue, got, out)
        results.append([got])
    return results


def program(path, options=""):
    with open(path) as f:
        return cl.Program(ctx, f.read()).build(options=options)


# ---- oneKernel: the measured choice, each candidate forced -------------------
t0 = time.time()
src = os.path.join(SAMPLES, "oneKernel.cl")
manifest = nplus1.generate(src, os.path.join(WORK, "oneKernel"))
check(os.path.basename(manifest) == "oneKernel.nplus1.json", "generate returns the manifest's path")
orig = program(src).oneKernel
n = 1 << 14
ints = rng.integers(0, 1024, n, dtype=np.int32)
floats = rng.random(n, dtype=np.float32)
out0 = np.zeros(n, np.float32)

os.environ["NPLUS1_SPLIT"] = "always"  # read when a set is created
s = nplus1.load(ctx, manifest)
check(s.last_choice == "none", "last_choice is 'none' before the first launch")
evt = s(queue, (n,), None, buf(ints), buf(floats), buf(np.zeros(n, np.float32)))
check(isinstance(evt, cl.Event), "the set returns a pyopencl.Event (%r)" % evt)
evt.wait()
check(evt.command_execution_status == cl.command_execution_status.COMPLETE,
      "the event completes")
compare("oneKernel split always", run_pair("oneKernel", s, orig, (n,), None, [ints, floats], [out0], []))
check(s.last_choice in ("aggregated/host", "aggregated/fused"),
      "NPLUS1_SPLIT=always: last_choice is the split (%s)" % s.last_choice)
counts = s.last_counts()
check(len(counts) == 3 and sum(counts) == n, "last_counts: 3 leaves, %d items (%s)" % (n, counts))
s.release()

os.environ["NPLUS1_SPLIT"] = "auto"
s = nplus1.load(ctx, manifest)
check(set(s.candidates) == {"original", "split", "tile"}, "candidates %s" % s.candidates)
seen = set()
for cand in ("original", "split", "tile"):
    s.force_choice(cand)
    compare("oneKernel forced %s" % cand,
            run_pair("oneKernel", s, orig, (n,), (64,), [ints, floats], [out0], []))
    seen.add(s.last_choice)
check(seen == {"original", "aggregated/host", "tile"}, "forced candidates ran %s" % sorted(seen))
s.force_choice("auto")
for i in range(6):  # the measured choice: trials, then the fastest; results equal throughout
    compare("oneKernel auto launch %d" % i,
            run_pair("oneKernel", s, orig, (n,), None, [ints, floats], [out0], []))
check(s.last_choice in ("original", "aggregated/host", "tile"), "auto: last_choice %s" % s.last_choice)
try:
    s.force_choice("aggregated")
    check(False, "forcing a candidate the set lacks raises")
except nplus1.Error as e:
    check(e.status == "CL_INVALID_VALUE" and "oneKernel" in str(e), "force_choice('aggregated'): %s" % e)
first = s(queue, (n,), None, buf(ints), buf(floats), buf(out0))
second = s(queue, (n,), None, buf(ints), buf(floats), buf(out0), wait_for=[first])
second.wait()
check(first.command_execution_status == cl.command_execution_status.COMPLETE,
      "wait_for: the event waited for has completed")
try:
    s(queue, (n,), (96,), buf(ints), buf(floats), buf(out0))
    check(False, "a local size that does not divide the global size raises")
except nplus1.Error as e:
    check(e.status == "CL_INVALID_WORK_GROUP_SIZE", "bad local size: %s" % e)
try:
    nplus1.load(ctx, manifest, build_options="-DexpensiveCalc0=(")
    check(False, "build options that break the build raise")
except nplus1.Error as e:
    check(e.status == "NPLUS1_ERR_BUILD" and "error" in e.what, "a failed build: %s ..." % str(e)[:90])
print("oneKernel: %.1f s" % (time.time() - t0))

# ---- option_payoffs: NumPy scalars of eight kinds, Python numbers ------------
t0 = time.time()
src = os.path.join(SAMPLES, "option_payoffs.cl")
manifest = nplus1.generate(src, os.path.join(WORK, "payoffs"))
orig = program(src).option_payoffs
n = 4096
kind = rng.integers(0, 5, n, dtype=np.int32)
spot, vol = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
os.environ["NPLUS1_SPLIT"] = "always"
s = nplus1.load(ctx, manifest)
scalars = [np.uint32(n - 96), np.uint16(4), np.int8(1), np.int32(6), np.uint64(12345),
           np.float32(0.5), np.float64(0.03), np.uint8(3)]
compare("option_payoffs numpy scalars",
        run_pair("option_payoffs", s, orig, (n,), None, [kind, spot, vol], [np.zeros(n, np.float32)],
                 scalars))
# Python numbers take the kernel's types (PyOpenCL itself wants NumPy scalars)
bufs = [buf(kind), buf(spot), buf(vol), buf(poisoned(np.zeros(n, np.float32)))]
s(queue, (n,), None, *bufs, n - 96, 4, 1, 6, 12345, 0.5, 0.03, 3).wait()
py = np.empty(n, np.float32)
cl.enqueue_copy(queue, py, bufs[3])
ref = run_pair("option_payoffs", s, orig, (n,), None, [kind, spot, vol], [np.zeros(n, np.float32)],
               scalars)[0][0]
check(ulp_equal(ref[:n - 96], py[:n - 96]), "option_payoffs: Python numbers as arguments")
try:
    s(queue, (n,), None, *bufs, np.int64(n), 4, 1, 6, 12345, 0.5, 0.03, 3)
    check(False, "a scalar of the wrong size raises")
except nplus1.Error as e:
    check(e.status == "CL_INVALID_ARG_SIZE" and "'n'" in str(e), "wrong scalar size: %s" % e)
try:
    s(queue, (n,), None, *bufs)
    check(False, "too few arguments raise")
except TypeError as e:
    check("takes 12 arguments" in str(e), "too few arguments: %s" % e)
try:
    s(queue, (n,), None, *bufs, 1 << 40, 4, 1, 6, 12345, 0.5, 0.03, 3)
    check(False, "a Python int that does not fit raises")
except OverflowError as e:
    check("does not fit const unsigned int" in str(e), "Python int out of range: %s" % e)
print("option_payoffs: %.1f s" % (time.time() - t0))

# ---- image_classify: 2-D, a global offset, a local size --------------------------
t0 = time.time()
src = os.path.join(SAMPLES, "image_classify.cl")
manifest = nplus1.generate(src, os.path.join(WORK, "image"))
orig = program(src).classify_pixels
W, H = 16 + 96, 8 + 64
pix = rng.integers(0, 256, (W * H, 4), dtype=np.uint8)
s = nplus1.load(ctx, manifest)
compare("classify_pixels 2-D offset",
        run_pair("classify_pixels", s, orig, (96, 64), (16, 8), [pix],
                 [np.zeros((W * H, 4), np.uint8), np.zeros(W * H, np.uint8)], [np.int32(W)],
                 offset=(16, 8)))
print("classify_pixels: %.1f s" % (time.time() - t0))

# ---- particles: a float4 by value (pyopencl.cltypes), a __constant buffer -------
t0 = time.time()
src = os.path.join(SAMPLES, "particles.cl")
manifest = nplus1.generate(src, os.path.join(WORK, "particles"))
orig = program(src).collide
n = 4096
pos0 = rng.random((n, 4), dtype=np.float32) * 2 - 1
vel0 = rng.random((n, 4), dtype=np.float32) - 0.5
mats = rng.random((8, 4), dtype=np.float32)
s = nplus1.load(ctx, manifest)
g, dt = cltypes.make_float4(0, -9.8, 0, 0), np.float32(0.01)
res = []
for runner in (orig, s):
    p, v, m = buf(pos0.copy()), buf(vel0.copy()), buf(mats)
    runner(queue, (n,), None, p, v, m, g, dt).wait()
    rp, rv = np.empty_like(pos0), np.empty_like(vel0)
    cl.enqueue_copy(queue, rp, p)
    cl.enqueue_copy(queue, rv, v)
    res.append([rp, rv])
compare("collide float4 by value", res)
print("collide: %.1f s" % (time.time() - t0))

# ---- a struct by value (a NumPy record), images and a sampler ----------------------
t0 = time.time()
kfile = os.path.join(WORK, "struct_image.cl")
with open(kfile, "w") as f:
    f.write("""typedef struct { float gain; int mode; float bias; } Params;
__kernel void tone(Params p, __global const float *in, __global float *out)
{
    const int i = get_global_id(0);
    const float v = in[i];
    if (v > 0.5f)
        out[i] = v * p.gain + p.bias;
    else if (p.mode == 1)
        out[i] = sqrt(v) - p.bias;
    else
        out[i] = v * v;
}
__kernel void filter(read_only image2d_t src, sampler_t smp, write_only image2d_t dst)
{
    const int2 q = (int2)(get_global_id(0), get_global_id(1));
    const float4 c = read_imagef(src, smp, q);
    if (c.x < 0.5f)
        write_imagef(dst, q, c * 2.0f);
    else
        write_imagef(dst, q, sqrt(c));
}
""")
manifest = nplus1.generate(kfile, os.path.join(WORK, "struct_image"))
prg = program(kfile)
params = np.zeros((), np.dtype([("gain", np.float32), ("mode", np.int32), ("bias", np.float32)]))
params["gain"], params["mode"], params["bias"] = 1.5, 1, 0.25
n = 4096
vals = rng.random(n, dtype=np.float32)
s = nplus1.load(ctx, manifest, kernel="tone")
compare("tone struct by value (NumPy record)", _pair_struct(s, prg.tone, params, vals))
s = nplus1.load(ctx, manifest, kernel="filter")
W, H = 64, 32
img = rng.random((H, W, 4), dtype=np.float32)
make_image = getattr(cl, "create_image", cl.Image)  # PyOpenCL 2025 on: create_image
fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.FLOAT)
smp = cl.Sampler(ctx, False, cl.addressing_mode.CLAMP_TO_EDGE, cl.filter_mode.NEAREST)
res = []
for runner in (prg.filter, s):
    src_img = make_image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, shape=(W, H), hostbuf=img)
    dst_img = make_image(ctx, mf.WRITE_ONLY, fmt, shape=(W, H))
    got = np.full((H, W, 4), np.nan, np.float32)
    cl.enqueue_copy(queue, dst_img, got, origin=(0, 0), region=(W, H))
    runner(queue, (W, H), None, src_img, smp, dst_img).wait()
    cl.enqueue_copy(queue, got, dst_img, origin=(0, 0), region=(W, H))
    res.append([got])
compare("filter images and a sampler", res)
print("struct and images: %.1f s" % (time.time() - t0))

# ---- a file of several kernels: kernel= picks one ---------------------------------
manifest = nplus1.generate(os.path.join(SAMPLES, "multi_kernel.cl"), os.path.join(WORK, "multi"))
try:
    nplus1.load(ctx, manifest)
    check(False, "kernel=None on a file of several kernels raises")
except ValueError as e:
    check("pass kernel=NAME" in str(e), "several kernels: %s" % e)
s = nplus1.load(ctx, manifest, kernel="quantize")
check(s.name == "quantize" and s.arg_names == ["in", "out", "level"], "kernel='quantize' loads it")

# ---- the tool's errors, and the profile ------------------------------------------
bad = os.path.join(WORK, "barrier.cl")
with open(bad, "w") as f:
    f.write("__kernel void k(__global int *a)\n{\n    if (a[get_global_id(0)] > 0)\n"
            "        barrier(CLK_GLOBAL_MEM_FENCE);\n}\n")
try:
    nplus1.generate(bad, os.path.join(WORK, "bad"))
    check(False, "a refused kernel raises ToolError")
except nplus1.ToolError as e:
    check(e.returncode == 1 and "barrier.cl:4:" in e.stderr and "[nplus1-" in e.stderr,
          "refused kernel: ToolError exit %d: %s" % (e.returncode, e))
import warnings  # noqa: E402
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    nplus1.generate(os.path.join(SAMPLES, "oneKernel.cl"), os.path.join(WORK, "tile_host"),
                    options=["--strategy", "tile", "--dispatch", "host"])
check(any(issubclass(w.category, nplus1.ToolWarning) and "--dispatch host does not apply"
          in str(w.message) for w in caught), "the tool's warning comes as a ToolWarning")
# --skip-refused: the splittable kernel loads, the refused one says why
with open(bad, "a") as f:
    f.write("__kernel void ok(__global const int *a, __global int *b)\n{\n    const int i = "
            "get_global_id(0);\n    if (a[i] > 3)\n        b[i] = a[i] * a[i] + 7;\n    else\n"
            "        b[i] = a[i] - 1;\n}\n")
manifest = nplus1.generate(bad, os.path.join(WORK, "skip"), options=["--skip-refused", "--split",
                                                                      "always"])
check(nplus1.load(ctx, manifest).name == "ok", "--skip-refused: the splittable kernel loads alone")
try:
    nplus1.load(ctx, manifest, kernel="k")
    check(False, "loading a kernel --skip-refused left out raises")
except ValueError as e:
    check("--skip-refused left it out" in str(e) and "nplus1-barrier" in str(e),
          "a skipped kernel: %s" % e)

# manifests the package cannot read, a library it cannot find: errors that say what to do
import json  # noqa: E402
import subprocess  # noqa: E402
one = os.path.join(WORK, "oneKernel", "oneKernel.nplus1.json")
for what, edit, expect in (("no set_desc", lambda m: m["kernels"][0].pop("set_desc"),
                            "older than this package; regenerate it"),
                           ("format 99", lambda m: m.update(format_version=99),
                            "generated for format version 99, but this nplus1 package reads")):
    m = json.load(open(one))
    edit(m)
    bad_manifest = os.path.join(WORK, "oneKernel", "edited.nplus1.json")
    json.dump(m, open(bad_manifest, "w"))
    try:
        nplus1.load(ctx, bad_manifest)
        check(False, "a manifest with %s raises" % what)
    except ValueError as e:
        check(expect in str(e), "manifest with %s: %s" % (what, e))
p = subprocess.run([sys.executable, "-c", "import nplus1; nplus1.library_path()"],
                   env=dict(os.environ, NPLUS1_LIBRARY_PATH="/nonexistent/libnplus1rt.so.0"),
                   stderr=subprocess.PIPE, text=True)
check(p.returncode != 0 and "LibraryNotFoundError: libnplus1rt not found; set NPLUS1_LIBRARY_PATH"
      in p.stderr and "/nonexistent/libnplus1rt.so.0 (absent)" in p.stderr,
      "no library: LibraryNotFoundError naming where it looked")
prof = nplus1.profile(os.path.join(SAMPLES, "oneKernel.cl"), global_size=4096)
k = prof["kernels"][0]
check(prof["format"] == "nplus1-profile" and k["name"] == "oneKernel"
      and 0 < k["simt_efficiency"] <= 1, "profile: a dict, SIMT efficiency %.3f" % k["simt_efficiency"])

print("python package: %d failures" % len(failures))
sys.exit(1 if failures else 0)
