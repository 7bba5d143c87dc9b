/*
 * loop_emit.c - the generated text of a regrouped loop (loop.h):
 * the context struct, the phases of an item's work (start, head, branch,
 * end) and the tile kernel that runs them round by round.
 */
#include "emit_int.h"

#include <stdio.h>
#include <stdlib.h>

#include "util.h"

/* Loads ctx.vars[from, to) from the private context nplus1_c. */
static void loop_loads(strbuf *sb, const kernel_context *cx, unsigned from, unsigned to)
{
    for (unsigned i = from; i < to; i++) {
        const ctx_var *v = &cx->vars[i];
        if (!v->count) {
            sb_printf(sb, "    %s %s = nplus1_c->%s;\n", v->decl_type, v->name, v->name);
            continue;
        }
        sb_printf(sb, "    %s %s[%u];\n", v->store_type, v->name, v->count);
        sb_printf(sb, "    for (int nplus1_k = 0; nplus1_k < %u; nplus1_k++)\n"
                      "        %s[nplus1_k] = nplus1_c->%s[nplus1_k];\n",
                  v->count, v->name, v->name);
    }
}

/* Stores ctx.vars[from, to) into nplus1_c, with `pad` before each line. */
static void loop_stores(strbuf *sb, const kernel_context *cx, unsigned from, unsigned to,
                        const char *pad)
{
    for (unsigned i = from; i < to; i++) {
        const ctx_var *v = &cx->vars[i];
        if (!v->count)
            sb_printf(sb, "%snplus1_c->%s = %s;\n", pad, v->name, v->name);
        else
            sb_printf(sb, "%sfor (int nplus1_k = 0; nplus1_k < %u; nplus1_k++)\n"
                          "%s    nplus1_c->%s[nplus1_k] = %s[nplus1_k];\n",
                      pad, v->count, pad, v->name, v->name);
    }
}

/* What a `break` or `continue` of the loop becomes in a phase (the phase's code). */
typedef struct jump_text {
    const char *brk, *cont;
} jump_text;

/* A #line naming the first line of r (unless --no-line). */
static void put_line_at(emitter *e, strbuf *sb, src_range r)
{
    put_line(sb, e, r.file, text_line_at(e->an->pr->files[r.file].text, r.begin));
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
    put_line(sb, e, file, text_line_at(text, begin));
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
    put_line_back(sb, e);
}

static void loop_text(emitter *e, strbuf *sb, unsigned file, unsigned begin, unsigned end)
{
    loop_text_jt(e, sb, NULL, NULL, "    ", "", file, begin, end);
}

/* The stores of the prologue's variables on one line, for a jump's replacement. */
static char *inline_stores(const loop_plan *lp)
{
    strbuf st;
    sb_init(&st);
    loop_stores(&st, &lp->ctx, 0, lp->nprologue, "");
    for (char *c = st.data; c && *c; c++)
        if (*c == '\n')
            *c = ' ';
    return sb_steal(&st);
}

/* The jumps' text in a phase: code 'h' (head) or 'b' (branch). */
static void jump_texts(const loop_plan *lp, int phase, char **brk, char **cont)
{
    char *st = inline_stores(lp);
    strbuf a, b;
    sb_init(&a);
    sb_init(&b);
    if (phase == 'h') {
        sb_printf(&a, "{ /* break */ %s*nplus1_g = -2; return; }", st);
        sb_printf(&b, "{ /* continue */ %s*nplus1_g = -3; return; }", st);
    } else {
        sb_printf(&a, "{ /* break */ %s*nplus1_r = 2; return; }", st);
        sb_printf(&b, "{ /* continue */ %s*nplus1_r = 1; return; }", st);
    }
    free(st);
    *brk = sb_steal(&a);
    *cont = sb_steal(&b);
}

