/* SPDX-License-Identifier: Apache-2.0 */
/*
 * legality.c - the kernel-wide rules (barriers, __local memory, local ids
 * whose value is used, group functions, goto and recursion, __local
 * arguments) and the messages when there is nothing to split. See
 * docs/legality.md.
 */
#include "analyze_int.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "cursor_map.h"
#include "util.h"
#include "rules.h"

/* ---- legality ---------------------------------------------------------- */

static const char *rule_of(unsigned bit)
{
    switch (bit) {
    case EFF_BARRIER: return rule_name(RULE_BARRIER);
    case EFF_LOCAL_MEM: return rule_name(RULE_LOCAL_MEMORY);
    case EFF_LOCAL_ID: return rule_name(RULE_LOCAL_ID);
    case EFF_GROUP_FN: return rule_name(RULE_GROUP_FUNCTION);
    default: return rule_name(RULE_UNSUPPORTED);
    }
}

static const char *why_of(unsigned bit)
{
    switch (bit) {
    case EFF_BARRIER:
        return "the leaf kernels re-form work-groups from the items of one leaf, so a barrier "
               "would synchronise a different set of work-items than in the original";
    case EFF_LOCAL_MEM:
        return "__local memory is shared by a work-group, and the leaf kernels re-form "
               "work-groups, so items would share it with different neighbours";
    case EFF_LOCAL_ID:
        return "the leaf kernels re-form work-groups, so local ids, group ids and local sizes "
               "would differ from the original launch";
    case EFF_GROUP_FN:
        return "work-group and sub-group functions combine the items of one group, and the leaf "
               "kernels re-form groups";
    default:
        return "nplus1gen cannot preserve its meaning in the split kernels";
    }
}

/* ---- barriers inside branches ------------------------------------------ */

typedef struct branch_search {
    CXCursor target;
    int depth;           /* branch bodies entered on the way down */
    int found;           /* -1 not yet, else the depth where target was */
} branch_search;

static void search_branch(branch_search *s, CXCursor c, int depth);

static enum CXChildVisitResult search_branch_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    branch_search *s = data;
    search_branch(s, c, s->depth);
    return s->found >= 0 ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Looks for s->target under c; the bodies of if/switch/?: count as branches. */
static void search_branch(branch_search *s, CXCursor c, int depth)
{
    if (clang_equalCursors(c, s->target)) {
        s->found = depth;
        return;
    }
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_IfStmt && k != CXCursor_SwitchStmt &&
        k != CXCursor_ConditionalOperator) {
        int saved = s->depth;
        s->depth = depth;
        clang_visitChildren(c, search_branch_cb, s);
        s->depth = saved;
        return;
    }
    cursor_list ch = children_of(c); /* child 0 is the condition */
    for (unsigned i = 0; i < ch.n && s->found < 0; i++)
        search_branch(s, ch.v[i], i == 0 ? depth : depth + 1);
    free(ch.v);
}

static enum CXChildVisitResult find_function_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    branch_search *s = data;
    if (clang_getCursorKind(c) == CXCursor_FunctionDecl && clang_isCursorDefinition(c))
        search_branch(s, c, 0);
    return s->found >= 0 ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Is where (in the kernel or in any helper) inside a branch of its function? */
static int inside_branch(build_ctx *bc, CXCursor where)
{
    branch_search s = {where, 0, -1};
    clang_visitChildren(clang_getTranslationUnitCursor(bc->an->pr->tu), find_function_cb, &s);
    return s.found > 0;
}

