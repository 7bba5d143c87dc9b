/* SPDX-License-Identifier: Apache-2.0 */
/*
 * plan.c - the plan of each kernel, in order: which decisions stay in the
 * leaves (keep_in_leaf.c), the slice and its rules (slice.c,
 * rules_slice.c), the tile context and loop, the leaves (one per path of
 * walk.c's walk), and the cost model.
 */
#include "plan_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auto_tile.h"
#include "paths.h"
#include "plan_facts.h"
#include "rules.h"
#include "util.h"
#include "progress.h"

const char *strategy_name(strategy s)
{
    return nplus1rt_strategy_text(s);
}

const char *split_mode_name(split_mode m)
{
    return nplus1rt_split_text(m);
}

/* ---- leaves ------------------------------------------------------------ */

static void append_condition(strbuf *sb, const analysis *an, const choice *c)
{
    const decision *d = c->d;
    const branch *br = &d->branches[c->branch];
    if (sb->len)
        sb_puts(sb, " && ");
    if (d->kind == DEC_SWITCH) {
        sb_putc(sb, '(');
        put_active_range(an, sb, d->cond);
        sb_puts(sb, ") ");
        if (br->kind == BR_CASE && br->macro_labels && br->nlabels) { /* "== SEL", as written */
            for (unsigned i = 0; i < br->nlabels; i++)
                sb_printf(sb, "%s== %s", i ? "|| " : "", br->labels[i] + strspn(br->labels[i], " "));
        } else if (br->kind == BR_CASE && br->nvalues == 1) {
            sb_printf(sb, "== %lld", br->values[0]);
        } else if (br->kind == BR_CASE) {
            sb_puts(sb, "in {");
            for (unsigned i = 0; i < br->nvalues; i++)
                sb_printf(sb, "%s%lld", i ? ", " : "", br->values[i]);
            sb_puts(sb, "}");
        } else {
            sb_puts(sb, "matches no case");
        }
        return;
    }
    int first = 1;
    for (unsigned b = 0; b < c->branch; b++) {
        sb_puts(sb, first ? "!(" : " && !(");
        put_active_range(an, sb, d->branches[b].cond);
        sb_putc(sb, ')');
        first = 0;
    }
    if (br->kind == BR_IF) {
        sb_puts(sb, first ? "(" : " && (");
        put_active_range(an, sb, br->cond);
        sb_putc(sb, ')');
    }
}

/* Collapses runs of whitespace (multi-line conditions) into one space. */
static char *squeeze_space(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++) {
        int space = *r == ' ' || *r == '\n' || *r == '\t' || *r == '\r';
        if (space && (w == s || w[-1] == ' '))
            continue;
        *w++ = space ? ' ' : *r;
    }
    *w = '\0';
    return s;
}

typedef struct leaf_collector {
    kernel_plan *kp;
    const analysis *an;
    path_event *trace;     /* the statements run and branches taken so far on this path */
    unsigned ntrace, captrace;
    unsigned saved[256];   /* ntrace at each open branch */
    unsigned nsaved;
} leaf_collector;

static void trace_push(leaf_collector *lc, path_event ev)
{
    VEC_PUSH(lc->trace, lc->ntrace, lc->captrace, ev);
}

static void on_stmt(void *ud, const seq_item *it)
{
    trace_push(ud, (path_event){it, NULL, 0});
}

static void on_branch_begin(void *ud, const decision *d, unsigned b)
{
    leaf_collector *lc = ud;
    if (lc->nsaved < 256)
        lc->saved[lc->nsaved] = lc->ntrace;
    lc->nsaved++;
    trace_push(lc, (path_event){NULL, d, b});
}

static void on_branch_end(void *ud, const decision *d, unsigned b)
{
    leaf_collector *lc = ud;
    (void)d;
    (void)b;
    if (--lc->nsaved < 256)
        lc->ntrace = lc->saved[lc->nsaved];
}

