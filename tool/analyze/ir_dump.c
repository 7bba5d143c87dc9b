/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ir_dump.c - the kernel IR as text (nplus1gen --dump-ir): an indented tree
 * of the nodes in pre-order (a node's inlined calls before its kids), each
 * with its kind, line, cost, effects and, for a decision, its divergence
 * class and reason; then the variables table. Deterministic: no addresses,
 * costs with six significant digits.
 */
#include "ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "syntax.h"

static void indent(strbuf *sb, unsigned depth)
{
    for (unsigned i = 0; i < depth; i++)
        sb_puts(sb, "  ");
}

static void put_effects(strbuf *sb, unsigned bits)
{
    static const char *names[EFF_COUNT] = {"mem-write", "atomic",   "printf",     "barrier",
                                           "local-mem", "local-id", "group-fn",   "mem-read",
                                           "local-write", "work-item", "unsupported"};
    if (!bits)
        return;
    sb_puts(sb, " fx ");
    const char *sep = "";
    for (unsigned i = 0; i < EFF_COUNT; i++)
        if (bits & (1u << i)) {
            sb_printf(sb, "%s%s", sep, names[i]);
            sep = ",";
        }
}

static void put_cond(strbuf *sb, const ir_node *n)
{
    sb_printf(sb, " %s \"%s\"", div_class_name(n->cond.divergence), n->cond.why);
}

static const char *loop_name(ir_loop_kind k)
{
    return k == IR_FOR ? "for" : k == IR_WHILE ? "while" : "do";
}

static void put_arms(strbuf *sb, const ir_node *n, unsigned depth)
{
    if (n->kind == IR_IF) {
        sb_printf(sb, " arms then %.6g else %.6g%s", n->arms[0].cost, n->arms[1].cost,
                  n->arms[1].implicit ? " (none)" : "");
        return;
    }
    for (unsigned a = 0; a < n->narms; a++) {
        const ir_arm *arm = &n->arms[a];
        sb_putc(sb, '\n');
        indent(sb, depth + 1);
        sb_printf(sb, "arm '%s'", arm->labels);
        if (arm->implicit)
            sb_puts(sb, " implicit");
        else
            sb_printf(sb, " at %u cost %.6g%s", arm->first, arm->cost,
                      arm->falls_through ? " falls-through" : "");
    }
}

static void put_call(const analysis *an, const ir_kernel *ir, strbuf *sb, const ir_node *n,
                     unsigned depth)
{
    sb_printf(sb, " %s", n->call.name);
    if (n->call.ret_var >= 0)
        sb_printf(sb, " return v%d", n->call.ret_var);
    for (unsigned i = 0; i < n->call.nbinds; i++) {
        const ir_binding *b = &n->call.binds[i];
        char arg[64] = "";
        if (!clang_Cursor_isNull(b->arg))
            expr_text(an, b->arg, arg, sizeof arg);
        sb_putc(sb, '\n');
        indent(sb, depth + 1);
        sb_printf(sb, "bind v%u %s <- '%s'", b->var, ir->vars[b->var].name, arg);
        if (b->points_to >= 0)
            sb_printf(sb, " points to v%d %s", b->points_to, ir->vars[b->points_to].name);
    }
}

static void put_node(const analysis *an, const ir_kernel *ir, strbuf *sb, const ir_node *n,
                     unsigned depth)
{
    indent(sb, depth);
    sb_printf(sb, "#%u %s", n->id, ir_kind_name(n->kind));
    if (n->kind == IR_LOOP)
        sb_printf(sb, " %s", loop_name(n->loop));
    sb_printf(sb, " line %u cost %.6g", n->line, n->cost);
    if (n->kind == IR_LOOP && n->trips >= 0)
        sb_printf(sb, " trips %lld", n->trips);
    if (n->kind == IR_IF || n->kind == IR_SWITCH || n->kind == IR_LOOP)
        put_cond(sb, n);
    if ((n->kind == IR_BREAK || n->kind == IR_CONTINUE || n->kind == IR_RETURN) && n->target)
        sb_printf(sb, " -> #%u", n->target->id);
    if (n->kind == IR_RETURN)
        sb_puts(sb, n->in_helper ? " (leaves the helper)" : " (ends the item)");
    put_effects(sb, n->fx.bits);
    if (n->kind == IR_IF || n->kind == IR_SWITCH)
        put_arms(sb, n, depth);
    if (n->kind == IR_CALL)
        put_call(an, ir, sb, n, depth);
    sb_putc(sb, '\n');
    for (unsigned i = 0; i < n->ncalls; i++)
        put_node(an, ir, sb, n->calls[i], depth + 1);
    for (unsigned i = 0; i < n->nkids; i++)
        put_node(an, ir, sb, n->kids[i], depth + 1);
}

static void put_var(strbuf *sb, unsigned i, const ir_var *v)
{
    static const char *flags[] = {"param", "return", "array", "struct", "union", "pointer",
                                  "addr-taken"};
    sb_printf(sb, "  v%u %s: %s, ", i, v->name, v->type);
    if (v->size >= 0)
        sb_printf(sb, "%lld bytes", v->size);
    else
        sb_puts(sb, "size unknown");
    for (unsigned f = 0; f < sizeof flags / sizeof flags[0]; f++)
        if (v->flags & (1u << f))
            sb_printf(sb, ", %s", flags[f]);
    sb_printf(sb, ", scope #%u", v->scope);
    if (v->range.line)
        sb_printf(sb, ", line %u", v->range.line);
    sb_putc(sb, '\n');
}

void ir_dump(const analysis *an, const kernel_info *k, strbuf *out)
{
    const ir_kernel *ir = k->ir;
    if (!ir || !ir->root) {
        sb_printf(out, "kernel %s: no IR (refused: see the diagnostics)\n", k->name);
        return;
    }
    sb_printf(out, "kernel %s: %u nodes, %u variables, %u inlined calls%s\n", k->name,
              ir->nnodes, ir->nvars, ir->ncalls,
              ir->truncated ? " (calls nested too deep were left plain)" : "");
    put_node(an, ir, out, ir->root, 1);
    sb_puts(out, "variables:\n");
    for (unsigned i = 0; i < ir->nvars; i++)
        put_var(out, i, &ir->vars[i]);
}