/* A barrier that not every work-item reaches is undefined in OpenCL already. */
static void note_barrier_in_branch(build_ctx *bc, CXCursor at, CXCursor via)
{
    char *name = cursor_spelling(at);
    builtin_scope scope = builtins_barrier_scope(name);
    int group = scope == BUILTIN_SCOPE_WORK_GROUP, sub = scope == BUILTIN_SCOPE_SUB_GROUP;
    free(name);
    if (!group && !sub)
        return;
    const char *unit = group ? "work-group" : "sub-group";
    if (inside_branch(bc, at))
        analyze_note_at(bc, at, "this barrier is inside a branch: unless every work-item of the "
                                "%s takes "
                        "the same branch, the kernel is already invalid OpenCL (all of them must "
                        "reach the barrier, or none)", unit);
    else if (!clang_Cursor_isNull(via) && inside_branch(bc, via))
        analyze_note_at(bc, via, "this call, which reaches a barrier, is inside a branch: unless "
                                 "every "
                         "work-item of the %s takes the same branch, the kernel is already "
                         "invalid OpenCL (all of them must reach the barrier, or none)", unit);
}

/* What an EFF_UNSUPPORTED site is, in words. */
static const char *unsupported_construct(CXCursor at, const char *name)
{
    (void)name;
    enum CXCursorKind k = clang_getCursorKind(at);
    if (k == CXCursor_CallExpr || k == CXCursor_FunctionDecl)
        return "recursion";
    return "goto or labels";
}

static void report_effect(build_ctx *bc, const effects *fx, unsigned bit, const char *what)
{
    unsigned i = 0;
    while (!(bit & (1u << i)))
        i++;
    const effect_site *s = &fx->site[i];
    CXCursor at = clang_Cursor_isNull(s->at) ? bc->k->cursor : s->at;
    char *name = cursor_spelling(at);
    if (bit == EFF_UNSUPPORTED)
        analyze_report_at(bc, at, rule_name(RULE_UNSUPPORTED), "%s cannot be split: it uses %s",
                          what,
                          unsupported_construct(at, name));
    else if (bit == EFF_LOCAL_MEM)
        analyze_report_at(bc, at, rule_of(bit), "%s uses __local memory ('%s')", what, name);
    else
        analyze_report_at(bc, at, rule_of(bit), "%s calls '%s'", what, name);
    int fence = strstr(name, "fence") != NULL;
    free(name);
    if (fence)
        analyze_note_at(bc, at, "a fence with a memory scope orders memory for the work-items of "
                                "that "
                        "scope (a work-group or sub-group), and the leaf kernels re-form "
                        "work-groups; mem_fence, read_mem_fence and write_mem_fence, which "
                        "order one work-item's own accesses, may stay");
    else
        analyze_note_at(bc, at, "%s", why_of(bit));
    if (bit == EFF_BARRIER)
        note_barrier_in_branch(bc, at, s->via);
    if (!clang_Cursor_isNull(s->via)) {
        char *callee = cursor_spelling(s->via);
        analyze_note_at(bc, s->via, "reached through this call to '%s'", callee);
        free(callee);
    }
}

/* ---- local ids whose value is never used ------------------------------- */

typedef struct lid_use {
    analysis *an;
    const kernel_info *k;
    /* Hashed sets and maps: a kernel of 100,000 names (hashcat's unrolled rounds) is
     * walked once, not once per name. */
    cursor_list calls;       /* get_local_id & co, called in the kernel itself */
    node_set dropped;        /* ... whose value is thrown away by their statement */
    cursor_list owner_call, owner_var; /* call i is (part of) the value stored in var i */
    cursor_map owners;       /* the owner_var set */
    node_set stores;         /* DeclRefs that are the target of '=' (not reads) */
    cursor_map stored;       /* ... their variables */
    cursor_list reads;       /* every other DeclRef's variable, when it owns a call */
    cursor_list read_at;     /* ... and the DeclRef itself */
    cursor_map read_vars;    /* owner variables read other than as a linear id's part */
    node_set combined;       /* calls and DeclRefs that are parts of a linear id (below) */
    int groups, locals;      /* get_group_id and get_local_id calls among calls */
    CXCursor near_miss;      /* group id * a constant + local id, the constant not the
                              * reqd_work_group_size */
    long long near_value;
    unsigned near_dim;
    unsigned nlinear;        /* linear ids found */
    CXCursor first_linear;
    int via_helper;          /* a helper the kernel calls uses a local id */
} lid_use;