static void on_path_end(void *ud, const choice *path, unsigned npath, int returned, unsigned fx,
                        double cost)
{
    leaf_collector *lc = ud;
    kernel_plan *kp = lc->kp;
    if (kp->nleaves >= PLAN_MAX_LEAVES + 1)
        return;
    leaf lf;
    memset(&lf, 0, sizeof lf);
    lf.path = xmalloc((npath ? npath : 1) * sizeof *lf.path);
    memcpy(lf.path, path, npath * sizeof *path);
    lf.npath = npath;
    lf.returned = returned;
    lf.fx = fx;
    lf.cost = cost;
    lf.empty = !(fx & EFF_OBSERVABLE);
    char why[300];
    if (!lf.empty && path_impossible(lc->an, kp->k, lc->trace, lc->ntrace, why, sizeof why)) {
        lf.empty = 1; /* no item can take it: no kernel, no bucket */
        lf.impossible = xstrdup(why);
    }
    lf.kernel = lf.empty ? -1 : (int)kp->nkernels++;
    strbuf sb;
    sb_init(&sb);
    for (unsigned i = 0; i < npath; i++)
        append_condition(&sb, lc->an, &path[i]);
    lf.condition = sb.len ? squeeze_space(sb_steal(&sb)) : xstrdup("(always)");
    sb_free(&sb);
    for (unsigned i = 0; i < npath; i++)
        for (unsigned j = 0; path[i].d->inputs_upto && j < path[i].d->inputs_upto[path[i].branch];
             j++)
            cond_inputs_add(&lf.inputs, &lf.ninputs, path[i].d->inputs[j].name,
                            path[i].d->inputs[j].indexed_by);
    if (npath) {
        const branch *br = &path[npath - 1].d->branches[path[npath - 1].branch];
        const decision *d = path[npath - 1].d;
        lf.line_begin = br->kind == BR_IMPLICIT_ELSE || br->kind == BR_IMPLICIT_DEFAULT
                            ? d->range.end_line
                            : (d->kind == DEC_IF ? br->body.line
                                                 : (br->seq.n ? br->seq.items[0].range.line
                                                              : d->range.end_line));
        lf.line_end = br->kind == BR_IF || br->kind == BR_ELSE ? br->body.end_line
                                                                : d->range.end_line;
        if ((br->kind == BR_IMPLICIT_ELSE || br->kind == BR_IMPLICIT_DEFAULT) && !returned) {
            /* no branch of its own: the leaf is the code after the decision, to the kernel's end */
            unsigned end = kp->k->body.end_line;
            lf.line_begin = d->range.end_line < end ? d->range.end_line + 1 : end;
            lf.line_end = end;
        }
    }
    VEC_PUSH(kp->leaves, kp->nleaves, kp->capleaves, lf);
}

/*
 * --split=auto: leaves too cheap to pay for the classifier share one kernel
 * that runs the original code, as long as their divergence there is cheap: the
 * cheapest first, while their costs together stay under the same bar (a SIMD group
 * of the shared kernel may run every one of them). narrowphase's three cheap leaves
 * (44, 131, 160 operations: 335 together) all shared one kernel until session 10,
 * and the tile beside the split, which regroups by the set's leaf kernels, ran its
 * random mix at 1.60x where the same tile over the four leaves ran 1.81x (H200).
 * When every leaf is cheap the driver runs the original kernel; otherwise the
 * driver probes divergence at run time (NPLUS1RT_SPLIT_ADAPTIVE).
 */