static char *loop_members(const loop_plan *lp)
{
    strbuf sb;
    sb_init(&sb);
    for (unsigned i = 0; i < lp->ctx.nvars; i++) {
        const ctx_var *v = &lp->ctx.vars[i];
        char dim[32] = "";
        if (v->count)
            snprintf(dim, sizeof dim, "[%u]", v->count);
        sb_printf(&sb, "    %s %s%s; /* line %u */\n", v->store_type, v->name, dim, v->line);
    }
    if (lp->sel_type)
        sb_printf(&sb, "    %s nplus1_sel; /* the switch's value */\n", lp->sel_type);
    sb_puts(&sb, "    uint nplus1_item, nplus1_branch; /* in the tile; its branch */\n");
    sb_puts(&sb, "    uint nplus1_iter; /* 0 before the first iteration */\n");
    return sb_steal(&sb);
}

/* Is the branch's body a braced block? */
static int braced(emitter *e, src_range body)
{
    return body.end > body.begin && e->an->pr->files[body.file].text[body.begin] == '{';
}

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
    loop_text(e, sb, kp->k->body.file, kp->k->top.items[0].range.begin, d->range.begin);
    sb_printf(sb, "    int nplus1_loop_branch = 0; /* the item takes the branch at line %u */\n",
              body.line);
    put_line(sb, e, file, d->range.line);
    sb_puts(sb, "    ");
    parse_put_active(e->an->pr, sb, file, d->range.begin, body.begin);
    sb_puts(sb, "{ nplus1_loop_branch = 1; }");
    parse_put_active(e->an->pr, sb, file, body.end, d->range.end);
    sb_putc(sb, '\n');
    put_line_back(sb, e);
    sb_printf(sb, "    if (!nplus1_loop_branch) { /* another branch: the code after the if at "
                  "line %u, and the item ends */\n", d->range.line);
    loop_text(e, sb, file, d->range.end, kp->k->body.end - 1);
    sb_puts(sb, "        return;\n    }\n");
    if (braced(e, body)) {
        sb_printf(sb, "    /* the branch at line %u up to the loop */\n", body.line);
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
        sb_printf(&sb, "    /* the for loop's first part */\n");
        loop_text_jt(e, &sb, NULL, NULL, "    ", ";", lp->init.file, lp->init.begin,
                     lp->init.end);
    }
    loop_stores(&sb, &lp->ctx, 0, lp->nprologue, "    ");
    return sb_steal(&sb);
}

/* The branch a switch value takes, for grouping (the branch phase switches on the value). */
static void loop_switch_groups(strbuf *sb, const decision *d, unsigned first)
{
    sb_puts(sb, "    switch (nplus1_sel) {\n");
    for (unsigned b = 0; b < d->nbranches; b++) {
        const branch *br = &d->branches[b];
        if (br->kind == BR_DEFAULT || br->kind == BR_IMPLICIT_DEFAULT)
            sb_puts(sb, "    default:");
        for (unsigned i = 0; br->kind == BR_CASE && i < br->nlabels; i++)
            sb_printf(sb, "    case %s:", br->labels[i]);
        for (unsigned i = 0; br->kind == BR_CASE && !br->nlabels && i < br->nvalues; i++)
            sb_printf(sb, "    case %lld:", br->values[i]);
        sb_printf(sb, " nplus1_b = %u; break;\n", first + b);
    }
    sb_puts(sb, "    }\n");
}

static void loop_if_groups(emitter *e, strbuf *sb, const decision *d, unsigned first)
{
    put_line_at(e, sb, d->branches[0].cond);
    sb_puts(sb, "    nplus1_b =");
    unsigned last = d->nbranches - 1;
    for (unsigned b = 0; b < d->nbranches; b++) {
        const branch *br = &d->branches[b];
        if (br->kind != BR_IF) {
            last = b;
            continue;
        }
        size_t n = 0;
        const char *t = range_text(e->an, br->cond, &n);
        sb_puts(sb, " (");
        sb_putn(sb, t, n);
        sb_printf(sb, ") ? %u :", first + b);
    }
    sb_printf(sb, " %u;\n", first + last);
    put_line_back(sb, e);
}

/* The grouping of decision d in the head: nplus1_b = first + its branch. */
static void loop_groups(emitter *e, strbuf *sb, const loop_plan *lp, const decision *d,
                        unsigned first)
{
    if (d->kind != DEC_SWITCH) {
        loop_if_groups(e, sb, d, first);
        return;
    }
    size_t n = 0;
    const char *t = range_text(e->an, d->cond, &n);
    put_line_at(e, sb, d->cond);
    sb_puts(sb, "    nplus1_sel = (");
    sb_putn(sb, t, n);
    sb_puts(sb, ");\n");
    put_line_back(sb, e);
    (void)lp;
    loop_switch_groups(sb, d, first);
}

