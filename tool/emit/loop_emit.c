/* SPDX-License-Identifier: Apache-2.0 */
/*
 * loop_emit.c - the generated text of a regrouped loop (loop.h): the context
 * struct, the phases of an item's work (start, head, branch, end) and the
 * tile kernel that runs them round by round. The text is kernel.cl.tmpl's
 * loop-* fragments; this file walks the plan and fills them with the user's
 * text (with #line directives back to it) and the context's variables.
 */
#include "emit_int.h"

#include <stdio.h>
#include <stdlib.h>

#include "util.h"

/* Expands loop fragment frag; with inl, without its newline (a piece of a line). */
static void frag(emitter *e, strbuf *sb, const char *name, const tmpl_var *v, unsigned n,
                 int inl)
{
    emit_expand(e, sb, &e->kt, name, v, n);
    if (inl)
        emit_text_chomp(sb);
}

#define FRAG(e, sb, name, ...)                                                                  \
    do {                                                                                        \
        const tmpl_var frag_v_[] = {{"", ""}, __VA_ARGS__};                                     \
        frag((e), (sb), (name), frag_v_, NV(frag_v_), 0);                                       \
    } while (0)

/* A context variable's fragment: loop-load, or loop-store with pad before each line. */
static void loop_var(emitter *e, strbuf *sb, const char *name, const ctx_var *v, const char *pad)
{
    char count[16];
    snprintf(count, sizeof count, "%u", v->count);
    FRAG(e, sb, name, {"DECL_TYPE", v->decl_type}, {"STORE_TYPE", v->store_type},
         {"NAME", v->name}, {"COUNT", count}, {"ARRAY", v->count ? "1" : ""}, {"PAD", pad});
}

/* Loads ctx.vars[from, to) from the private context nplus1_c. */
static void loop_loads(emitter *e, strbuf *sb, const kernel_context *cx, unsigned from,
                       unsigned to)
{
    for (unsigned i = from; i < to; i++)
        loop_var(e, sb, "loop-load", &cx->vars[i], "");
}

/* Stores ctx.vars[from, to) into nplus1_c, with `pad` before each line. */
static void loop_stores(emitter *e, strbuf *sb, const kernel_context *cx, unsigned from,
                        unsigned to, const char *pad)
{
    for (unsigned i = from; i < to; i++)
        loop_var(e, sb, "loop-store", &cx->vars[i], pad);
}

/* What a `break` or `continue` of the loop becomes in a phase (the phase's code). */
typedef struct jump_text {
    const char *brk, *cont;
} jump_text;

/* A #line naming the first line of r (unless --no-line). */
static void put_line_at(emitter *e, strbuf *sb, src_range r)
{
    emit_put_line(sb, e, r.file, parse_newline_line(e->an->pr, r.file, r.begin));
}

/*
 * Appends file text [begin, end), trimmed, on a line of its own after pad, with the
 * loop's jumps replaced per jt and tail after it; a #line before it names its first
 * line (unless --no-line), and one after it numbers the generated file again.
 */
static void loop_text_jt(emitter *e, strbuf *sb, const loop_plan *lp, const jump_text *jt,
                         const char *pad, const char *tail, unsigned file, unsigned begin,
                         unsigned end)
{
    const char *text = e->an->pr->files[file].text;
    while (begin < end && (text[begin] == ' ' || text[begin] == '\n' || text[begin] == '\t'))
        begin++;
    while (end > begin && (text[end - 1] == ' ' || text[end - 1] == '\n' || text[end - 1] == '\t'))
        end--;
    if (begin == end)
        return;
    emit_put_line(sb, e, file, parse_newline_line(e->an->pr, file, begin));
    sb_puts(sb, pad);
    unsigned pos = begin;
    for (unsigned i = 0; jt && i < lp->njumps; i++) {
        const loop_jump *j = &lp->jumps[i];
        if (j->at.file != file || j->at.begin < pos || j->at.end > end)
            continue;
        parse_put_active(e->an->pr, sb, file, pos, j->at.begin);
        sb_puts(sb, j->is_break ? jt->brk : jt->cont);
        pos = j->at.end;
    }
    parse_put_active(e->an->pr, sb, file, pos, end);
    sb_puts(sb, tail);
    sb_putc(sb, '\n');
    emit_put_line_back(sb, e);
}

