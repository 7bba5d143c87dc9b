/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_ir_live - liveness over the kernel IR (tool/analyze/ir_live.h): which of the
 * kernel's variables are live once a decision's condition is evaluated (what the state
 * machine's context keeps). A value read only before the loop, one declared after the
 * point, one set whole before every read are dead; one read in an arm, after the loop
 * (through break), by the loop's step (through continue), after a switch's fall-through,
 * and a variable whose address is taken are live. And whether an arm leaves its loop
 * (break, return, a flag of the loop's condition) for the cost rule.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "front_end.h"
#include "ir.h"
#include "ir_live.h"

#include "check.h"
#include "text_input.h"

static const char *const SRC =
    "void bump(float *p) { *p += 1.0f; }\n"                    /* 1 */
    "__kernel void live(__global const float *in, __global float *out, int n)\n"
    "{\n"
    "    int gid = get_global_id(0);\n"
    "    float before = in[gid];\n"                            /* 5: dead in the loop */
    "    float acc = before, z = in[n], y = 0.0f, w = 1.0f, taken = 0.0f;\n"
    "    int step = 1 + n % 2, done = 0;\n"
    "    bump(&taken);\n"
    "    for (int s = 0; s < n; s += step) {\n"                /* 9 */
    "        y = in[s];\n"
    "        if (in[gid + s] > 0.5f) {\n"                       /* 11: the point */
    "            acc += y;\n"
    "            break;\n"
    "        } else {\n"
    "            w = 2.0f;\n"
    "            acc += w;\n"
    "        }\n"
    "        float later = acc;\n"                             /* 18: dead at 11 */
    "        acc = later * 0.5f;\n"
    "    }\n"
    "    while (!done) {\n"                                    /* 21 */
    "        if (in[gid] > acc) {\n"                           /* 22: sets the flag */
    "            acc -= 1.0f;\n"
    "            done = 1;\n"
    "        } else {\n"
    "            acc += 0.5f;\n"
    "        }\n"
    "        if (acc > 100.0f)\n"                              /* 28 */
    "            done = 2;\n"
    "    }\n"
    "    int sel = (int)acc & 3;\n"
    "    float q = 0.0f, r = 3.0f;\n"
    "    switch (sel) {\n"                                     /* 33 */
    "    case 0: q = 1.0f;\n"
    "    case 1: q += r; break;\n"
    "    default: q = 2.0f;\n"
    "    }\n"
    "    int stop = 0;\n"
    "    while (stop == 0) {\n"                                /* 39 */
    "        if (in[gid] > acc) {\n"                           /* 40: the flag's one setter */
    "            stop = 1;\n"
    "        }\n"
    "        acc += 1.0f;\n"
    "    }\n"
    "    out[gid] = acc + z + q + taken;\n"
    "}\n";

static const ir_node *decision_at(const ir_kernel *ir, unsigned line)
{
    for (unsigned i = 0; i < ir->nnodes; i++)
        if ((ir->nodes[i]->kind == IR_IF || ir->nodes[i]->kind == IR_SWITCH) &&
            ir->nodes[i]->line == line && ir->nodes[i]->frame == 0)
            return ir->nodes[i];
    return NULL;
}

static const ir_node *loop_at(const ir_kernel *ir, unsigned line)
{
    for (unsigned i = 0; i < ir->nnodes; i++)
        if (ir->nodes[i]->kind == IR_LOOP && ir->nodes[i]->line == line &&
            ir->nodes[i]->frame == 0)
            return ir->nodes[i];
    return NULL;
}

static int var_named(const ir_kernel *ir, const char *name)
{
    for (unsigned i = 0; i < ir->nvars; i++)
        if (ir->vars[i].frame == 0 && !strcmp(ir->vars[i].name, name))
            return (int)i;
    return -1;
}

/* Whether each name of `live` is live at d and each of `dead` is not. */
static int live_set(const ir_kernel *ir, const ir_live *lv, const ir_node *d, const char *live,
                    const char *dead)
{
    int ok = d != NULL;
    char buf[256];
    for (int pass = 0; pass < 2 && ok; pass++) {
        snprintf(buf, sizeof buf, "%s", pass ? dead : live);
        for (char *t = strtok(buf, " "); t && ok; t = strtok(NULL, " ")) {
            int v = var_named(ir, t);
            int got = v >= 0 && ir_live_at(lv, d->id, (unsigned)v);
            if (v < 0 || got != !pass) {
                fprintf(stderr, "  line %u: '%s' %s\n", d->line, t,
                        v < 0 ? "not found" : got ? "live, expected dead" : "dead, expected live");
                ok = 0;
            }
        }
    }
    return ok;
}

int main(void)
{
    text_input in;
    int rc = text_input_run(&in, "ir_live", SRC, NULL);
    if (rc < 0) {
        check(0, "the input can be written");
        return check_summary("ir_live");
    }
    const kernel_info *k = rc == 0 && in.fe.an.nkernels == 1 ? &in.fe.an.kernels[0] : NULL;
    if (check(k && k->ir && k->ir->root, "the kernel analyses and has an IR")) {
        const ir_kernel *ir = k->ir;
        ir_live lv;
        ir_live_build(&in.fe.an, k, &lv);
        check(live_set(ir, &lv, decision_at(ir, 11), "gid acc z y step s taken",
                       "before w later q r sel"),
              "in the loop: read in an arm, after the loop (break), by the step (continue) and "
              "address-taken are live; read before, set before read, declared later are dead");
        check(live_set(ir, &lv, decision_at(ir, 22), "gid acc z taken", "before y w s q r"),
              "in the while: the flag's loop keeps what the loop and its epilogue read");
        check(live_set(ir, &lv, decision_at(ir, 33), "gid acc z r taken", "before y w sel"),
              "at a switch: read after a fall-through is live, the selector (read by the "
              "condition only) is dead");
        const ir_node *p11 = decision_at(ir, 11), *p22 = decision_at(ir, 22),
                      *p28 = decision_at(ir, 28);
        const ir_node *l9 = loop_at(ir, 9), *l21 = loop_at(ir, 21);
        check(p11 && l9 && ir_arm_leaves_loop(&in.fe.an, k, p11, 0, l9) &&
                  !ir_arm_leaves_loop(&in.fe.an, k, p11, 1, l9),
              "the arm with `break` leaves its loop, the other does not");
        check(p22 && l21 && !ir_arm_leaves_loop(&in.fe.an, k, p22, 0, l21),
              "a flag another statement of the loop also sets is not the arm's exit");
        check(p28 && l21 && !ir_arm_leaves_loop(&in.fe.an, k, p28, 0, l21),
              "likewise for the second setter");
        const ir_node *p40 = decision_at(ir, 40), *l39 = loop_at(ir, 39);
        check(p40 && l39 && ir_arm_leaves_loop(&in.fe.an, k, p40, 0, l39) &&
                  !ir_arm_leaves_loop(&in.fe.an, k, p40, 1, l39),
              "an arm that sets the loop's flag, which nothing else sets, leaves the loop");
        ir_live_free(&lv);
    }
    text_input_free(&in);
    return check_summary("ir_live");
}