static void apply_cost_model(const plan *pl, kernel_plan *kp, double prologue, double ccost)
{
    kp->merged_kernel = -1;
    kp->split = SPLIT_MODE_ALWAYS;
    if (pl->opt.split != SPLIT_AUTO || kp->nkernels == 0)
        return;
    if (kp->ndata == 0) { /* uniform and affine conditions diverge at the borders at most */
        kp->split = SPLIT_MODE_NEVER;
        return;
    }
    const double cheap_below = plan_cheap_below(ccost);
    unsigned cheap = 0;
    for (unsigned l = 0; l < kp->nleaves; l++)
        cheap += kp->leaves[l].kernel >= 0 && kp->leaves[l].cost - prologue < cheap_below;
    if (cheap == kp->nkernels) {
        kp->split = SPLIT_MODE_NEVER;
        return;
    }
    kp->split = SPLIT_MODE_ADAPTIVE;
    if (cheap < 2)
        return;
    /* the shared kernel's leaves: the cheapest first while their sum stays under the bar */
    unsigned char *shared = xcalloc(kp->nleaves, 1);
    double sum = 0;
    unsigned nshared = 0;
    for (;;) {
        int pick = -1;
        for (unsigned l = 0; l < kp->nleaves; l++)
            if (kp->leaves[l].kernel >= 0 && !shared[l] &&
                kp->leaves[l].cost - prologue < cheap_below &&
                (pick < 0 || kp->leaves[l].cost < kp->leaves[pick].cost))
                pick = (int)l;
        if (pick < 0 || sum + (kp->leaves[pick].cost - prologue) >= cheap_below)
            break;
        sum += kp->leaves[pick].cost - prologue;
        shared[pick] = 1;
        nshared++;
    }
    if (nshared >= 2) {
        unsigned next = 0;
        for (unsigned l = 0; l < kp->nleaves; l++)
            if (kp->leaves[l].kernel >= 0 && !shared[l])
                kp->leaves[l].kernel = (int)next++;
        kp->merged_kernel = (int)next;
        for (unsigned l = 0; l < kp->nleaves; l++)
            if (shared[l])
                kp->leaves[l].kernel = kp->merged_kernel;
        kp->nmerged = nshared;
        kp->nkernels = next + 1;
    }
    free(shared);
}

/* A loop group's condition: "loop at line 7: v & 1", "... : else", "... : case 0, 2". */
static char *group_condition(const analysis *an, const loop_plan *lp, unsigned g)
{
    unsigned b;
    const decision *d = loop_group(lp, g, &b);
    const branch *br = &d->branches[b];
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "loop at line %u, %s at line %u: ", lp->line,
              d->kind == DEC_SWITCH ? "switch" : "if", d->range.line);
    size_t n = 0;
    const char *t;
    switch (br->kind) {
    case BR_IF:
        t = range_text(an, br->cond, &n);
        sb_putn(&sb, t, n);
        break;
    case BR_CASE:
        sb_puts(&sb, "case ");
        for (unsigned i = 0; i < br->nlabels; i++)
            sb_printf(&sb, "%s%s", i ? ", " : "", br->labels[i] + strspn(br->labels[i], " "));
        for (unsigned i = 0; !br->nlabels && i < br->nvalues; i++)
            sb_printf(&sb, "%s%lld", i ? ", " : "", br->values[i]);
        break;
    case BR_DEFAULT:
    case BR_IMPLICIT_DEFAULT:
        sb_puts(&sb, br->kind == BR_DEFAULT ? "default" : "no case (implicit default)");
        break;
    default:
        sb_puts(&sb, br->kind == BR_ELSE ? "else" : "no branch (implicit else)");
    }
    return sb_steal(&sb);
}

/* The top level's leaves, dropped: a regrouped loop or the state machine sets its own. */
static void leaves_clear(kernel_plan *kp)
{
    for (unsigned l = 0; l < kp->nleaves; l++) {
        free(kp->leaves[l].path);
        free(kp->leaves[l].condition);
        free(kp->leaves[l].impossible);
        cond_inputs_free(kp->leaves[l].inputs, kp->leaves[l].ninputs);
    }
    kp->nleaves = 0;
}

/* A regrouped set's kernels: one a group, none merged; it regroups every round (no probe
 * yet), and under --split auto it is a candidate beside the original. */
static void leaves_regrouped(kernel_plan *kp, unsigned ngroups, split_policy split)
{
    kp->nkernels = ngroups;
    kp->merged_kernel = -1;
    kp->nmerged = 0;
    kp->split = split == SPLIT_AUTO ? SPLIT_MODE_ADAPTIVE : SPLIT_MODE_ALWAYS;
}

