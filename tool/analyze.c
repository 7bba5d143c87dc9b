/*
 * analyze.c - condition trees and legality.
 *
 * A kernel body is a sequence of statements. Its if / else-if / switch
 * statements (and those at the head of their branches, recursively) are
 * decisions; everything else is a plain statement whose effects we record.
 * Legality is decided from those effects: see docs/legality.md.
 */
#include "analyze.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* ---- cursors and ranges ------------------------------------------------ */

typedef struct cursor_list {
    CXCursor *v;
    unsigned n, cap;
} cursor_list;

static enum CXChildVisitResult collect_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    cursor_list *l = data;
    VEC_PUSH(l->v, l->n, l->cap, c);
    return CXChildVisit_Continue;
}

static cursor_list children_of(CXCursor c)
{
    cursor_list l = {0};
    clang_visitChildren(c, collect_cb, &l);
    return l;
}

const char *range_text(const analysis *an, src_range r, size_t *len)
{
    *len = r.end - r.begin;
    return an->pr->files[r.file].text + r.begin;
}

void put_active_range(const analysis *an, strbuf *sb, src_range r)
{
    parse_put_active(an->pr, sb, r.file, r.begin, r.end);
}

/* Skips whitespace and comments from offset; returns the new offset. */
static unsigned skip_space(const char *t, size_t len, unsigned off)
{
    while (off < len) {
        if (isspace((unsigned char)t[off])) {
            off++;
        } else if (t[off] == '/' && off + 1 < len && t[off + 1] == '/') {
            while (off < len && t[off] != '\n')
                off++;
        } else if (t[off] == '/' && off + 1 < len && t[off + 1] == '*') {
            const char *e = strstr(t + off + 2, "*/");
            off = e ? (unsigned)(e - t) + 2 : (unsigned)len;
        } else {
            break;
        }
    }
    return off;
}

/* Skips whitespace, comments and inactive text (#if blocks not compiled, directive lines). */
static unsigned skip_inactive(analysis *an, unsigned file, unsigned off)
{
    const src_file *f = &an->pr->files[file];
    for (;;) {
        unsigned next = parse_skip_inactive(an->pr, file, skip_space(f->text, f->len, off));
        if (next == off)
            return off;
        off = next;
    }
}

/* Statement kinds whose source text ends with a ';' the extent may omit. */
static int needs_semicolon(enum CXCursorKind k)
{
    switch (k) {
    case CXCursor_CompoundStmt: case CXCursor_IfStmt: case CXCursor_SwitchStmt:
    case CXCursor_ForStmt: case CXCursor_WhileStmt: case CXCursor_CaseStmt:
    case CXCursor_DefaultStmt: case CXCursor_LabelStmt:
        return 0;
    default:
        return 1;
    }
}

/* The extent of c in expansion coordinates; 0 on success. */
static int cursor_range(analysis *an, CXCursor c, src_range *r)
{
    CXSourceRange ext = clang_getCursorExtent(c);
    src_pos b, e;
    if (parse_resolve(an->pr, clang_getRangeStart(ext), &b) != 0 ||
        parse_resolve(an->pr, clang_getRangeEnd(ext), &e) != 0 || b.file != e.file)
        return -1;
    r->file = b.file;
    r->begin = b.offset;
    r->end = e.offset < b.offset ? b.offset : e.offset;
    r->line = b.line;
    r->end_line = e.line;
    return 0;
}

/* Like cursor_range, for a statement: includes its ';'. */
static int stmt_range(analysis *an, CXCursor c, src_range *r)
{
    if (cursor_range(an, c, r) != 0)
        return -1;
    enum CXCursorKind k = clang_getCursorKind(c);
    const src_file *f = &an->pr->files[r->file];
    if (k == CXCursor_IfStmt || k == CXCursor_ForStmt || k == CXCursor_WhileStmt ||
        k == CXCursor_SwitchStmt || k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt ||
        k == CXCursor_LabelStmt) {
        cursor_list ch = children_of(c);
        if (ch.n > 0) {
            src_range last;
            if (stmt_range(an, ch.v[ch.n - 1], &last) == 0 && last.file == r->file &&
                last.end > r->end) {
                r->end = last.end;
                r->end_line = last.end_line;
            }
        }
        free(ch.v);
        return 0;
    }
    if (!needs_semicolon(k) || (r->end > 0 && f->text[r->end - 1] == ';'))
        return 0;
    unsigned off = skip_inactive(an, r->file, r->end);
    if (off < f->len && f->text[off] == ';')
        r->end = off + 1;
    return 0;
}

static char *cursor_spelling(CXCursor c)
{
    CXString s = clang_getCursorSpelling(c);
    char *d = xstrdup(clang_getCString(s));
    clang_disposeString(s);
    return d;
}

/* Strips implicit casts and parentheses. */
static CXCursor strip(CXCursor c)
{
    for (;;) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr)
            return c;
        cursor_list ch = children_of(c);
        if (ch.n != 1) {
            free(ch.v);
            return c;
        }
        c = ch.v[0];
        free(ch.v);
    }
}

/* ---- operators (libclang 14 does not expose operator kinds) ------------ */

static void trim_copy(const char *s, size_t n, char *out, size_t outlen)
{
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    if (n >= outlen)
        n = outlen - 1;
    memcpy(out, s, n);
    out[n] = '\0';
}

static char *pretty(CXCursor c)
{
    CXPrintingPolicy pol = clang_getCursorPrintingPolicy(c);
    CXString s = clang_getCursorPrettyPrinted(c, pol);
    char *d = xstrdup(clang_getCString(s));
    clang_disposeString(s);
    clang_PrintingPolicy_dispose(pol);
    return d;
}

/* The operator text between the two operands of a binary operator. */
static void binary_operator(analysis *an, CXCursor c, CXCursor lhs, CXCursor rhs,
                            char *out, size_t outlen)
{
    out[0] = '\0';
    CXSourceLocation le = clang_getRangeEnd(clang_getCursorExtent(lhs));
    CXSourceLocation rb = clang_getRangeStart(clang_getCursorExtent(rhs));
    src_pos a, b;
    if (!parse_in_macro(le) && !parse_in_macro(rb) && parse_resolve(an->pr, le, &a) == 0 &&
        parse_resolve(an->pr, rb, &b) == 0 && a.file == b.file && a.offset < b.offset &&
        b.offset - a.offset < 64) {
        trim_copy(an->pr->files[a.file].text + a.offset, b.offset - a.offset, out, outlen);
        if (out[0])
            return;
    }
    char *whole = pretty(c), *left = pretty(lhs);
    size_t ll = strlen(left);
    if (strncmp(whole, left, ll) == 0) {
        const char *p = whole + ll;
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, " ");
        trim_copy(p, n, out, outlen);
    }
    free(whole);
    free(left);
}

static void unary_operator(analysis *an, CXCursor c, CXCursor operand, char *out, size_t outlen)
{
    out[0] = '\0';
    src_range u, o;
    CXSourceLocation ub = clang_getRangeStart(clang_getCursorExtent(c));
    if (!parse_in_macro(ub) && cursor_range(an, c, &u) == 0 && cursor_range(an, operand, &o) == 0) {
        const char *t = an->pr->files[u.file].text;
        if (u.begin < o.begin)
            trim_copy(t + u.begin, o.begin - u.begin, out, outlen);
        else if (o.end < u.end)
            trim_copy(t + o.end, u.end - o.end, out, outlen);
        if (out[0])
            return;
    }
    char *whole = pretty(c), *inner = pretty(operand);
    size_t wl = strlen(whole), il = strlen(inner);
    if (il < wl && strncmp(whole, inner, il) == 0)
        trim_copy(whole + il, wl - il, out, outlen);
    else if (il < wl)
        trim_copy(whole, wl - il, out, outlen);
    free(whole);
    free(inner);
}