static enum CXChildVisitResult find_lid_calls_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    cursor_list *l = data;
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        char *name = cursor_spelling(c);
        if (analyze_builtin_effects(name) == EFF_LOCAL_ID)
            VEC_PUSH(l->v, l->n, l->cap, c);
        free(name);
    }
    return CXChildVisit_Recurse;
}

static void own_calls(lid_use *u, CXCursor value, CXCursor var)
{
    cursor_list found = {0};
    if (clang_getCursorKind(value) == CXCursor_CallExpr)
        find_lid_calls_cb(value, value, &found);
    clang_visitChildren(value, find_lid_calls_cb, &found);
    for (unsigned i = 0; i < found.n; i++) {
        VEC_PUSH(u->owner_call.v, u->owner_call.n, u->owner_call.cap, found.v[i]);
        VEC_PUSH(u->owner_var.v, u->owner_var.n, u->owner_var.cap, var);
        cursor_map_put(&u->owners, var, 0, 1);
    }
    free(found.v);
}

/* The same expression, reached by two walks (their cursors need not compare equal). */
static int same_node(CXCursor a, CXCursor b)
{
    return clang_getCursorKind(a) == clang_getCursorKind(b) &&
           clang_equalRanges(clang_getCursorExtent(a), clang_getCursorExtent(b));
}

static enum CXChildVisitResult lid_use_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    lid_use *u = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (clang_getCursorKind(parent) == CXCursor_CompoundStmt && clang_isExpression(k) &&
        clang_getCursorKind(strip_casts(c)) == CXCursor_CallExpr)
        node_set_add(&u->dropped, strip_casts(c));
    if (k == CXCursor_VarDecl) {
        cursor_list ch = children_of(c);
        for (unsigned i = 0; i < ch.n; i++)
            own_calls(u, ch.v[i], c);
        free(ch.v);
    } else if (k == CXCursor_BinaryOperator) {
        cursor_list ch = children_of(c);
        char op[8] = "";
        if (ch.n == 2)
            binary_operator(u->an, c, ch.v[0], ch.v[1], op, sizeof op);
        CXCursor lhs = ch.n == 2 ? strip(ch.v[0]) : clang_getNullCursor();
        if (!strcmp(op, "=") && clang_getCursorKind(lhs) == CXCursor_DeclRefExpr &&
            is_local_decl(clang_getCursorReferenced(lhs))) {
            node_set_add(&u->stores, lhs);
            cursor_map_put(&u->stored, clang_getCursorReferenced(lhs), 0, 1);
            own_calls(u, ch.v[1], clang_getCursorReferenced(lhs));
        }
        free(ch.v);
    } else if (k == CXCursor_DeclRefExpr && !node_set_has(&u->stores, c)) {
        VEC_PUSH(u->reads.v, u->reads.n, u->reads.cap, clang_getCursorReferenced(c));
        VEC_PUSH(u->read_at.v, u->read_at.n, u->read_at.cap, c);
    } else if (k == CXCursor_CallExpr) {
        CXCursor def = clang_getCursorDefinition(clang_getCursorReferenced(c));
        if (!clang_Cursor_isNull(def) && clang_getCursorKind(def) == CXCursor_FunctionDecl &&
            (analyze_function_summary(u->an, def)->bits & EFF_LOCAL_ID))
            u->via_helper = 1;
    }
    return CXChildVisit_Recurse;
}

/* Is the value of this local-id call thrown away, or stored only in variables nobody reads? */
static int lid_unused(const lid_use *u, CXCursor call)
{
    if (node_set_has(&u->dropped, call) || node_set_has(&u->combined, call))
        return 1;
    int owned = 0;
    for (unsigned i = 0; i < u->owner_call.n; i++) {
        if (!same_node(u->owner_call.v[i], call))
            continue;
        owned = 1;
        if (cursor_map_get(&u->read_vars, u->owner_var.v[i], 0) >= 0)
            return 0;
    }
    return owned;
}

/* ---- the original's linear id, spelled with local ids ------------------- */