static void loop_text(emitter *e, strbuf *sb, unsigned file, unsigned begin, unsigned end)
{
    loop_text_jt(e, sb, NULL, NULL, "    ", "", file, begin, end);
}

/* The stores of the prologue's variables on one line, for a jump's replacement. */
static char *inline_stores(emitter *e, const loop_plan *lp)
{
    strbuf st;
    sb_init(&st);
    loop_stores(e, &st, &lp->ctx, 0, lp->nprologue, "");
    for (char *c = st.data; c && *c; c++)
        if (*c == '\n')
            *c = ' ';
    return sb_steal(&st);
}

/* The jumps' text in a phase: code 'h' (head) or 'b' (branch). */
static void jump_texts(emitter *e, const loop_plan *lp, int phase, char **brk, char **cont)
{
    char *st = inline_stores(e, lp);
    strbuf a, b;
    sb_init(&a);
    sb_init(&b);
    const char *h = phase == 'h' ? "1" : "";
    tmpl_var bv[] = {{"STORES", st}, {"HEAD", h}, {"BREAK", "1"}};
    frag(e, &a, "loop-jump", bv, NV(bv), 1);
    tmpl_var cv[] = {{"STORES", st}, {"HEAD", h}, {"BREAK", ""}};
    frag(e, &b, "loop-jump", cv, NV(cv), 1);
    free(st);
    *brk = sb_steal(&a);
    *cont = sb_steal(&b);
}

static char *loop_members(emitter *e, const loop_plan *lp)
{
    strbuf sb;
    sb_init(&sb);
    for (unsigned i = 0; i < lp->ctx.nvars; i++) {
        const ctx_var *v = &lp->ctx.vars[i];
        char dim[32] = "", line[16];
        if (v->count)
            snprintf(dim, sizeof dim, "[%u]", v->count);
        snprintf(line, sizeof line, "%u", v->line);
        FRAG(e, &sb, "loop-member", {"TYPE", v->store_type}, {"NAME", v->name}, {"DIM", dim},
             {"LINE", line});
    }
    FRAG(e, &sb, "loop-members-end", {"SEL", lp->sel_type ? lp->sel_type : ""});
    return sb_steal(&sb);
}

/* Is the branch's body a braced block? */
static int braced(emitter *e, src_range body)
{
    return body.end > body.begin && e->an->pr->files[body.file].text[body.begin] == '{';
}

/* A line number as a fragment's value. */
#define LINE_TEXT(buf, n) (snprintf((buf), sizeof (buf), "%u", (unsigned)(n)), (buf))

/*
 * The loop sits in a branch of the top-level if lp->outer: the if as written with that
 * branch's body replaced by a flag; an item that takes another branch runs the code
 * after the if and ends here; then the branch's statements before the loop.
 */
static void loop_start_outer(emitter *e, const kernel_plan *kp, strbuf *sb)
{
    const loop_plan *lp = &kp->loop;
    const decision *d = lp->outer;
    const src_range body = d->branches[lp->outer_branch].body;
    const unsigned file = d->range.file;
    char bline[16], dline[16];
    loop_text(e, sb, kp->k->body.file, kp->k->top.items[0].range.begin, d->range.begin);
    FRAG(e, sb, "loop-outer-flag", {"LINE", LINE_TEXT(bline, body.line)});
    strbuf ifh, ifr;
    sb_init(&ifh);
    sb_init(&ifr);
    parse_put_active(e->an->pr, &ifh, file, d->range.begin, body.begin);
    parse_put_active(e->an->pr, &ifr, file, body.end, d->range.end);
    emit_put_line(sb, e, file, d->range.line);
    FRAG(e, sb, "loop-outer-if", {"IF_HEAD", ifh.data ? ifh.data : ""},
         {"IF_REST", ifr.data ? ifr.data : ""});
    emit_put_line_back(sb, e);
    sb_free(&ifh);
    sb_free(&ifr);
    FRAG(e, sb, "loop-outer-other", {"LINE", LINE_TEXT(dline, d->range.line)});
    loop_text(e, sb, file, d->range.end, kp->k->body.end - 1);
    frag(e, sb, "loop-outer-other-end", NULL, 0, 0);
    if (braced(e, body)) {
        FRAG(e, sb, "loop-outer-branch", {"LINE", bline});
        loop_text(e, sb, file, body.begin + 1, lp->stmt.begin);
    }
}