static int is_assignment_op(const char *op)
{
    size_t n = strlen(op);
    if (n == 0 || op[n - 1] != '=')
        return 0;
    return strcmp(op, "==") && strcmp(op, "!=") && strcmp(op, "<=") && strcmp(op, ">=");
}

/* ---- builtin classification -------------------------------------------- */

static int starts_with(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

static unsigned builtin_effects(const char *name)
{
    /* mem_fence, read_mem_fence and write_mem_fence order one work-item's own
     * accesses: not barriers, they may stay in the leaves. A fence with a scope
     * (atomic_work_item_fence) orders them for a work-group: refused. */
    static const char *barriers[] = {"barrier", "work_group_barrier", "sub_group_barrier",
                                     "atomic_work_item_fence", NULL};
    static const char *local_ids[] = {"get_local_id", "get_group_id", "get_local_size",
                                      "get_num_groups", "get_enqueued_local_size",
                                      "get_local_linear_id", NULL};
    static const char *workitem[] = {"get_global_id", "get_global_size", "get_global_offset",
                                     "get_work_dim", "get_global_linear_id", NULL};
    for (int i = 0; barriers[i]; i++)
        if (!strcmp(name, barriers[i]))
            return EFF_BARRIER;
    for (int i = 0; local_ids[i]; i++)
        if (!strcmp(name, local_ids[i]))
            return EFF_LOCAL_ID;
    for (int i = 0; workitem[i]; i++)
        if (!strcmp(name, workitem[i]))
            return EFF_WORKITEM;
    /* work-group and sub-group builtins, extensions' too (intel_sub_group_shuffle,
     * qcom_sub_group_..., a prototype the kernel declares itself) */
    if (strstr(name, "work_group") || strstr(name, "sub_group") || strstr(name, "subgroup") ||
        strstr(name, "workgroup") || !strcmp(name, "wait_group_events"))
        return EFF_GROUP_FN;
    if (starts_with(name, "atomic_") || starts_with(name, "atom_"))
        return EFF_ATOMIC | EFF_MEM_READ;
    if (!strcmp(name, "printf"))
        return EFF_PRINTF;
    if (starts_with(name, "vstore") || starts_with(name, "write_image"))
        return EFF_MEM_WRITE;
    if (starts_with(name, "vload") || starts_with(name, "read_image"))
        return EFF_MEM_READ;
    return 0;
}

static double builtin_cost(const char *name)
{
    static const char *cheap[] = {"min", "max", "clamp", "select", "abs", "fabs", "mad",
                                  "fma", "floor", "ceil", "round", "trunc", "sign", "mix",
                                  "as_", "convert_", NULL};
    for (int i = 0; cheap[i]; i++)
        if (starts_with(name, cheap[i]))
            return 1;
    return 8; /* transcendental and friends */
}

/* ---- effects ----------------------------------------------------------- */

typedef struct summary {
    CXCursor def;
    effects fx;
    int busy;
    struct summary *next;
} summary;

typedef struct scan_ctx {
    analysis *an;
    effects *fx;
    CXCursor func;      /* the function whose locals we track */
    int depth_loops;
    int track_params;   /* a helper's summary: stores through its pointer parameters */
    CXCursor outer;     /* the member access (s[i].f) around the access being scanned, or null */
} scan_ctx;

static void scan(scan_ctx *sc, CXCursor c);
static CXCursor local_root(CXCursor e);

static int cursor_in(const CXCursor *v, unsigned n, CXCursor c)
{
    for (unsigned i = 0; i < n; i++)
        if (clang_equalCursors(v[i], c))
            return 1;
    return 0;
}

static void add_var(CXCursor **v, unsigned *n, unsigned *cap, CXCursor decl)
{
    if (!cursor_in(*v, *n, decl))
        VEC_PUSH(*v, *n, *cap, decl);
}

static void note_effect(effects *fx, unsigned bit, CXCursor at, CXCursor via)
{
    for (unsigned i = 0; i < EFF_COUNT; i++) {
        if (!(bit & (1u << i)) || (fx->bits & (1u << i)))
            continue;
        fx->site[i].at = at;
        fx->site[i].via = via;
    }
    fx->bits |= bit;
}

static int is_local_decl(CXCursor decl)
{
    enum CXCursorKind k = clang_getCursorKind(decl);
    if (k == CXCursor_ParmDecl)
        return 1;
    if (k != CXCursor_VarDecl)
        return 0;
    return clang_Cursor_getStorageClass(decl) != CX_SC_Static &&
           clang_getCursorKind(clang_getCursorSemanticParent(decl)) == CXCursor_FunctionDecl;
}

static int type_is_pointer(CXType t)
{
    t = clang_getCanonicalType(t);
    return t.kind == CXType_Pointer;
}

static int spelling_has(CXType t, const char *word)
{
    CXString s = clang_getTypeSpelling(t);
    int has = strstr(clang_getCString(s), word) != NULL;
    clang_disposeString(s);
    return has;
}

/* A load through base (a pointer expression): is it immune to stores? */
static int read_is_immune(CXCursor base)
{
    CXType t = clang_getCursorType(base);
    if (t.kind != CXType_Invalid) {
        CXType pointee = clang_getPointeeType(clang_getCanonicalType(t));
        if (spelling_has(pointee, "__constant"))
            return 1;
    }
    CXCursor b = strip(base);
    if (clang_getCursorKind(b) == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(b);
        if (clang_getCursorKind(d) == CXCursor_ParmDecl &&
            clang_isRestrictQualifiedType(clang_getCursorType(d)))
            return 1;
    }
    return 0;
}

/* The index of the helper's pointer parameter that base names, or -1. */
static int tracked_param(const scan_ctx *sc, CXCursor base)
{
    if (!sc->track_params)
        return -1;
    CXCursor b = strip(base);
    if (clang_getCursorKind(b) != CXCursor_DeclRefExpr)
        return -1;
    CXCursor d = clang_getCursorReferenced(b);
    if (clang_getCursorKind(d) != CXCursor_ParmDecl)
        return -1;
    int n = clang_Cursor_getNumArguments(sc->func);
    for (int i = 0; i < n && i < 32; i++)
        if (clang_equalCursors(clang_Cursor_getArgument(sc->func, (unsigned)i), d))
            return i;
    return -1;
}

static void record_store(effects *fx, CXCursor access)
{
    VEC_PUSH(fx->stores, fx->nstores, fx->capstores, access);
}

static void record_load(effects *fx, CXCursor access)
{
    VEC_PUSH(fx->loads, fx->nloads, fx->caploads, access);
}

/* A store to the lvalue lv through the pointer base: to memory, or through a helper's parameter. */
static void note_store(scan_ctx *sc, CXCursor base, CXCursor lv, CXCursor site)
{
    int p = tracked_param(sc, base);
    if (p >= 0) {
        if (!sc->fx->param_writes || clang_Cursor_isNull(sc->fx->param_store))
            sc->fx->param_store = site;
        sc->fx->param_writes |= 1u << p;
        return;
    }
    note_effect(sc->fx, EFF_MEM_WRITE, site, clang_getNullCursor());
    record_store(sc->fx, clang_Cursor_isNull(sc->outer) ? lv : sc->outer);
}

/* A load of the expression site through the pointer base. */
static void note_load(scan_ctx *sc, CXCursor base, CXCursor site)
{
    int p = tracked_param(sc, base);
    if (p >= 0) {
        sc->fx->param_reads |= 1u << p;
    } else if (!read_is_immune(base)) {
        note_effect(sc->fx, EFF_MEM_READ, site, clang_getNullCursor());
        record_load(sc->fx, clang_Cursor_isNull(sc->outer) ? site : sc->outer);
    }
}

/* The field a member access names, or the null cursor. */
static CXCursor member_field(CXCursor e)
{
    if (clang_getCursorKind(e) != CXCursor_MemberRefExpr)
        return clang_getNullCursor();
    CXCursor f = clang_getCursorReferenced(e);
    return clang_getCursorKind(f) == CXCursor_FieldDecl ? f : clang_getNullCursor();
}

int accesses_may_alias(CXCursor w, CXCursor r)
{
    for (int depth = 0; depth < 16; depth++) {
        CXCursor fw = member_field(strip(w)), fr = member_field(strip(r));
        if (clang_Cursor_isNull(fw) || clang_Cursor_isNull(fr))
            return 1; /* a whole element, a dereference, a call: it may overlap */
        CXCursor rec = clang_getCursorSemanticParent(fw);
        if (!clang_equalCursors(fw, fr))
            return !(clang_equalCursors(rec, clang_getCursorSemanticParent(fr)) &&
                     clang_getCursorKind(rec) == CXCursor_StructDecl);
        cursor_list cw = children_of(strip(w)), cr = children_of(strip(r));
        int deeper = cw.n == 1 && cr.n == 1 &&
                     !type_is_pointer(clang_getCursorType(strip(cw.v[0]))) &&
                     !type_is_pointer(clang_getCursorType(strip(cr.v[0])));
        if (deeper) { /* s[i].pos.x and s[i].vel.x: compare pos and vel */
            w = cw.v[0];
            r = cr.v[0];
        }
        free(cw.v);
        free(cr.v);
        if (!deeper)
            return 1;
    }
    return 1;
}

/* Records a write to the lvalue c: a local variable, or memory. */
static void scan_lvalue(scan_ctx *sc, CXCursor c, CXCursor site)
{
    CXCursor s = strip(c);
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(s);
        if (is_local_decl(d)) {
            add_var(&sc->fx->writes, &sc->fx->nwrites, &sc->fx->capwrites, d);
            note_effect(sc->fx, EFF_LOCAL_WRITE, site, clang_getNullCursor());
        } else {
            note_effect(sc->fx, EFF_MEM_WRITE, site, clang_getNullCursor());
            record_store(sc->fx, s);
        }
        return;
    }
    cursor_list ch = children_of(s);
    CXCursor outer = sc->outer;
    if (k == CXCursor_ArraySubscriptExpr && ch.n == 2) {
        sc->outer = clang_getNullCursor();
        scan(sc, ch.v[1]);
        sc->outer = outer;
        if (type_is_pointer(clang_getCursorType(strip(ch.v[0])))) {
            note_store(sc, ch.v[0], s, site);
            sc->outer = clang_getNullCursor();
            scan(sc, ch.v[0]);
            sc->outer = outer;
        } else {
            scan_lvalue(sc, ch.v[0], site);
        }
    } else if (k == CXCursor_MemberRefExpr && ch.n == 1) {
        if (type_is_pointer(clang_getCursorType(strip(ch.v[0])))) {
            note_store(sc, ch.v[0], s, site);
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
        note_store(sc, ch.v[0], s, site); /* *p = ... */
        sc->outer = clang_getNullCursor();
        scan(sc, ch.v[0]);
        sc->outer = outer;
    } else {
        /* something we cannot see into: memory */
        note_effect(sc->fx, EFF_MEM_WRITE, site, clang_getNullCursor());
        record_store(sc->fx, site);
        for (unsigned i = 0; i < ch.n; i++)
            scan(sc, ch.v[i]);
    }
    free(ch.v);
}

static const effects *function_summary(analysis *an, CXCursor def);

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
    if (bits & (EFF_MEM_WRITE | EFF_ATOMIC))
        record_store(sc->fx, call);
    if (bits & EFF_MEM_READ)
        record_load(sc->fx, call);
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
    CXCursor a = strip(arg), local = clang_getNullCursor();
    if (clang_getCursorKind(a) == CXCursor_UnaryOperator) {
        cursor_list ch = children_of(a);
        char op[8] = "";
        if (ch.n == 1)
            unary_operator(sc->an, a, ch.v[0], op, sizeof op);
        if (!strcmp(op, "&"))
            local = local_root(ch.v[0]);
        free(ch.v);
    } else if (clang_getCursorType(a).kind == CXType_ConstantArray) {
        local = local_root(a);
    }
    int q = tracked_param(sc, arg);
    if (callee->param_writes & bit) {
        if (!clang_Cursor_isNull(local)) {
            add_var(&sc->fx->writes, &sc->fx->nwrites, &sc->fx->capwrites, local);
            note_effect(sc->fx, EFF_LOCAL_WRITE, call, clang_getNullCursor());
        } else if (q >= 0) {
            sc->fx->param_writes |= 1u << q;
        } else if (!clang_Cursor_isNull(callee->param_store)) {
            note_effect(sc->fx, EFF_MEM_WRITE, callee->param_store, call);
            record_store(sc->fx, call);
        } else {
            note_effect(sc->fx, EFF_MEM_WRITE, call, clang_getNullCursor());
            record_store(sc->fx, call);
        }
    }
    if (callee->param_reads & bit) {
        if (!clang_Cursor_isNull(local))
            add_var(&sc->fx->reads, &sc->fx->nreads, &sc->fx->capreads, local);
        else
            note_load(sc, arg, call);
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
        const effects *callee = function_summary(sc->an, def);
        merge_call(sc, callee, c);
        free(name);
        scan_helper_args(sc, callee, c);
        return;
    } else if (!clang_Cursor_isNull(def) && clang_equalCursors(def, sc->func)) {
        note_effect(sc->fx, EFF_UNSUPPORTED, c, clang_getNullCursor()); /* recursion */
    } else {
        unsigned b = builtin_effects(name);
        if (b & EFF_ATOMIC)
            b |= EFF_MEM_WRITE; /* the write is the call's, not its '&p[i]' argument's */
        if (b)
            note_effect(sc->fx, b, c, clang_getNullCursor());
        if (b & EFF_MEM_WRITE)
            record_store(sc->fx, c);
        if (b & EFF_MEM_READ)
            record_load(sc->fx, c);
        sc->fx->cost += builtin_cost(name);
    }
    free(name);
    cursor_list ch = children_of(c);
    for (unsigned i = 1; i < ch.n; i++) /* child 0 is the callee */
        scan(sc, ch.v[i]);
    free(ch.v);
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
    char op[8] = "=";
    if (!compound)
        binary_operator(sc->an, c, ch.v[0], ch.v[1], op, sizeof op);
    sc->fx->cost += 1;
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
 * The local variable whose own storage the lvalue e is part of (x, x.f,
 * x[i] of a local array), or the null cursor when e is in memory.
 */
static CXCursor local_root(CXCursor e)
{
    CXCursor s = strip(e);
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(s);
        return is_local_decl(d) ? d : clang_getNullCursor();
    }
    if (k != CXCursor_ArraySubscriptExpr && k != CXCursor_MemberRefExpr)
        return clang_getNullCursor();
    cursor_list ch = children_of(s);
    CXCursor r = clang_getNullCursor();
    if (ch.n >= 1 && !type_is_pointer(clang_getCursorType(strip(ch.v[0]))))
        r = local_root(ch.v[0]);
    free(ch.v);
    return r;
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
        note_load(sc, ch.v[0], c);
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
        note_effect(sc->fx, EFF_LOCAL_MEM, c, clang_getNullCursor());
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
    double before = sc->fx->cost;
    CXCursor exit_before = sc->fx->hidden_exit;
    sc->depth_loops++;
    cursor_list ch = children_of(c);
    for (unsigned i = 0; i < ch.n; i++)
        scan(sc, ch.v[i]);
    free(ch.v);
    sc->depth_loops--;
    sc->fx->cost = before + (sc->fx->cost - before) * trips;
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
        note_load(sc, ch.v[0], c); /* p->f */
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
    if (ch.n == 2 && type_is_pointer(clang_getCursorType(strip(ch.v[0]))))
        note_load(sc, ch.v[0], c);
    else if (ch.n == 2) /* a[i] of a private array: an outer .f stays the access */
        scan(sc, ch.v[0]);
    sc->outer = clang_getNullCursor();
    for (unsigned i = 0; i < ch.n; i++)
        if (!(i == 0 && ch.n == 2 && !type_is_pointer(clang_getCursorType(strip(ch.v[0])))))
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
        note_effect(sc->fx, EFF_UNSUPPORTED, c, clang_getNullCursor());
        break;
    default:
        break;
    }
    clang_visitChildren(c, scan_cb, sc);
}