/*
 * get_group_id(d) * get_local_size(d) + get_local_id(d), in any operand order,
 * each part a call or a variable whose one definition is its initialiser,
 * the size also get_enqueued_local_size(d) or a constant equal to the
 * kernel's reqd_work_group_size in d: in the original launch it equals
 * get_global_id(d) - get_global_offset(d), which the generated kernels
 * carry (the prelude's local-id macros, kernel.cl.tmpl). A use of a local
 * id that is part of one is no use (lid_unused).
 */
enum lid_part { PART_NONE, PART_GROUP, PART_LOCAL, PART_SIZE };

/* An integer type of 32 bits or more: a part cast to it keeps its value. */
static int wide_integer(CXType t)
{
    switch (clang_getCanonicalType(t).kind) {
    case CXType_Int: case CXType_UInt: case CXType_Long: case CXType_ULong:
    case CXType_LongLong: case CXType_ULongLong:
        return 1;
    default:
        return 0;
    }
}

/* Strips parentheses and casts to wide integers; the null cursor at a narrowing cast. */
static CXCursor strip_wide(CXCursor e)
{
    for (int depth = 0; depth < 32; depth++) {
        enum CXCursorKind k = clang_getCursorKind(e);
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr &&
            k != CXCursor_CStyleCastExpr)
            return e;
        if (!wide_integer(clang_getCursorType(e)))
            return clang_getNullCursor();
        CXCursor next = cast_operand(e);
        if (clang_Cursor_isNull(next))
            return e;
        e = next;
    }
    return clang_getNullCursor();
}

static int var_stored(const lid_use *u, CXCursor var)
{
    return cursor_map_get(&u->stored, var, 0) >= 0;
}

/* The initialiser of a local variable, or null. */
static CXCursor initialiser_of(CXCursor var)
{
    cursor_list ch = children_of(var);
    CXCursor init = clang_getNullCursor();
    for (unsigned i = 0; i < ch.n; i++)
        if (clang_isExpression(clang_getCursorKind(ch.v[i])))
            init = ch.v[i];
    free(ch.v);
    return init;
}

/* Which part of a linear id e is, and its dimension (*dim). */
static enum lid_part part_of(const lid_use *u, CXCursor e, unsigned *dim, int depth)
{
    e = strip_wide(e);
    if (clang_Cursor_isNull(e) || depth > 8)
        return PART_NONE;
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_DeclRefExpr) {
        CXCursor var = clang_getCursorReferenced(e);
        if (clang_getCursorKind(var) != CXCursor_VarDecl || !is_local_decl(var) ||
            var_stored(u, var))
            return PART_NONE;
        CXCursor init = initialiser_of(var);
        return clang_Cursor_isNull(init) ? PART_NONE : part_of(u, init, dim, depth + 1);
    }
    if (k != CXCursor_CallExpr || clang_Cursor_getNumArguments(e) != 1)
        return PART_NONE;
    long long d;
    if (!int_constant(clang_Cursor_getArgument(e, 0), &d) || d < 0 || d > 2)
        return PART_NONE;
    char name[40];
    spelling_into(e, name, sizeof name);
    *dim = (unsigned)d;
    if (!strcmp(name, "get_group_id"))
        return PART_GROUP;
    if (!strcmp(name, "get_local_id"))
        return PART_LOCAL;
    if (!strcmp(name, "get_local_size") || !strcmp(name, "get_enqueued_local_size"))
        return PART_SIZE;
    return PART_NONE;
}

