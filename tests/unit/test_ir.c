/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_ir - the kernel IR (tool/analyze/ir.h) keeps its invariants on every
 * shape: ids are the pre-order of the tree (a node, its inlined calls, its
 * kids) and index ir.nodes; each kid's parent is the node; every decision is
 * classified with a reason; every variable's scope is a block, a loop or a
 * call node; break and continue name the loop or switch they leave, a
 * helper's return its call. And the trip counts of the for-loop forms
 * (<, <=, >, >=, !=, strides of 1, 2 and -3, unknown bounds).
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "front_end.h"
#include "ir.h"

#include "check.h"
#include "text_input.h"

static const char *const SRC =
    "int helper(int x, int *p)\n"
    "{\n"
    "    for (int i = 0; i < 3; i++) {\n"
    "        if (x > i)\n"
    "            return x;\n"
    "        *p += i;\n"
    "    }\n"
    "    return 0;\n"
    "}\n"
    "__kernel void trips(__global const int *in, __global int *out, int n)\n"
    "{\n"
    "    int gid = get_global_id(0), s = 0;\n"
    "    for (int a = 0; a < 10; a++) s++;\n"          /* 10 */
    "    for (int b = 0; b <= 10; b += 2) s++;\n"      /* 6 */
    "    for (int c = 10; c > 0; c -= 3) s++;\n"       /* 4 */
    "    for (int d = 9; d >= 0; d--) s++;\n"          /* 10 */
    "    for (int e = 0; e != 8; e += 2) s++;\n"       /* 4 */
    "    for (int f = 0; f < n; f++) s++;\n"           /* unknown */
    "    int g;\n"
    "    for (g = 5; g < 3; g++) s++;\n"               /* 0 */
    "    for (;;) { if (s > 3) break; s++; }\n"        /* unknown, no condition */
    "    switch (in[gid]) { case 1: s++; case 2: { s--; break; } default: s = 0; }\n"
    "    while (s < 100) { s += helper(s, &s); if (s & 1) continue; s++; }\n"
    "    out[gid] = s;\n"
    "}\n";

static unsigned seen;

/* Walks the tree in pre-order, checking ids, parents and decisions. */
static int walk(const ir_kernel *ir, const ir_node *n, const ir_node *parent)
{
    int ok = n->id == seen && seen < ir->nnodes && ir->nodes[seen] == n && n->parent == parent;
    seen++;
    if ((n->kind == IR_IF || n->kind == IR_SWITCH || n->kind == IR_LOOP) && !n->cond.why[0])
        ok = 0;
    if ((n->kind == IR_BREAK || n->kind == IR_CONTINUE) &&
        (!n->target || (n->kind == IR_CONTINUE && n->target->kind != IR_LOOP)))
        ok = 0;
    if (n->kind == IR_RETURN && n->in_helper != (n->frame != 0))
        ok = 0;
    for (unsigned i = 0; i < n->ncalls; i++)
        ok &= walk(ir, n->calls[i], n);
    for (unsigned i = 0; i < n->nkids; i++)
        ok &= walk(ir, n->kids[i], n);
    return ok;
}

static void check_trips(const ir_kernel *ir)
{
    static const long long want[] = {10, 6, 4, 10, 4, -1, 0, -1, /* the while: */ -1,
                                     /* helper's */ 3};
    long long got[16];
    unsigned n = 0;
    for (unsigned i = 0; i < ir->nnodes && n < 16; i++)
        if (ir->nodes[i]->kind == IR_LOOP)
            got[n++] = ir->nodes[i]->trips;
    int ok = n == sizeof want / sizeof want[0];
    for (unsigned i = 0; ok && i < n; i++)
        ok = got[i] == want[i];
    checkf(ok, "trip counts of the for forms: %u loops, %lld %lld %lld %lld %lld %lld %lld %lld "
               "%lld %lld", n, got[0], got[1], got[2], got[3], got[4], got[5], got[6], got[7],
           got[8], got[9]);
}

static void check_vars(const ir_kernel *ir)
{
    int scopes = 1, taken = 0, points = 0;
    for (unsigned v = 0; v < ir->nvars; v++) {
        const ir_var *x = &ir->vars[v];
        ir_kind k = x->scope < ir->nnodes ? ir->nodes[x->scope]->kind : IR_STMT;
        scopes &= k == IR_BLOCK || k == IR_LOOP || k == IR_CALL;
        taken |= !strcmp(x->name, "s") && (x->flags & IR_VAR_ADDR_TAKEN);
    }
    for (unsigned i = 0; i < ir->nnodes; i++) {
        const ir_node *c = ir->nodes[i];
        if (c->kind == IR_CALL && c->call.nbinds == 2 && c->call.binds[1].points_to >= 0)
            points = !strcmp(ir->vars[c->call.binds[1].points_to].name, "s") &&
                     c->call.ret_var >= 0 && !strcmp(c->call.name, "helper");
    }
    check(scopes, "every variable's scope is a block, a loop or a call node");
    check(taken, "'s', whose address a call takes, is address-taken");
    check(points, "helper's pointer parameter points to 's'; its return value is a variable");
}

int main(void)
{
    text_input in;
    int rc = text_input_run(&in, "ir", SRC, NULL);
    if (rc < 0) {
        check(0, "the input can be written");
        return check_summary("ir");
    }
    const kernel_info *k = rc == 0 && in.fe.an.nkernels == 1 ? &in.fe.an.kernels[0] : NULL;
    if (check(k && k->ir && k->ir->root, "the kernel analyses and has an IR")) {
        seen = 0;
        check(walk(k->ir, k->ir->root, NULL) && seen == k->ir->nnodes,
              "ids are the tree's pre-order, parents and jump targets hold, decisions classified");
        check(k->ir->ncalls == 1, "the helper with a loop is inlined once");
        check_trips(k->ir);
        check_vars(k->ir);
    }
    text_input_free(&in);
    return check_summary("ir");
}