static void effects_free(effects *fx)
{
    free(fx->reads);
    free(fx->writes);
    free(fx->stores);
    free(fx->loads);
    memset(fx, 0, sizeof *fx);
}

static void effects_of(analysis *an, CXCursor func, CXCursor c, effects *fx)
{
    memset(fx, 0, sizeof *fx);
    fx->hidden_exit = clang_getNullCursor();
    fx->param_store = clang_getNullCursor();
    for (unsigned i = 0; i < EFF_COUNT; i++)
        fx->site[i].at = fx->site[i].via = clang_getNullCursor();
    scan_ctx sc = {an, fx, func, 0, 0, clang_getNullCursor()};
    scan(&sc, c);
}

/* Like effects_of for a helper's definition: stores through its pointer parameters apart. */
static void helper_effects(analysis *an, CXCursor def, effects *fx)
{
    memset(fx, 0, sizeof *fx);
    fx->hidden_exit = clang_getNullCursor();
    fx->param_store = clang_getNullCursor();
    for (unsigned i = 0; i < EFF_COUNT; i++)
        fx->site[i].at = fx->site[i].via = clang_getNullCursor();
    scan_ctx sc = {an, fx, def, 0, 1, clang_getNullCursor()};
    scan(&sc, def);
}

static const effects *function_summary(analysis *an, CXCursor def)
{
    for (summary *s = an->summaries; s; s = s->next)
        if (clang_equalCursors(s->def, def)) {
            if (s->busy)
                note_effect(&s->fx, EFF_UNSUPPORTED, def, clang_getNullCursor());
            return &s->fx;
        }
    summary *s = xcalloc(1, sizeof *s);
    s->def = def;
    s->fx.hidden_exit = clang_getNullCursor(); /* a zeroed CXCursor is not the null cursor */
    s->fx.param_store = clang_getNullCursor();
    for (unsigned i = 0; i < EFF_COUNT; i++)
        s->fx.site[i].at = s->fx.site[i].via = clang_getNullCursor();
    s->busy = 1;
    s->next = an->summaries;
    an->summaries = s;
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
    effects_free(&fx);
    s->busy = 0;
    return &s->fx;
}