/* Is group * size (in either order) a group id and a local size of dimension d? */
static int group_times_size(lid_use *u, CXCursor product, unsigned d, CXCursor *group,
                            CXCursor *size)
{
    product = strip_wide(product);
    if (clang_Cursor_isNull(product) || clang_getCursorKind(product) != CXCursor_BinaryOperator)
        return 0;
    cursor_list ch = children_of(product);
    char op[8] = "";
    if (ch.n == 2)
        binary_operator(u->an, product, ch.v[0], ch.v[1], op, sizeof op);
    int found = 0;
    for (unsigned i = 0; i < 2 && !found && !strcmp(op, "*"); i++) {
        CXCursor g = ch.v[i], s = ch.v[1 - i];
        unsigned gd = 0, sd = 0;
        if (part_of(u, g, &gd, 0) != PART_GROUP || gd != d)
            continue;
        long long v;
        if (part_of(u, s, &sd, 0) == PART_SIZE && sd == d)
            found = 1;
        else if (int_constant(s, &v)) {
            if (u->k->reqd_wg[d] && v == (long long)u->k->reqd_wg[d])
                found = 1;
            else if (clang_Cursor_isNull(u->near_miss)) {
                u->near_miss = product;
                u->near_value = v;
                u->near_dim = d;
            }
        }
        if (found) {
            *group = g;
            *size = s;
        }
    }
    free(ch.v);
    return found;
}

/* Marks the parts of e when it is a linear id (the sum at its top). */
static void linear_id_at(lid_use *u, CXCursor e)
{
    cursor_list ch = children_of(e);
    char op[8] = "";
    if (ch.n == 2)
        binary_operator(u->an, e, ch.v[0], ch.v[1], op, sizeof op);
    for (unsigned i = 0; i < 2 && !strcmp(op, "+"); i++) {
        unsigned d = 0;
        CXCursor group, size;
        if (part_of(u, ch.v[1 - i], &d, 0) != PART_LOCAL ||
            !group_times_size(u, ch.v[i], d, &group, &size))
            continue;
        CXCursor parts[3] = {strip_wide(ch.v[1 - i]), strip_wide(group), strip_wide(size)};
        for (unsigned p = 0; p < 3; p++)
            node_set_add(&u->combined, parts[p]);
        if (!u->nlinear++)
            u->first_linear = e;
        break;
    }
    free(ch.v);
}

static enum CXChildVisitResult linear_id_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_BinaryOperator)
        linear_id_at(data, c);
    return CXChildVisit_Recurse;
}

/*
 * The first local-id call of the kernel whose value reaches anything, or
 * the null cursor when none does (an unused 'int lid = get_local_id(0);'
 * is no reason to refuse, nor a linear id, above). A helper that uses one
 * counts as used. Fills u (free it with lid_use_free).
 */
static CXCursor used_local_id(build_ctx *bc, CXCursor fallback, lid_use *u)
{
    memset(u, 0, sizeof *u);
    u->an = bc->an;
    u->k = bc->k;
    u->near_miss = clang_getNullCursor();
    u->first_linear = clang_getNullCursor();
    clang_visitChildren(bc->k->cursor, find_lid_calls_cb, &u->calls);
    for (unsigned i = 0; i < u->calls.n; i++) {
        char name[40];
        spelling_into(u->calls.v[i], name, sizeof name);
        u->groups += !strcmp(name, "get_group_id");
        u->locals += !strcmp(name, "get_local_id");
    }
    clang_visitChildren(bc->k->cursor, lid_use_cb, u);
    if (u->groups && u->locals)
        clang_visitChildren(bc->k->cursor, linear_id_cb, u);
    for (unsigned r = 0; r < u->reads.n; r++) /* the owners read other than as parts */
        if (cursor_map_get(&u->owners, u->reads.v[r], 0) >= 0 &&
            !node_set_has(&u->combined, u->read_at.v[r]))
            cursor_map_put(&u->read_vars, u->reads.v[r], 0, 1);
    CXCursor used = u->via_helper ? fallback : clang_getNullCursor();
    for (unsigned i = 0; i < u->calls.n && clang_Cursor_isNull(used); i++)
        if (!lid_unused(u, u->calls.v[i]))
            used = u->calls.v[i];
    return used;
}

static void lid_use_free(lid_use *u)
{
    free(u->calls.v);
    node_set_clear(&u->dropped);
    free(u->owner_call.v);
    free(u->owner_var.v);
    cursor_map_clear(&u->owners);
    node_set_clear(&u->stores);
    cursor_map_clear(&u->stored);
    free(u->reads.v);
    free(u->read_at.v);
    cursor_map_clear(&u->read_vars);
    node_set_clear(&u->combined);
}

