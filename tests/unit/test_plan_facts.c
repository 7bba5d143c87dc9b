/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_plan_facts - what the plan asks of the source through the analyze
 * stage (tool/analyze/plan_facts.h) answers right on a small kernel: a
 * context variable's facts (array, vector, struct holding a pointer,
 * initializer), constant assignments and which variables can be tracked
 * (address taken, a constant that does not fit), a condition evaluated
 * against the values a path knows, and the loop shape's syntax (a loop with
 * a decision, its jumps, an if that ends by leaving the iteration).
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "front_end.h"
#include "plan_facts.h"

#include "check.h"
#include "text_input.h"

static const char *const SRC =
    "typedef struct { float x; __global float *p; } holder;\n"
    "__kernel void facts(__global const int *in, __global float *out, int n)\n"
    "{\n"
    "    int gid = get_global_id(0);\n"
    "    int mode = 3;\n"
    "    short small = 1;\n"
    "    int taken = 1;\n"
    "    int *tp = &taken;\n"
    "    float arr[4] = {0};\n"
    "    float4 v;\n"
    "    holder h;\n"
    "    h.x = 1.0f;\n"
    "    v = (float4)(0.0f);\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        if (in[i] > 0)\n"
    "            break;\n"
    "        out[i] = 1.0f;\n"
    "    }\n"
    "    if (mode > 2 || in[gid] < n) {\n"
    "        out[gid] = arr[0] + v.x + *tp + h.x + small;\n"
    "    } else {\n"
    "        out[gid] = 0.0f;\n"
    "    }\n"
    "}\n";

/* The variable named name among the declarations of k's top-level statements. */
static CXCursor find_var(const kernel_info *k, const char *name, CXCursor *stmt)
{
    for (unsigned i = 0; i < k->top.n; i++) {
        cursor_list vars = {0};
        decl_stmt_vars(k->top.items[i].cursor, &vars);
        for (unsigned j = 0; j < vars.n; j++) {
            char *s = cursor_spelling(vars.v[j]);
            int same = !strcmp(s, name);
            free(s);
            if (same) {
                CXCursor v = vars.v[j];
                *stmt = k->top.items[i].cursor;
                free(vars.v);
                return v;
            }
        }
        free(vars.v);
    }
    return cursor_null();
}

/* The values a path knows: mode = 3 (tag: the variable's address in this table). */
typedef struct known {
    CXCursor var;
    long long value;
} known;

static const void *known_of(const void *ud, CXCursor var, long long *value)
{
    const known *kn = ud;
    if (!cursors_equal(kn->var, var))
        return NULL;
    *value = kn->value;
    return kn;
}

static void check_vars(const analysis *an, const kernel_info *k)
{
    CXCursor stmt;
    var_facts f;
    CXCursor arr = find_var(k, "arr", &stmt);
    var_facts_of(arr, &f);
    checkf(f.count == 4 && f.bytes == 16 && !strcmp(f.value_type, "__private float") && f.movable &&
               !f.pointer && !f.holds_pointer && var_initialized(arr),
           "float arr[4] = {0}: 4 elements of __private float (as libclang spells it), 16 bytes, movable, initialized (got %u, "
           "%u, '%s')", f.count, f.bytes, f.value_type);
    var_facts_free(&f);
    CXCursor v = find_var(k, "v", &stmt);
    var_facts_of(v, &f);
    check(f.count == 0 && f.bytes == 16 && f.movable && !var_initialized(v),
          "float4 v: a 16-byte vector that moves, without an initializer");
    var_facts_free(&f);
    CXCursor h = find_var(k, "h", &stmt);
    var_facts_of(h, &f);
    check(!f.pointer && f.holds_pointer && !f.local_type,
          "holder h: not a pointer, but its struct holds one; the type is at file scope");
    var_facts_free(&f);
    CXCursor tp = find_var(k, "tp", &stmt);
    var_facts_of(tp, &f);
    check(f.pointer && !strcmp(f.name, "tp"), "int *tp: a pointer, named 'tp'");
    var_facts_free(&f);
    CXCursor taken = find_var(k, "taken", &stmt);
    check(stmt_mentions(k->top.items[4].cursor, taken) && !stmt_mentions(stmt, h),
          "the statement `int *tp = &taken` names taken; taken's declaration does not name h");
    (void)an;
}