static char *loop_start(emitter *e, const kernel_plan *kp)
{
    const loop_plan *lp = &kp->loop;
    strbuf sb;
    sb_init(&sb);
    if (lp->outer)
        loop_start_outer(e, kp, &sb);
    else
        loop_text(e, &sb, kp->k->body.file, kp->k->top.items[0].range.begin, lp->stmt.begin);
    if (lp->kind == LOOP_FOR && lp->init.end > lp->init.begin) {
        frag(e, &sb, "loop-for-init", NULL, 0, 0);
        loop_text_jt(e, &sb, NULL, NULL, "    ", ";", lp->init.file, lp->init.begin,
                     lp->init.end);
    }
    loop_stores(e, &sb, &lp->ctx, 0, lp->nprologue, "    ");
    return sb_steal(&sb);
}

/* The branch a switch value takes, for grouping (the branch phase switches on the value). */
static void loop_switch_groups(emitter *e, strbuf *sb, const decision *d, unsigned first)
{
    frag(e, sb, "loop-groups-switch", NULL, 0, 0);
    for (unsigned b = 0; b < d->nbranches; b++) {
        const branch *br = &d->branches[b];
        strbuf labels;
        sb_init(&labels);
        char value[32], group[16];
        if (br->kind == BR_DEFAULT || br->kind == BR_IMPLICIT_DEFAULT)
            frag(e, &labels, "loop-label-default", NULL, 0, 1);
        for (unsigned i = 0; br->kind == BR_CASE && i < br->nlabels; i++) {
            tmpl_var lv[] = {{"LABEL", br->labels[i]}};
            frag(e, &labels, "loop-label-case", lv, NV(lv), 1);
        }
        for (unsigned i = 0; br->kind == BR_CASE && !br->nlabels && i < br->nvalues; i++) {
            snprintf(value, sizeof value, "%lld", br->values[i]);
            tmpl_var lv[] = {{"LABEL", value}};
            frag(e, &labels, "loop-label-case", lv, NV(lv), 1);
        }
        FRAG(e, sb, "loop-group-case", {"LABELS", labels.data ? labels.data : ""},
             {"GROUP", LINE_TEXT(group, first + b)});
        sb_free(&labels);
    }
    frag(e, sb, "loop-close", NULL, 0, 0);
}

static void loop_if_groups(emitter *e, strbuf *sb, const decision *d, unsigned first)
{
    put_line_at(e, sb, d->branches[0].cond);
    strbuf arms;
    sb_init(&arms);
    char group[16];
    unsigned last = d->nbranches - 1;
    for (unsigned b = 0; b < d->nbranches; b++) {
        const branch *br = &d->branches[b];
        if (br->kind != BR_IF) {
            last = b;
            continue;
        }
        size_t n = 0;
        const char *t = range_text(e->an, br->cond, &n);
        char *cond = xstrndup(t, n);
        tmpl_var av[] = {{"COND", cond}, {"GROUP", LINE_TEXT(group, first + b)}};
        frag(e, &arms, "loop-group-arm", av, NV(av), 1);
        free(cond);
    }
    FRAG(e, sb, "loop-group-if", {"ARMS", arms.data ? arms.data : ""},
         {"LAST", LINE_TEXT(group, first + last)});
    sb_free(&arms);
    emit_put_line_back(sb, e);
}