/* An active loop: its decision's branches are the groups, and the leaves the driver counts. */
static void loop_leaves(const analysis *an, kernel_plan *kp, split_policy split)
{
    leaves_clear(kp);
    const loop_plan *lp = &kp->loop;
    for (unsigned g = 0; g < lp->ngroups; g++) {
        unsigned b;
        const decision *d = loop_group(lp, g, &b);
        const branch *br = &d->branches[b];
        leaf lf = {0};
        lf.kernel = (int)g;
        lf.condition = group_condition(an, lp, g);
        lf.line_begin = br->kind == BR_IF || br->kind == BR_ELSE ? br->body.line : d->range.line;
        lf.line_end = br->kind == BR_IF || br->kind == BR_ELSE ? br->body.end_line
                                                                 : d->range.end_line;
        const seq *s = d->kind == DEC_SWITCH ? &d->body : &br->seq;
        for (unsigned i = 0; i < s->n; i++)
            lf.cost += s->items[i].fx.cost;
        VEC_PUSH(kp->leaves, kp->nleaves, kp->capleaves, lf);
    }
    leaves_regrouped(kp, lp->ngroups, split);
}

/* The state machine's groups (machine.h): each regroup point's arms, the leaves counted. */
static void machine_leaves(const analysis *an, kernel_plan *kp, split_policy split)
{
    leaves_clear(kp);
    const machine_plan *mp = &kp->machine;
    for (unsigned g = 0; g < mp->ngroups; g++) {
        unsigned arm;
        const machine_point *p = machine_group(mp, g, &arm);
        const ir_node *n = p                  ? kp->k->ir->nodes[p->node]
                           : mp->refill_loop ? kp->k->ir->nodes[mp->refill_loop - 1]
                                             : kp->k->ir->root; /* off, no loop of its own */
        leaf lf = {0};
        lf.kernel = (int)g;
        lf.condition = machine_group_text(an, kp->k, mp, g);
        lf.line_begin = n->range.line;
        lf.line_end = n->range.end_line;
        lf.cost = p ? n->arms[arm].cost : n->cost;
        VEC_PUSH(kp->leaves, kp->nleaves, kp->capleaves, lf);
    }
    leaves_regrouped(kp, mp->ngroups, split);
}

/* "file:line:col" of r's start. */
static void range_place(const analysis *an, src_range r, char *out, size_t n, diag_loc *loc)
{
    const src_file *f = &an->pr->files[r.file];
    unsigned col = 1;
    for (unsigned o = r.begin; o > 0 && f->text[o - 1] != '\n'; o--)
        col++;
    snprintf(out, n, "%s:%u:%u", f->path, r.line, col);
    if (loc) {
        memset(loc, 0, sizeof *loc);
        loc->path = f->path;
        loc->line = r.line;
        loc->col = col;
        loc->text = f->text;
        loc->text_len = f->len;
    }
}

/* Why a kernel's decisions in loops are not regrouped: the state machine's blockers at
 * their places, or its cost reasons; the loop kernel's reason when neither applies. */
static void machine_why(const analysis *an, const kernel_plan *kp, char *out, size_t n)
{
    const machine_plan *mp = &kp->machine;
    strbuf sb;
    sb_init(&sb);
    if (mp->nblockers) {
        sb_puts(&sb, "it cannot be regrouped: ");
        for (unsigned i = 0; i < mp->nblockers; i++) {
            char place[512];
            range_place(an, mp->blockers[i].at, place, sizeof place, NULL);
            sb_printf(&sb, "%s%s: %s", i ? "; " : "", place, mp->blockers[i].msg);
        }
    } else if (mp->why[0]) {
        sb_puts(&sb, mp->why);
        for (unsigned i = 0, shown = 0; i < mp->nleft && shown < 3; i++) {
            const ir_node *d = kp->k->ir->nodes[mp->left[i].node];
            if (d->cond.divergence != DIV_DATA)
                continue;
            sb_printf(&sb, "%sthe decision at line %u", shown ? "; " : " (", mp->left[i].line);
            if (d->frame) /* a helper's, at its call */
                sb_printf(&sb, " in helper '%s' called at line %u",
                          kp->k->ir->nodes[d->frame]->call.name, kp->k->ir->nodes[d->frame]->line);
            sb_printf(&sb, ": %s", mp->left[i].why);
            shown++;
        }
        for (unsigned i = 0; i < mp->nleft; i++)
            if (kp->k->ir->nodes[mp->left[i].node]->cond.divergence == DIV_DATA) {
                sb_putc(&sb, ')');
                break;
            }
    } else {
        sb_puts(&sb, kp->loop.why[0] ? kp->loop.why : "no loop at its top level holds one");
    }
    snprintf(out, n, "%s", sb.data ? sb.data : "");
    sb_free(&sb);
}

