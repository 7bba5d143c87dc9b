/* SPDX-License-Identifier: Apache-2.0 */
/*
 * effects.c - the effects of statements and helpers: stores and loads (and
 * where), private variables read and written, builtins with work-group
 * meaning, early exits, a rough cost; helper functions are summarised once.
 * What a builtin does is opencl_builtins.c's; where an access lands (a
 * private object, a parameter, memory) and whether two may alias, access.c's.
 */
#include "analyze_int.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cursor_map.h"
#include "util.h"

/* ---- effects ----------------------------------------------------------- */

typedef struct summary {
    effects fx;
    int busy;
} summary;

/* an->summaries: the summaries, found by their definition's cursor. */
typedef struct summary_table {
    cursor_map by_def;  /* definition -> index in v */
    summary **v;        /* each allocated apart: a summary stays put while v grows */
    unsigned n, cap;
} summary_table;

static void scan(scan_ctx *sc, CXCursor c);


/* Records a write to the lvalue c: a local variable, or memory. */
static void scan_lvalue(scan_ctx *sc, CXCursor c, CXCursor site)
{
    CXCursor s = strip(c);
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(s);
        if (is_local_decl(d)) {
            add_var(&sc->fx->writes, &sc->fx->nwrites, &sc->fx->capwrites, d);
            analyze_note_effect(sc->fx, EFF_LOCAL_WRITE, site, clang_getNullCursor());
        } else {
            analyze_note_effect(sc->fx, EFF_MEM_WRITE, site, clang_getNullCursor());
            analyze_record_store(sc->fx, s);
        }
        return;
    }
    cursor_list ch = children_of(s);
    CXCursor outer = sc->outer;
    if (k == CXCursor_ArraySubscriptExpr && ch.n == 2) {
        sc->outer = clang_getNullCursor();
        scan(sc, ch.v[1]);
        sc->outer = outer;
        if (expr_is_pointer(ch.v[0])) {
            analyze_note_store(sc, ch.v[0], s, site);
            sc->outer = clang_getNullCursor();
            scan(sc, ch.v[0]);
            sc->outer = outer;
        } else {
            scan_lvalue(sc, ch.v[0], site);
        }
    } else if (k == CXCursor_MemberRefExpr && ch.n == 1) {
        if (type_is_pointer(clang_getCursorType(strip(ch.v[0])))) {
            analyze_note_store(sc, ch.v[0], s, site);
            sc->outer = clang_getNullCursor();
            scan(sc, ch.v[0]);
            sc->outer = outer;
        } else {
            if (clang_Cursor_isNull(sc->outer)) /* s[i].f: the store is to field f */
                sc->outer = s;
            scan_lvalue(sc, ch.v[0], site);
            sc->outer = outer;
        }
    } else if (k == CXCursor_UnaryOperator && ch.n == 1) {
        analyze_note_store(sc, ch.v[0], s, site); /* *p = ... */
        sc->outer = clang_getNullCursor();
        scan(sc, ch.v[0]);
        sc->outer = outer;
    } else {
        /* something we cannot see into: memory */
        analyze_note_effect(sc->fx, EFF_MEM_WRITE, site, clang_getNullCursor());
        analyze_record_store(sc->fx, site);
        for (unsigned i = 0; i < ch.n; i++)
            scan(sc, ch.v[i]);
    }
    free(ch.v);
}

static void merge_call(scan_ctx *sc, const effects *callee, CXCursor call)
{
    unsigned bits = callee->bits & ~EFF_LOCAL_WRITE;
    for (unsigned i = 0; i < EFF_COUNT; i++) {
        if (!(bits & (1u << i)) || (sc->fx->bits & (1u << i)))
            continue;
        sc->fx->site[i].at = callee->site[i].at;
        sc->fx->site[i].via = call;
    }
    sc->fx->bits |= bits;
    sc->fx->cost += callee->cost + 2;
    sc->fx->math += callee->math;
    math_once_call(sc, callee, call);
    if (bits & (EFF_MEM_WRITE | EFF_ATOMIC))
        analyze_record_store(sc->fx, call);
    if (bits & EFF_MEM_READ)
        analyze_record_load(sc->fx, call);
}