/* The grouping of decision d in the head: nplus1_b = first + its branch. */
static void loop_groups(emitter *e, strbuf *sb, const decision *d, unsigned first)
{
    if (d->kind != DEC_SWITCH) {
        loop_if_groups(e, sb, d, first);
        return;
    }
    size_t n = 0;
    const char *t = range_text(e->an, d->cond, &n);
    char *cond = xstrndup(t, n);
    put_line_at(e, sb, d->cond);
    FRAG(e, sb, "loop-group-sel", {"COND", cond});
    emit_put_line_back(sb, e);
    free(cond);
    loop_switch_groups(e, sb, d, first);
}

/* The loop's test (after a for loop's third part, or a do loop's first pass). */
static void loop_test(emitter *e, strbuf *sb, const loop_plan *lp)
{
    size_t n = 0;
    const char *t = range_text(e->an, lp->cond, &n);
    if (lp->kind == LOOP_FOR && lp->inc.end > lp->inc.begin) {
        frag(e, sb, "loop-test-inc", NULL, 0, 0);
        const char *inc = range_text(e->an, lp->inc, &n);
        char *text = xstrndup(inc, n);
        put_line_at(e, sb, lp->inc);
        FRAG(e, sb, "loop-test-inc-body", {"INC", text});
        emit_put_line_back(sb, e);
        free(text);
        frag(e, sb, "loop-close", NULL, 0, 0);
        t = range_text(e->an, lp->cond, &n);
    }
    char *cond = n ? xstrndup(t, n) : xstrdup("1");
    if (n)
        put_line_at(e, sb, lp->cond);
    FRAG(e, sb, "loop-test", {"COND", cond}, {"DO", lp->kind == LOOP_DO ? "1" : ""});
    if (n)
        emit_put_line_back(sb, e);
    free(cond);
    loop_stores(e, sb, &lp->ctx, 0, lp->nprologue, "        ");
    frag(e, sb, "loop-test-end", NULL, 0, 0);
}

static char *loop_head(emitter *e, const kernel_plan *kp)
{
    const loop_plan *lp = &kp->loop;
    const decision *d = lp->d;
    unsigned file = kp->k->body.file;
    const char *sel = lp->sel_type ? lp->sel_type : "";
    strbuf sb;
    sb_init(&sb);
    loop_loads(e, &sb, &lp->ctx, 0, lp->nprologue);
    loop_test(e, &sb, lp);
    char *brk, *cont;
    jump_texts(e, lp, 'h', &brk, &cont);
    jump_text jt = {brk, cont};
    loop_text_jt(e, &sb, lp, &jt, "    ", "", file, lp->body.begin + 1, d->range.begin);
    free(brk);
    free(cont);
    FRAG(e, &sb, "loop-head-groups", {"SEL", sel});
    if (lp->d2) {
        size_t n = 0;
        const char *t = range_text(e->an, d->branches[0].cond, &n);
        char *cond = xstrndup(t, n), line[16];
        FRAG(e, &sb, "loop-head-exit", {"LINE", LINE_TEXT(line, d->range.line)});
        put_line_at(e, &sb, d->branches[0].cond);
        FRAG(e, &sb, "loop-head-exit-if", {"COND", cond});
        emit_put_line_back(&sb, e);
        free(cond);
        loop_groups(e, &sb, lp->d2, 1);
        frag(e, &sb, "loop-close", NULL, 0, 0);
    } else {
        loop_groups(e, &sb, d, 0);
    }
    FRAG(e, &sb, "loop-head-sel", {"SEL", sel});
    loop_stores(e, &sb, &lp->ctx, 0, lp->ctx.nvars, "    ");
    frag(e, &sb, "loop-head-end", NULL, 0, 1);
    return sb_steal(&sb);
}