/* The state machine's blockers as notes at their places (before the kernel's error). */
static void machine_blockers(const analysis *an, const machine_plan *mp, diag_sink *diag)
{
    for (unsigned i = 0; i < mp->nblockers; i++) {
        char place[512];
        diag_loc loc;
        range_place(an, mp->blockers[i].at, place, sizeof place, &loc);
        diag_report(diag, DIAG_NOTE, &loc, NULL, "cannot regroup here: %s", mp->blockers[i].msg);
    }
}

/* The loop kernel keeps its loop unless the state machine regroups elsewhere in it: at a
 * costlier decision inside the loop kernel's (a cheap guard around the costly decision,
 * issue 28 item 5), or, where the loop kernel's decision is no regroup point by the cost
 * rule (regroup_rule.h), at another decision of the loop; and where the loop kernel's
 * contexts are over the local-memory budget (in place) while the machine has a plan. Where
 * the loop kernel declines, the machine is the split. */
static void machine_or_loop(kernel_plan *kp)
{
    machine_plan *mp = &kp->machine;
    loop_plan *lp = &kp->loop;
    if (!lp->active)
        return;
    const ir_kernel *ir = kp->k->ir;
    const ir_node *ld = ir_node_at(ir, lp->d->range.file, lp->d->range.begin, 0);
    const ir_node *loop = ir_node_at(ir, lp->stmt.file, lp->stmt.begin, 1);
    const machine_point *inner = NULL, *other = NULL;
    for (unsigned i = 0; mp->active && ld && i < mp->npoints && !inner; i++)
        if (ir_holds(ld, ir->nodes[mp->points[i].node]->parent))
            inner = &mp->points[i];
    for (unsigned i = 0; mp->active && loop && !lp->pays && i < mp->npoints && !other; i++)
        if (ir_holds(loop, ir->nodes[mp->points[i].node]->parent))
            other = &mp->points[i];
    if (inner) {
        lp->active = 0;
        snprintf(lp->why, sizeof lp->why, "its decision at line %u holds a costlier one (line "
                 "%u): the state machine regroups there", lp->d->range.line, inner->line);
        return;
    }
    if (other) {
        lp->active = 0;
        snprintf(lp->why, sizeof lp->why, "its decision at line %u does not pay for a round "
                 "(it saves about %.0f operations a visit of a round's %.0f), the one at line "
                 "%u does: the state machine regroups there", lp->d->range.line, lp->saved,
                 lp->round_cost, other->line);
        return;
    }
    if (lp->in_place && mp->active && mp->regroup >= 0) { /* neither moves a context: the
                                                            * machine's is smaller */
        lp->active = 0;
        snprintf(lp->why, sizeof lp->why, "its context (%u bytes an item) is over the "
                 "local-memory budget, so it could not move: the state machine takes the "
                 "kernel (its context by liveness, %u bytes an item)", lp->bytes, mp->bytes);
        return;
    }
    machine_free(mp);
}

/* The decisions the options keep whatever their class (by id). */
static void keep_asked(const plan_options *opt, const kernel_info *k, decision_plan *dp)
{
    for (unsigned i = 0; i < opt->nkeep; i++)
        if (opt->keep[i] < k->ndecisions)
            dp[opt->keep[i]].keep_in_leaf = 1;
}