/* The notes after a refused local id: a near miss, and what nplus1gen accepts; none when a
 * barrier, __local memory or a group function refuses the kernel anyway (fx_bits). */
static void note_linear_id(build_ctx *bc, const lid_use *u, CXCursor at, unsigned fx_bits)
{
    if (fx_bits & (EFF_BARRIER | EFF_LOCAL_MEM | EFF_GROUP_FN))
        return;
    if (!clang_Cursor_isNull(u->near_miss)) {
        unsigned d = u->near_dim;
        if (bc->k->reqd_wg[d])
            analyze_note_at(bc, u->near_miss, "a group id times %lld is not the original's "
                            "global id: the kernel's reqd_work_group_size is %u in dimension %u",
                            u->near_value, bc->k->reqd_wg[d], d);
        else
            analyze_note_at(bc, u->near_miss, "a group id times %lld is the original's global "
                            "id only when %lld is the local size in dimension %u, which "
                            "nplus1gen cannot know: write get_local_size(%u) there, or give "
                            "the kernel __attribute__((reqd_work_group_size(...))) with %lld "
                            "in dimension %u",
                            u->near_value, u->near_value, d, d, u->near_value, d);
    }
    analyze_note_at(bc, at, "nplus1gen keeps a local id only in get_group_id(d) * "
                    "get_local_size(d) + get_local_id(d) (the original's global id less its "
                    "offset, which the generated kernels compute), each part a call or a "
                    "variable its initialiser sets once, or in a value nobody reads");
}

/* Kernel-wide rules: what no split kernel may contain anywhere. */
void analyze_check_forbidden(build_ctx *bc)
{
    effects fx;
    effects_of(bc->an, bc->k->cursor, bc->k->cursor, &fx);
    static const unsigned order[] = {EFF_BARRIER, EFF_LOCAL_MEM, EFF_LOCAL_ID, EFF_GROUP_FN,
                                     EFF_UNSUPPORTED};
    char what[300];
    snprintf(what, sizeof what, "kernel '%s'", bc->k->name);
    lid_use u;
    memset(&u, 0, sizeof u);
    int lid = (fx.bits & EFF_LOCAL_ID) != 0;
    if (lid) {
        CXCursor used = used_local_id(bc, fx.site[5].at, &u);
        if (clang_Cursor_isNull(used)) {
            fx.bits &= ~EFF_LOCAL_ID; /* computed, never used, or a linear id */
            bc->k->linear_ids = u.nlinear;
            if (u.nlinear) {
                src_range r;
                bc->k->linear_id_line = cursor_range(bc->an, u.first_linear, &r) == 0 ? r.line
                                                                                      : 0;
            }
        } else if (clang_Cursor_isNull(fx.site[5].via))
            fx.site[5].at = used;
    }
    for (unsigned i = 0; i < sizeof order / sizeof *order; i++)
        if (fx.bits & order[i]) {
            report_effect(bc, &fx, order[i], what);
            if (order[i] == EFF_LOCAL_ID && clang_Cursor_isNull(fx.site[5].via))
                note_linear_id(bc, &u, fx.site[5].at, fx.bits);
        }
    if (lid)
        lid_use_free(&u);
    effects_free(&fx);
}

void analyze_check_param_types(build_ctx *bc)
{
    cursor_list ch = children_of(bc->k->cursor);
    for (unsigned i = 0; i < ch.n; i++) {
        if (clang_getCursorKind(ch.v[i]) != CXCursor_ParmDecl)
            continue;
        CXType t = clang_getCursorType(ch.v[i]);
        if (spelling_has(t, "__local") || spelling_has(t, "local ")) {
            analyze_report_at(bc, ch.v[i], rule_name(RULE_LOCAL_MEMORY),
                              "kernel '%s' takes a __local argument", bc->k->name);
            analyze_note_at(bc, ch.v[i], "%s", why_of(EFF_LOCAL_MEM));
        }
    }
    free(ch.v);
}


