/*
 * memory_order.c - the memory-order rule (RULE_MEMORY_ORDER, docs/legality.md): a
 * condition, or a statement of its slice, must not load memory that a store
 * before it, on the same path, may have written, since the classifier runs
 * before any leaf kernel. Whether two accesses may alias is access.c's
 * model; which items and conditions there are is the plan's (plan.c).
 */
#include "memory_order.h"

#include <stdlib.h>
#include <string.h>

#include "rules.h"
#include "util.h"

static void report_at(analysis *an, diag_sink *diag, diag_level lvl, CXCursor at,
                      const char *rule, const char *msg)
{
    diag_loc loc = parse_diag_loc(an->pr, clang_getCursorLocation(at));
    diag_report(diag, lvl, &loc, rule, "%s", msg);
}

static CXCursor first_site(const effects *fx, unsigned mask, CXCursor fallback, CXCursor *via)
{
    for (unsigned i = 0; i < EFF_COUNT; i++)
        if ((fx->bits & mask & (1u << i)) && !clang_Cursor_isNull(fx->site[i].at)) {
            *via = fx->site[i].via;
            return fx->site[i].at;
        }
    *via = clang_getNullCursor();
    return fallback;
}

static void note_via(analysis *an, diag_sink *diag, CXCursor via)
{
    if (clang_Cursor_isNull(via))
        return;
    report_at(an, diag, DIAG_NOTE, via, NULL, "reached through this call");
}

typedef struct spans {
    unsigned (*v)[2];
    unsigned n, cap;
} spans;

enum { FLOW_RETURNED, FLOW_ON, FLOW_BREAK };

/* Adds the text from item `from` of s up to a return or break; says how the flow leaves. */
static int flow_after(const seq *s, unsigned from, spans *out)
{
    unsigned end = from;
    int how = FLOW_ON;
    for (; end < s->n; end++)
        if (s->items[end].kind == ITEM_RETURN || s->items[end].kind == ITEM_BREAK) {
            how = s->items[end].kind == ITEM_RETURN ? FLOW_RETURNED : FLOW_BREAK;
            break;
        }
    if (end > from) {
        unsigned span[2] = {s->items[from].range.begin, s->items[end - 1].range.end};
        if (out->n == out->cap) {
            out->cap = out->cap ? 2 * out->cap : 8;
            out->v = xrealloc(out->v, out->cap * sizeof *out->v);
        }
        memcpy(out->v[out->n++], span, sizeof span);
    }
    return how;
}

/*
 * The text that can run after target, on some path: the rest of its
 * sequence up to a return or break, then what follows the decisions around
 * it. Returns how the flow leaves s, or -1 when target is not in s.
 */
static int reach_after(const seq *s, const seq_item *target, spans *out)
{
    for (unsigned i = 0; i < s->n; i++) {
        const seq_item *it = &s->items[i];
        if (it == target)
            return flow_after(s, i + 1, out);
        if (it->kind != ITEM_DECISION || !it->decision || it->decision->keep_in_leaf)
            continue;
        const decision *d = it->decision;
        int r = -1;
        if (d->kind == DEC_SWITCH) {
            r = reach_after(&d->body, target, out);
            if (r == FLOW_BREAK)
                r = FLOW_ON; /* a break leaves the switch */
        } else {
            for (unsigned b = 0; b < d->nbranches && r < 0; b++)
                r = reach_after(&d->branches[b].seq, target, out);
        }
        if (r < 0)
            continue;
        return r == FLOW_ON ? flow_after(s, i + 1, out) : r;
    }
    return -1;
}

static int in_spans(const spans *sp, unsigned at)
{
    for (unsigned i = 0; i < sp->n; i++)
        if (at >= sp->v[i][0] && at < sp->v[i][1])
            return 1;
    return 0;
}

/* A load of r that a store of w may feed, or the null cursor. */
static CXCursor fed_load(const effects *w, const effects *r, CXCursor *store)
{
    for (unsigned i = 0; i < r->nloads; i++)
        for (unsigned j = 0; j < w->nstores; j++)
            if (accesses_may_alias(w->stores[j], r->loads[i])) {
                *store = w->stores[j];
                return r->loads[i];
            }
    return clang_getNullCursor();
}

/* The first load by a condition or the slice that the store item w may feed on a path. */
static CXCursor load_after(const order_lists *t, const seq *top, const seq_item *w,
                           CXCursor *store)
{
    spans sp = {NULL, 0, 0};
    reach_after(top, w, &sp);
    CXCursor read = clang_getNullCursor();
    for (unsigned i = 0; i < t->nitems && clang_Cursor_isNull(read); i++) {
        const seq_item *it = t->items[i];
        if (it->in_slice && (it->fx.bits & EFF_MEM_READ) && in_spans(&sp, it->range.begin))
            read = fed_load(&w->fx, &it->fx, store);
    }
    for (unsigned i = 0; i < t->ndecisions && clang_Cursor_isNull(read); i++) {
        const decision *d = t->decisions[i];
        if ((d->cond_fx.bits & EFF_MEM_READ) && in_spans(&sp, d->range.begin))
            read = fed_load(&w->fx, &d->cond_fx, store);
    }
    free(sp.v);
    return read;
}

/* A read_image* call: 'restrict' does not apply to images. */
static int is_image_read(CXCursor load)
{
    if (clang_getCursorKind(load) != CXCursor_CallExpr)
        return 0;
    CXString s = clang_getCursorSpelling(load);
    int image = !strncmp(clang_getCString(s), "read_image", 10);
    clang_disposeString(s);
    return image;
}

/*
 * A condition (or its slice) must not load memory that a store before it,
 * on the same path, may have written: the classifier runs before any leaf.
 * A store on a path that returns first, and a store to another field of the
 * struct, do not count.
 */
const seq_item *memory_order_check(analysis *an, const order_lists *t, const seq *top,
                                   unsigned horizon, kernel_context *ctx, diag_sink *diag)
{
    for (unsigned i = 0; i < t->nitems; i++) {
        const seq_item *w = t->items[i];
        if (w->range.end > horizon || !(w->fx.bits & (EFF_MEM_WRITE | EFF_ATOMIC)))
            continue;
        CXCursor store = clang_getNullCursor();
        CXCursor read = load_after(t, top, w, &store);
        if (clang_Cursor_isNull(read))
            continue;
        if (context_in_prologue(ctx, w)) { /* the classify phase runs it, then the read */
            ctx->relaxed++;
            continue;
        }
        report_at(an, diag, DIAG_ERROR, read, rule_name(RULE_MEMORY_ORDER),
                  "a condition reads memory after the kernel wrote memory");
        CXCursor via;
        CXCursor at = first_site(&w->fx, EFF_MEM_WRITE | EFF_ATOMIC, w->cursor, &via);
        if (clang_Cursor_isNull(via) && !clang_Cursor_isNull(store))
            at = store;
        report_at(an, diag, DIAG_NOTE, at, NULL,
                  is_image_read(read)
                      ? "this write runs before the condition; the classifier runs before any "
                        "leaf kernel and would read the old value (read a 'read_only' image and "
                        "write a 'write_only' one if they are different images)"
                      : "this write runs before the condition; the classifier runs before any "
                        "leaf kernel and would read the old value (declare the read pointer "
                        "'restrict' or '__constant' if it never aliases the written one)");
        note_via(an, diag, via);
        return w;
    }
    return NULL;
}