static void plan_skip_kernel(plan *pl, const kernel_info *k, const char *why)
{
    plan_skip *sk = &pl->skipped[pl->nskipped++]; /* room for every kernel: plan_build */
    sk->k = k;
    snprintf(sk->why, sizeof sk->why, "%s", why);
}

const char *plan_skipped_why(const plan *pl, const kernel_info *k)
{
    for (unsigned i = 0; i < pl->nskipped; i++)
        if (pl->skipped[i].k == k)
            return pl->skipped[i].why;
    return NULL;
}

/*
 * Why a kernel kept for its loop is refused: "it breaks rules of the loop kernel:
 * nplus1-barrier (line 10), nplus1-local-memory (line 2)", each rule its recorded errors
 * name, once, at its first line (FILE:LINE outside the kernel's file).
 */
static void blockers_why(const kernel_info *k, const char *main_path, char *why, size_t n)
{
    strbuf sb;
    sb_init(&sb);
    unsigned listed = 0;
    const diag_sink *b = k->blockers;
    for (unsigned i = 0; b && i < b->nrecorded; i++) {
        const diag_recorded *r = &b->recorded[i];
        if (r->level != DIAG_ERROR)
            continue;
        int seen = 0;
        for (unsigned j = 0; j < i && !seen; j++)
            seen = b->recorded[j].level == DIAG_ERROR && b->recorded[j].rule && r->rule &&
                   !strcmp(b->recorded[j].rule, r->rule);
        if (seen)
            continue;
        sb_printf(&sb, "%s%s", listed++ ? ", " : "", r->rule ? r->rule : "an error");
        if (r->loc.path && main_path && strcmp(r->loc.path, main_path) != 0)
            sb_printf(&sb, " (%s:%u)", r->loc.path, r->loc.line);
        else if (r->loc.path)
            sb_printf(&sb, " (line %u)", r->loc.line);
    }
    if (listed)
        snprintf(why, n, "it breaks %s of the loop kernel: %s", listed > 1 ? "rules" : "a rule",
                 sb.data);
    else
        snprintf(why, n, "the kernel breaks a rule of the loop kernel "
                         "(--strategy tile names it)");
    sb_free(&sb);
}

/* Every kernel was left alone for its loop: the error analyze_tu gives a file whose
 * kernels have decisions only inside loops, with why each loop is not regrouped, after
 * the errors of those that break a rule, each at its line. */
static int report_all_skipped(const plan *pl, diag_sink *diag)
{
    const analysis *an = pl->an;
    if (!pl->nskipped || pl->nskipped != an->nkernels)
        return 0;
    for (unsigned i = 0; i < pl->nskipped; i++)
        if (pl->skipped[i].k->blockers && !pl->skipped[i].k->legal)
            diag_replay(pl->skipped[i].k->blockers, diag);
    diag_report(diag, DIAG_ERROR, NULL, rule_name(RULE_NO_DECISION),
                "no kernel in %s has a decision (an if or switch in its body) to split",
                an->pr->files[0].path);
    for (unsigned i = 0; i < pl->nskipped; i++)
        diag_report(diag, DIAG_NOTE, NULL, NULL, "kernel '%s' has decisions only inside loops "
                    "(the first at line %u), and its loop is not regrouped: %s",
                    pl->skipped[i].k->name, pl->skipped[i].k->loop_only, pl->skipped[i].why);
    return 1;
}