/* Is e a null pointer constant (0, NULL, (void *)0)? */
static int null_pointer_constant(CXCursor e)
{
    CXCursor s = strip_casts(e);
    if (clang_getCursorKind(s) != CXCursor_IntegerLiteral)
        return 0;
    CXEvalResult r = clang_Cursor_Evaluate(s);
    int zero = r && clang_EvalResult_getKind(r) == CXEval_Int &&
               clang_EvalResult_getAsLongLong(r) == 0;
    if (r)
        clang_EvalResult_dispose(r);
    return zero;
}

/*
 * What a helper does through its pointer parameter: an argument '&t' (or a
 * local array) is the caller's private variable, written or read; a
 * parameter of the caller is passed on; anything else is memory.
 */
static void pointer_arg_effects(scan_ctx *sc, const effects *callee, unsigned p, CXCursor arg,
                                CXCursor call)
{
    unsigned bit = p < 32 ? 1u << p : 0;
    if (!(callee->param_writes & bit) && !(callee->param_reads & bit))
        return;
    if (null_pointer_constant(arg))
        return; /* NULL: a store or load through it is undefined, so none happens */
    int q;
    CXCursor local = analyze_private_target(sc, arg, &q); /* &t, a private array, p + k from one */
    if (callee->param_writes & bit) {
        if (!clang_Cursor_isNull(local)) {
            add_var(&sc->fx->writes, &sc->fx->nwrites, &sc->fx->capwrites, local);
            analyze_note_effect(sc->fx, EFF_LOCAL_WRITE, call, clang_getNullCursor());
        } else if (q >= 0) {
            sc->fx->param_writes |= 1u << q;
        } else if (!clang_Cursor_isNull(callee->param_store)) {
            analyze_note_effect(sc->fx, EFF_MEM_WRITE, callee->param_store, call);
            analyze_record_store(sc->fx, call);
        } else {
            analyze_note_effect(sc->fx, EFF_MEM_WRITE, call, clang_getNullCursor());
            analyze_record_store(sc->fx, call);
        }
    }
    if (callee->param_reads & bit) {
        if (!clang_Cursor_isNull(local))
            add_var(&sc->fx->reads, &sc->fx->nreads, &sc->fx->capreads, local);
        else
            analyze_note_load(sc, arg, call);
    }
}

/* The arguments of a call to a helper: '&t' is not a store by itself. */
static void scan_helper_args(scan_ctx *sc, const effects *callee, CXCursor call)
{
    cursor_list ch = children_of(call);
    for (unsigned i = 1; i < ch.n; i++) { /* child 0 is the callee */
        CXCursor a = strip(ch.v[i]);
        int addr_of_local = 0;
        if (clang_getCursorKind(a) == CXCursor_UnaryOperator) {
            cursor_list op = children_of(a);
            char text[8] = "";
            if (op.n == 1)
                unary_operator(sc->an, a, op.v[0], text, sizeof text);
            if (!strcmp(text, "&") && !clang_Cursor_isNull(local_root(op.v[0]))) {
                addr_of_local = 1;
                scan(sc, op.v[0]); /* the indices, and a read of the variable (harmless) */
            }
            free(op.v);
        }
        if (!addr_of_local)
            scan(sc, ch.v[i]);
        pointer_arg_effects(sc, callee, i - 1, ch.v[i], call);
    }
    free(ch.v);
}

