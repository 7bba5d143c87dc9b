#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the `file:` inputs of the real-shaped set (bench/real/kernels.tsv).

usage: bench/real/gen_inputs.py DIR N W H

N is the 1-D item count, W x H the 2-D image. Files whose contents do not
depend on the size (material tables, layers, BVH scenes) are named without
it. Deterministic: a fixed seed per file. Only the standard library.
"""
import array
import math
import os
import random
import sys

NPRIM = 4096          # bounce_materials.cl
LOCALITY = 256
CHEAP_ROUNDS = 8      # password_verify.cl
STRETCH_ROUNDS = 64
M32 = 0xFFFFFFFF


def write(path, arr):
    if sys.byteorder != "little":
        arr.byteswap()
    with open(path, "wb") as f:
        arr.tofile(f)


def shade_coherent(n, width=1024):
    """Material ids in screen-space regions: objects of 64x64 pixels, sky on top."""
    ids = array.array("i", bytes(4 * n))
    rows = max(1, n // width)
    for p in range(n):
        x, y = p % width, p // width
        if y < rows // 8:
            ids[p] = 5
        else:
            ids[p] = ((x >> 6) * 7 + (y >> 6) * 3) % 5
    return ids


def bounce_coherent():
    """Blocks of 256 primitives of one material, one emitter in 16."""
    rng = random.Random(2)
    order = [0, 1, 0, 2, 0, 0, 1, 2, 0, 1, 0, 2, 0, 0, 1, 2]
    mat = array.array("B", bytes(NPRIM))
    for p in range(NPRIM):
        mat[p] = 3 if rng.random() < 1 / 16 else order[p // LOCALITY]
    return mat


def path_coherent():
    """path_radiance_helper.cl: blocks of 256 primitives of one material (diffuse,
    metal, glass, mirror), one emitter in 16."""
    rng = random.Random(10)
    order = [0, 1, 0, 4, 0, 2, 1, 0, 4, 0, 1, 2, 0, 0, 4, 1]
    mat = array.array("B", bytes(NPRIM))
    for p in range(NPRIM):
        mat[p] = 3 if rng.random() < 1 / 16 else order[p // LOCALITY]
    return mat


def layers(kind):
    """(mua, mus, g, n) per slab; slab 1 is an air gap (void) in both mixes."""
    tissue = {
        "gapped": [(1.0, 9.0, 0.9, 1.4), (2.0, 18.0, 0.8, 1.37), (0.5, 4.5, 0.7, 1.45)],
        "dense": [(0.2, 19.8, 0.95, 1.4), (0.3, 29.7, 0.9, 1.37), (0.1, 9.9, 0.9, 1.45)],
    }[kind]
    rows = [tissue[0], (0.0, 0.0, 0.0, 1.0), tissue[1], tissue[2]]
    return array.array("f", [v for r in rows for v in r])


def bvh(kind, count=512):
    """A BVH over spheres in depth-first order with skip links (uniform or clustered)."""
    rng = random.Random(3 if kind == "uniform" else 4)
    spheres = []
    for _ in range(count):
        if kind == "uniform":
            c = [rng.uniform(-1.0, 1.0) for _ in range(3)]
        else:  # four tight clusters: most rays miss most of the tree
            k = rng.randrange(4)
            c = [(-0.6 if k & 1 else 0.6) + rng.gauss(0, 0.08),
                 (-0.6 if k & 2 else 0.6) + rng.gauss(0, 0.08), rng.gauss(0, 0.3)]
        spheres.append(c + [rng.uniform(0.03, 0.08)])
    nodes = []  # [min3, max3, skip, prim]

    def build(ids):
        me = len(nodes)
        lo = [min(spheres[i][a] - spheres[i][3] for i in ids) for a in range(3)]
        hi = [max(spheres[i][a] + spheres[i][3] for i in ids) for a in range(3)]
        nodes.append([lo, hi, 0, ids[0] if len(ids) == 1 else -1])
        if len(ids) > 1:
            axis = max(range(3), key=lambda a: hi[a] - lo[a])
            ids = sorted(ids, key=lambda i: spheres[i][axis])
            build(ids[:len(ids) // 2])
            build(ids[len(ids) // 2:])
        nodes[me][2] = len(nodes)  # skip: the node after this subtree

    build(list(range(count)))
    out = {"min": array.array("f"), "max": array.array("f"), "skip": array.array("i"),
           "prim": array.array("i"), "sphere": array.array("f")}
    for lo, hi, skip, prim in nodes:
        out["min"].extend(lo + [0.0])
        out["max"].extend(hi + [0.0])
        out["skip"].append(skip)
        out["prim"].append(prim)
    for s in spheres:
        out["sphere"].extend(s)
    return out, len(nodes)


def stencil_cells(w, h):
    """A channel: inflow on the left edge, round obstacles, fluid elsewhere."""
    rng = random.Random(5)
    discs = [(rng.uniform(0.1, 1.0) * w, rng.uniform(0, 1) * h, rng.uniform(0.02, 0.06) * w)
             for _ in range(24)]
    cells = array.array("B", bytes(w * h))
    for cx, cy, r in discs:
        for y in range(max(0, int(cy - r)), min(h, int(cy + r) + 1)):
            for x in range(max(2, int(cx - r)), min(w, int(cx + r) + 1)):
                if (x - cx) ** 2 + (y - cy) ** 2 < r * r:
                    cells[y * w + x] = 1
    for y in range(h):
        cells[y * w] = cells[y * w + 1] = 2
    return cells


def picture(w, h):
    """An RGBA8 'photo': a sky gradient, a sun, textured ground, sharp-edged boxes."""
    rng = random.Random(6)
    img = array.array("B", bytes(4 * w * h))
    boxes = [(rng.uniform(0, w), rng.uniform(0.5, 1) * h, rng.uniform(0.03, 0.1) * w)
             for _ in range(12)]
    for y in range(h):
        for x in range(w):
            if y < h // 2:  # sky and sun
                if (x - 0.7 * w) ** 2 + (y - 0.2 * h) ** 2 < (0.05 * w) ** 2:
                    c = (255, 250, 240)
                else:
                    t = y / h
                    c = (int(90 + 60 * t), int(140 + 50 * t), 230)
            else:  # ground: noisy texture, with flat boxes on it
                c = None
                for bx, by, s in boxes:
                    if abs(x - bx) < s and abs(y - by) < s:
                        c = (200, 60, 40)
                        break
                if c is None:
                    g = rng.randrange(40, 160)
                    c = (g, int(g * 0.9), int(g * 0.6))
            p = 4 * (y * w + x)
            img[p:p + 4] = array.array("B", [c[0], c[1], c[2], 255])
    return img


def runs(n, values, run, seed):
    """n bytes in runs of `run` items, each run's value drawn from `values`."""
    rng = random.Random(seed)
    out = array.array("B", bytes(n))
    for start in range(0, n, run):
        v = rng.choice(values)
        for p in range(start, min(n, start + run)):
            out[p] = v
    return out