static int plan_kernel(plan *pl, const kernel_info *k, diag_sink *diag)
{
    const analysis *an = pl->an;
    kernel_plan kp;
    memset(&kp, 0, sizeof kp);
    kp.k = k;
    kp.decisions = xcalloc(k->ndecisions ? k->ndecisions : 1, sizeof *kp.decisions);
    kp.in_slice = xcalloc(k->nitems ? k->nitems : 1, sizeof *kp.in_slice);
    keep_asked(&pl->opt, k, kp.decisions);
    keep_by_divergence(an, k, kp.decisions);
    unsigned max_leaves = pl->opt.max_leaves && pl->opt.max_leaves < PLAN_MAX_LEAVES
                              ? pl->opt.max_leaves
                              : PLAN_MAX_LEAVES;
    double all_paths, split_paths;
    int fits =
        plan_limit_leaves(&k->top, kp.decisions, max_leaves, &all_paths, &split_paths) == 0;
    tree_lists t = {0};
    t.dp = kp.decisions;
    t.in_slice = kp.in_slice;
    tree_lists_collect(&t, &k->top);
    int errors = check_conditions(an, &t, diag);
    unsigned horizon = slice_horizon(&t);
    kp.paths = all_paths;
    kp.max_leaves = max_leaves;
    kp.nslice = compute_slice(an, &t, horizon);
    diag_sink quiet; /* the tile's notes and warnings: quiet unless the tile is the set */
    diag_init(&quiet);
    quiet.quiet = 1;
    diag_sink *to = pl->opt.strategy == STRATEGY_TILE ? diag : &quiet;
    if (auto_tile_wants_context(&pl->opt)) /* the set has a tile kernel (auto_tile.h) */
        context_build(an, k, kp.decisions, pl->opt.wg, &kp.ctx, to);
    machine_build(an, k, pl->opt.wg, &kp.machine); /* the state machine on the IR: its */
    loop_build(an, k, pl->opt.wg, &kp.machine, &kp.loop, to); /* choice is the loop's */
    machine_or_loop(&kp);
    const int regrouped = kp.loop.active || kp.machine.active;
    char mwhy[1024];
    machine_why(an, &kp, mwhy, sizeof mwhy);
    if (plan_loop_lenient(pl, k) && !regrouped) { /* left alone, as before (not an error) */
        plan_skip_kernel(pl, k, mwhy);
        tree_lists_free(&t);
        free(kp.decisions);
        free(kp.in_slice);
        context_free(&kp.ctx);
        loop_free(&kp.loop);
        machine_free(&kp.machine);
        return 0;
    }
    if (k->loop_only && !regrouped) { /* its decisions sit in a loop left alone */
        machine_blockers(an, &kp.machine, diag);
        diag_loc loc = cursor_diag_loc(an, k->cursor);
        diag_report(diag, DIAG_ERROR, &loc, rule_name(RULE_NO_DECISION),
                    "kernel '%s' has decisions only inside loops (the first at line %u), "
                    "and its loop is not regrouped: %s", k->name, k->loop_only, mwhy);
        errors++;
    }
    tile_hint hint = {k, kp.decisions, pl->opt.wg, !auto_tile_wants_context(&pl->opt), 0, {0}};
    errors += check_slice(an, &t, horizon, &kp.ctx, &hint, diag);
    errors += check_memory_order(an, &t, &k->top, horizon, &kp.ctx, &hint, diag);
    if (hint.built)
        context_free(&hint.ctx);
    for (unsigned i = 0; i < t.nitems; i++)
        if (kp.in_slice[t.items[i]->id]) {
            kp.classifier_cost += t.items[i]->fx.cost;
            kp.classifier_accesses += effects_accesses(&t.items[i]->fx);
            kp.classifier_math += t.items[i]->fx.math;
        }
    for (unsigned i = 0; i < t.ndecisions; i++) {
        kp.classifier_cost += t.decisions[i]->cond_fx.cost;
        kp.classifier_accesses += effects_accesses(&t.decisions[i]->cond_fx);
        kp.classifier_math += t.decisions[i]->cond_fx.math;
    }
    for (unsigned i = 0; i < t.ndecisions; i++)
        kp.ndata += t.decisions[i]->divergence == DIV_DATA;
    tree_lists_free(&t);
    leaf_collector lc;
    memset(&lc, 0, sizeof lc);
    lc.kp = &kp;
    lc.an = an;
    walk_visitor v = {0};
    v.path_end = on_path_end;
    v.stmt = on_stmt;
    v.branch_begin = on_branch_begin;
    v.branch_end = on_branch_end;
    v.ud = &lc;
    unsigned paths = walk_tree(&k->top, kp.decisions, &v);
    free(lc.trace);
    if (!fits || paths > max_leaves) {
        report_too_many_leaves(an, k, all_paths, split_paths, max_leaves, diag);
        errors++;
    } else if (kp.nkernels == 0) {
        diag_loc loc = cursor_diag_loc(an, k->cursor);
        diag_report(diag, DIAG_ERROR, &loc, rule_name(RULE_NO_DECISION),
                    "kernel '%s' has no leaf that does anything observable", k->name);
        errors++;
    }
    kp.errors = (unsigned)errors;
    auto_tile_choose(&pl->opt, &kp);
    double prologue = 0, ccost = kp.classifier_cost; /* a context tile runs its prologue once */
    if (kp.strategy == STRATEGY_TILE)
        auto_tile_costs(&kp, &prologue, &ccost);
    apply_cost_model(pl, &kp, prologue, ccost);
    const double costliest = auto_tile_costliest_leaf(&kp);
    if (kp.ctx.active)
        tile_policy_set(&kp.ctx.policy, costliest, kp.nkernels, kp.ctx.bytes);
    tile_policy_set(&kp.plain, costliest, kp.nkernels, 4);
    kp.tile_split = auto_tile_verdict(&pl->opt, &kp);
    if (kp.tile_candidate == AUTO_TILE_CONTEXT && kp.split == SPLIT_MODE_NEVER && kp.ndata)
        kp.split = kp.tile_split; /* the context tile may pay where the strategy does not */
    if (kp.loop.active && !errors)
        loop_leaves(an, &kp, pl->opt.split);
    else if (kp.machine.active && !errors)
        machine_leaves(an, &kp, pl->opt.split);
    pl->kernels[pl->nkernels++] = kp; /* room for every kernel was made by plan_build */
    return errors;
}