/* ---- condition trees --------------------------------------------------- */

typedef struct build_ctx {
    analysis *an;
    kernel_info *k;
    diag_sink *diag;
    int errors;
    int macro_decisions;    /* decisions refused because a macro wrote them */
    int in_switch;          /* building the body of a switch decision */
} build_ctx;

static void report_at(build_ctx *bc, CXCursor at, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void report_at(build_ctx *bc, CXCursor at, const char *rule, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_loc loc = parse_diag_loc(bc->an->pr, clang_getCursorLocation(at));
    diag_report(bc->diag, DIAG_ERROR, &loc, rule, "%s", msg);
    bc->errors++;
}

static void note_at(build_ctx *bc, CXCursor at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void note_at(build_ctx *bc, CXCursor at, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_loc loc = parse_diag_loc(bc->an->pr, clang_getCursorLocation(at));
    diag_report(bc->diag, DIAG_NOTE, &loc, NULL, "%s", msg);
}

static void build_seq_from(build_ctx *bc, CXCursor stmt, seq *out, unsigned *cap);
static decision *build_if(build_ctx *bc, CXCursor c);
static decision *build_switch(build_ctx *bc, CXCursor c);

static void push_item(seq *s, unsigned *cap, seq_item it)
{
    VEC_PUSH(s->items, s->n, *cap, it);
}

/*
 * Is the if/switch c written in the source text, keyword first? One that a
 * macro expands to starts with the macro's name instead. (libclang 14's
 * clang_getSpellingLocation maps a token of a macro body to the expansion,
 * so parse_in_macro only sees tokens that came from macro arguments.)
 */
static int written_in_place(analysis *an, CXCursor c)
{
    const char *kw = clang_getCursorKind(c) == CXCursor_IfStmt ? "if" : "switch";
    size_t n = strlen(kw);
    src_range r;
    if (parse_in_macro(clang_getCursorLocation(c)) || cursor_range(an, c, &r) != 0)
        return 0;
    const src_file *f = &an->pr->files[r.file];
    if (r.begin + n > f->len || strncmp(f->text + r.begin, kw, n) != 0)
        return 0;
    return r.begin + n == f->len ||
           !(isalnum((unsigned char)f->text[r.begin + n]) || f->text[r.begin + n] == '_');
}

/* Appends the item for one statement (a compound's child, or a branch body). */
static void add_stmt(build_ctx *bc, CXCursor c, seq *out, unsigned *cap)
{
    seq_item it;
    memset(&it, 0, sizeof it);
    it.cursor = c;
    if (stmt_range(bc->an, c, &it.range) != 0) {
        report_at(bc, c, "nplus1-macro-decision",
                  "statement spans several files or macro expansions; cannot cut it out");
        return;
    }
    switch (clang_getCursorKind(c)) {
    case CXCursor_IfStmt:
    case CXCursor_SwitchStmt:
        if (!written_in_place(bc->an, c)) {
            report_at(bc, c, "nplus1-macro-decision",
                      "this decision comes from a macro expansion; nplus1gen cannot rewrite it");
            note_at(bc, c, "the leaf kernels are cut from the source text, and a macro body is one "
                           "piece of text: write the if/switch in the kernel, or move it into a "
                           "function");
            bc->macro_decisions++;
            return;
        }
        it.kind = ITEM_DECISION;
        it.decision = clang_getCursorKind(c) == CXCursor_IfStmt ? build_if(bc, c)
                                                                 : build_switch(bc, c);
        if (!it.decision)
            return;
        it.fx.hidden_exit = clang_getNullCursor();
        break;
    case CXCursor_ReturnStmt:
        it.kind = ITEM_RETURN;
        effects_of(bc->an, bc->k->cursor, c, &it.fx);
        it.fx.hidden_exit = clang_getNullCursor();
        break;
    case CXCursor_BreakStmt:
        it.kind = ITEM_BREAK;
        effects_of(bc->an, bc->k->cursor, c, &it.fx);
        it.fx.hidden_exit = clang_getNullCursor();
        break;
    case CXCursor_NullStmt:
        return;
    default:
        it.kind = ITEM_STMT;
        effects_of(bc->an, bc->k->cursor, c, &it.fx);
        if (bc->in_switch && !clang_Cursor_isNull(it.fx.hidden_exit) &&
            clang_getCursorKind(it.fx.hidden_exit) == CXCursor_BreakStmt) {
            report_at(bc, it.fx.hidden_exit, "nplus1-hidden-return",
                      "this break leaves the switch from inside a nested statement");
            note_at(bc, c, "the condition tree follows breaks written at the level of the "
                           "case (or directly in its braces); write the break there, or use an "
                           "if/else inside the case");
        }
        break;
    }
    push_item(out, cap, it);
}

/* The items of a statement used as a branch body, or of a compound. */
static void build_seq_from(build_ctx *bc, CXCursor stmt, seq *out, unsigned *cap)
{
    if (clang_getCursorKind(stmt) != CXCursor_CompoundStmt) {
        add_stmt(bc, stmt, out, cap);
        return;
    }
    cursor_list ch = children_of(stmt);
    for (unsigned i = 0; i < ch.n; i++)
        add_stmt(bc, ch.v[i], out, cap);
    free(ch.v);
}

static void merge_effects(effects *into, const effects *from)
{
    for (unsigned i = 0; i < EFF_COUNT; i++)
        if ((from->bits & (1u << i)) && !(into->bits & (1u << i)))
            into->site[i] = from->site[i];
    into->bits |= from->bits;
    for (unsigned i = 0; i < from->nreads; i++)
        add_var(&into->reads, &into->nreads, &into->capreads, from->reads[i]);
    for (unsigned i = 0; i < from->nwrites; i++)
        add_var(&into->writes, &into->nwrites, &into->capwrites, from->writes[i]);
    for (unsigned i = 0; i < from->nstores; i++)
        record_store(into, from->stores[i]);
    for (unsigned i = 0; i < from->nloads; i++)
        record_load(into, from->loads[i]);
    into->cost += from->cost;
}

/* The text inside the parentheses of if (...) / switch (...). */
static int paren_range(build_ctx *bc, CXCursor stmt, CXCursor cond, src_range *r)
{
    src_range s, c;
    if (cursor_range(bc->an, stmt, &s) != 0 || cursor_range(bc->an, cond, &c) != 0)
        return -1;
    const src_file *f = &bc->an->pr->files[s.file];
    unsigned open = s.begin;
    while (open < c.begin && f->text[open] != '(')
        open++;
    unsigned close = skip_inactive(bc->an, s.file, c.end);
    if (open >= c.begin || close >= f->len || f->text[close] != ')')
        return -1;
    r->file = s.file;
    r->begin = open + 1;
    r->end = close;
    r->line = c.line;
    r->end_line = c.end_line;
    return 0;
}

static void note_parentheses(build_ctx *bc, CXCursor stmt)
{
    note_at(bc, stmt, "the classifier copies the condition from between the parentheses in the "
                      "source text: write them in the kernel, as in 'if (MACRO)'");
}

static decision *new_decision(decision_kind kind, CXCursor c)
{
    decision *d = xcalloc(1, sizeof *d);
    d->kind = kind;
    d->cursor = c;
    d->cond_fx.hidden_exit = clang_getNullCursor();
    return d;
}

static branch *add_branch(decision *d, unsigned *cap, branch_kind kind)
{
    branch b;
    memset(&b, 0, sizeof b);
    b.kind = kind;
    b.cond_cursor = clang_getNullCursor();
    VEC_PUSH(d->branches, d->nbranches, *cap, b);
    return &d->branches[d->nbranches - 1];
}

static decision *build_if(build_ctx *bc, CXCursor c)
{
    decision *d = new_decision(DEC_IF, c);
    stmt_range(bc->an, c, &d->range);
    unsigned cap = 0;
    CXCursor cur = c;
    for (;;) {
        cursor_list ch = children_of(cur);
        if (ch.n < 2) {
            free(ch.v);
            report_at(bc, cur, "nplus1-unsupported", "cannot read this if statement");
            return d;
        }
        branch *b = add_branch(d, &cap, BR_IF);
        b->cond_cursor = ch.v[0];
        if (paren_range(bc, cur, ch.v[0], &b->cond) != 0) {
            report_at(bc, cur, "nplus1-macro-decision",
                      "cannot find the condition of this if in the source text");
            note_parentheses(bc, cur);
        }
        effects fx;
        effects_of(bc->an, bc->k->cursor, ch.v[0], &fx);
        merge_effects(&d->cond_fx, &fx);
        effects_free(&fx);
        stmt_range(bc->an, ch.v[1], &b->body);
        unsigned scap = 0;
        build_seq_from(bc, ch.v[1], &b->seq, &scap);
        if (ch.n < 3) {
            free(ch.v);
            add_branch(d, &cap, BR_IMPLICIT_ELSE);
            return d;
        }
        CXCursor els = ch.v[2];
        free(ch.v);
        if (clang_getCursorKind(els) == CXCursor_IfStmt && written_in_place(bc->an, els)) {
            cur = els;
            continue;
        }
        b = add_branch(d, &cap, BR_ELSE);
        stmt_range(bc->an, els, &b->body);
        scap = 0;
        build_seq_from(bc, els, &b->seq, &scap);
        return d;
    }
}

typedef struct switch_build {
    build_ctx *bc;
    decision *d;
    unsigned bcap, icap;
    int open_group;     /* the last branch has no statements yet */
} switch_build;

static branch *entry_branch(switch_build *sb, branch_kind kind)
{
    decision *d = sb->d;
    if (sb->open_group && d->nbranches) {
        branch *b = &d->branches[d->nbranches - 1];
        if (kind == BR_DEFAULT)
            b->kind = BR_DEFAULT;
        return b;
    }
    branch *b = add_branch(d, &sb->bcap, kind);
    b->seq.items = (seq_item *)(uintptr_t)d->body.n; /* start index, fixed up later */
    sb->open_group = 1;
    return b;
}

/* The integer value of a case label's expression; 0 on success. */
static int case_value(CXCursor e, long long *v)
{
    CXEvalResult r = clang_Cursor_Evaluate(e);
    int ok = r && clang_EvalResult_getKind(r) == CXEval_Int;
    if (ok)
        *v = clang_EvalResult_getAsLongLong(r);
    if (r)
        clang_EvalResult_dispose(r);
    return ok ? 0 : -1;
}

#define MAX_CASE_RANGE 256

/* Adds the values of `case A:` or of the GNU range `case A ... B:` to b. */
static void add_case_values(switch_build *sb, CXCursor c, const cursor_list *ch, branch *b)
{
    long long lo, hi;
    int range = ch->n >= 3; /* LHS, RHS, body */
    if (case_value(ch->v[0], &lo) != 0 || case_value(ch->v[range ? 1 : 0], &hi) != 0) {
        report_at(sb->bc, c, "nplus1-unsupported", "cannot evaluate this case value");
        return;
    }
    if (hi < lo)
        return; /* an empty GNU range matches nothing */
    if ((unsigned long long)hi - (unsigned long long)lo >= MAX_CASE_RANGE) {
        report_at(sb->bc, c, "nplus1-unsupported",
                  "this case range holds %llu values; at most %d are supported",
                  (unsigned long long)hi - (unsigned long long)lo + 1, MAX_CASE_RANGE);
        note_at(sb->bc, c, "the classifier lists every value of a range as a case of its own; "
                           "write a wide range as an if with two comparisons");
        return;
    }
    unsigned n = (unsigned)(hi - lo) + 1;
    b->values = xrealloc(b->values, (b->nvalues + n) * sizeof *b->values);
    for (unsigned i = 0; i < n; i++)
        b->values[b->nvalues++] = lo + (long long)i;
}

static void flatten_case(switch_build *sb, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt) {
        cursor_list ch = children_of(c);
        branch *b = entry_branch(sb, k == CXCursor_CaseStmt ? BR_CASE : BR_DEFAULT);
        if (k == CXCursor_CaseStmt && ch.n >= 2)
            add_case_values(sb, c, &ch, b);
        if (ch.n > 0)
            flatten_case(sb, ch.v[ch.n - 1]);
        free(ch.v);
        return;
    }
    if (k == CXCursor_CompoundStmt) {
        /* a braced case body: its statements are the switch's, so that a break
         * in it is seen to leave the switch (the leaves keep the braces) */
        cursor_list ch = children_of(c);
        for (unsigned i = 0; i < ch.n; i++)
            flatten_case(sb, ch.v[i]);
        free(ch.v);
        return;
    }
    unsigned before = sb->d->body.n;
    add_stmt(sb->bc, c, &sb->d->body, &sb->icap);
    if (sb->d->body.n > before)
        sb->open_group = 0;
}

/* The smallest value >= 0 no case uses: the switch value of a default leaf. */
static void pick_default_value(decision *d)
{
    for (long long v = 0;; v++) {
        int used = 0;
        for (unsigned b = 0; b < d->nbranches && !used; b++)
            for (unsigned i = 0; i < d->branches[b].nvalues; i++)
                used |= d->branches[b].values[i] == v;
        if (!used) {
            d->default_value = v;
            d->has_default_value = 1;
            return;
        }
    }
}

static decision *build_switch(build_ctx *bc, CXCursor c)
{
    decision *d = new_decision(DEC_SWITCH, c);
    stmt_range(bc->an, c, &d->range);
    cursor_list ch = children_of(c);
    if (ch.n < 2) {
        free(ch.v);
        report_at(bc, c, "nplus1-unsupported", "cannot read this switch statement");
        return d;
    }
    d->cond_cursor = ch.v[0];
    if (paren_range(bc, c, ch.v[0], &d->cond) != 0) {
        report_at(bc, c, "nplus1-macro-decision",
                  "cannot find the controlling expression of this switch in the source text");
        note_parentheses(bc, c);
    }
    effects_of(bc->an, bc->k->cursor, ch.v[0], &d->cond_fx);
    switch_build sb = {bc, d, 0, 0, 0};
    CXCursor body = ch.v[ch.n - 1];
    free(ch.v);
    cursor_list items = children_of(body);
    bc->in_switch++;
    for (unsigned i = 0; i < items.n; i++)
        flatten_case(&sb, items.v[i]);
    bc->in_switch--;
    free(items.v);
    int has_default = 0;
    for (unsigned b = 0; b < d->nbranches; b++) {
        uintptr_t start = (uintptr_t)d->branches[b].seq.items;
        d->branches[b].seq.items = d->body.items + start;
        d->branches[b].seq.n = d->body.n - (unsigned)start;
        has_default |= d->branches[b].kind == BR_DEFAULT;
    }
    if (!has_default)
        add_branch(d, &sb.bcap, BR_IMPLICIT_DEFAULT);
    pick_default_value(d);
    return d;
}

/* ---- legality ---------------------------------------------------------- */

static const char *rule_of(unsigned bit)
{
    switch (bit) {
    case EFF_BARRIER: return "nplus1-barrier";
    case EFF_LOCAL_MEM: return "nplus1-local-memory";
    case EFF_LOCAL_ID: return "nplus1-local-id";
    case EFF_GROUP_FN: return "nplus1-group-function";
    default: return "nplus1-unsupported";
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
    int group = !strcmp(name, "barrier") || !strcmp(name, "work_group_barrier");
    int sub = !strcmp(name, "sub_group_barrier");
    free(name);
    if (!group && !sub)
        return;
    const char *unit = group ? "work-group" : "sub-group";
    if (inside_branch(bc, at))
        note_at(bc, at, "this barrier is inside a branch: unless every work-item of the %s takes "
                        "the same branch, the kernel is already invalid OpenCL (all of them must "
                        "reach the barrier, or none)", unit);
    else if (!clang_Cursor_isNull(via) && inside_branch(bc, via))
        note_at(bc, via, "this call, which reaches a barrier, is inside a branch: unless every "
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
        report_at(bc, at, "nplus1-unsupported", "%s cannot be split: it uses %s", what,
                  unsupported_construct(at, name));
    else if (bit == EFF_LOCAL_MEM)
        report_at(bc, at, rule_of(bit), "%s uses __local memory ('%s')", what, name);
    else
        report_at(bc, at, rule_of(bit), "%s calls '%s'", what, name);
    int fence = strstr(name, "fence") != NULL;
    free(name);
    if (fence)
        note_at(bc, at, "a fence with a memory scope orders memory for the work-items of that "
                        "scope (a work-group or sub-group), and the leaf kernels re-form "
                        "work-groups; mem_fence, read_mem_fence and write_mem_fence, which "
                        "order one work-item's own accesses, may stay");
    else
        note_at(bc, at, "%s", why_of(bit));
    if (bit == EFF_BARRIER)
        note_barrier_in_branch(bc, at, s->via);
    if (!clang_Cursor_isNull(s->via)) {
        char *callee = cursor_spelling(s->via);
        note_at(bc, s->via, "reached through this call to '%s'", callee);
        free(callee);
    }
}

/* ---- local ids whose value is never used ------------------------------- */

typedef struct lid_use {
    analysis *an;
    cursor_list calls;       /* get_local_id & co, called in the kernel itself */
    cursor_list dropped;     /* ... whose value is thrown away by their statement */
    cursor_list owner_call, owner_var; /* call i is (part of) the value stored in var i */
    cursor_list stores;      /* DeclRefs that are the target of '=' (not reads) */
    cursor_list reads;       /* every other DeclRef's variable */
    int via_helper;          /* a helper the kernel calls uses a local id */
} lid_use;

static enum CXChildVisitResult find_lid_calls_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    cursor_list *l = data;
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        char *name = cursor_spelling(c);
        if (builtin_effects(name) == EFF_LOCAL_ID)
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
    }
    free(found.v);
}

static CXCursor strip_casts(CXCursor c)
{
    c = strip(c);
    while (clang_getCursorKind(c) == CXCursor_CStyleCastExpr) {
        cursor_list ch = children_of(c);
        CXCursor inner = ch.n ? strip(ch.v[ch.n - 1]) : c;
        free(ch.v);
        if (clang_equalCursors(inner, c))
            break;
        c = inner;
    }
    return c;
}

/* The same expression, reached by two walks (their cursors need not compare equal). */
static int same_node(CXCursor a, CXCursor b)
{
    return clang_getCursorKind(a) == clang_getCursorKind(b) &&
           clang_equalRanges(clang_getCursorExtent(a), clang_getCursorExtent(b));
}

static int node_in(const cursor_list *l, CXCursor c)
{
    for (unsigned i = 0; i < l->n; i++)
        if (same_node(l->v[i], c))
            return 1;
    return 0;
}

static enum CXChildVisitResult lid_use_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    lid_use *u = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (clang_getCursorKind(parent) == CXCursor_CompoundStmt && clang_isExpression(k) &&
        clang_getCursorKind(strip_casts(c)) == CXCursor_CallExpr)
        VEC_PUSH(u->dropped.v, u->dropped.n, u->dropped.cap, strip_casts(c));
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
            VEC_PUSH(u->stores.v, u->stores.n, u->stores.cap, lhs);
            own_calls(u, ch.v[1], clang_getCursorReferenced(lhs));
        }
        free(ch.v);
    } else if (k == CXCursor_DeclRefExpr && !node_in(&u->stores, c)) {
        VEC_PUSH(u->reads.v, u->reads.n, u->reads.cap, clang_getCursorReferenced(c));
    } else if (k == CXCursor_CallExpr) {
        CXCursor def = clang_getCursorDefinition(clang_getCursorReferenced(c));
        if (!clang_Cursor_isNull(def) && clang_getCursorKind(def) == CXCursor_FunctionDecl &&
            (function_summary(u->an, def)->bits & EFF_LOCAL_ID))
            u->via_helper = 1;
    }
    return CXChildVisit_Recurse;
}

