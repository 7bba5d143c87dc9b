#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
loopgen.py - random loop kernels for differential testing of the loop kernel
(--strategy tile regroups a loop's contexts round by round: tool/plan/loop.c).
Besides the classic shape below, a share of the kernels takes one of the shapes
of real code (SHAPES, further down: nested loops, a decision in a nested block,
a loop below a branch at depth 2, a decision after the loop, two loops, a loop
in a helper, a private stack, a union), validated under the default set.

One call of generate(seed) gives one legal test case in the shape loop.c
regroups today: a prologue (declarations, an optional early-return guard),
one `while` loop whose test has a bounded, data-dependent trip count, a body
with head statements, a data-dependent if/else-if chain or switch at its
top level, in half the kernels a second one (sometimes behind an `if (..) break;`),
then tail statements, and an epilogue that stores the state. The
live state (the loop's context) mixes int, uint, float, float4, a struct and
a small private array; a branch may `return` (the item ends) or run an inner
loop of constant trip count. The options are `--validate --strategy tile`;
run.py --loops requires "validation passed" and counts the kernels whose
leaves are the loop's branches (regrouped) apart from the others.

Legal by construction: no continue, a break only in the exit guard, no
pointers in the state, no side effect in a condition; no undefined
behaviour (integers stay bounded: every update is reduced with a mask or a
modulo, indices are reduced modulo the item count n, shifts are of
unsigned values); every float is a contraction f * c + d with |c| < 1 and
stored as 100 + f, so results agree within the default 4 ULPs whatever the
compiler contracts. Standard library only; the same seed gives the same bytes.
"""

import random

import gen


class Ctx:
    """The kernel's text and the state variables a branch may update."""

    def __init__(self, rng, name):
        self.rng = rng
        self.name = name
        self.lines = []
        self.state = []     # (name, kind): "int", "uint", "float", "float4", "struct", "array"

    def emit(self, depth, text):
        self.lines.append("    " * depth + text)


def int_update(rng, v, h):
    """An int state update that stays in [-4096, 4096]."""
    return rng.choice([
        "%s = (%s + %s * %d) %% 4096;" % (v, v, h, rng.randint(1, 7)),
        "%s = (%s * %d + %d) %% 4093;" % (v, v, rng.randint(2, 5), rng.randint(1, 99)),
        "%s = %s / 2 - %d;" % (v, v, rng.randint(0, 9)),
        "%s = abs(%s - %s) %% 2048;" % (v, v, h),
    ])


def uint_update(rng, v, h):
    return rng.choice([
        "%s = (%s * 3u + 1u) & 0xffffu;" % (v, v),
        "%s = (%s >> 1) ^ (uint)(%s & 15);" % (v, v, h),
        "%s = (%s + (uint)abs(%s)) %% 65521u;" % (v, v, h),
    ])


def float_update(rng, v):
    c = gen.fconst(rng.choice([0.5, 0.75, 0.25, -0.5]))
    return "%s = %s * %s + %s;" % (v, v, c, gen.fconst(rng.uniform(-2, 2)))


def state_update(rng, ctx, h):
    """One statement that updates a state variable from h (an int the head read)."""
    name, kind = rng.choice(ctx.state)
    if kind == "int":
        return int_update(rng, name, h)
    if kind == "uint":
        return uint_update(rng, name, h)
    if kind == "float":
        return float_update(rng, name)
    if kind == "float4":
        return "%s = %s * %s + (float4)((float)(%s & 7) * 0.125f);" % (
            name, name, gen.fconst(rng.choice([0.5, 0.25])), h)
    if kind == "struct":
        return rng.choice(["%s.count = (%s.count + 1) %% 1000;" % (name, name),
                           "%s.weight = %s.weight * 0.5f + %s;" % (name, name,
                                                                  gen.fconst(rng.uniform(-1, 1)))])
    return "%s[%s & 3] = (%s[%s & 3] + 1) %% 1000;" % (name, h, name, h)


def branch_body(rng, ctx, depth, h, may_return):
    """The statements of one branch: updates, sometimes an inner loop or a return."""
    for _ in range(rng.randint(1, 3)):
        ctx.emit(depth, state_update(rng, ctx, h))
    if rng.random() < 0.25:
        f = [n for n, k in ctx.state if k == "float"]
        acc = f[0] if f else None
        if acc:
            ctx.emit(depth, "for (int k = 0; k < %d; k++)" % rng.randint(2, 6))
            ctx.emit(depth + 1, "%s = %s * 0.5f + sin((float)k * 0.25f) * 0.125f;" % (acc, acc))
    if may_return and rng.random() < 0.3:
        ctx.emit(depth, "out_i[i] = -1 - (%s & 255);" % h)
        ctx.emit(depth, "return;")


def decision(rng, ctx, depth, h, returns=True):
    """ONE data-dependent if/else-if chain or switch on h (returns=False: no branch
    returns, as in a helper whose caller goes on)."""
    may_return = rng.random() < 0.4 and returns
    if rng.random() < 0.5:
        n = rng.randint(2, 4)
        cuts = sorted(rng.sample(range(-40, 40), n - 1))
        for b in range(n):
            if b == 0:
                ctx.emit(depth, "if (%s < %d) {" % (h, cuts[0]))
            elif b < n - 1:
                ctx.emit(depth, "} else if (%s < %d) {" % (h, cuts[b]))
            elif rng.random() < 0.8:
                ctx.emit(depth, "} else {")
            else:
                break
            branch_body(rng, ctx, depth + 1, h, may_return)
        ctx.emit(depth, "}")
        return
    n = rng.randint(2, 5)
    ctx.emit(depth, "switch (%s & %d) {" % (h, 7))
    labels = sorted(rng.sample(range(8), n))
    for v in labels:
        ctx.emit(depth, "case %d: {" % v)
        branch_body(rng, ctx, depth + 1, h, may_return)
        ctx.emit(depth + 1, "break;")
        ctx.emit(depth, "}")
    if rng.random() < 0.6:
        ctx.emit(depth, "default:")
        ctx.emit(depth + 1, state_update(rng, ctx, h))
        ctx.emit(depth + 1, "break;")
    ctx.emit(depth, "}")


def second_decision(rng, ctx, h):
    """Half the kernels: a second data decision in the body (on g2, which the first's
    branches do not change), sometimes behind an exit guard that breaks the loop (the
    guard and the decision then make one regroup point). Drawn from rng, a stream of its
    own, so the rest of a seed's kernel is what it was before. Returns 1 when added."""
    if rng.random() < 0.5:
        return 0
    ctx.emit(2, "const int g2 = (%s * %d + steps) %% 64;" % (h, rng.choice([3, 5, 7])))
    if rng.random() < 0.4:
        ctx.emit(2, "if ((g2 & 15) == %d)" % rng.randint(0, 15))
        ctx.emit(3, "break;")
    decision(rng, ctx, 2, "g2")
    return 1


def kernel(rng, name, rng2=None):
    ctx = Ctx(rng, name)
    ctx.multi = 0
    rng2 = rng2 or random.Random(0)
    ctx.emit(0, "__kernel void %s(__global const int *data, __global int *out_i, "
                "__global float *out_f, const uint n)" % name)
    ctx.emit(0, "{")
    ctx.emit(1, "const uint i = get_global_id(0);")
    ctx.emit(1, "if (i >= n)")
    ctx.emit(2, "return;")
    ctx.emit(1, "int a = data[i] %% %d;" % rng.randint(50, 500))
    ctx.state.append(("a", "int"))
    kinds = ["uint", "float", "float4", "struct", "array"]
    rng.shuffle(kinds)
    for kind in kinds[:rng.randint(1, 4)]:
        if kind == "uint":
            ctx.emit(1, "uint s = (uint)(data[(i * 7u) % n] & 1023) | 1u;")
            ctx.state.append(("s", "uint"))
        elif kind == "float":
            ctx.emit(1, "float f = %s;" % gen.fconst(rng.uniform(-1, 1)))
            ctx.state.append(("f", "float"))
        elif kind == "float4":
            ctx.emit(1, "float4 v = (float4)(%s);" % gen.fconst(rng.uniform(0, 1)))
            ctx.state.append(("v", "float4"))
        elif kind == "struct":
            ctx.emit(1, "fzl_acc st;")
            ctx.emit(1, "st.count = 0;")
            ctx.emit(1, "st.weight = 1.0f;")
            ctx.state.append(("st", "struct"))
        else:
            ctx.emit(1, "int hist[4] = {0, 0, 0, 0};")
            ctx.state.append(("hist", "array"))
    limit = rng.randint(4, 40)
    ctx.emit(1, "int steps = 0;")
    test = rng.choice(["a != 0", "a > -100", "(a & 3) != 3", "a % 7 != 0"])
    ctx.emit(1, "while (steps < %d && %s) {" % (limit, test))
    ctx.emit(2, "const int h = data[(i + (uint)steps * %du) %% n] %% 64;" % rng.randint(1, 13))
    if rng.random() < 0.4:
        ctx.emit(2, "const int g = h + a % 8;")
        h = "g"
    else:
        h = "h"
    decision(rng, ctx, 2, h)
    ctx.multi = second_decision(rng2, ctx, h)
    ctx.emit(2, "steps++;")
    ctx.emit(1, "}")
    terms = ["a", "steps"]
    floats = ["0.0f"]
    for nm, kind in ctx.state:
        if kind == "uint":
            terms.append("(int)s")
        elif kind == "float":
            floats.append("f")
        elif kind == "float4":
            floats.append("(v.x + v.w)")
        elif kind == "struct":
            terms.append("st.count")
            floats.append("st.weight")
        elif kind == "array":
            terms.append("hist[0] * 3 + hist[3]")
    ctx.emit(1, "out_i[i] = %s;" % " + ".join(terms))
    ctx.emit(1, "out_f[i] = 100.0f + %s;" % " + ".join(floats))
    ctx.emit(0, "}")
    return "\n".join(ctx.lines) + "\n", ctx.multi


STRUCT = "typedef struct fzl_acc {\n    int count;\n    float weight;\n} fzl_acc;\n"
UNION = "typedef union fzl_bits {\n    float f;\n    int i;\n    uint u;\n} fzl_bits;\n"

# ---- the shapes of real code (issue 28) ----------------------------------------------
#
# Beside the classic shape above (one loop, its decision at the top of its body, under
# --strategy tile), a share of the kernels takes one of the shapes public kernels have
# and the loop kernel of today does not regroup. Each is drawn with its weight from a
# stream of its own (random.Random(seed * 104729 + 3)), so a seed that draws the classic
# shape makes the kernel it made before. These run under the default set (no
# --strategy) with --split always; run.py --loops also asks `--report --split auto`
# what the tool does with each (split, regrouped, kept original, refused and why).
SHAPES = [   # (name, weight); "classic" keeps its share of the kernels
    ("classic", 0.44),
    ("nested", 0.08),       # an inner loop of data-dependent trip count, its decision inside
    ("block", 0.07),        # the decision inside a nested block (a data if) of the body
    ("branch2", 0.07),      # the loop below a branch at depth 2
    ("after", 0.07),        # a decision after the loop
    ("twoloops", 0.07),     # two loops, a decision in each
    ("helper", 0.07),       # the loop in a helper, state through pointers to privates
    ("stack", 0.07),        # a private stack int st[8], pushed and popped
    ("union", 0.06),        # a union in a private variable
]


def pick_shape(seed):
    r = random.Random(seed * 104729 + 3).random()
    for name, w in SHAPES:
        if r < w:
            return name
        r -= w
    return SHAPES[-1][0]


def declare_state(rng, ctx, depth=1):
    """a (int) and one to three more of uint, float, float4, struct, array."""
    ctx.emit(depth, "int a = data[i %% n] %% %d;" % rng.randint(50, 500))
    ctx.state.append(("a", "int"))
    kinds = ["uint", "float", "float4", "struct", "array"]
    rng.shuffle(kinds)
    for kind in kinds[:rng.randint(1, 3)]:
        if kind == "uint":
            ctx.emit(depth, "uint s = (uint)(data[(i * 7u) % n] & 1023) | 1u;")
            ctx.state.append(("s", "uint"))
        elif kind == "float":
            ctx.emit(depth, "float f = %s;" % gen.fconst(rng.uniform(-1, 1)))
            ctx.state.append(("f", "float"))
        elif kind == "float4":
            ctx.emit(depth, "float4 v = (float4)(%s);" % gen.fconst(rng.uniform(0, 1)))
            ctx.state.append(("v", "float4"))
        elif kind == "struct":
            ctx.emit(depth, "fzl_acc st;")
            ctx.emit(depth, "st.count = 0;")
            ctx.emit(depth, "st.weight = 1.0f;")
            ctx.state.append(("st", "struct"))
        else:
            ctx.emit(depth, "int hist[4] = {0, 0, 0, 0};")
            ctx.state.append(("hist", "array"))


def store_state(ctx, extra_int=()):
    terms = ["a"] + list(extra_int)
    floats = ["0.0f"]
    for nm, kind in ctx.state:
        if kind == "uint":
            terms.append("(int)s")
        elif kind == "float":
            floats.append("f")
        elif kind == "float4":
            floats.append("(v.x + v.w)")
        elif kind == "struct":
            terms.append("st.count")
            floats.append("st.weight")
        elif kind == "array":
            terms.append("hist[0] * 3 + hist[3]")
    ctx.emit(1, "out_i[i] = %s;" % " + ".join(terms))
    ctx.emit(1, "out_f[i] = 100.0f + %s;" % " + ".join(floats))


def head_read(rng, ctx, depth, name, steps, salt=""):
    """const int NAME = a data word picked by the item and a step counter, in [-63, 63]."""
    ctx.emit(depth, "const int %s = data[(i + (uint)%s * %du%s) %% n] %% 64;" % (
        name, steps, rng.randint(1, 13), salt))


def loop_open(rng, ctx, depth, steps):
    """A bounded while loop on a data-dependent test; returns the close's depth."""
    ctx.emit(depth, "int %s = 0;" % steps)
    test = rng.choice(["a != 0", "a > -100", "(a & 3) != 3", "a % 7 != 0"])
    ctx.emit(depth, "while (%s < %d && %s) {" % (steps, rng.randint(4, 30), test))


def loop_close(ctx, depth, steps):
    ctx.emit(depth + 1, "%s++;" % steps)
    ctx.emit(depth, "}")


def loop_with(rng, ctx, depth, steps, inner):
    """A loop whose body holds the shape's decision: at its top, in a nested block or in
    an inner loop of data-dependent trip count (inner: 'top', 'block', 'nested')."""
    loop_open(rng, ctx, depth, steps)
    head_read(rng, ctx, depth + 1, "h", steps)
    if inner == "block":
        ctx.emit(depth + 1, "if ((h & %d) != %d) {" % (rng.choice([1, 3]), rng.randint(0, 1)))
        ctx.emit(depth + 2, "const int g = (h + a) % 64;")
        decision(rng, ctx, depth + 2, "g")
        ctx.emit(depth + 1, "} else {")
        ctx.emit(depth + 2, state_update(rng, ctx, "h"))
        ctx.emit(depth + 1, "}")
    elif inner == "nested":
        ctx.emit(depth + 1, "const int m = h & %d;" % rng.choice([3, 7]))
        ctx.emit(depth + 1, "for (int t = 0; t < m; t++) {")
        head_read(rng, ctx, depth + 2, "g", "t", " + (uint)%s * 5u" % steps)
        decision(rng, ctx, depth + 2, "g")
        ctx.emit(depth + 1, "}")
    else:
        decision(rng, ctx, depth + 1, "h")
    loop_close(ctx, depth, steps)


def shape_body(rng, ctx, shape):
    """The statements between the prologue and the stores, for one shape."""
    extra = []
    if shape in ("nested", "block"):
        loop_with(rng, ctx, 1, "steps", shape)
        extra.append("steps")
    elif shape == "branch2":
        head_read(rng, ctx, 1, "h0", "0")
        ctx.emit(1, "if (h0 < %d) {" % rng.randint(-20, 40))
        ctx.emit(2, state_update(rng, ctx, "h0"))
        ctx.emit(2, "if ((a & 3) != %d) {" % rng.randint(0, 3))
        loop_with(rng, ctx, 3, "steps", rng.choice(["top", "top", "block"]))
        ctx.emit(2, "}")
        ctx.emit(1, "} else {")
        ctx.emit(2, state_update(rng, ctx, "h0"))
        ctx.emit(1, "}")
    elif shape == "after":
        loop_with(rng, ctx, 1, "steps", rng.choice(["top", "top", "nested"]))
        ctx.emit(1, "const int e = (a + steps * 3) % 64;")
        decision(rng, ctx, 1, "e")
        extra.append("steps")
    elif shape == "twoloops":
        loop_with(rng, ctx, 1, "steps", "top")
        loop_with(rng, ctx, 1, "steps2", rng.choice(["top", "block"]))
        extra += ["steps", "steps2"]
    elif shape == "helper":
        ctx.emit(1, "int steps = fzl_walk(data, n, i, &a, &f);")
        extra.append("steps")
    elif shape == "stack":
        ctx.emit(1, "int stk[8];")
        ctx.emit(1, "int sp = 0;")
        ctx.emit(1, "stk[sp++] = a & 63;")
        ctx.emit(1, "int steps = 0;")
        ctx.emit(1, "while (sp > 0 && steps < %d) {" % rng.randint(6, 30))
        ctx.emit(2, "const int node = stk[--sp];")
        ctx.emit(2, "const int h = data[(i + (uint)node * %du + (uint)steps) %% n] %% 64;"
                 % rng.randint(1, 13))
        ctx.emit(2, "if (h < %d && sp < 6) {" % rng.randint(-10, 30))
        ctx.emit(3, "stk[sp++] = (node * 3 + 1) & 63;")
        ctx.emit(3, "stk[sp++] = (node + h) & 63;")
        ctx.emit(3, state_update(rng, ctx, "h"))
        ctx.emit(2, "} else {")
        decision(rng, ctx, 3, "h")
        ctx.emit(2, "}")
        ctx.emit(2, "steps++;")
        ctx.emit(1, "}")
        extra += ["steps", "sp * 7", "stk[0]"]
    elif shape == "union":
        ctx.emit(1, "fzl_bits ub;")
        ctx.emit(1, "ub.f = (float)(a & 255) * 0.5f;")
        ctx.emit(1, "int steps = 0;")
        ctx.emit(1, "while (steps < %d && (ub.u & 7u) != %du) {" % (rng.randint(4, 30),
                                                                 rng.randint(0, 7)))
        ctx.emit(2, "const int h = (int)((ub.u >> %d) & 63u) - 31;" % rng.choice([3, 9, 17]))
        decision(rng, ctx, 2, "h")
        ctx.emit(2, "ub.u = (ub.u * 5u + (uint)data[(i + (uint)steps) % n]) & 0xffffffu;")
        ctx.emit(2, "steps++;")
        ctx.emit(1, "}")
        extra += ["steps", "(int)(ub.u & 0xffffu)"]
    return extra


def helper_text(rng, name):
    """fzl_walk: the loop of the helper shape, the caller's a and f through pointers."""
    ctx = Ctx(rng, name)
    ctx.state = [("(*ap)", "int"), ("(*fp)", "float")]
    ctx.emit(0, "static int fzl_walk(__global const int *data, const uint n, const uint i, "
                "int *ap, float *fp)")
    ctx.emit(0, "{")
    ctx.emit(1, "int steps = 0;")
    ctx.emit(1, "while (steps < %d && (*ap & 3) != 3) {" % rng.randint(4, 30))
    head_read(rng, ctx, 2, "h", "steps")
    decision(rng, ctx, 2, "h", returns=False)
    ctx.emit(2, "steps++;")
    ctx.emit(1, "}")
    ctx.emit(1, "return steps;")
    ctx.emit(0, "}")
    return "\n".join(ctx.lines) + "\n"


def shape_kernel(rng, name, shape, guard):
    """One kernel of a real-code shape; guard: the early-return guard on i >= n."""
    ctx = Ctx(rng, name)
    helper = helper_text(rng, name) + "\n" if shape == "helper" else ""
    ctx.emit(0, "__kernel void %s(__global const int *data, __global int *out_i, "
                "__global float *out_f, const uint n)" % name)
    ctx.emit(0, "{")
    ctx.emit(1, "const uint i = get_global_id(0);")
    if guard:
        ctx.emit(1, "if (i >= n)")
        ctx.emit(2, "return;")
    declare_state(rng, ctx)
    if shape == "helper" and ("f", "float") not in ctx.state:
        ctx.emit(1, "float f = %s;" % gen.fconst(rng.uniform(-1, 1)))
        ctx.state.append(("f", "float"))
    extra = shape_body(rng, ctx, shape)
    store_state(ctx, extra)
    ctx.emit(0, "}")
    return helper + "\n".join(ctx.lines) + "\n"


def generate(seed):
    """The loop test case of seed (an int)."""
    shape = pick_shape(seed)
    if shape != "classic":
        return generate_shape(seed, shape)
    rng = random.Random(seed)
    case = gen.Case()
    case.kind = "loop"
    case.shape = "classic"
    name = "fzl_%06x" % (seed & 0xffffff)
    size = rng.choice([256, 500, 1000, 1024, 2048, 3000, 4096, 10007])
    off = rng.choice([0, 0, 0, 64, 100])
    n = off + size - rng.choice([0, 0, 3, 17])
    text, case.multi = kernel(rng, name, random.Random(seed * 7919 + 17))
    case.source = "/* nplus1gen fuzzgen --loops: seed %d */\n%s\n%s" % (seed, STRUCT, text)
    case.kernels = [name]
    opts = ["--validate", "--global", str(size)]
    if off:
        opts += ["--offset", str(off)]
    opts += ["--arg", "n=%d" % n, "--arg", "data=range:-1000:1000",
             "--seed", str(rng.randrange(1, 1 << 30)), "--strategy", "tile"]
    if rng.random() < 0.3:
        opts += ["--wg", str(rng.choice([32, 64, 128, 256]))]
    opts += ["--split", "always" if rng.random() < 0.7 else "auto"]
    case.options = opts
    return case


def generate_shape(seed, shape):
    """A kernel of one of the real-code shapes (SHAPES), under the default set."""
    rng = random.Random(seed)
    case = gen.Case()
    case.kind = "loop"
    case.shape = shape
    case.multi = 0
    name = "fzs_%06x" % (seed & 0xffffff)
    guard = rng.random() < 0.7
    size = rng.choice([256, 500, 1000, 1024, 2048, 3000, 4096])
    if guard:
        n = size - rng.choice([0, 0, 3, 17])
    else:
        n = size   # no guard: the launch is exactly the items
    text = shape_kernel(rng, name, shape, guard)
    case.source = "/* nplus1gen fuzzgen --loops: seed %d, shape %s */\n%s\n%s\n%s" % (
        seed, shape, STRUCT, UNION, text)
    case.kernels = [name]
    case.options = ["--validate", "--global", str(size), "--arg", "n=%d" % n,
                    "--arg", "data=range:-1000:1000", "--seed", str(rng.randrange(1, 1 << 30)),
                    "--split", "always"]
    return case


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description="print one generated loop kernel and its options")
    ap.add_argument("seed", type=int)
    a = ap.parse_args()
    c = generate(a.seed)
    print(c.source)
    print("/* legal; nplus1gen FILE %s */" % " ".join(c.options))
