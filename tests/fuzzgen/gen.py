#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
gen.py - random branchy OpenCL C kernels for differential testing of nplus1gen.

One call of generate(seed) gives one test case: an OpenCL C file (one or two
branchy kernels, helper functions, sometimes a kernel without a decision), the
nplus1gen options to run it with, and the verdict the tool must reach:

  legal    the file can be split; `nplus1gen --validate` with the launch the
           generator chose must build both versions and find no difference.
  illegal  one construct the rewrite cannot keep was put in (a barrier,
           __local memory, get_local_id, a side effect in a condition or in
           its slice, ...); `nplus1gen --check` must refuse with exit 1 and
           the expected [nplus1-...] rule, and never transform.

Legal kernels are legal by construction, following the rules in
tool/analyze/analyze.c and tool/plan/plan.c (docs/legality.md):
  - conditions and the statements they depend on (the slice) have no side
    effects: locals that a condition may use are only ever assigned by
    side-effect-free statements;
  - once the text has written memory, no condition (nor a local it uses)
    reads memory again except through a restrict or __constant pointer;
  - a return or break only ever stands as a statement of a branch (never
    inside a loop or a nested block before a decision);
  - at most 64 paths through the condition tree (an upper bound is tracked).
They have no undefined behaviour: each work-item writes only its own element
(linear index over the offset-inclusive extents, which is how the runtime
sizes buffers), reads inputs anywhere in range, integers stay far from
overflow (value ranges are tracked), shifts only non-negative values.
Float results agree within a few ULPs whatever the compiler does: conditions
use exact operations only (+ - * on loaded values, fabs, fmin, floor, ...),
transcendental math appears only in leaf values, every update inside a loop
is a contraction, and every float stored is BASE + small * bounded so it
sits far from zero.