/* Is the value of this local-id call thrown away, or stored only in variables nobody reads? */
static int lid_unused(const lid_use *u, CXCursor call)
{
    if (node_in(&u->dropped, call))
        return 1;
    int owned = 0;
    for (unsigned i = 0; i < u->owner_call.n; i++) {
        if (!same_node(u->owner_call.v[i], call))
            continue;
        owned = 1;
        if (cursor_in(u->reads.v, u->reads.n, u->owner_var.v[i]))
            return 0;
    }
    return owned;
}

/*
 * The first local-id call of the kernel whose value reaches anything, or
 * the null cursor when none does (an unused 'int lid = get_local_id(0);'
 * is no reason to refuse). A helper that uses one counts as used.
 */
static CXCursor used_local_id(build_ctx *bc, CXCursor fallback)
{
    lid_use u;
    memset(&u, 0, sizeof u);
    u.an = bc->an;
    clang_visitChildren(bc->k->cursor, find_lid_calls_cb, &u.calls);
    clang_visitChildren(bc->k->cursor, lid_use_cb, &u);
    CXCursor used = u.via_helper ? fallback : clang_getNullCursor();
    for (unsigned i = 0; i < u.calls.n && clang_Cursor_isNull(used); i++)
        if (!lid_unused(&u, u.calls.v[i]))
            used = u.calls.v[i];
    free(u.calls.v);
    free(u.dropped.v);
    free(u.owner_call.v);
    free(u.owner_var.v);
    free(u.stores.v);
    free(u.reads.v);
    return used;
}