static void scan_call(scan_ctx *sc, CXCursor c)
{
    char *name = cursor_spelling(c);
    CXCursor ref = clang_getCursorReferenced(c);
    CXCursor def = clang_getCursorDefinition(ref);
    if (!clang_Cursor_isNull(def) && clang_getCursorKind(def) == CXCursor_FunctionDecl &&
        !clang_equalCursors(def, sc->func)) {
        const effects *callee = analyze_function_summary(sc->an, def);
        merge_call(sc, callee, c);
        free(name);
        scan_helper_args(sc, callee, c);
        return;
    } else if (!clang_Cursor_isNull(def) && clang_equalCursors(def, sc->func)) {
        analyze_note_effect(sc->fx, EFF_UNSUPPORTED, c, clang_getNullCursor()); /* recursion */
    } else {
        unsigned b = analyze_builtin_effects(name);
        if ((b & EFF_BARRIER) && !sc->track_params &&
            clang_equalCursors(c, kernel_trailing_barrier(sc->an, sc->func)))
            b &= ~(unsigned)EFF_BARRIER; /* the kernel's last statement: it orders nothing */
        if (b & EFF_ATOMIC)
            b |= EFF_MEM_WRITE; /* the write is the call's, not its '&p[i]' argument's */
        if (b)
            analyze_note_effect(sc->fx, b, c, clang_getNullCursor());
        if (b & EFF_MEM_WRITE)
            analyze_record_store(sc->fx, c);
        if (b & EFF_MEM_READ)
            analyze_record_load(sc->fx, c);
        sc->fx->cost += analyze_builtin_cost(name);
        sc->fx->math += analyze_builtin_time(name) - analyze_builtin_cost(name);
        char *key = analyze_builtin_pure_math(name) ? math_once_key(sc, name, c) : NULL;
        if (key) /* computed once on the same values (math_once.c) */
            math_once_note(sc->fx, key, analyze_builtin_time(name));
    }
    free(name);
    cursor_list ch = children_of(c);
    for (unsigned i = 1; i < ch.n; i++) /* child 0 is the callee */
        scan(sc, ch.v[i]);
    free(ch.v);
}

/*
 * The profile's time of a division beyond the 1 cost counts (effects.math): a float's is a
 * reciprocal on the special-function unit and its corrections (OpenCL's 2.5 ulp: about
 * 10 FMA-equivalents, opencl_builtins.c's reasoning), each lane of a vector; an integer's
 * or a remainder's by a value that is not a literal, a sequence of about 20 instructions
 * (by a literal the compiler multiplies and shifts).
 */
static double division_time(const char *op, CXCursor c, CXCursor rhs)
{
    int rem = !strcmp(op, "%") || !strcmp(op, "%=");
    if (!rem && strcmp(op, "/") && strcmp(op, "/="))
        return 0;
    CXType t = clang_getCanonicalType(clang_getCursorType(c));
    double lanes = 1;
    if (t.kind == CXType_Vector || t.kind == CXType_ExtVector) {
        long long n = clang_getNumElements(t);
        lanes = n > 0 ? (double)n : 1;
        t = clang_getCanonicalType(clang_getElementType(t));
    }
    if (t.kind == CXType_Float || t.kind == CXType_Double || t.kind == CXType_Half)
        return rem ? 0 : (10 - 1) * lanes;
    enum CXCursorKind k = clang_getCursorKind(strip(rhs));
    return k == CXCursor_IntegerLiteral ? 0 : (20 - 1) * lanes;
}

static void scan_binary(scan_ctx *sc, CXCursor c, int compound)
{
    cursor_list ch = children_of(c);
    if (ch.n != 2) {
        for (unsigned i = 0; i < ch.n; i++)
            scan(sc, ch.v[i]);
        free(ch.v);
        return;
    }
    char op[8] = "=", div[8] = "";
    if (!compound)
        binary_operator(sc->an, c, ch.v[0], ch.v[1], op, sizeof op);
    else
        binary_operator(sc->an, c, ch.v[0], ch.v[1], div, sizeof div);
    sc->fx->cost += 1;
    sc->fx->math += division_time(compound ? div : op, c, ch.v[1]);
    if (compound || is_assignment_op(op)) {
        if (compound || strcmp(op, "="))
            scan(sc, ch.v[0]); /* x += y reads x */
        scan_lvalue(sc, ch.v[0], c);
    } else {
        scan(sc, ch.v[0]);
    }
    scan(sc, ch.v[1]);
    free(ch.v);
}

/*
 * &e computes an address: nothing is loaded or stored here. A store comes
 * later, through the pointer (and is seen there). The address of a local
 * variable escapes, so the variable counts as written.
 */
static void scan_address_of(scan_ctx *sc, CXCursor operand, CXCursor site)
{
    CXCursor s = strip(operand);
    enum CXCursorKind k = clang_getCursorKind(s);
    if (!clang_Cursor_isNull(local_root(s)) || (k != CXCursor_ArraySubscriptExpr &&
                                                 k != CXCursor_MemberRefExpr)) {
        scan_lvalue(sc, s, site);
        scan(sc, s);
        return;
    }
    cursor_list ch = children_of(s); /* &p[i], &p->f: the pointer and the index are read */
    for (unsigned i = 0; i < ch.n; i++)
        scan(sc, ch.v[i]);
    free(ch.v);
    sc->fx->cost += 1;
}