def rotl(x, r):
    return ((x << r) | (x >> (32 - r))) & M32


def arx(x, k, rounds):
    for _ in range(rounds):
        x = (x + k) & M32
        x ^= rotl(x, 7)
        x = (x * 0x9E3779B1) & M32
        k = (rotl(k, 5) + 0x7F4A7C15) & M32
    return x ^ (x >> 16)


def passwords(n, ncand, first=0, planted=0.1):
    """Targets and digests for salt = iota: a match planted in a tenth of the items."""
    rng = random.Random(7)
    target = array.array("I", bytes(4 * n))
    digest = array.array("I", bytes(4 * n))
    for i in range(n):
        if rng.random() < planted:
            c = rng.randrange(ncand)
            h = arx((first + i * ncand + c) & M32, i, CHEAP_ROUNDS)
            target[i] = h
            digest[i] = arx(h, i ^ 0xA5A5A5A5, STRETCH_ROUNDS)
        else:
            target[i] = rng.getrandbits(32)
            digest[i] = rng.getrandbits(32)
    return target, digest


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    d, n, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    os.makedirs(d, exist_ok=True)

    def out(name, arr):
        path = os.path.join(d, name)
        if not os.path.exists(path):
            write(path, arr)

    out("shade_coherent_%d.bin" % n, shade_coherent(n))
    out("bounce_coherent.bin", bounce_coherent())
    out("path_coherent.bin", path_coherent())
    for kind in ("gapped", "dense"):
        out("photon_%s.bin" % kind, layers(kind))
    for kind in ("uniform", "clustered"):
        parts, _ = bvh(kind)
        for part, arr in parts.items():
            out("bvh_%s_%s.bin" % (kind, part), arr)
    out("cells_%dx%d.bin" % (w, h), stencil_cells(w, h))
    out("picture_%dx%d.bin" % (w, h), picture(w, h))
    # Runs of an odd length: pairs (2i, 2i+1) then straddle every other run boundary,
    # so the coherent mix also reaches the mixed-shape leaf (sphere-box).
    out("shape_runs_%d.bin" % (2 * n), runs(2 * n, [0, 0, 1, 2], 511, 8))
    out("state_runs_%d.bin" % n, runs(n, [0, 1, 2, 2, 2], 1024, 9))
    tpath = os.path.join(d, "pw_target_%d.bin" % n)
    if not os.path.exists(tpath):
        target, digest = passwords(n, 64)
        write(tpath, target)
        write(os.path.join(d, "pw_digest_%d.bin" % n), digest)


if __name__ == "__main__":
    main()