/* Kernel-wide rules: what no split kernel may contain anywhere. */
static void check_forbidden(build_ctx *bc)
{
    effects fx;
    effects_of(bc->an, bc->k->cursor, bc->k->cursor, &fx);
    static const unsigned order[] = {EFF_BARRIER, EFF_LOCAL_MEM, EFF_LOCAL_ID, EFF_GROUP_FN,
                                     EFF_UNSUPPORTED};
    char what[300];
    snprintf(what, sizeof what, "kernel '%s'", bc->k->name);
    if (fx.bits & EFF_LOCAL_ID) {
        CXCursor used = used_local_id(bc, fx.site[5].at);
        if (clang_Cursor_isNull(used))
            fx.bits &= ~EFF_LOCAL_ID; /* computed, never used */
        else if (clang_Cursor_isNull(fx.site[5].via))
            fx.site[5].at = used;
    }
    for (unsigned i = 0; i < sizeof order / sizeof *order; i++)
        if (fx.bits & order[i])
            report_effect(bc, &fx, order[i], what);
    effects_free(&fx);
}

static void check_param_types(build_ctx *bc)
{
    cursor_list ch = children_of(bc->k->cursor);
    for (unsigned i = 0; i < ch.n; i++) {
        if (clang_getCursorKind(ch.v[i]) != CXCursor_ParmDecl)
            continue;
        CXType t = clang_getCursorType(ch.v[i]);
        if (spelling_has(t, "__local") || spelling_has(t, "local ")) {
            report_at(bc, ch.v[i], "nplus1-local-memory",
                      "kernel '%s' takes a __local argument", bc->k->name);
            note_at(bc, ch.v[i], "%s", why_of(EFF_LOCAL_MEM));
        }
    }
    free(ch.v);
}