static void scan_unary(scan_ctx *sc, CXCursor c)
{
    cursor_list ch = children_of(c);
    if (ch.n != 1) {
        for (unsigned i = 0; i < ch.n; i++)
            scan(sc, ch.v[i]);
        free(ch.v);
        return;
    }
    char op[8];
    unary_operator(sc->an, c, ch.v[0], op, sizeof op);
    sc->fx->cost += 1;
    if (!strcmp(op, "++") || !strcmp(op, "--")) {
        scan(sc, ch.v[0]);
        scan_lvalue(sc, ch.v[0], c);
    } else if (!strcmp(op, "&")) {
        scan_address_of(sc, ch.v[0], c);
    } else if (!strcmp(op, "*")) {
        analyze_note_load(sc, ch.v[0], c);
        scan(sc, ch.v[0]);
    } else {
        scan(sc, ch.v[0]);
    }
    free(ch.v);
}

static void scan_decl_ref(scan_ctx *sc, CXCursor c)
{
    CXCursor d = clang_getCursorReferenced(c);
    if (is_local_decl(d))
        add_var(&sc->fx->reads, &sc->fx->nreads, &sc->fx->capreads, d);
}

static void scan_var_decl(scan_ctx *sc, CXCursor c)
{
    add_var(&sc->fx->writes, &sc->fx->nwrites, &sc->fx->capwrites, c);
    if (spelling_has(clang_getCursorType(c), "__local"))
        analyze_note_effect(sc->fx, EFF_LOCAL_MEM, c, clang_getNullCursor());
    cursor_list ch = children_of(c);
    for (unsigned i = 0; i < ch.n; i++)
        scan(sc, ch.v[i]);
    free(ch.v);
}

/* A constant trip count for a for-loop, or 16 when unknown. */
static double loop_trips(scan_ctx *sc, CXCursor loop)
{
    cursor_list ch = children_of(loop);
    double trips = 16;
    for (unsigned i = 0; i + 1 < ch.n; i++) {
        CXCursor e = strip(ch.v[i]);
        if (clang_getCursorKind(e) != CXCursor_BinaryOperator)
            continue;
        cursor_list ops = children_of(e);
        if (ops.n == 2) {
            char op[8];
            binary_operator(sc->an, e, ops.v[0], ops.v[1], op, sizeof op);
            if (op[0] == '<' || !strcmp(op, "!=")) {
                CXEvalResult r = clang_Cursor_Evaluate(ops.v[1]);
                if (r && clang_EvalResult_getKind(r) == CXEval_Int) {
                    long long v = clang_EvalResult_getAsLongLong(r);
                    trips = v > 0 ? (double)v : 1;
                }
                if (r)
                    clang_EvalResult_dispose(r);
            }
        }
        free(ops.v);
        break;
    }
    free(ch.v);
    return trips;
}

static void scan_loop(scan_ctx *sc, CXCursor c, int is_for)
{
    double trips = is_for ? loop_trips(sc, c) : 16;
    double before = sc->fx->cost, math_before = sc->fx->math;
    unsigned once_before = sc->fx->nonce;
    CXCursor exit_before = sc->fx->hidden_exit;
    sc->depth_loops++;
    cursor_list ch = children_of(c);
    for (unsigned i = 0; i < ch.n; i++)
        scan(sc, ch.v[i]);
    free(ch.v);
    sc->depth_loops--;
    sc->fx->cost = before + (sc->fx->cost - before) * trips;
    sc->fx->math = math_before + (sc->fx->math - math_before) * trips;
    math_once_loop(sc->fx, once_before, trips); /* the calls first made in it: once */
    (void)exit_before;
}

static enum CXChildVisitResult scan_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    scan(data, c);
    return CXChildVisit_Continue;
}