static void check_paths(const analysis *an, const kernel_info *k)
{
    CXCursor stmt, var;
    long long c = 0;
    CXCursor mode = find_var(k, "mode", &stmt);
    check(stmt_assigns_constant(an, stmt, &var, &c) && cursors_equal(var, mode) && c == 3,
          "`int mode = 3;` assigns the constant 3 to mode");
    check(var_tracks_constant(an, k, mode, 3), "mode can be tracked");
    check(!var_tracks_constant(an, k, mode, 1LL << 40), "not with a constant int cannot hold");
    CXCursor small = find_var(k, "small", &stmt);
    check(!var_tracks_constant(an, k, small, 40000), "nor a short with 40000");
    CXCursor taken = find_var(k, "taken", &stmt);
    check(!var_tracks_constant(an, k, taken, 1), "taken, whose address is taken, cannot");
    check(!stmt_assigns_constant(an, k->top.items[0].cursor, &var, &c),
          "`int gid = get_global_id(0);` assigns no constant");
    const decision *d = NULL;
    for (unsigned i = 0; i < k->top.n && !d; i++)
        d = k->top.items[i].kind == ITEM_DECISION ? k->top.items[i].decision : NULL;
    if (!check(d && d->kind == DEC_IF, "the kernel's top-level if is a decision"))
        return;
    known kn = {mode, 3};
    cond_value r = cond_evaluate(an, d->branches[0].cond_cursor, known_of, &kn);
    check(r.value == 1 && r.used == &kn, "mode > 2 || ... is true when mode is 3, by mode");
    kn.value = 1;
    r = cond_evaluate(an, d->branches[0].cond_cursor, known_of, &kn);
    check(r.value == -1 && !r.used, "and unknown when mode is 1 (the other operand decides)");
    check(cursor_is_null(named_var(d->branches[0].cond_cursor)),
          "the condition names no single variable");
}

static void check_loop(const analysis *an, const kernel_info *k)
{
    CXCursor loop = cursor_null();
    for (unsigned i = 0; i < k->top.n && cursor_is_null(loop); i++)
        if (k->top.items[i].kind == ITEM_STMT && is_decision_loop(k->top.items[i].cursor))
            loop = k->top.items[i].cursor;
    if (!check(!cursor_is_null(loop), "the for loop is a loop with a decision"))
        return;
    check(cursors_equal(decision_loop_in(loop), loop), "decision_loop_in finds it at its root");
    loop_syntax ls;
    src_range body = {0}, test = {0};
    loop_syntax_of(an, loop, &ls, &body, &test);
    check(ls.kind == IR_FOR && ls.braced && !ls.body_bad && body.end > body.begin,
          "a for with a braced body, whose range is read");
    check(!cursor_is_null(for_init_decl(loop)), "its first part declares i");
    cursor_list jumps = {0};
    loop_jumps_of(loop, &jumps);
    check(jumps.n == 1 && is_break_stmt(jumps.v[0]), "one jump leaves it: a break");
    free(jumps.v);
    cursor_list params = {0};
    function_params(k->cursor, &params);
    check(params.n == 3, "the kernel has three parameters");
    free(params.v);
}

int main(void)
{
    text_input in;
    int rc = text_input_run(&in, "facts", SRC, NULL);
    if (rc < 0) {
        check(0, "the input can be written");
        return check_summary("plan_facts");
    }
    const kernel_info *k = rc == 0 && in.fe.an.nkernels == 1 ? &in.fe.an.kernels[0] : NULL;
    if (check(k && k->top.n == 12, "the kernel analyses: 12 statements at its top level")) {
        check_vars(&in.fe.an, k);
        check_paths(&in.fe.an, k);
        check_loop(&in.fe.an, k);
    }
    text_input_free(&in);
    return check_summary("plan_facts");
}