int analyze_params(analysis *an, kernel_info *k, diag_sink *diag);

/* ---- kernels ----------------------------------------------------------- */

static int is_kernel(CXCursor c)
{
    if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c))
        return 0;
    return clang_getFunctionTypeCallingConv(clang_getCursorType(c)) == CXCallingConv_Unexposed;
}

static int seq_has_decision(const seq *s)
{
    for (unsigned i = 0; i < s->n; i++)
        if (s->items[i].kind == ITEM_DECISION)
            return 1;
    return 0;
}

/*
 * reqd_work_group_size(X, Y, Z) of the kernel, as clang evaluated it: the
 * declaration printed tersely carries the attribute with its values, also
 * when they (or the whole attribute) come from macros.
 */
static void read_reqd_wg(kernel_info *k)
{
    CXPrintingPolicy pol = clang_getCursorPrintingPolicy(k->cursor);
    clang_PrintingPolicy_setProperty(pol, CXPrintingPolicy_TerseOutput, 1);
    CXString s = clang_getCursorPrettyPrinted(k->cursor, pol);
    const char *p = strstr(clang_getCString(s), "reqd_work_group_size(");
    unsigned v[3] = {0, 0, 0};
    if (p && sscanf(p, "reqd_work_group_size(%u , %u , %u )", &v[0], &v[1], &v[2]) == 3)
        memcpy(k->reqd_wg, v, sizeof v);
    clang_disposeString(s);
    clang_PrintingPolicy_dispose(pol);
}

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

/* The line of the first if/switch inside a loop of the kernel (0: none). */
static unsigned decision_in_loop(analysis *an, CXCursor kernel)
{
    int loop = 0;
    unsigned line = nested_decision_line(an, kernel, -1, &loop);
    return loop ? line : 0;
}

static void report_no_decision(build_ctx *bc)
{
    unsigned line = decision_in_loop(bc->an, bc->k->cursor);
    if (line) {
        report_at(bc, bc->k->cursor, "nplus1-no-decision",
                  "kernel '%s' has decisions only inside loops (the first at line %u)",
                  bc->k->name, line);
        note_at(bc, bc->k->cursor, "nplus1gen splits the decisions at the kernel's top level and "
                                   "those nested in them, not those inside loops; hoist a "
                                   "decision out of its loop to split on it, or leave this "
                                   "kernel as it is");
        return;
    }
    report_at(bc, bc->k->cursor, "nplus1-no-decision",
              "kernel '%s' has no decision (a top-level if or switch) to split", bc->k->name);
    note_at(bc, bc->k->cursor, "nplus1gen splits the if and switch statements at the kernel's "
                               "top level and those nested in them, and this kernel has none; "
                               "leave it as it is");
}

static void analyze_kernel(analysis *an, kernel_info *k, diag_sink *diag)
{
    build_ctx bc = {an, k, diag, 0, 0, 0};
    cursor_list ch = children_of(k->cursor);
    CXCursor body = clang_getNullCursor();
    for (unsigned i = 0; i < ch.n; i++)
        if (clang_getCursorKind(ch.v[i]) == CXCursor_CompoundStmt)
            body = ch.v[i];
    free(ch.v);
    if (clang_Cursor_isNull(body) || cursor_range(an, body, &k->body) != 0 ||
        cursor_range(an, k->cursor, &k->range) != 0) {
        report_at(&bc, k->cursor, "nplus1-unsupported", "cannot find the body of kernel '%s'",
                  k->name);
        k->legal = 0;
        return;
    }
    read_reqd_wg(k);
    check_param_types(&bc);
    check_forbidden(&bc);
    unsigned cap = 0;
    build_seq_from(&bc, body, &k->top, &cap);
    k->has_decision = seq_has_decision(&k->top);
    if (!k->has_decision && !bc.macro_decisions)
        report_no_decision(&bc);
    bc.errors += analyze_params(an, k, diag);
    k->legal = bc.errors == 0;
}