Standard library only; the same seed gives the same bytes.
"""

import random

# ---- small helpers -----------------------------------------------------------

INT_LIMIT = 1 << 22          # |int values| stay below this: no overflow anywhere
# every --strategy (tool/plan/plan.h, runtime/nplus1rt_format.h), in the order the draws use
STRATEGIES = ["ordered", "aggregated", "atomic", "chunked", "tile"]


def fconst(x):
    """A float literal that is exact in binary (multiples of 1/64)."""
    v = round(x * 64) / 64.0
    s = repr(v)
    if "e" in s or "E" in s:
        s = "%.6f" % v
    if "." not in s:
        s += ".0"
    return s + "f"


class Var:
    """A local variable: type, value range, and whether a condition may use it."""

    def __init__(self, name, ty, lo, hi, cond_ok, mutable=False):
        self.name = name
        self.ty = ty            # "int" or "float"
        self.lo, self.hi = lo, hi
        self.cond_ok = cond_ok  # exact, side-effect free, no late memory read
        self.mutable = mutable  # a branch may update it (never gid, iv, fv, ...)


class Launch:
    """The NDRange the kernel is validated with."""

    def __init__(self, rng):
        self.dims = rng.choice([1, 1, 1, 2, 2, 3])
        self.gsize = [1, 1, 1]
        self.goff = [0, 0, 0]
        self.local = None
        if self.dims == 1:
            self.gsize[0] = rng.choice([256, 320, 500, 512, 768, 1000, 1024, 1536, 2048,
                                        2500, 3000, 4096])
        elif self.dims == 2:
            self.gsize[0] = rng.choice([8, 12, 16, 20, 32, 48, 64, 100])
            self.gsize[1] = rng.choice([8, 10, 16, 24, 32])
            while self.gsize[0] * self.gsize[1] > 4096:
                self.gsize[1] //= 2
        else:
            self.gsize[0] = rng.choice([4, 6, 8, 16, 20])
            self.gsize[1] = rng.choice([4, 5, 8, 12])
            self.gsize[2] = rng.choice([2, 3, 4, 8])
        if rng.random() < 0.5:
            for d in range(self.dims):
                self.goff[d] = rng.choice([0, 1, 2, 3, 5, 8, 13])
        if rng.random() < 0.35:
            self.local = [1, 1, 1]
            for d in range(self.dims):
                divs = [x for x in range(1, min(self.gsize[d], 64) + 1) if self.gsize[d] % x == 0]
                self.local[d] = rng.choice(divs)
            while self.local[0] * self.local[1] * self.local[2] > 256:
                d = max(range(3), key=lambda i: self.local[i])
                divs = [x for x in range(1, self.local[d]) if self.gsize[d] % x == 0]
                self.local[d] = divs[-1]
        self.extent = [self.gsize[d] + self.goff[d] for d in range(3)]
        self.total = self.extent[0] * self.extent[1] * self.extent[2]
        self.items = self.gsize[0] * self.gsize[1] * self.gsize[2]
        self.gid_lo = (self.goff[2] * self.extent[1] + self.goff[1]) * self.extent[0] + self.goff[0]

    def dims_arg(self, v):
        return ",".join(str(x) for x in v[:self.dims])


# ---- the generator -------------------------------------------------------------

class KernelGen:
    """Generates one kernel (plus its helpers) in textual order."""

    def __init__(self, rng, launch, prefix):
        self.rng = rng
        self.L = launch
        self.p = prefix                  # helper/kernel name prefix
        self.lines = []
        self.ind = 1
        self.scopes = [[]]
        self.mem_written = False
        self.nvar = 0
        self.nlabel = 0
        self.helpers = []                # helper definitions (text)
        self.helper_names = {}           # role -> name
        self.cond_sites = []             # [(seq, text, int var in scope or None)]
        self.stmt_sites = []             # [(seq, kind)] kind: "prologue" | "leaf"
        self.seq = 0
        self.args = {}                   # --arg values
        self.restrict = False
        self.constant_ib = False

    # -- text ----------------------------------------------------------------

    def emit(self, text):
        self.lines.append("    " * self.ind + text)

    def stmt_site(self, kind):
        self.seq += 1
        self.stmt_sites.append((self.seq, kind))
        self.lines.append("@S%d@%s" % (self.seq, "    " * self.ind))

    def cond_site(self, text):
        """A decision's condition; illegal kernels may put a side effect in it."""
        self.seq += 1
        ivars = [v.name for v in self.visible() if v.ty == "int" and v.cond_ok]
        self.cond_sites.append((self.seq, text, ivars[0] if ivars else None))
        return "@C%d@" % self.seq

    def new_name(self, base):
        self.nvar += 1
        return "%s%d" % (base, self.nvar)

    def visible(self):
        out = []
        for s in self.scopes:
            out.extend(s)
        return out

    def declare(self, var):
        self.scopes[-1].append(var)
        return var

    def push(self):
        self.scopes.append([])
        self.ind += 1

    def pop(self):
        self.scopes.pop()
        self.ind -= 1

    def chance(self, p):
        return self.rng.random() < p

    # -- memory reads --------------------------------------------------------

    def can_read(self, ptr):
        """May a condition-grade expression read through ptr now?"""
        immune = ptr in ("ib",) and self.constant_ib or ptr in ("ia", "fa") and self.restrict
        return immune or not self.mem_written

    def neighbour(self):
        k = self.rng.choice([1, 2, 3, 5, 7, 11, 31])
        return "(gid + %d) %% total" % k

    # -- integer expressions (exact) -------------------------------------------

    def int_atom(self, cond_grade):
        """(text, lo, hi) of an int operand."""
        rng = self.rng
        pool = [v for v in self.visible() if v.ty == "int" and (v.cond_ok or not cond_grade)]
        opts = ["var"] * 4 + ["id", "const", "param"]
        if self.can_read("ia") or not cond_grade:
            opts += ["mem"]
        if "peek" in self.helper_names and (not self.mem_written or not cond_grade):
            opts += ["peek"]
        if "mix" in self.helper_names:
            opts += ["mix"]
        if "wid" in self.helper_names:
            opts += ["wid"]
        kind = rng.choice(opts)
        if kind == "var" and pool:
            v = rng.choice(pool)
            return v.name, v.lo, v.hi
        if kind == "id":
            d = rng.randrange(self.L.dims)
            lo, hi = self.L.goff[d], self.L.goff[d] + self.L.gsize[d] - 1
            return "(int)get_global_id(%d)" % d, lo, hi
        if kind == "param":
            return "k", 0, 1023
        if kind == "mem":
            idx = "gid" if rng.random() < 0.7 else self.neighbour()
            if self.can_read("ib") and rng.random() < 0.3:
                return "ib[%s]" % idx, 0, 1023
            return "ia[%s]" % idx, 0, 1023
        if kind == "peek":
            return "%s(ia, %s)" % (self.helper_names["peek"], "gid"), 0, 31
        if kind == "mix":
            a, lo, hi = self.int_atom(cond_grade)
            if lo < 0:
                a = "(%s & 1023)" % a
            return "%s(%s)" % (self.helper_names["mix"], a), 0, 255
        if kind == "wid":
            return "%s()" % self.helper_names["wid"], 0, 6
        c = rng.randrange(0, 64)
        return str(c), c, c

    def int_expr(self, cond_grade, depth=0):
        rng = self.rng
        a, lo, hi = self.int_atom(cond_grade)
        if depth >= 2 or rng.random() < 0.35:
            return a, lo, hi
        op = rng.choice(["add", "sub", "mul", "and", "mod", "shr", "xor", "addv", "min", "max",
                         "tern"])
        if op == "add":
            c = rng.randrange(1, 100)
            return "(%s + %d)" % (a, c), lo + c, hi + c
        if op == "sub":
            c = rng.randrange(1, 600)
            return "(%s - %d)" % (a, c), lo - c, hi - c
        if op == "mul":
            c = rng.randrange(2, 8)
            if max(abs(lo), abs(hi)) * c < INT_LIMIT:
                return "(%s * %d)" % (a, c), min(lo * c, hi * c), max(lo * c, hi * c)
            return a, lo, hi
        if op == "and":
            m = rng.choice([1, 3, 7, 15, 31, 255, 1023])
            return "(%s & %d)" % (a, m), 0, m
        if op == "mod":
            c = rng.randrange(2, 13)
            return "(%s %% %d)" % (a, c), (0 if lo >= 0 else -(c - 1)), c - 1
        if op == "shr" and lo >= 0:
            s = rng.randrange(1, 5)
            return "(%s >> %d)" % (a, s), lo >> s, hi >> s
        if op == "xor" and lo >= 0:
            c = rng.randrange(0, 64)
            top = 1
            while top <= max(hi, c):
                top <<= 1
            return "(%s ^ %d)" % (a, c), 0, top - 1
        if op in ("addv", "min", "max", "tern"):
            b, blo, bhi = self.int_expr(cond_grade, depth + 1)
            if max(abs(lo + blo), abs(hi + bhi)) >= INT_LIMIT:
                return a, lo, hi
            if op == "addv":
                return "(%s + %s)" % (a, b), lo + blo, hi + bhi
            if op == "tern":
                c = rng.randrange(lo, hi + 1) if hi > lo else lo
                return ("(%s > %d ? %s : %s)" % (a, c, a, b)), min(lo, blo), max(hi, bhi)
            return "%s(%s, %s)" % (op, a, b), min(lo, blo), max(hi, bhi)
        return a, lo, hi

    # -- float expressions -----------------------------------------------------

    def float_exact(self, cond_grade):
        """(text, lo, hi) of a float computed with exact (or correctly rounded) operations."""
        rng = self.rng
        pool = [v for v in self.visible() if v.ty == "float" and (v.cond_ok or not cond_grade)]
        kind = rng.choice(["var", "var", "var", "mem", "scale", "int", "param", "fabs", "fminmax",
                           "floor"])
        if kind == "var" and pool:
            v = rng.choice(pool)
            return v.name, v.lo, v.hi
        if kind == "mem" and (self.can_read("fa") or not cond_grade):
            idx = "gid" if rng.random() < 0.7 else self.neighbour()
            return "fa[%s]" % idx, 0.0, 1.0
        if kind == "mem" and not self.mem_written and rng.random() < 0.5:
            return "out[gid]", 0.0, 1.0   # own element, before any write
        if kind == "param":
            return "s", 0.0, 1.0
        if kind == "int":
            a, lo, hi = self.int_expr(cond_grade, 1)
            return "((float)(%s) * 0.0625f)" % a, lo * 0.0625, hi * 0.0625
        if kind in ("scale", "fabs", "fminmax", "floor") and pool:
            v = rng.choice(pool)
            if kind == "scale":
                c = rng.choice([0.5, 2.0, 0.25, 4.0])
                return "(%s * %s)" % (v.name, fconst(c)), min(v.lo * c, v.hi * c), max(v.lo * c, v.hi * c)
            if kind == "fabs":
                c = fconst(rng.choice([0.25, 0.5, 0.75]))
                return "fabs(%s - %s)" % (v.name, c), 0.0, max(abs(v.lo), abs(v.hi)) + 1
            if kind == "floor":
                return "floor(%s * 8.0f)" % v.name, v.lo * 8 - 1, v.hi * 8
            w = rng.choice(pool)
            f = rng.choice(["fmin", "fmax"])
            return "%s(%s, %s)" % (f, v.name, w.name), min(v.lo, w.lo), max(v.hi, w.hi)
        return fconst(rng.choice([0.125, 0.25, 0.5, 0.75])), 0.25, 0.25

    def math_expr(self, depth=0):
        """(text, bound) of a leaf value with transcendental math; |value| <= bound."""
        rng = self.rng
        if depth >= 2 or rng.random() < 0.3:
            pool = [v for v in self.visible() if v.ty == "float"]
            if pool and rng.random() < 0.7:
                v = rng.choice(pool)
                t, b = v.name, max(abs(v.lo), abs(v.hi))
            else:
                t, lo, hi = self.float_exact(False)
                b = max(abs(lo), abs(hi))
            return self.bounded(t, b, 4.0), min(b, 4.0)
        f = rng.choice(["sin", "cos", "exp", "log", "sqrt", "tanh", "atan", "mad", "lin", "fmin",
                        "clamp", "wave", "hyp"])
        a, ab = self.math_expr(depth + 1)
        if f in ("sin", "cos", "tanh"):
            return "%s(%s)" % (f, a), 1.0
        if f == "atan":
            return "atan(%s)" % a, 1.6
        if f == "exp":
            return "exp(-fabs(%s))" % a, 1.0
        if f == "log":
            return "log(1.0f + fabs(%s))" % a, min(ab, 1.0 + ab)
        if f == "sqrt":
            return "sqrt(fabs(%s) + 1.0f)" % a, 1.0 + ab
        if f == "clamp":
            return "clamp(%s, -1.0f, 1.0f)" % a, 1.0
        if f == "wave" and "wave" in self.helper_names:
            b, bb = self.math_expr(depth + 1)
            return "%s(%s, %s)" % (self.helper_names["wave"], a, b), 0.75
        if f == "hyp":
            return "hypot(%s, 0.5f)" % a, ab + 0.5
        b, bb = self.math_expr(depth + 1)
        if f == "mad":
            return "mad(%s, 0.5f, %s)" % (a, b), 0.5 * ab + bb
        if f == "fmin":
            return "fmin(%s, %s)" % (a, b), max(ab, bb)
        return "(%s * 0.5f + %s * 0.25f)" % (a, b), 0.5 * ab + 0.25 * bb

    def bounded(self, text, bound, target):
        """text scaled by a power of two so that |value| <= target."""
        e = 0
        while bound > target:
            bound /= 2
            e += 1
        return text if e == 0 else "(%s * %rf)" % (text, 2.0 ** -e)

    # -- conditions ------------------------------------------------------------------

    def comparison(self):
        rng = self.rng
        kind = rng.choice(["int", "int", "int", "float", "float", "id", "vars", "helper", "param"])
        if kind == "float":
            a, lo, hi = self.float_exact(True)
            t = lo + (hi - lo) * rng.random() if hi > lo else lo
            return "%s %s %s" % (a, rng.choice(["<", ">", "<=", ">="]), fconst(t))
        if kind == "id":
            d = rng.randrange(self.L.dims)
            if rng.random() < 0.5:
                return "get_global_id(%d) %% %d == %d" % (d, rng.randrange(2, 5), rng.randrange(0, 2))
            t = self.L.goff[d] + rng.randrange(0, self.L.gsize[d])
            return "get_global_id(%d) %s %d" % (d, rng.choice(["<", ">="]), t)
        if kind == "param":
            if rng.random() < 0.5:
                a, lo, hi = self.int_expr(True, 1)
                return "%s > k" % a
            a, lo, hi = self.float_exact(True)
            return "%s < s" % a
        if kind == "helper" and "pred" in self.helper_names:
            a, lo, hi = self.int_expr(True, 1)
            f, flo, fhi = self.float_exact(True)
            return "%s(%s, %s)" % (self.helper_names["pred"], a, f)
        if kind == "vars":
            a, alo, ahi = self.int_expr(True, 1)
            b, blo, bhi = self.int_expr(True, 1)
            return "%s %s %s" % (a, rng.choice(["<", ">", "==", "!="]), b)
        a, lo, hi = self.int_expr(True)
        t = rng.randrange(lo, hi + 1) if hi > lo else lo
        op = rng.choice(["<", ">", "<=", ">=", "==", "!="])
        if op in ("==", "!=") and hi - lo > 16:
            return "(%s & 3) %s %d" % (a, op, rng.randrange(0, 4))
        r = rng.random()
        if r < 0.06:   # macros inside a condition are fine (a macro that writes the if is not)
            return "%s(%s, %d)" % (self.macro("ABOVE(x, t) ((x) > (t))"), a, t)
        if r < 0.12:
            name = self.macro("LIMIT%d %d" % (t & 0xffff, t))
            return "%s %s %s" % (a, op, name)
        return "%s %s %d" % (a, op, t)

    def macro(self, definition):
        """#defines P<definition> once (before the helpers); returns the macro's name."""
        name = self.p.upper() + definition.split("(")[0].split(" ")[0]
        text = "#define %s%s\n" % (self.p.upper(), definition)
        if text not in self.helpers:
            self.helpers.insert(0, text)
        return name

    def condition(self):
        rng = self.rng
        c = self.comparison()
        r = rng.random()
        if r < 0.15:
            c = "%s && %s" % (c, self.comparison())
        elif r < 0.25:
            c = "%s || %s" % (c, self.comparison())
        elif r < 0.3:
            c = "!(%s)" % c
        elif r < 0.33:
            c = "(%s) && get_work_dim() == %d" % (c, self.L.dims)
        return c

    # -- statements --------------------------------------------------------------------

    def local_int(self, allow_decl):
        """A new int local for conditions, or an update of one (side-effect free)."""
        rng = self.rng
        pool = [v for v in self.visible() if v.ty == "int" and v.cond_ok and v.mutable]
        if pool and (not allow_decl or rng.random() < 0.3):
            v = rng.choice(pool)
            op = rng.choice(["add", "xor", "and", "mod"])
            if op == "add" and v.hi + 10 < INT_LIMIT:
                c = rng.randrange(1, 10)
                self.emit("%s += %d;" % (v.name, c))
                v.hi += c
            elif op == "xor" and v.lo >= 0:
                self.emit("%s ^= %d;" % (v.name, rng.randrange(1, 8)))
                top = 1
                while top <= max(v.hi, 7):
                    top <<= 1
                v.lo, v.hi = 0, top - 1
            elif op == "and":
                m = rng.choice([7, 15, 63, 255])
                self.emit("%s = %s & %d;" % (v.name, v.name, m))
                v.lo, v.hi = min(v.lo, 0), max(v.hi, m)
            else:
                c = rng.randrange(2, 9)
                self.emit("%s = %s %% %d;" % (v.name, v.name, c))
                v.lo, v.hi = min(v.lo, -(c - 1) if v.lo < 0 else 0), max(v.hi, c - 1)
            return
        if not allow_decl:
            return
        e, lo, hi = self.int_expr(True)
        v = self.declare(Var(self.new_name("i"), "int", lo, hi, True, True))
        self.emit("int %s = %s;" % (v.name, e))

    def local_float_exact(self):
        e, lo, hi = self.float_exact(True)
        v = self.declare(Var(self.new_name("f"), "float", lo, hi, True))
        self.emit("float %s = %s;" % (v.name, e))

    def float_store(self):
        """A write of a well-conditioned float to the item's own element."""
        rng = self.rng
        e, b = self.math_expr()
        e = self.bounded(e, b, 2.0)
        base = fconst(rng.choice([1.5, 2.0, 2.5, 3.0]))
        if rng.random() < 0.3:
            self.emit("out[gid] += 0.25f * %s + %s;" % (e, base))
        elif rng.random() < 0.2:
            self.emit("out[gid] = out[gid] * 0.5f + %s + 0.125f * %s;" % (base, e))
        else:
            self.emit("out[gid] = %s + 0.25f * %s;" % (base, e))
        self.mem_written = True

    def int_store(self):
        rng = self.rng
        e, lo, hi = self.int_expr(False)
        if rng.random() < 0.1:   # atomics are fine in a leaf (own element: no race)
            self.emit("atomic_%s(&iout[gid], %s);" % (rng.choice(["add", "xor", "max"]), e))
        else:
            self.emit("iout[gid] %s %s;" % (rng.choice(["=", "+=", "^="]), e))
        self.mem_written = True

    def loop_block(self):
        """A block with a loop: a contraction on floats, or a bounded int loop."""
        rng = self.rng
        n = rng.randrange(2, 7)
        self.emit("{")
        self.push()
        if rng.random() < 0.55:
            acc = self.new_name("acc")
            e, b = self.math_expr(1)
            self.emit("float %s = %s;" % (acc, self.bounded(e, b, 1.0)))
            step = rng.choice(["sin(%s) * 0.5f", "cos(%s) * 0.5f", "exp(-fabs(%s)) * 0.5f",
                               "tanh(%s) * 0.5f", "sqrt(fabs(%s) + 1.0f) * 0.25f",
                               "atan(%s) * 0.25f", "mad(%s, 0.25f, 0.125f)"]) % acc
            x, xb = self.math_expr(1)
            self.emit("for (int it = 0; it < %d; it++)" % n)
            self.emit("    %s = %s + 0.25f * %s;" % (acc, step, self.bounded(x, xb, 1.0)))
            self.scopes[-1].append(Var(acc, "float", -2.0, 2.0, False))
            self.float_store()
        else:
            t = self.new_name("t")
            m, lo, hi = self.int_expr(False, 1)
            self.emit("int %s = 0;" % t)
            form = rng.choice(["for", "while", "break", "continue"])
            if form == "while":
                cnt = self.new_name("c")
                self.emit("int %s = (%s) & 7;" % (cnt, m))
                self.emit("while (%s > 0) {" % cnt)
                self.emit("    %s += %s * 3 + 1;" % (t, cnt))
                self.emit("    %s--;" % cnt)
                self.emit("}")
            elif form == "break":
                self.emit("for (int it = 0; it < 8; it++) {")
                self.emit("    if (it == ((%s) & 7))" % m)
                self.emit("        break;")
                self.emit("    %s += it * it;" % t)
                self.emit("}")
            elif form == "continue":
                self.emit("for (int it = 0; it < %d; it++) {" % n)
                self.emit("    if ((it & 1) == 0)")
                self.emit("        continue;")
                self.emit("    %s += (%s) & 15;" % (t, m))
                self.emit("}")
            else:
                self.emit("for (int it = 0; it < %d; it++)" % n)
                self.emit("    %s += ((%s) + it) & 31;" % (t, m))
            self.emit("iout[gid] %s %s;" % (rng.choice(["=", "+="]), t))
            self.mem_written = True
        self.pop()
        self.emit("}")

    def leaf_work(self, allow_decl):
        """The observable work of a leaf: one or two stores or loop blocks."""
        rng = self.rng
        for _ in range(rng.choice([1, 1, 2])):
            r = rng.random()
            if r < 0.35:
                self.float_store()
            elif r < 0.6:
                self.int_store()
            else:
                self.loop_block()

    # -- decisions ---------------------------------------------------------------------

    def body(self, depth, budget, allow_decl, jump=None):
        """
        Statements of one branch. Returns (paths, ends_with_jump).
        jump: "break" inside a switch case, where a nested if may break out.
        """
        rng = self.rng
        paths = 1
        if allow_decl and rng.random() < 0.4:
            self.local_int(True)
        elif rng.random() < 0.2:
            self.local_int(False)
        if allow_decl and rng.random() < 0.15:
            self.local_float_exact()
        if rng.random() < 0.5:
            self.leaf_work(allow_decl)
        self.stmt_site("leaf")
        if depth < self.max_depth and budget >= 2 and rng.random() < 0.55:
            p = self.decision(depth + 1, budget, jump)
            paths *= p
            if budget // paths >= 2 and rng.random() < 0.2:
                if rng.random() < 0.5:
                    self.leaf_work(allow_decl)
                paths *= self.decision(depth + 1, budget // paths, jump)
        if rng.random() < 0.5 or paths == 1:
            self.leaf_work(allow_decl)
        r = rng.random()
        if r < 0.15:
            self.emit("return;")
            return paths, True
        if jump and r < 0.3:
            self.emit("break;")
            return paths, True
        return paths, False

    def decision(self, depth, budget, jump=None):
        r = self.rng.random()
        if r < 0.3 and budget >= 3:
            return self.switch(depth, budget)
        if r < 0.42 and budget >= 2:
            return self.simple_if(budget)
        return self.if_chain(depth, budget, jump)

    def if_chain(self, depth, budget, jump=None):
        rng = self.rng
        nb = rng.choice([1, 1, 2, 2, 3, 4])            # if / else-if branches
        has_else = rng.random() < 0.6
        total = nb + 1                                   # else or implicit else
        while total > budget and nb > 1:
            nb -= 1
            total = nb + 1
        sub = max(1, budget // total)
        paths = 0
        for b in range(nb + has_else):
            if b < nb:
                self.branch_head("if %s" % self.paren(self.cond_site(self.condition())), b > 0)
            else:
                self.branch_head("", True)
            self.push()
            p, _ = self.body(depth, sub, True, jump)
            paths += p
            self.pop()
        self.emit("}")
        return paths + (0 if has_else else 1)

    # -- layout: the tool cuts the kernel's own text, so vary how it is written --

    def paren(self, cond):
        """(cond), sometimes with spaces or a comment inside or before the parentheses."""
        r = self.rng.random()
        if r < 0.08:
            return "( %s )" % cond
        if r < 0.14:
            return "(/* why */ %s)" % cond
        if r < 0.18:
            return "/* check */ (%s)" % cond
        return "(%s)" % cond

    def branch_head(self, head, after_branch):
        """
        Opens a branch: "if (c) {", "} else if (c) {", "} else {"; in Allman
        style, or split after the closing brace, on separate lines.
        """
        if after_branch:
            head = ("else " + head).strip()
            if self.allman or self.rng.random() < 0.25:
                self.emit("}")
            else:
                head = "} " + head
        if self.allman:
            self.emit(head)
            self.emit("{")
        else:
            self.emit(head + (" /* then */ {" if self.rng.random() < 0.05 else " {"))

    def simple_if(self, budget):
        """if (a) stmt; else if (b) stmt; else stmt;  -- single statements, no braces."""
        rng = self.rng
        nb = min(rng.choice([1, 1, 2, 3]), budget - 1)
        has_else = rng.random() < 0.6
        for b in range(nb):
            cond = self.cond_site(self.condition())
            self.emit("%sif %s" % ("else " if b else "", self.paren(cond)))
            self.ind += 1
            self.int_store() if rng.random() < 0.5 else self.float_store()
            self.ind -= 1
        if has_else:
            self.emit("else")
            self.ind += 1
            self.int_store() if rng.random() < 0.5 else self.float_store()
            self.ind -= 1
        return nb + 1

    def switch(self, depth, budget):
        rng = self.rng
        form = rng.choice(["and", "mod", "shift"])
        a, lo, hi = self.int_expr(True, 1)
        if form == "and" or lo < 0:
            m = rng.choice([3, 7, 15])
            ctrl, vals = "(%s) & %d" % (a, m), list(range(0, m + 1))
            form = "and"
        elif form == "mod":
            c = rng.randrange(3, 9)
            ctrl, vals = "(%s) %% %d" % (a, c), list(range(0, c))
        else:
            c = rng.randrange(2, 6)
            ctrl, vals = "((%s) & 7) - %d" % (a, c), list(range(-c, 8 - c))
        nent = min(len(vals), rng.randrange(2, 6), budget - 2)
        chosen = sorted(rng.sample(vals, nent))
        if rng.random() < 0.3:
            rng.shuffle(chosen)
        # group labels: some entries carry two labels
        entries = []
        i = 0
        while i < len(chosen):
            lo, hi = chosen[i], chosen[i + 1] if i + 1 < len(chosen) else None
            if hi is not None and hi > lo and not any(lo < v < hi for v in chosen) and \
                    rng.random() < 0.15:
                entries.append(["case %d ... %d:" % (lo, hi)])   # a GNU case range
                i += 2
            elif i + 1 < len(chosen) and rng.random() < 0.25:
                entries.append(["case %d:" % chosen[i], "case %d:" % chosen[i + 1]])
                i += 2
            else:
                entries.append(["case %d:" % chosen[i]])
                i += 1
        has_default = rng.random() < 0.6
        if has_default and len(entries) + 1 < budget:
            entries.insert(rng.randrange(0, len(entries) + 1), ["default:"])
        has_default = any(e == ["default:"] for e in entries)
        sub = max(1, budget // (len(entries) + 1))
        cond = self.cond_site(ctrl)
        self.emit("switch %s%s" % (self.paren(cond), "" if self.allman else " {"))
        if self.allman:
            self.emit("{")
        results = []   # per entry: (paths, ends_with_jump)
        for e, labels in enumerate(entries):
            last = e == len(entries) - 1
            for lab in labels:
                self.emit(lab)
            self.push()
            style = rng.random()
            if style < 0.12 and not last:
                self.emit("return;")
                results.append((1, True))
            elif style < 0.27:
                results.append(self.braced_case())
            else:
                # a body that falls through must not hold a decision: path products stay small
                may_fall = rng.random() < 0.3 and not last
                p, jumped = self.body(depth, 1 if may_fall else sub, False, "break")
                if not jumped and not may_fall:
                    self.emit("break;")
                    jumped = True
                results.append((p, jumped))
            self.pop()
        self.emit("}")
        paths = 0
        for e in range(len(entries)):
            chain = 1
            for j in range(e, len(entries)):
                chain *= results[j][0]
                if results[j][1]:
                    break
            paths += chain
        if not has_default:
            paths += 1
        return max(paths, 1)

    def braced_case(self):
        """case N: { declarations; work; } with the break after the braces (or inside)."""
        rng = self.rng
        self.emit("{")
        self.push()
        e, lo, hi = self.int_expr(False)
        t = self.new_name("b")
        self.emit("int %s = %s;" % (t, e))
        self.scopes[-1].append(Var(t, "int", lo, hi, False))
        self.leaf_work(True)
        inner_break = rng.random() < 0.5
        if inner_break:
            self.emit("break;")   # leaves the switch from inside the braces (fixed in d963579)
        self.pop()
        self.emit("}")
        if not inner_break and rng.random() < 0.7:
            self.emit("break;")
            return 1, True
        return 1, inner_break

    # -- the kernel ----------------------------------------------------------------------

    def index_code(self):
        L = self.L
        ext = ["(get_global_size(%d) + get_global_offset(%d))" % (d, d) for d in range(3)]
        if L.dims == 1:
            lin = "get_global_id(0)"
            tot = ext[0]
        elif L.dims == 2:
            lin = "get_global_id(1) * %s + get_global_id(0)" % ext[0]
            tot = "%s * %s" % (ext[0], ext[1])
        else:
            lin = "(get_global_id(2) * %s + get_global_id(1)) * %s + get_global_id(0)" % (ext[1], ext[0])
            tot = "%s * %s * %s" % (ext[0], ext[1], ext[2])
        return lin, tot

    def make_helpers(self):
        rng = self.rng
        p = self.p
        lin, tot = self.index_code()
        if rng.random() < 0.4:
            n = p + "lin"
            self.helper_names["lin"] = n
            self.helpers.append("static int %s(void)\n{\n    return (int)(%s);\n}\n" % (n, lin))
        if rng.random() < 0.5:
            n = p + "mix"
            self.helper_names["mix"] = n
            a, b, m = rng.randrange(3, 9), rng.randrange(0, 50), rng.choice([63, 127, 255])
            self.helpers.append("static int %s(int v)\n{\n    return (v * %d + %d) & %d;\n}\n"
                                % (n, a, b, m))
        if rng.random() < 0.4:
            n = p + "wid"
            self.helper_names["wid"] = n
            inner = ("%s(%d) + (int)get_global_id(0)" % (self.helper_names["mix"], rng.randrange(9))
                     if "mix" in self.helper_names and rng.random() < 0.5 else "(int)get_global_id(0)")
            self.helpers.append("static int %s(void)\n{\n    return (%s) %% 7;\n}\n" % (n, inner))
        if rng.random() < 0.4:
            n = p + "pred"
            self.helper_names["pred"] = n
            self.helpers.append("static bool %s(int v, float f)\n{\n    return (v %% 3) != %d || f < %s;\n}\n"
                                % (n, rng.randrange(3), fconst(rng.random())))
        if rng.random() < 0.3:
            n = p + "peek"
            self.helper_names["peek"] = n
            self.helpers.append("static int %s(__global const int *q, int i)\n{\n    return q[i] & 31;\n}\n" % n)
        if rng.random() < 0.5:
            n = p + "wave"
            self.helper_names["wave"] = n
            if rng.random() < 0.5:
                body = "    return sin(x) * 0.5f + cos(y) * 0.25f;\n"
            else:
                body = ("    float a = clamp(x, -1.0f, 1.0f);\n"
                        "    for (int i = 0; i < 3; i++)\n"
                        "        a = sin(a) * 0.5f + clamp(y, -1.0f, 1.0f) * 0.25f;\n"
                        "    return a;\n")
            self.helpers.append("static float %s(float x, float y)\n{\n%s}\n" % (n, body))

    def params(self):
        rng = self.rng
        self.restrict = rng.random() < 0.25
        self.constant_ib = rng.random() < 0.4
        r = " *restrict " if self.restrict else " *"
        ps = ["__global const int%sia" % r, "__global const float%sfa" % r]
        if self.constant_ib:
            ps.append("__constant int *ib")
        else:
            ps.append("__global const int *ib")
        ps += ["__global float *out", "__global int *iout", "const int n", "const int k",
               "const float s"]
        return ps

    def prologue(self):
        rng = self.rng
        lin, tot = self.index_code()
        if "lin" in self.helper_names:
            self.emit("int gid = %s();" % self.helper_names["lin"])
        else:
            self.emit("int gid = (int)(%s);" % lin)
        self.declare(Var("gid", "int", self.L.gid_lo, self.L.total - 1, True))
        self.emit("const int total = (int)(%s);" % tot)
        self.stmt_site("prologue")
        self.guard_first = rng.random() < 0.5
        if self.guard_first and rng.random() < 0.5:
            self.guard()
        if self.restrict or self.constant_ib:
            if rng.random() < 0.3:
                # a store before the decisions is fine when conditions only read
                # through restrict / __constant pointers
                self.emit("iout[gid] = %d;" % rng.randrange(100))
                self.mem_written = True
        iv = self.declare(Var("iv", "int", 0, 1023, self.can_read("ia")))
        self.emit("int iv = ia[gid];")
        fv = self.declare(Var("fv", "float", 0.0, 1.0, self.can_read("fa")))
        self.emit("float fv = fa[gid];")
        if rng.random() < 0.5:
            self.declare(Var("jv", "int", 0, 1023, self.can_read("ib")))
            self.emit("int jv = ib[%s];" % (self.neighbour() if rng.random() < 0.5 else "gid"))
        for _ in range(rng.randrange(0, 3)):
            self.local_int(True)
        if rng.random() < 0.3:
            self.local_float_exact()
        self.stmt_site("prologue")
        if not self.guard_first and rng.random() < 0.4:
            self.guard()
        del iv, fv

    def guard(self):
        """if (gid >= n) return; with n chosen so that some items leave."""
        rng = self.rng
        L = self.L
        self.args["n"] = rng.randrange(L.gid_lo + (L.total - L.gid_lo) // 2, L.total + 1)
        cond = self.cond_site("gid >= n")
        if rng.random() < 0.5:
            self.emit("if (%s) return;" % cond)
        else:
            self.emit("if (%s) {" % cond)
            self.emit("    return;")
            self.emit("}")
        return 2

    def early_exit(self, budget):
        """if (c) { work; return; }"""
        cond = self.cond_site(self.condition())
        self.emit("if (%s) {" % cond)
        self.push()
        self.leaf_work(True)
        self.emit("return;")
        self.pop()
        self.emit("}")

    def kernel(self, name, attrs):
        rng = self.rng
        self.max_depth = rng.choice([1, 2, 3, 4, 4])
        self.allman = rng.random() < 0.2
        self.make_helpers()
        ps = self.params()
        self.args["k"] = rng.randrange(0, 1024)
        self.args["s"] = rng.randrange(0, 65) / 64.0
        self.prologue()
        budget = 60
        if rng.random() < 0.3:
            self.early_exit(budget)
        # the decisions: one, or two in a row (paths multiply)
        p = self.decision(1, budget // 2 if rng.random() < 0.3 else budget)
        if budget // p >= 2 and rng.random() < 0.3:
            self.stmt_site("leaf")
            if rng.random() < 0.5:
                self.leaf_work(True)
            self.decision(1, budget // p)
        # the epilogue: runs in every leaf kernel
        if rng.random() < 0.5:
            self.leaf_work(True)
        if rng.random() < 0.3:
            self.emit("out[gid] = out[gid] * 0.5f + 1.0f;")
        self.ps = ps
        self.name = name
        self.attrs = attrs

    def text(self):
        head = "__kernel %svoid %s(%s)" % (self.attrs, self.name, ",\n        ".join(self.ps))
        return head + "\n{\n" + "\n".join(self.lines) + "\n}\n"


# ---- illegal constructs ---------------------------------------------------------------

# kind -> (rule, where, text); where: "prologue" | "any" (statement site) | "cond" | special
# (legal since issue 9, so not here: mem_fence, and an if condition that writes a
# private variable, "(v = v + 1) > 3" or "v++ > 3": the leaves evaluate it again)
ILLEGAL = {
    "barrier":        ("nplus1-barrier", "any", "barrier(CLK_GLOBAL_MEM_FENCE);"),
    "wg_barrier":     ("nplus1-barrier", "any", "work_group_barrier(CLK_GLOBAL_MEM_FENCE);"),
    "local_var":      ("nplus1-local-memory", "prologue",
                       "__local float lmem[16]; lmem[gid & 15] = fv;"),
    "local_arg":      ("nplus1-local-memory", "param", "__local float *scratch"),
    "local_id":       ("nplus1-local-id", "any", "iout[gid] += (int)get_local_id(0);"),
    "group_id":       ("nplus1-local-id", "any", "iout[gid] += (int)get_group_id(0);"),
    "local_size":     ("nplus1-local-id", "any", "iout[gid] += (int)get_local_size(0);"),
    "num_groups":     ("nplus1-local-id", "any", "iout[gid] += (int)get_num_groups(0);"),
    "wg_reduce":      ("nplus1-group-function", "any", "iout[gid] += work_group_reduce_add(1);"),
    "sg_reduce":      ("nplus1-group-function", "any", "iout[gid] += sub_group_reduce_add(1);"),
    "wg_broadcast":   ("nplus1-group-function", "any",
                       "iout[gid] += work_group_broadcast(gid, 0);"),
    "helper_barrier": ("nplus1-barrier", "helper", "barrier(CLK_LOCAL_MEM_FENCE);"),
    "helper_lid":     ("nplus1-local-id", "helper", "return (int)get_local_id(0);"),
    "goto":           ("nplus1-unsupported", "any", "goto L%d; L%d: ;"),
    "recursion":      ("nplus1-unsupported", "recursion", None),
    "cond_atomic":    ("nplus1-side-effect", "cond", "atomic_inc(&iout[gid]) > 3"),
    # the stored value is data (fa[gid]), so the decision splits whatever else it reads: a
    # store of a constant in an affine chain stays in the leaf, where it is legal
    "cond_store":     ("nplus1-side-effect", "cond", "(out[gid] = fv) > 0.25f"),
    "cond_store_i":   ("nplus1-side-effect", "cond", "(iout[gid] += 1) > 2"),
    "cond_helper":    ("nplus1-side-effect", "cond", "BUMP(iout, gid) > 3"),
    "slice_atomic":   ("nplus1-side-effect", "slice", "int sfx = atomic_add(&iout[gid], 1);"),
    "slice_helper":   ("nplus1-side-effect", "slice", "int sfx = BUMP(iout, gid);"),
    # a float store read back through the same buffer: an int store (iout) would not
    # feed the float read under C's strict aliasing, which nplus1-memory-order follows
    "memory_order":   ("nplus1-memory-order", "order", "out[gid] = 0.75f;"),
    "hidden_return":  ("nplus1-hidden-return", "prologue",
                       "for (int q = 0; q < 4; q++) { if (ia[q] == 7) return; }"),
    "macro_decision": ("nplus1-macro-decision", "macro", None),
    "too_many_leaves": ("nplus1-too-many-leaves", "leaves", None),
    "no_decision":    ("nplus1-no-decision", "nodecision", None),
}
CL20 = {"wg_barrier", "wg_reduce", "sg_reduce", "wg_broadcast"}


def inject(g, kind, rng):
    """Puts the illegal construct of kind into the generated kernel g (markers)."""
    rule, where, text = ILLEGAL[kind]
    lines = g.lines
    stmt_repl = {}
    cond_repl = {}
    prologue_sites = [s for s, k in g.stmt_sites if k == "prologue"]
    any_sites = [s for s, k in g.stmt_sites]
    if where in ("any", "prologue"):
        site = rng.choice(any_sites) if where == "any" else prologue_sites[-1]
        if kind == "goto":
            g.nlabel += 1
            text = text % (g.nlabel, g.nlabel)
        stmt_repl[site] = text
    elif where == "param":
        g.ps.insert(rng.randrange(len(g.ps) + 1), text)
    elif where in ("helper", "recursion"):
        n = g.p + "bad"
        if where == "helper":
            if "return" in text:
                g.helpers.append("static int %s(void)\n{\n    %s\n}\n" % (n, text))
            else:
                g.helpers.append("static int %s(void)\n{\n    %s\n    return 1;\n}\n" % (n, text))
        else:
            g.helpers.append("static int %s(int x)\n{\n    return x <= 0 ? 0 : %s(x - 1) + 1;\n}\n"
                             % (n, n))
        call = "iout[gid] += %s(%s);" % (n, "" if where == "helper" else "iv & 3")
        stmt_repl[rng.choice([s for s in any_sites if s > prologue_sites[-1]] or prologue_sites[-1:])] = call
    elif where == "cond":
        seq, ctext, ivar = rng.choice(g.cond_sites)
        if "%s" in text:
            v = ivar or "gid"
            if v == "gid" and kind == "cond_local":
                text = "(gid = gid + 1) > 3"
            else:
                text = text % ((v, v) if text.count("%s") == 2 else (v,))
        if "BUMP" in text:
            text = text.replace("BUMP", add_bump(g))
        cond_repl[seq] = "(%s) && (%s)" % (text, ctext)
    elif where == "slice":
        if "BUMP" in text:
            text = text.replace("BUMP", add_bump(g))
        stmt_repl[prologue_sites[-1]] = text
        seq, ctext, _ = rng.choice([c for c in g.cond_sites if c[0] > prologue_sites[-1]])
        cond_repl[seq] = "(sfx > 2) || (%s)" % ctext
    elif where == "order":
        stmt_repl[prologue_sites[0]] = text
        seq, ctext, _ = rng.choice([c for c in g.cond_sites if c[0] > prologue_sites[0]])
        cond_repl[seq] = "(out[gid] < 0.5f) && (%s)" % ctext
    elif where == "macro":
        g.helpers.append("#define %sPICK(c, a, b) if (c) { a; } else { b; }\n" % g.p)
        stmt_repl[prologue_sites[-1]] = ("%sPICK(iv > %d, out[gid] = 1.5f, out[gid] = 2.5f)"
                                         % (g.p, rng.randrange(1024)))
    g.lines = apply_markers(lines, g.cond_sites, stmt_repl, cond_repl)
    return rule


def apply_markers(lines, cond_sites, stmt_repl, cond_repl):
    out = []
    conds = {seq: text for seq, text, _ in cond_sites}
    for line in lines:
        if line.startswith("@S"):
            end = line.index("@", 2)
            seq = int(line[2:end])
            if seq in stmt_repl:
                out.append(line[end + 1:] + stmt_repl[seq])
            continue
        while "@C" in line:
            a = line.index("@C")
            b = line.index("@", a + 2)
            seq = int(line[a + 2:b])
            line = line[:a] + cond_repl.get(seq, conds[seq]) + line[b + 1:]
        out.append(line)
    return out


def add_bump(g):
    n = g.p + "bump"
    if n not in g.helper_names.values():
        g.helper_names["bump"] = n
        g.helpers.append("static int %s(__global int *q, int i)\n{\n    q[i] += 1;\n    return q[i];\n}\n" % n)
    return n


# ---- special illegal kernels ------------------------------------------------------------

def too_many_leaves_kernel(rng, name, L):
    # one switch of more than 64 cases: even the outermost level does not fit
    # (more paths from ifs in a row split their outer levels: not refused)
    n = rng.randrange(65, 72)
    body = ["    int gid = (int)get_global_id(0);", "    int iv = ia[gid];",
            "    switch (iv & 127) {"]
    for i in range(n):
        body.append("    case %d:" % i)
        body.append("        out[gid] += %s;" % fconst(0.5 + i / 8))
        body.append("        iout[gid] += %d;" % (i + 1))
        body.append("        break;")
    body.append("    }")
    return ("__kernel void %s(__global const int *ia, __global float *out, __global int *iout)\n{\n%s\n}\n"
            % (name, "\n".join(body)))


def no_decision_kernel(rng, name, L):
    return ("__kernel void %s(__global const float *fa, __global float *out)\n{\n"
            "    int gid = (int)get_global_id(0);\n"
            "    out[gid] = sin(fa[gid]) * 0.5f + %s;\n"
            "    for (int i = 0; i < 3; i++)\n"
            "        out[gid] = out[gid] * 0.5f + 1.0f;\n}\n" % (name, fconst(rng.random())))


PLAIN_KERNEL = ("__kernel void %s(__global float *p)\n{\n"
                "    p[get_global_id(0)] *= 2.0f;\n}\n")


# ---- one test case ----------------------------------------------------------------------

class Case:
    def __init__(self):
        self.source = ""
        self.kernels = []
        self.legal = True
        self.kind = "legal"
        self.rule = None           # expected rule for illegal cases
        self.options = []          # nplus1gen options besides the input file


# ---- struct-buffer and masking kernels (issue 12) ------------------------------
#
# Validation fills struct buffers field by field (integers in [0, elements),
# floats in [0, 1)), so a struct field used as an index is valid by default;
# a masking kernel's working leaf needs --arg MASK=choice:... to be reached.
# Both are legal, 1-D, without offset; --require-all-leaves proves every leaf
# got items.

STRUCT_KERNEL = """typedef struct {
    short lo, hi;
} tag_%(kid)s_t;

typedef struct {
    int first;
    int count;
    float w;%(extra)s
} rec_%(kid)s_t;

__kernel void %(name)s(__global const rec_%(kid)s_t *recs, __global const float *vals,
                       __global float *out, __global int *iout, const int n)
{
    int gid = get_global_id(0);
    const int total = (int)get_global_size(0);
    if (gid >= n)
        return;
    rec_%(kid)s_t r = recs[gid];
    if (r.w < %(wcut)s) {
        float acc = 0.0f;
        for (int e = 0; e < r.count %% 4; e++)
            acc += vals[(r.first + e) %% total];
        out[gid] = 1.0f + acc * r.w;
    } else if (r.first > %(fcut)d) {
        out[gid] = vals[r.first] * 2.0f + 3.0f;
        iout[gid] = r.count + %(tagexpr)s;
    } else {
        iout[gid] = recs[r.first].count - r.first;
    }
}
"""

STRUCT_EXTRAS = [
    ("", "0"),
    ("\n    tag_%(kid)s_t tag;", "r.tag.lo - r.tag.hi"),
    ("\n    float pad[3];", "(int)(r.pad[1] * 8.0f)"),
    ("\n    tag_%(kid)s_t tags[2];\n    float4 dir;", "r.tags[1].hi + (int)(r.dir.y * 4.0f)"),
]


def struct_buffer_kernel(rng, name, kid, gsize):
    extra, tagexpr = rng.choice(STRUCT_EXTRAS)
    return STRUCT_KERNEL % {"kid": kid, "name": name, "extra": extra % {"kid": kid},
                            "tagexpr": tagexpr, "wcut": fconst(rng.choice([0.25, 0.5, 0.75])),
                            "fcut": gsize // rng.choice([2, 3, 4])}


MASK_KERNEL = """__kernel void %(name)s(__global const %(mt)s *mask, __global const float *x,
                       __global float *y, __global int *hits, const float gain)
{
    int i = get_global_id(0);
    if (mask[i] == %(a)s) {
        y[i] = x[i] * gain + 1.0f;
        hits[i] = i;
    }%(other)s
}
"""


def masking_kernel(rng, name):
    """if (mask[i] == A) { work } [else if (mask[i] == B) { other work }]: random floats miss A."""
    if rng.random() < 0.5:
        mt, vals = "float", [fconst(v)[:-1] for v in rng.sample([0.0, 1.0, 2.0, -1.0, 0.5], 3)]
        lit = [v + "f" for v in vals]
    else:
        mt, vals = "int", [str(v) for v in rng.sample([-3, 0, 1, 7, 1024, 99], 3)]
        lit = vals
    other = ""
    choices = [vals[0], vals[2]]
    if rng.random() < 0.5:
        other = (" else if (mask[i] == %s) {\n        y[i] = x[i] - 2.0f;\n    }" % lit[1])
        choices.append(vals[1])
    src = MASK_KERNEL % {"name": name, "mt": mt, "a": lit[0], "other": other}
    return src, "choice:" + ",".join(choices)


def issue12_case(case, seed, header):
    """A struct-buffer or masking kernel, or None (the other generators run)."""
    rng = random.Random(seed ^ 0x5EED12)
    if rng.random() >= 0.2:
        return None
    kid = "%06x" % (seed & 0xffffff)
    name = "fz_%s" % kid
    gsize = rng.choice([512, 1000, 1024, 2048, 4096])
    opts = ["--validate", "-q", "--global", str(gsize), "--seed", str(rng.randrange(1, 1 << 30)),
            "--require-all-leaves"]
    if rng.random() < 0.5:
        case.kind = "struct_buffer"
        src = struct_buffer_kernel(rng, name, kid, gsize)
        opts += ["--arg", "n=%d" % rng.randrange(gsize * 3 // 4, gsize + 1)]
    else:
        case.kind = "masking"
        src, recipe = masking_kernel(rng, name)
        opts += ["--arg", "mask=" + recipe, "--arg", "gain=0.75"]
    if rng.random() < 0.5:
        opts += ["--strategy", rng.choice(STRATEGIES)]
    opts += ["--split", "always"]
    case.source = header.replace("legal", case.kind) + src
    case.kernels = [name]
    case.options = opts
    return case


def generate(seed, illegal_rate=0.25):
    """The test case of seed (an int)."""
    rng = random.Random(seed)
    case = Case()
    L = Launch(rng)
    kid = "%06x" % (seed & 0xffffff)
    if rng.random() < illegal_rate:
        case.kind = rng.choice(sorted(ILLEGAL))
        case.legal = False
        case.rule = ILLEGAL[case.kind][0]
    header = "/* nplus1gen fuzzgen: seed %d, %s */\n" % (seed, case.kind)
    if case.legal and issue12_case(case, seed, header):
        return case
    if case.kind in ("too_many_leaves", "no_decision"):
        name = "fz_%s" % kid
        make = too_many_leaves_kernel if case.kind == "too_many_leaves" else no_decision_kernel
        case.source = header + make(rng, name, L)
        case.kernels = [name]
        case.options = ["--check"]
        if case.kind == "no_decision" and rng.random() < 0.5:
            case.options += ["-k", name]
        return case

    attrs = ""
    if L.local and rng.random() < 0.4:
        attrs = "__attribute__((reqd_work_group_size(%d, %d, %d))) " % tuple(L.local)
    elif rng.random() < 0.1:
        attrs = "__attribute__((work_group_size_hint(64, 1, 1))) "
    nkernels = 2 if rng.random() < 0.12 else 1
    gens = []
    for i in range(nkernels):
        g = KernelGen(rng, L, "h%s_%d_" % (kid, i))
        g.kernel("fz_%s_%d" % (kid, i), attrs)
        gens.append(g)
    if not case.legal:
        inject(gens[0], case.kind, rng)
    for g in gens:
        if case.legal or g is not gens[0]:
            g.lines = apply_markers(g.lines, g.cond_sites, {}, {})
    parts = [header]
    for g in gens:
        parts.extend(g.helpers)
    if rng.random() < 0.1:
        parts.append(PLAIN_KERNEL % ("plain_%s" % kid))
    for g in gens:
        parts.append(g.text())
    case.source = "\n".join(parts)
    case.kernels = [g.name for g in gens]

    opts = []
    if not case.legal and case.kind in CL20:
        opts += ["--cl-std", "CL2.0"]
    if not case.legal:
        case.options = opts + ["--check"]
        if case.rule in ("nplus1-side-effect", "nplus1-memory-order"):
            # --split auto splits a kernel whose prologue alone breaks them with the
            # context tile (tool/plan/auto_tile.h): the rules are the other strategies'
            case.options += ["--split", "always"]
        return case
    args = {}
    for g in gens:
        args.update(g.args)
    opts += ["--validate", "-q", "--global", L.dims_arg(L.gsize)]
    if any(L.goff) or rng.random() < 0.2:
        opts += ["--offset", L.dims_arg(L.goff)]
    if L.local:
        opts += ["--local", L.dims_arg(L.local)]
    for k in sorted(args):
        opts += ["--arg", "%s=%s" % (k, args[k])]
    opts += ["--seed", str(rng.randrange(1, 1 << 30))]
    if rng.random() < 0.5:
        opts += ["--strategy", rng.choice(STRATEGIES)]
    if rng.random() < 0.4:
        opts += ["--dispatch", rng.choice(["host", "fused", "auto"])]
    if rng.random() < 0.3:
        opts += ["--wg", str(rng.choice([32, 64, 128, 256]))]
    # auto lets the cost model merge cheap leaves into the original code: split
    # every leaf most of the time, since the split kernels are what needs proving
    opts += ["--split", "always" if rng.random() < 0.8 else "auto"]
    case.options = opts
    return case


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description="print one generated kernel and its nplus1gen options")
    ap.add_argument("seed", type=int)
    a = ap.parse_args()
    c = generate(a.seed)
    print(c.source)
    print("/* %s; nplus1gen FILE %s */" % ("legal" if c.legal else "illegal: expect [%s]" % c.rule,
                                           " ".join(c.options)))