/* The branches of decision d (group first + b) in the branch phase. */
static void loop_dispatch(emitter *e, strbuf *sb, const loop_plan *lp, const jump_text *jt,
                          const decision *d, unsigned first)
{
    unsigned file = lp->body.file;
    char line[16], group[16];
    if (d->kind == DEC_SWITCH) {
        FRAG(e, sb, "loop-dispatch-switch", {"LINE", LINE_TEXT(line, d->range.line)});
        loop_text_jt(e, sb, lp, jt, "    ", "", file, lp->switch_body.begin, lp->switch_body.end);
        return;
    }
    FRAG(e, sb, "loop-dispatch-if", {"LINE", LINE_TEXT(line, d->range.line)});
    for (unsigned b = 0; b < d->nbranches; b++) {
        const branch *br = &d->branches[b];
        if (br->kind != BR_IF && br->kind != BR_ELSE)
            continue;
        FRAG(e, sb, "loop-dispatch-branch", {"GROUP", LINE_TEXT(group, first + b)});
        loop_text_jt(e, sb, lp, jt, "        ", "", file, br->body.begin, br->body.end);
        frag(e, sb, "loop-dispatch-branch-end", NULL, 0, 0);
    }
}

static char *loop_branch(emitter *e, const kernel_plan *kp)
{
    const loop_plan *lp = &kp->loop;
    const decision *last = lp->d2 ? lp->d2 : lp->d;
    unsigned file = kp->k->body.file;
    strbuf sb;
    sb_init(&sb);
    char *brk, *cont;
    jump_texts(e, lp, 'b', &brk, &cont);
    jump_text jt = {brk, cont};
    loop_loads(e, &sb, &lp->ctx, 0, lp->ctx.nvars);
    FRAG(e, &sb, "loop-branch-begin", {"SEL", lp->sel_type ? lp->sel_type : ""});
    if (lp->d2) {
        frag(e, &sb, "loop-branch-exit", NULL, 0, 0);
        loop_dispatch(e, &sb, lp, &jt, lp->d, 0);
        frag(e, &sb, "loop-branch-else", NULL, 0, 0);
        loop_dispatch(e, &sb, lp, &jt, lp->d2, 1);
        frag(e, &sb, "loop-close", NULL, 0, 0);
    } else {
        loop_dispatch(e, &sb, lp, &jt, lp->d, 0);
    }
    frag(e, &sb, "loop-branch-rest", NULL, 0, 0);
    loop_text_jt(e, &sb, lp, &jt, "    ", "", file, last->range.end, lp->body.end - 1);
    free(brk);
    free(cont);
    loop_stores(e, &sb, &lp->ctx, 0, lp->nprologue, "    ");
    return sb_steal(&sb);
}

static char *loop_end(emitter *e, const kernel_plan *kp)
{
    const loop_plan *lp = &kp->loop;
    strbuf sb;
    sb_init(&sb);
    loop_loads(e, &sb, &lp->ctx, 0, lp->nprologue);
    if (!lp->outer) {
        loop_text(e, &sb, kp->k->body.file, lp->stmt.end, kp->k->body.end - 1);
        return sb_steal(&sb);
    }
    /* each in its own scope, as in the original: the branch's rest, the code after the if */
    const decision *d = lp->outer;
    const src_range body = d->branches[lp->outer_branch].body;
    char line[16];
    if (braced(e, body)) {
        FRAG(e, &sb, "loop-end-branch", {"LINE", LINE_TEXT(line, body.line)});
        loop_text(e, &sb, body.file, lp->stmt.end, body.end - 1);
        frag(e, &sb, "loop-close", NULL, 0, 0);
    }
    FRAG(e, &sb, "loop-end-after", {"LINE", LINE_TEXT(line, d->range.line)});
    loop_text(e, &sb, kp->k->body.file, d->range.end, kp->k->body.end - 1);
    frag(e, &sb, "loop-close", NULL, 0, 0);
    return sb_steal(&sb);
}