/* The loads under a member access s[i].f are of field f (see scan). */
static void scan_member_access(scan_ctx *sc, CXCursor c)
{
    cursor_list ch = children_of(c);
    CXCursor outer = sc->outer;
    if (ch.n == 1 && type_is_pointer(clang_getCursorType(strip(ch.v[0])))) {
        analyze_note_load(sc, ch.v[0], c); /* p->f */
        sc->outer = clang_getNullCursor();
    } else if (clang_Cursor_isNull(sc->outer)) {
        sc->outer = c; /* s[i].f: the load below is of field f */
    }
    for (unsigned i = 0; i < ch.n; i++)
        scan(sc, ch.v[i]);
    sc->outer = outer;
    free(ch.v);
}

static void scan_subscript(scan_ctx *sc, CXCursor c)
{
    cursor_list ch = children_of(c);
    CXCursor outer = sc->outer;
    if (ch.n == 2 && expr_is_pointer(ch.v[0]))
        analyze_note_load(sc, ch.v[0], c);
    else if (ch.n == 2) /* a[i] of a private array: an outer .f stays the access */
        scan(sc, ch.v[0]);
    sc->outer = clang_getNullCursor();
    for (unsigned i = 0; i < ch.n; i++)
        if (!(i == 0 && ch.n == 2 && !expr_is_pointer(ch.v[0])))
            scan(sc, ch.v[i]);
    sc->outer = outer;
    sc->fx->cost += 2;
    free(ch.v);
}

static void scan(scan_ctx *sc, CXCursor c)
{
    enum CXCursorKind kind = clang_getCursorKind(c);
    if (!clang_Cursor_isNull(sc->outer) && kind != CXCursor_MemberRefExpr &&
        kind != CXCursor_ArraySubscriptExpr && kind != CXCursor_ParenExpr &&
        kind != CXCursor_UnexposedExpr && kind != CXCursor_DeclRefExpr) {
        CXCursor outer = sc->outer; /* anything else: its loads are its own */
        sc->outer = clang_getNullCursor();
        scan(sc, c);
        sc->outer = outer;
        return;
    }
    switch (kind) {
    case CXCursor_CallExpr:
        scan_call(sc, c);
        return;
    case CXCursor_BinaryOperator:
        scan_binary(sc, c, 0);
        return;
    case CXCursor_CompoundAssignOperator:
        scan_binary(sc, c, 1);
        return;
    case CXCursor_UnaryOperator:
        scan_unary(sc, c);
        return;
    case CXCursor_DeclRefExpr:
        scan_decl_ref(sc, c);
        return;
    case CXCursor_VarDecl:
        scan_var_decl(sc, c);
        return;
    case CXCursor_ArraySubscriptExpr:
        scan_subscript(sc, c);
        return;
    case CXCursor_MemberRefExpr:
        scan_member_access(sc, c);
        return;
    case CXCursor_ForStmt:
        scan_loop(sc, c, 1);
        return;
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt:
        scan_loop(sc, c, 0);
        return;
    case CXCursor_ReturnStmt:
        if (clang_Cursor_isNull(sc->fx->hidden_exit))
            sc->fx->hidden_exit = c;
        break;
    case CXCursor_BreakStmt:
    case CXCursor_ContinueStmt:
        if (sc->depth_loops == 0 && clang_Cursor_isNull(sc->fx->hidden_exit))
            sc->fx->hidden_exit = c;
        break;
    case CXCursor_SwitchStmt:
        sc->depth_loops++; /* a break inside belongs to it */
        clang_visitChildren(c, scan_cb, sc);
        sc->depth_loops--;
        return;
    case CXCursor_GotoStmt:
    case CXCursor_IndirectGotoStmt:
    case CXCursor_LabelStmt:
        analyze_note_effect(sc->fx, EFF_UNSUPPORTED, c, clang_getNullCursor());
        break;
    default:
        break;
    }
    clang_visitChildren(c, scan_cb, sc);
}

void effects_of(const analysis *an, CXCursor func, CXCursor c, effects *fx)
{
    effects_init(fx);
    scan_ctx sc = {an, fx, func, 0, 0, clang_getNullCursor()};
    scan(&sc, c);
}

/* Like effects_of for a helper's definition: stores through its pointer parameters apart. */
static void helper_effects(const analysis *an, CXCursor def, effects *fx)
{
    effects_init(fx);
    scan_ctx sc = {an, fx, def, 0, 1, clang_getNullCursor()};
    scan(&sc, def);
}