int plan_build(plan *pl, const analysis *an, const plan_options *opt, diag_sink *diag)
{
    memset(pl, 0, sizeof *pl);
    pl->an = an;
    pl->opt = *opt;
    pl->kernels = xcalloc(an->nkernels ? an->nkernels : 1, sizeof *pl->kernels);
    pl->skipped = xcalloc(an->nkernels ? an->nkernels : 1, sizeof *pl->skipped);
    int errors = 0;
    for (unsigned i = 0; i < an->nkernels; i++) { /* under tile the loop kernel is the set: */
        const kernel_info *k = &an->kernels[i];  /* its analysis's diagnostics printed first */
        if (k->loop_kept && !plan_loop_lenient(pl, k)) {
            diag_replay(k->blockers, diag);
            errors += !k->legal;
        }
    }
    for (unsigned i = 0; i < an->nkernels; i++) {
        const kernel_info *k = &an->kernels[i];
        if (!k->legal && plan_loop_lenient(pl, k)) {
            char why[sizeof pl->skipped->why];
            blockers_why(k, an->pr->files[0].path, why, sizeof why);
            plan_skip_kernel(pl, k, why);
        }
        if (!k->legal || (!k->has_decision && !k->loop_only))
            continue;
        progress_stage("planning kernel '%s'", k->name);
        errors += plan_kernel(pl, k, diag);
    }
    errors += report_all_skipped(pl, diag);
    return errors ? 1 : 0;
}

void plan_free(plan *pl)
{
    for (unsigned i = 0; i < pl->nkernels; i++) {
        for (unsigned l = 0; l < pl->kernels[i].nleaves; l++) {
            free(pl->kernels[i].leaves[l].path);
            free(pl->kernels[i].leaves[l].condition);
            free(pl->kernels[i].leaves[l].impossible);
            cond_inputs_free(pl->kernels[i].leaves[l].inputs, pl->kernels[i].leaves[l].ninputs);
        }
        free(pl->kernels[i].leaves);
        free(pl->kernels[i].decisions);
        free(pl->kernels[i].in_slice);
        context_free(&pl->kernels[i].ctx);
        loop_free(&pl->kernels[i].loop);
        machine_free(&pl->kernels[i].machine);
    }
    free(pl->kernels);
    free(pl->skipped);
    memset(pl, 0, sizeof *pl);
}