/* The loop's test (after a for loop's third part, or a do loop's first pass). */
static void loop_test(emitter *e, strbuf *sb, const loop_plan *lp)
{
    size_t n = 0;
    const char *t = range_text(e->an, lp->cond, &n);
    if (lp->kind == LOOP_FOR && lp->inc.end > lp->inc.begin) {
        sb_puts(sb, "    if (nplus1_c->nplus1_iter) { /* the for loop's third part */\n");
        const char *inc = range_text(e->an, lp->inc, &n);
        put_line_at(e, sb, lp->inc);
        sb_puts(sb, "        (void)(");
        sb_putn(sb, inc, n);
        sb_puts(sb, ");\n");
        put_line_back(sb, e);
        sb_puts(sb, "    }\n");
        t = range_text(e->an, lp->cond, &n);
    }
    if (n)
        put_line_at(e, sb, lp->cond);
    if (lp->kind == LOOP_DO)
        sb_puts(sb, "    if (nplus1_c->nplus1_iter && !(");
    else
        sb_puts(sb, "    if (!(");
    if (n)
        sb_putn(sb, t, n);
    else
        sb_puts(sb, "1");
    sb_puts(sb, ")) { /* the loop ended */\n");
    if (n)
        put_line_back(sb, e);
    loop_stores(sb, &lp->ctx, 0, lp->nprologue, "        ");
    sb_puts(sb, "        *nplus1_g = -2;\n        return;\n    }\n");
    sb_puts(sb, "    nplus1_c->nplus1_iter = 1;\n");
}

static char *loop_head(emitter *e, const kernel_plan *kp)
{
    const loop_plan *lp = &kp->loop;
    const decision *d = lp->d;
    unsigned file = kp->k->body.file;
    strbuf sb;
    sb_init(&sb);
    loop_loads(&sb, &lp->ctx, 0, lp->nprologue);
    loop_test(e, &sb, lp);
    char *brk, *cont;
    jump_texts(lp, 'h', &brk, &cont);
    jump_text jt = {brk, cont};
    loop_text_jt(e, &sb, lp, &jt, "    ", "", file, lp->body.begin + 1, d->range.begin);
    free(brk);
    free(cont);
    sb_puts(&sb, "    int nplus1_b = 0;\n");
    if (lp->sel_type)
        sb_printf(&sb, "    %s nplus1_sel = 0;\n", lp->sel_type);
    if (lp->d2) {
        size_t n = 0;
        const char *t = range_text(e->an, d->branches[0].cond, &n);
        sb_printf(&sb, "    /* the if at line %u leaves the iteration: its branch is group 0 */\n",
                  d->range.line);
        put_line_at(e, &sb, d->branches[0].cond);
        sb_puts(&sb, "    if (!(");
        sb_putn(&sb, t, n);
        sb_puts(&sb, ")) {\n");
        put_line_back(&sb, e);
        loop_groups(e, &sb, lp, lp->d2, 1);
        sb_puts(&sb, "    }\n");
    } else {
        loop_groups(e, &sb, lp, d, 0);
    }
    if (lp->sel_type)
        sb_puts(&sb, "    nplus1_c->nplus1_sel = nplus1_sel;\n");
    loop_stores(&sb, &lp->ctx, 0, lp->ctx.nvars, "    ");
    sb_puts(&sb, "    *nplus1_g = nplus1_b;");
    return sb_steal(&sb);
}