/* ---- nothing to split ----------------------------------------------------- */

/* An if or switch nested where nplus1gen does not split: its line, and whether a loop holds it. */
static unsigned nested_decision_line(analysis *an, CXCursor c, int in_loop, int *loop)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if ((k == CXCursor_IfStmt || k == CXCursor_SwitchStmt) && in_loop >= 0) {
        src_range r;
        *loop = in_loop > 0;
        return cursor_range(an, c, &r) == 0 ? r.line : 1;
    }
    if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt)
        in_loop = 1;
    else if (in_loop < 0 && k == CXCursor_CompoundStmt)
        in_loop = 0; /* the kernel's body: what is in it is top-level */
    cursor_list ch = children_of(c);
    unsigned line = 0;
    for (unsigned i = 0; i < ch.n && !line; i++)
        line = nested_decision_line(an, ch.v[i], in_loop, loop);
    free(ch.v);
    return line;
}

/* An if or switch inside a loop of a helper that c (below a kernel's body) calls, to the
 * depth the IR inlines: a loop of the helper's, or the call's own loop (in_loop). */
static unsigned helper_decision_line(analysis *an, CXCursor c, int in_loop, unsigned depth)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if ((k == CXCursor_IfStmt || k == CXCursor_SwitchStmt) && in_loop > 0) {
        src_range r;
        return cursor_range(an, c, &r) == 0 ? r.line : 1;
    }
    if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt)
        in_loop = 1;
    unsigned line = 0;
    if (k == CXCursor_CallExpr && depth < 8) {
        CXCursor def = clang_getCursorDefinition(clang_getCursorReferenced(c));
        if (!clang_Cursor_isNull(def) && clang_getCursorKind(def) == CXCursor_FunctionDecl &&
            !clang_Location_isInSystemHeader(clang_getCursorLocation(def)))
            line = helper_decision_line(an, last_child_of_kind(def, CXCursor_CompoundStmt),
                                        in_loop, depth + 1);
    }
    cursor_list ch = children_of(c);
    for (unsigned i = 0; i < ch.n && !line; i++)
        line = helper_decision_line(an, ch.v[i], in_loop, depth);
    free(ch.v);
    return line;
}

/* The line of the first if/switch inside a loop of the kernel (0: none); without one in
 * the kernel's own text, the first inside a loop of a helper it calls (the state machine
 * inlines the helper at its call). */
unsigned analyze_decision_in_loop(analysis *an, CXCursor kernel)
{
    int loop = 0;
    unsigned line = nested_decision_line(an, kernel, -1, &loop);
    if (loop)
        return line;
    if (line) /* a decision outside loops comes first: as before */
        return 0;
    CXCursor body = last_child_of_kind(kernel, CXCursor_CompoundStmt);
    return clang_Cursor_isNull(body) ? 0 : helper_decision_line(an, body, 0, 0);
}

void analyze_report_no_decision(build_ctx *bc)
{
    unsigned line = analyze_decision_in_loop(bc->an, bc->k->cursor);
    if (line) {
        analyze_report_at(bc, bc->k->cursor, rule_name(RULE_NO_DECISION),
                          "kernel '%s' has decisions only inside loops (the first at line %u)",
                          bc->k->name, line);
        analyze_note_at(bc, bc->k->cursor, "nplus1gen splits the decisions at the kernel's top "
                                           "level and "
                                   "those nested in them, not those inside loops; hoist a "
                                   "decision out of its loop to split on it, or leave this "
                                   "kernel as it is");
        return;
    }
    analyze_report_at(bc, bc->k->cursor, rule_name(RULE_NO_DECISION),
                      "kernel '%s' has no decision (a top-level if or switch) to split",
                      bc->k->name);
    analyze_note_at(bc, bc->k->cursor, "nplus1gen splits the if and switch statements at the "
                                       "kernel's "
                               "top level and those nested in them, and this kernel has none; "
                               "leave it as it is");
}