static enum CXChildVisitResult find_kernels_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    analysis *an = data;
    if (!is_kernel(c))
        return CXChildVisit_Continue;
    kernel_info k;
    memset(&k, 0, sizeof k);
    k.name = cursor_spelling(c);
    k.cursor = c;
    VEC_PUSH(an->kernels, an->nkernels, an->capkernels, k);
    return CXChildVisit_Continue;
}

/* Helpers that call work-item builtins get a copy taking the original ids. */
static enum CXChildVisitResult find_helpers_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    analysis *an = data;
    if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c) ||
        is_kernel(c) || clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    const effects *fx = function_summary(an, c);
    if (!(fx->bits & EFF_WORKITEM))
        return CXChildVisit_Continue;
    wi_helper h;
    memset(&h, 0, sizeof h);
    h.name = cursor_spelling(c);
    h.cursor = c;
    src_pos name;
    if (cursor_range(an, c, &h.range) != 0 ||
        parse_resolve(an->pr, clang_getCursorLocation(c), &name) != 0) {
        free(h.name);
        return CXChildVisit_Continue;
    }
    h.name_begin = name.offset;
    h.name_end = name.offset + (unsigned)strlen(h.name);
    const src_file *f = &an->pr->files[h.range.file];
    unsigned p = skip_space(f->text, f->len, h.name_end);
    h.lparen = p;
    h.nparams = (unsigned)clang_Cursor_getNumArguments(c);
    if (p >= f->len || f->text[p] != '(' || parse_in_macro(clang_getCursorLocation(c))) {
        free(h.name);
        return CXChildVisit_Continue;
    }
    VEC_PUSH(an->helpers, an->nhelpers, an->caphelpers, h);
    return CXChildVisit_Continue;
}

/* A quick look: does the body have a top-level if or switch? */
static int body_has_decision(CXCursor kernel)
{
    cursor_list ch = children_of(kernel);
    int found = 0;
    for (unsigned i = 0; i < ch.n && !found; i++) {
        if (clang_getCursorKind(ch.v[i]) != CXCursor_CompoundStmt)
            continue;
        cursor_list body = children_of(ch.v[i]);
        for (unsigned j = 0; j < body.n && !found; j++) {
            enum CXCursorKind k = clang_getCursorKind(body.v[j]);
            found = k == CXCursor_IfStmt || k == CXCursor_SwitchStmt;
        }
        free(body.v);
    }
    free(ch.v);
    return found;
}

static int wanted(const char *name, const char **want, unsigned nwant)
{
    if (nwant == 0)
        return 1;
    for (unsigned i = 0; i < nwant; i++)
        if (!strcmp(want[i], name))
            return 1;
    return 0;
}

/* After an unknown -k name: the kernels there are. */
static void note_kernel_names(const analysis *an, diag_sink *diag)
{
    if (an->nkernels == 0)
        return;
    strbuf sb;
    sb_init(&sb);
    for (unsigned k = 0; k < an->nkernels; k++)
        sb_printf(&sb, "%s'%s'", k ? ", " : "", an->kernels[k].name);
    diag_report(diag, DIAG_NOTE, NULL, NULL, "%s defines the kernels %s", an->pr->files[0].path,
                sb.data);
    sb_free(&sb);
}

int analyze_tu(analysis *an, parse_result *pr, const char **want, unsigned nwant,
               diag_sink *diag)
{
    memset(an, 0, sizeof *an);
    an->pr = pr;
    CXCursor root = clang_getTranslationUnitCursor(pr->tu);
    clang_visitChildren(root, find_kernels_cb, an);
    int bad = 0;
    for (unsigned i = 0; i < nwant; i++) {
        int found = 0;
        for (unsigned k = 0; k < an->nkernels; k++)
            found |= !strcmp(an->kernels[k].name, want[i]);
        if (!found) {
            diag_report(diag, DIAG_ERROR, NULL, "nplus1-unknown-kernel",
                        "no kernel named '%s' in %s", want[i], pr->files[0].path);
            note_kernel_names(an, diag);
            bad = 1;
        }
    }
    if (an->nkernels == 0) {
        diag_report(diag, DIAG_ERROR, NULL, "nplus1-no-kernel", "%s defines no __kernel function",
                    pr->files[0].path);
        return 1;
    }
    /* keep the selected kernels; by default, those with a decision */
    unsigned kept = 0;
    for (unsigned k = 0; k < an->nkernels; k++) {
        kernel_info *ki = &an->kernels[k];
        int keep = nwant ? wanted(ki->name, want, nwant) : body_has_decision(ki->cursor);
        if (keep) {
            an->kernels[kept++] = *ki;
        } else {
            if (!nwant) {
                unsigned line = decision_in_loop(an, ki->cursor), cap = an->capskipped;
                VEC_PUSH(an->skipped, an->nskipped, an->capskipped, ki->name);
                if (cap != an->capskipped || !an->skipped_loop_line)
                    an->skipped_loop_line = xrealloc(an->skipped_loop_line,
                                                     an->capskipped * sizeof *an->skipped_loop_line);
                an->skipped_loop_line[an->nskipped - 1] = line;
            }
            else
                free(ki->name);
        }
    }
    an->nkernels = kept;
    if (kept == 0 && !bad) {
        diag_report(diag, DIAG_ERROR, NULL, "nplus1-no-decision",
                    "no kernel in %s has a decision (an if or switch in its body) to split",
                    pr->files[0].path);
        for (unsigned i = 0; i < an->nskipped; i++)
            if (an->skipped_loop_line[i])
                diag_report(diag, DIAG_NOTE, NULL, NULL,
                            "kernel '%s' has decisions only inside loops (the first at line %u): "
                            "nplus1gen splits the decisions at the kernel's top level and those "
                            "nested in them, not those inside loops",
                            an->skipped[i], an->skipped_loop_line[i]);
        return 1;
    }
    for (unsigned k = 0; k < an->nkernels; k++) {
        analyze_kernel(an, &an->kernels[k], diag);
        bad |= !an->kernels[k].legal;
    }
    clang_visitChildren(root, find_helpers_cb, an);
    return bad;
}

static void seq_free(seq *s, int owns_items);

static void decision_free(decision *d)
{
    if (!d)
        return;
    for (unsigned b = 0; b < d->nbranches; b++) {
        if (d->kind == DEC_IF)
            seq_free(&d->branches[b].seq, 1);
        free(d->branches[b].values);
    }
    free(d->branches);
    if (d->kind == DEC_SWITCH)
        seq_free(&d->body, 1);
    effects_free(&d->cond_fx);
    free(d);
}

static void seq_free(seq *s, int owns_items)
{
    if (!owns_items)
        return;
    for (unsigned i = 0; i < s->n; i++) {
        effects_free(&s->items[i].fx);
        decision_free(s->items[i].decision);
    }
    free(s->items);
    s->items = NULL;
    s->n = 0;
}

void analyze_free(analysis *an)
{
    for (unsigned k = 0; k < an->nkernels; k++) {
        kernel_info *ki = &an->kernels[k];
        free(ki->name);
        for (unsigned p = 0; p < ki->nparams; p++) {
            free(ki->params[p].name);
            free(ki->params[p].decl_text);
            free(ki->params[p].type_text);
            free(ki->params[p].host_type);
        }
        free(ki->params);
        free(ki->attr_text);
        seq_free(&ki->top, 1);
    }
    free(an->kernels);
    for (unsigned h = 0; h < an->nhelpers; h++)
        free(an->helpers[h].name);
    free(an->helpers);
    for (unsigned i = 0; i < an->nskipped; i++)
        free(an->skipped[i]);
    free(an->skipped);
    free(an->skipped_loop_line);
    for (summary *s = an->summaries, *n; s; s = n) {
        n = s->next;
        effects_free(&s->fx);
        free(s);
    }
    memset(an, 0, sizeof *an);
}