void loop_emit_set(emitter *e, const kernel_plan *kp, strbuf *sb)
{
    const kernel_info *k = kp->k;
    const loop_plan *lp = &kp->loop;
    char nleaves[16], line[16], dline[16], bytes[16], prologue[48], epilogue[48];
    snprintf(nleaves, sizeof nleaves, "%u", kp->nkernels);
    snprintf(line, sizeof line, "%u", lp->line);
    snprintf(dline, sizeof dline, "%u", lp->d->range.line);
    snprintf(bytes, sizeof bytes, "%u", lp->bytes);
    snprintf(prologue, sizeof prologue, "%u-%u", k->top.items[0].range.line,
             lp->line > k->top.items[0].range.line ? lp->line - 1 : lp->line);
    snprintf(epilogue, sizeof epilogue, "%u-%u", lp->stmt.end_line, k->body.end_line);
    char *params = kernel_param_list(k, 0), *args = kernel_param_list(k, 1);
    char *members = loop_members(e, lp), *start = loop_start(e, kp), *head = loop_head(e, kp);
    char *branch = loop_branch(e, kp), *end = loop_end(e, kp);
    char regroup[16], why[800], *original = emit_in_place_body(e, kp); /* tile-in-place */
    char *ipw = emit_comment_safe(lp->in_place_why);
    snprintf(regroup, sizeof regroup, lp->regroup < 0 ? "(%d)" : "%d", lp->regroup);
    if (lp->pays && !lp->in_place)
        snprintf(why, sizeof why, "a round at its decision saves about %.0f operations a "
                 "visit, a regrouping round costs about %.0f: it pays", lp->saved,
                 lp->round_cost);
    else if (lp->pays)
        snprintf(why, sizeof why, "a round at its decision would save about %.0f operations "
                 "a visit, a regrouping round costs about %.0f, but the contexts cannot move "
                 "(below); %s", lp->saved, lp->round_cost, lp->refill_why);
    else
        snprintf(why, sizeof why, "a round at its decision would save about %.0f operations a "
                 "visit of the %.0f it costs: no round; %s", lp->saved, lp->round_cost,
                 lp->refill_why);
    /* An item moves at the loop's decision: what it wrote before (the prologue, earlier
     * iterations) it may read again on another work-item, so that barrier fences global
     * memory too where the statements up to the loop's end write memory or take an
     * atomic (OpenCL orders a work-group's global accesses only at a barrier with
     * CLK_GLOBAL_MEM_FENCE). */
    unsigned upto = lp->outer ? lp->outer_item : lp->item, writes = 0;
    for (unsigned i = 0; i < upto && i < k->top.n; i++) /* the statements before */
        writes |= k->top.items[i].fx.bits;
    if (lp->outer) { /* the if's condition, its branch's statements up to the loop's end */
        const seq *in = &lp->outer->branches[lp->outer_branch].seq;
        writes |= lp->outer->cond_fx.bits;
        for (unsigned i = 0; i <= lp->item && i < in->n; i++)
            writes |= in->items[i].fx.bits;
    } else if (upto < k->top.n) {
        writes |= k->top.items[upto].fx.bits; /* the loop */
    }
    writes &= EFF_MEM_WRITE | EFF_ATOMIC;
    tmpl_var v[] = {{"K", k->name},        {"PARAMS", params},  {"ARGS", args},
                    {"REGROUP", regroup},  {"REGROUP_WHY", why},
                    {"MOVE_FENCE", writes ? "1" : ""},
                    {"NLEAVES", nleaves},  {"LINE", line},      {"DLINE", dline},
                    {"BYTES", bytes},      {"MEMBERS", members}, {"START", start},
                    {"HEAD", head},        {"BRANCH", branch},  {"END", end},
                    {"PROLOGUE", prologue}, {"EPILOGUE", epilogue},
                    {"ORIGINAL", original}, {"POLICY", "NPLUS1_LOOP_REGROUP"},
                    {"IN_PLACE", lp->in_place ? "1" : ""}, {"IN_PLACE_WHY", ipw}};
    emit_expand(e, sb, &e->kt, "loop-functions", v, NV(v));
    emit_expand(e, sb, &e->kt, "loop-tile", v, NV(v));
    free(original);
    free(ipw);
    free(params);
    free(args);
    free(members);
    free(start);
    free(head);
    free(branch);
    free(end);
}