static summary *new_summary(summary_table *t, CXCursor def)
{
    summary *s = xcalloc(1, sizeof *s);
    s->fx.hidden_exit = clang_getNullCursor(); /* a zeroed CXCursor is not the null cursor */
    s->fx.param_store = clang_getNullCursor();
    for (unsigned i = 0; i < EFF_COUNT; i++)
        s->fx.site[i].at = s->fx.site[i].via = clang_getNullCursor();
    cursor_map_put(&t->by_def, def, 0, t->n);
    VEC_PUSH(t->v, t->n, t->cap, s);
    return s;
}

void analyze_summaries_init(analysis *an)
{
    an->summaries = xcalloc(1, sizeof(summary_table));
}

/*
 * A helper's summary, made the first time a call reaches it (helpers no
 * kernel calls are never summarised), then found by hash. The table is a
 * memo the analysis owns from analyze_tu on (summaries_init): filling it
 * changes no value a later stage reads, so it takes a const analysis.
 */
const effects *analyze_function_summary(const analysis *an, CXCursor def)
{
    summary_table *t = an->summaries;
    long found = cursor_map_get(&t->by_def, def, 0);
    if (found >= 0) {
        summary *s = t->v[found];
        if (s->busy)
            analyze_note_effect(&s->fx, EFF_UNSUPPORTED, def, clang_getNullCursor());
        return &s->fx;
    }
    summary *s = new_summary(t, def);
    s->busy = 1;
    effects fx;
    helper_effects(an, def, &fx);
    /* the helper's own locals are not ours; stores through its parameters are the call's */
    s->fx.bits |= fx.bits;
    s->fx.param_writes |= fx.param_writes;
    s->fx.param_reads |= fx.param_reads;
    s->fx.param_store = fx.param_store;
    for (unsigned i = 0; i < EFF_COUNT; i++)
        if (clang_Cursor_isNull(s->fx.site[i].at))
            s->fx.site[i] = fx.site[i];
    s->fx.cost = fx.cost;
    s->fx.math = fx.math;
    s->fx.once = fx.once; /* the summary takes them */
    s->fx.nonce = fx.nonce;
    s->fx.caponce = fx.caponce;
    fx.once = NULL;
    fx.nonce = fx.caponce = 0;
    effects_free(&fx);
    s->busy = 0;
    return &s->fx;
}

void analyze_summaries_free(analysis *an)
{
    summary_table *t = an->summaries;
    if (!t)
        return;
    for (unsigned i = 0; i < t->n; i++) {
        effects_free(&t->v[i]->fx);
        free(t->v[i]);
    }
    free(t->v);
    cursor_map_clear(&t->by_def);
    free(t);
    an->summaries = NULL;
}

/* One access's bytes: its expression's type (a vload's vector, p[i].f's field); 4 where the
 * type has no size here (a helper's call returning void, an incomplete type). */
static double access_bytes(CXCursor c)
{
    long long n = clang_Type_getSizeOf(clang_getCursorType(c));
    if (clang_getCursorKind(c) == CXCursor_CallExpr) { /* a helper's or an atomic's */
        char *name = cursor_spelling(c);
        int builtin = analyze_starts_with(name, "vload") || analyze_starts_with(name, "atomic") ||
                      analyze_starts_with(name, "atom_") || analyze_starts_with(name, "read_image");
        if (analyze_starts_with(name, "vstore")) /* void: vstoreN of floats (vstore_half: 2) */
            n = analyze_starts_with(name, "vstore_half") ? 2 : 4 * atoi(name + 6);
        else if (!builtin)
            n = 0;
        free(name);
    }
    return n > 0 && n <= 256 ? (double)n : 4.0;
}

double effects_access_bytes(const effects *fx)
{
    double bytes = 0;
    for (unsigned i = 0; i < fx->nloads; i++)
        bytes += access_bytes(fx->loads[i]);
    for (unsigned i = 0; i < fx->nrestrict_loads; i++)
        bytes += access_bytes(fx->restrict_loads[i]);
    for (unsigned i = 0; i < fx->nstores; i++)
        bytes += access_bytes(fx->stores[i]);
    return bytes;
}