/* The branches of decision d (group first + b) in the branch phase. */
static void loop_dispatch(emitter *e, strbuf *sb, const loop_plan *lp,
                          const jump_text *jt, const decision *d, unsigned first)
{
    unsigned file = lp->body.file;
    if (d->kind == DEC_SWITCH) {
        sb_printf(sb, "    /* the switch at line %u, on the value the head took */\n",
                  d->range.line);
        sb_puts(sb, "    switch (nplus1_sel)\n");
        loop_text_jt(e, sb, lp, jt, "    ", "", file, lp->switch_body.begin, lp->switch_body.end);
        return;
    }
    sb_printf(sb, "    /* the if at line %u */\n", d->range.line);
    for (unsigned b = 0; b < d->nbranches; b++) {
        const branch *br = &d->branches[b];
        if (br->kind != BR_IF && br->kind != BR_ELSE)
            continue;
        sb_printf(sb, "    if (nplus1_b == %u) {\n", first + b);
        loop_text_jt(e, sb, lp, jt, "        ", "", file, br->body.begin, br->body.end);
        sb_puts(sb, "    ;}\n");
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
    jump_texts(lp, 'b', &brk, &cont);
    jump_text jt = {brk, cont};
    loop_loads(&sb, &lp->ctx, 0, lp->ctx.nvars);
    if (lp->sel_type)
        sb_printf(&sb, "    const %s nplus1_sel = nplus1_c->nplus1_sel;\n", lp->sel_type);
    sb_puts(&sb, "    const uint nplus1_b = nplus1_c->nplus1_branch;\n");
    if (lp->d2) {
        sb_puts(&sb, "    if (nplus1_b == 0) {\n");
        loop_dispatch(e, &sb, lp, &jt, lp->d, 0);
        sb_puts(&sb, "    } else {\n");
        loop_dispatch(e, &sb, lp, &jt, lp->d2, 1);
        sb_puts(&sb, "    }\n");
    } else {
        loop_dispatch(e, &sb, lp, &jt, lp->d, 0);
    }
    sb_printf(&sb, "    /* the rest of the iteration */\n");
    loop_text_jt(e, &sb, lp, &jt, "    ", "", file, last->range.end, lp->body.end - 1);
    free(brk);
    free(cont);
    loop_stores(&sb, &lp->ctx, 0, lp->nprologue, "    ");
    return sb_steal(&sb);
}

static char *loop_end(emitter *e, const kernel_plan *kp)
{
    const loop_plan *lp = &kp->loop;
    strbuf sb;
    sb_init(&sb);
    loop_loads(&sb, &lp->ctx, 0, lp->nprologue);
    if (!lp->outer) {
        loop_text(e, &sb, kp->k->body.file, lp->stmt.end, kp->k->body.end - 1);
        return sb_steal(&sb);
    }
    /* each in its own scope, as in the original: the branch's rest, the code after the if */
    const decision *d = lp->outer;
    const src_range body = d->branches[lp->outer_branch].body;
    if (braced(e, body)) {
        sb_printf(&sb, "    { /* the rest of the branch at line %u */\n", body.line);
        loop_text(e, &sb, body.file, lp->stmt.end, body.end - 1);
        sb_puts(&sb, "    }\n");
    }
    sb_printf(&sb, "    { /* the code after the if at line %u */\n", d->range.line);
    loop_text(e, &sb, kp->k->body.file, d->range.end, kp->k->body.end - 1);
    sb_puts(&sb, "    }\n");
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
    char *members = loop_members(lp), *start = loop_start(e, kp), *head = loop_head(e, kp);
    char *branch = loop_branch(e, kp), *end = loop_end(e, kp);
    char regroup[16], why[160];
    snprintf(regroup, sizeof regroup, "%u", lp->regroup);
    snprintf(why, sizeof why, "its costliest branch takes about %.0f operations, a regrouping "
             "round about %.0f", lp->arm_cost[0], lp->round_cost);
    tmpl_var v[] = {{"K", k->name},        {"PARAMS", params},  {"ARGS", args},
                    {"REGROUP", regroup},  {"REGROUP_WHY", why},
                    {"NLEAVES", nleaves},  {"LINE", line},      {"DLINE", dline},
                    {"BYTES", bytes},      {"MEMBERS", members}, {"START", start},
                    {"HEAD", head},        {"BRANCH", branch},  {"END", end},
                    {"PROLOGUE", prologue}, {"EPILOGUE", epilogue}};
    expand(e, sb, &e->kt, "loop-functions", v, NV(v));
    expand(e, sb, &e->kt, "loop-tile", v, NV(v));
    free(params);
    free(args);
    free(members);
    free(start);
    free(head);
    free(branch);
    free(end);
}

