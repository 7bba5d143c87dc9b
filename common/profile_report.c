/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_report.c - the replays of one profile run and their report
 * (profile_report.h): the measured grouping (W consecutive items by linear
 * id), the n+1 split's (each leaf's items in full groups) and the tile's
 * (items regrouped by leaf inside each tile), printed and as JSON.
 */
#include "profile_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define KEY_CAP 64

typedef profile_replayed kprof;

typedef struct keyed {
    const unsigned char *key; /* KEY_CAP bytes */
    unsigned len;
    unsigned long long id, tile;
} keyed;

static const keyed *sort_base;

static int by_tile_key_id(const void *a, const void *b)
{
    const keyed *x = &sort_base[*(const size_t *)a], *y = &sort_base[*(const size_t *)b];
    if (x->tile != y->tile)
        return x->tile < y->tile ? -1 : 1;
    unsigned n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->key, y->key, n > KEY_CAP ? KEY_CAP : n);
    if (c || x->len != y->len)
        return c ? c : (x->len < y->len ? -1 : 1);
    return x->id < y->id ? -1 : x->id > y->id;
}

static int same_key(const keyed *a, const keyed *b)
{
    return a->len == b->len && !memcmp(a->key, b->key, a->len > KEY_CAP ? KEY_CAP : a->len);
}

/*
 * The split's memory gather (replay_costs.gather): its leaves take their items by bucket,
 * each leaf's in item order, so an access at the item's index touches, for k items a
 * sector, the sectors of that leaf's items; the original's groups touch each sector once.
 * gather[j], k = 1 << j: the leaves' sectors over the original's (1 when every leaf's items
 * fill whole sectors; up to k when the leaves interleave item by item).
 */
static void gather_of(const keyed *k, const size_t *order, size_t n, double *gather)
{
    for (unsigned j = 0; j < 4; j++) {
        unsigned long long per = 1ull << j, leaves = 0, whole = 0;
        for (size_t i = 0; i < n; i++) {
            const keyed *a = &k[order[i]], *b = i ? &k[order[i - 1]] : NULL;
            leaves += !b || !same_key(a, b) || a->id / per != b->id / per;
            whole += !i || k[i].id / per != k[i - 1].id / per; /* k: by linear id */
        }
        gather[j] = whole ? (double)leaves / (double)whole : 0;
    }
}

/* Items regrouped by leaf (inside tiles of `tile` items; 0: the whole launch), and their
 * memory gather (gather_of). */
static void regrouped(const ptree *t, const profile_result *r, unsigned long long tile,
                      unsigned width, pstats *s, double *gather)
{
    unsigned char *keys = xcalloc(r->n ? r->n : 1, KEY_CAP);
    keyed *k = xcalloc(r->n ? r->n : 1, sizeof *k);
    size_t *order = xcalloc(r->n ? r->n : 1, sizeof *order);
    unsigned *seg = xcalloc(r->n ? r->n : 1, sizeof *seg);
    for (size_t i = 0; i < r->n; i++) {
        k[i].key = keys + i * KEY_CAP;
        k[i].len = profile_leaf_key(t, &r->traces[i], keys + i * KEY_CAP, KEY_CAP);
        k[i].id = r->ids[i];
        k[i].tile = tile ? r->ids[i] / tile : 0;
        order[i] = i;
    }
    sort_base = k;
    qsort(order, r->n, sizeof *order, by_tile_key_id);
    unsigned s_id = 0;
    for (size_t i = 0; i < r->n; i++) {
        const keyed *a = &k[order[i]], *b = i ? &k[order[i - 1]] : NULL;
        int same = b && a->tile == b->tile && (tile || (a->len == b->len &&
                                                        !memcmp(a->key, b->key, a->len > KEY_CAP
                                                                                    ? KEY_CAP
                                                                                    : a->len)));
        s_id += b && !same;
        seg[order[i]] = s_id;
    }
    if (gather)
        gather_of(k, order, r->n, gather);
    profile_replay(t, r->traces, order, seg, r->n, width, s);
    free(keys);
    free(k);
    free(order);
    free(seg);
}

unsigned long long profile_predict_items(const profile_report *rep)
{
    const char *e = getenv("NPLUS1_PREDICT_ITEMS");
    char *end = NULL;
    unsigned long long n = e && *e ? strtoull(e, &end, 10) : 0;
    return n > 0 && end && !*end ? n : rep->items;
}

/* Per item: the replays' issued work, for profile_predict_candidates. The accesses' DRAM
 * bytes (docs/cli.md, "--profile"): a coalesced access its bytes, a broadcast one a sector
 * for the width's items, any other a sector. */
static void replay_costs_of(const kprof *kp, unsigned width, replay_costs *rc)
{
    double items = kp->base.items ? (double)kp->base.items : 1.0;
    const pstats *b = &kp->base;
    memset(rc, 0, sizeof *rc);
    rc->original = b->issued / items;
    rc->accesses = b->accesses / items;
    rc->coalesced = b->coalesced / items;
    rc->coalesced_bytes = b->coalesced_bytes / items;
    double sectors = rc->accesses - rc->coalesced - b->broadcast / items;
    rc->memory_bytes = (sectors > 0 ? sectors : 0) * PROFILE_SECTOR_BYTES + rc->coalesced_bytes +
                       b->broadcast / items * PROFILE_SECTOR_BYTES / (width ? width : 1);
    rc->has_split = kp->has_split;
    if (kp->has_split) {
        rc->split = kp->split.issued / items;
        rc->tile = kp->tile.issued / items;
        memcpy(rc->gather, kp->gather, sizeof rc->gather);
        memcpy(rc->gather_tile, kp->gather_tile, sizeof rc->gather_tile);
    }
}

/*
 * A loop set's loop kernel: its schedule replayed on the recorded items in tiles of the
 * size the runtime would use on the profiling device (profile_loop.h).
 */
static void loop_kernel_of(const profile_report *rep, const profile_kernel_tree *pk,
                           const profile_result *r, const nplus1rt_calibration *cal,
                           replay_costs *rc)
{
    unsigned groups = profile_loop_groups(&pk->tree);
    if (pk->set.tile != 3 || pk->set.regroup == PROFILE_REGROUP_OFF || !groups)
        return;
    loop_kernel_params p;
    memset(&p, 0, sizeof p);
    p.width = rep->width;
    p.lanes = PROFILE_LOOP_LANES;
    p.tile = r->tile ? r->tile : rep->lay.unit;
    if (p.tile < p.lanes)
        p.tile = p.lanes;
    profile_loop_kernel_costs(&pk->set, cal, groups, &p);
    loop_kernel_stats s;
    if (profile_loop_kernel(&pk->tree, r->traces, r->ids, r->n, &p, &s) < 0 || !s.items)
        return;
    rc->has_loop_kernel = 1;
    pstats rough; /* the original in the loop kernel's unit */
    pstats_init(&rough, &pk->tree);
    rough.rough = 1;
    unsigned *seg = xcalloc(r->n ? r->n : 1, sizeof *seg); /* as the measured grouping's */
    for (size_t i = 0; i < r->n; i++)
        seg[i] = (unsigned)(r->ids[i] / rep->lay.unit);
    profile_replay(&pk->tree, r->traces, NULL, seg, r->n, rep->width, &rough);
    free(seg);
    rc->original_rough = rough.items ? rough.issued / (double)rough.items : 0;
    pstats_free(&rough);
    rc->loop_kernel = s.issued / (double)s.items;
    rc->loop_own = s.own / (double)s.items;
    rc->loop_wait = s.wait / (double)s.items;
}

/* The carried candidates' predictions, when the tree says which the set carries. */
static void predict_candidates(const profile_report *rep, const profile_kernel_tree *pk,
                               const profile_result *r, kprof *kp)
{
    kp->auto_first = -1;
    if (!pk->set.known)
        return;
    nplus1rt_calibration defaults;
    nplus1rt_calibration_defaults(&defaults);
    const nplus1rt_calibration *cal = rep->cal ? &rep->cal->cal : &defaults;
    replay_costs_of(kp, rep->width, &kp->costs);
    loop_kernel_of(rep, pk, r, cal, &kp->costs);
    kp->ncands = profile_predict_candidates(&kp->costs, &pk->set, cal, profile_predict_items(rep),
                                            kp->cands);
    kp->auto_first = profile_auto_first(kp->cands, kp->ncands);
}

void profile_replay_kernel(const profile_report *rep, unsigned i, profile_replayed *kp)
{
    const profile_kernel_tree *pk = &rep->ks[i];
    const profile_result *r = &rep->res[i];
    memset(kp, 0, sizeof *kp);
    const ptree *t = &pk->tree;
    unsigned w = rep->width;
    unsigned *seg = xcalloc(r->n ? r->n : 1, sizeof *seg);
    for (size_t i = 0; i < r->n; i++)
        seg[i] = (unsigned)(r->ids[i] / rep->lay.unit);
    pstats_init(&kp->base, t);
    profile_replay(t, r->traces, NULL, seg, r->n, w, &kp->base);
    free(seg);
    kp->nloops = profile_loop_predict(t, &kp->base, w, PROFILE_LOOP_LANES, kp->loops, PROFILE_MAX_LOOP_PREDICTIONS);
    for (unsigned c = 0; c < t->nc; c++)
        kp->has_split |= t->c[c].split;
    if (kp->has_split) {
        pstats_init(&kp->split, t);
        regrouped(t, r, 0, w, &kp->split, kp->gather);
        pstats_init(&kp->tile, t);
        regrouped(t, r, r->tile ? r->tile : rep->lay.unit, w, &kp->tile, kp->gather_tile);
    }
    predict_candidates(rep, pk, r, kp);
}

/* ---- text ---------------------------------------------------------------------- */

/* div_class_name (tool/analyze/divergence.h), here without the analysis: DIV_UNIFORM, _AFFINE, _DATA. */
static const char *class_name(int d)
{
    static const char *names[] = {"uniform", "affine", "data"};
    return d < 0 || d > 2 ? "not classified" : names[d];
}

static double share(double part, double whole)
{
    return whole > 0 ? part / whole : 0.0;
}

/* Lost work of the decisions inside loop c (at any depth). */
static double lost_in_body(const ptree *t, const pstats *s, unsigned c)
{
    double lost = 0;
    for (unsigned i = 0; i < t->nc; i++) {
        int p = t->c[i].parent;
        while (p >= 0 && (unsigned)p != c)
            p = t->c[p].parent;
        if (p >= 0 && t->c[i].kind != PN_LOOP)
            lost += s->c[i].lost;
    }
    return lost;
}

static void print_construct(FILE *f, const ptree *t, const pstats *s, unsigned c)
{
    const pconstruct *pc = &t->c[c];
    const pcstats *cs = &s->c[c];
    double issued = s->issued;
    char at[112] = ""; /* a helper's: where it is called */
    if (pc->helper[0])
        snprintf(at, sizeof at, " in %s called at line %u", pc->helper, pc->call_line);
    if (pc->kind == PN_LOOP) {
        fprintf(f, "  loop line %u (%s)%s: %.0f lane iterations of %.0f issued (%.2f); work lost: "
                   "%.1f%% to trip-count imbalance, %.1f%% to branches in its body\n",
                pc->line, pc->what, at, cs->lane_iters, cs->issued_iters,
                cs->issued_iters > 0 ? cs->lane_iters / cs->issued_iters : 1.0,
                100 * share(cs->lost, issued), 100 * share(lost_in_body(t, s, c), issued));
        return;
    }
    fprintf(f, "  decision line %u (%s, %s)%s: items per branch ", pc->line, pc->what,
            class_name(pc->divergence), at);
    for (unsigned a = 0; a < pc->narms; a++)
        fprintf(f, "%s%llu", a ? "/" : "", cs->arm_items[a]);
    fprintf(f, "; diverges in %.1f%% of the groups that reach it; %.1f%% of the issued work "
               "lost there\n",
            100 * share((double)cs->diverged, (double)cs->reached), 100 * share(cs->lost, issued));
}

static void print_predictions(FILE *f, const kprof *kp, unsigned tile)
{
    double e = pstats_efficiency(&kp->base);
    if (!kp->has_split) {
        fprintf(f, "  split: no decision the n+1 split regroups by (none at the top level, "
                   "or all kept in the leaves): no prediction\n");
        return;
    }
    double es = pstats_efficiency(&kp->split), et = pstats_efficiency(&kp->tile);
    fprintf(f, "  predicted after the n+1 split (each leaf's items in full groups): SIMT "
               "efficiency %.2f, speed-up at most %.2fx\n", es, e > 0 ? es / e : 1.0);
    fprintf(f, "  predicted with tile (regrouped by leaf inside tiles of %u items): SIMT "
               "efficiency %.2f, speed-up at most %.2fx\n", tile, et, e > 0 ? et / e : 1.0);
    fprintf(f, "  (predictions of SIMD efficiency from the same replay: blind to memory "
               "traffic, the classifier's cost and launch overheads)\n");
}

/* The regrouped loops (profile_loop.h): the original's efficiency beside the prediction. */
static void print_loop_predictions(FILE *f, const ptree *t, const kprof *kp)
{
    for (unsigned i = 0; i < kp->nloops; i++) {
        const loop_prediction *p = &kp->loops[i];
        double e = p->kernel_efficiency, er = p->kernel_efficiency_regrouped;
        fprintf(f, "  predicted with the loop at line %u regrouped (tile+loop: contexts sorted "
                   "by the %s at line %u in rounds of %u, refilled): PREDICTION\n",
                t->c[p->loop].line, t->c[p->decision].what, t->c[p->decision].line,
                PROFILE_LOOP_LANES);
        fprintf(f, "    the loop's SIMT efficiency: %.2f measured, %.2f predicted regrouped "
                   "(its sorted branches %.2f)\n",
                share(p->loop_useful, p->loop_issued), share(p->loop_useful,
                p->loop_issued_regrouped), p->branch_efficiency);
        fprintf(f, "    the kernel's: %.2f measured, %.2f predicted, speed-up at most %.2fx "
                   "(blind to the moves through local memory and the barriers of each round)\n",
                e, er, e > 0 ? er / e : 1.0);
    }
}

/* The carried candidates' predictions beside what auto tries first. */
static void print_candidates(FILE *f, const profile_report *rep, const kprof *kp)
{
    fprintf(f, "  predicted for the candidates the generated set carries (calibration: %s",
            rep->cal && rep->cal->path[0] ? rep->cal->path : "defaults");
    if (profile_predict_items(rep) != rep->items)
        fprintf(f, "; a launch of %llu items: NPLUS1_PREDICT_ITEMS", profile_predict_items(rep));
    fprintf(f, "):\n");
    if (!kp->ncands)
        fprintf(f, "    none: nplus1gen generates no set for this kernel (nothing it splits, "
                   "or refused)\n");
    for (unsigned c = 0; c < kp->ncands; c++) {
        const candidate_prediction *p = &kp->cands[c];
        if (p->known)
            fprintf(f, "    %s: %.2fx (%.0f FMA-equivalents an item)\n",
                    nplus1rt_candidate_text(p->cand), p->speedup, p->cost);
        else
            fprintf(f, "    %s: cannot tell: %s\n", nplus1rt_candidate_text(p->cand), p->why);
    }
    if (kp->auto_first >= 0)
        fprintf(f, "    auto tries first: %s\n", nplus1rt_candidate_text(kp->auto_first));
}

void profile_print_kernel(FILE *f, const profile_report *rep, unsigned i, const kprof *kp)
{
    const profile_kernel_tree *pk = &rep->ks[i];
    const profile_result *r = &rep->res[i];
    fprintf(f, "kernel %s: SIMT efficiency %.2f (width %u, %zu items)\n", pk->name,
            pstats_efficiency(&kp->base), rep->width, r->n);
    if (rep->lay.every > 1)
        fprintf(f, "  sampled: %zu of %llu items (one run of %u consecutive items in %u)\n",
                r->n, rep->items, rep->lay.unit, rep->lay.every);
    if (r->mismatches) /* the original is to blame (check_runs warned) */
        fprintf(f, "  instrumented run differs from the original in %zu of %zu values: %s\n",
                r->mismatches, r->compared, r->self_mismatches ? "the original disagrees with "
                "itself" : "possible race between items");
    else
        fprintf(f, "  instrumented run matches the original: %zu values compared\n",
                r->compared);
    if (r->cut)
        fprintf(f, "  left out: %zu items whose path on the second run was longer than on "
                   "the first (the kernel does not run the same way twice)\n", r->cut);
    for (unsigned c = 0; c < pk->tree.nc; c++)
        print_construct(f, &pk->tree, &kp->base, c);
    print_predictions(f, kp, r->tile);
    print_loop_predictions(f, &pk->tree, kp);
    if (pk->set.known)
        print_candidates(f, rep, kp);
}

/* ---- JSON (docs/cli.md, "--profile-json") ---------------------------------------- */

static void json_str(strbuf *sb, const char *s)
{
    sb_putc(sb, '"');
    sb_put_json_string(sb, s, strlen(s));
    sb_putc(sb, '"');
}

static void json_construct(strbuf *sb, const ptree *t, const pstats *s, unsigned c)
{
    const pconstruct *pc = &t->c[c];
    const pcstats *cs = &s->c[c];
    sb_printf(sb, "        {\"kind\": \"%s\", \"line\": %u, \"construct\": \"%s\", ",
              pc->kind == PN_LOOP ? "loop" : "decision", pc->line, pc->what);
    sb_printf(sb, "\"parent\": %d, \"divergence\": ", pc->parent);
    if (pc->divergence < 0)
        sb_puts(sb, "null");
    else
        json_str(sb, class_name(pc->divergence));
    sb_printf(sb, ", \"split\": %s, \"items_per_branch\": [", pc->split ? "true" : "false");
    for (unsigned a = 0; a < pc->narms; a++)
        sb_printf(sb, "%s%llu", a ? ", " : "", cs->arm_items[a]);
    sb_printf(sb, "], \"groups_reached\": %llu, \"groups_diverged\": %llu, "
                  "\"lost_share\": %.6f",
              cs->reached, cs->diverged, share(cs->lost, s->issued));
    if (pc->kind == PN_LOOP)
        sb_printf(sb, ", \"lane_iterations\": %.0f, \"issued_iterations\": %.0f, "
                      "\"lost_share_body\": %.6f",
                  cs->lane_iters, cs->issued_iters, share(lost_in_body(t, s, c), s->issued));
    if (pc->helper[0]) {
        sb_puts(sb, ", \"helper\": ");
        json_str(sb, pc->helper);
        sb_printf(sb, ", \"call_line\": %u", pc->call_line);
    }
    sb_printf(sb, "}%s\n", c + 1 < t->nc ? "," : "");
}

static void json_prediction(strbuf *sb, const char *name, const pstats *s, double e,
                            unsigned tile, int last)
{
    double p = pstats_efficiency(s);
    sb_printf(sb, "        {\"strategy\": \"%s\", ", name);
    if (tile)
        sb_printf(sb, "\"tile_items\": %u, ", tile);
    sb_printf(sb, "\"simt_efficiency\": %.6f, \"speedup_bound\": %.6f}%s\n", p,
              e > 0 ? p / e : 1.0, last ? "" : ",");
}

/* A regrouped loop's prediction: "strategy": "tile+loop", the loop, and both efficiencies. */
static void json_loop_prediction(strbuf *sb, const ptree *t, const loop_prediction *p, int last)
{
    double e = p->kernel_efficiency, er = p->kernel_efficiency_regrouped;
    sb_printf(sb, "        {\"strategy\": \"tile+loop\", \"prediction\": true, "
                  "\"loop_line\": %u, \"decision_line\": %u, \"round_lanes\": %u, "
                  "\"loop_simt_efficiency\": %.6f, \"loop_simt_efficiency_regrouped\": %.6f, "
                  "\"branch_efficiency_regrouped\": %.6f, \"simt_efficiency\": %.6f, "
                  "\"speedup_bound\": %.6f}%s\n",
              t->c[p->loop].line, t->c[p->decision].line, PROFILE_LOOP_LANES,
              share(p->loop_useful, p->loop_issued),
              share(p->loop_useful, p->loop_issued_regrouped), p->branch_efficiency, er,
              e > 0 ? er / e : 1.0, last ? "" : ",");
}

/* "candidates": the carried candidates' predictions; "auto_first". */
static void json_candidates(strbuf *sb, const kprof *kp)
{
    sb_puts(sb, ",\n     \"candidates\": [");
    for (unsigned c = 0; c < kp->ncands; c++) {
        const candidate_prediction *p = &kp->cands[c];
        sb_printf(sb, "%s{\"candidate\": \"%s\", \"predicted\": %s", c ? ", " : "",
                  nplus1rt_candidate_text(p->cand), p->known ? "true" : "false");
        if (p->known)
            sb_printf(sb, ", \"cost\": %.6f, \"speedup\": %.6f", p->cost, p->speedup);
        else {
            sb_puts(sb, ", \"why\": ");
            json_str(sb, p->why);
        }
        sb_putc(sb, '}');
    }
    sb_puts(sb, "], \"auto_first\": ");
    if (kp->auto_first >= 0)
        json_str(sb, nplus1rt_candidate_text(kp->auto_first));
    else
        sb_puts(sb, "null");
}

static void json_kernel(strbuf *sb, const profile_report *rep, unsigned i, const kprof *kp)
{
    const profile_kernel_tree *pk = &rep->ks[i];
    const profile_result *r = &rep->res[i];
    double e = pstats_efficiency(&kp->base);
    sb_puts(sb, "    {\"name\": ");
    json_str(sb, pk->name);
    sb_printf(sb, ", \"simt_efficiency\": %.6f, \"width\": %u, \"items\": %zu, "
                  "\"launch_items\": %llu, \"sampled\": %s, \"groups\": %llu,\n",
              e, rep->width, r->n, rep->items, rep->lay.every > 1 ? "true" : "false",
              kp->base.groups);
    sb_printf(sb, "     \"useful_work\": %.1f, \"issued_work\": %.1f, "
                  "\"values_compared\": %zu,\n",
              kp->base.useful, kp->base.issued, r->compared);
    if (r->cut)
        sb_printf(sb, "     \"items_left_out\": %zu,\n", r->cut);
    sb_puts(sb, "     \"constructs\": [\n");
    for (unsigned c = 0; c < pk->tree.nc; c++)
        json_construct(sb, &pk->tree, &kp->base, c);
    sb_puts(sb, "     ],\n     \"predictions\": [");
    if (kp->has_split || kp->nloops) {
        sb_puts(sb, "\n");
        if (kp->has_split) {
            json_prediction(sb, "split", &kp->split, e, 0, 0);
            json_prediction(sb, "tile", &kp->tile, e, r->tile, !kp->nloops);
        }
        for (unsigned l = 0; l < kp->nloops; l++)
            json_loop_prediction(sb, &pk->tree, &kp->loops[l], l + 1 == kp->nloops);
        sb_puts(sb, "     ");
    }
    sb_puts(sb, "]");
    if (pk->set.known)
        json_candidates(sb, kp);
    sb_printf(sb, "}%s\n", i + 1 < rep->nks ? "," : "");
}

static int write_json(const profile_report *rep, const kprof *kps)
{
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, "{\n  \"format\": \"nplus1-profile\",\n  \"version\": 1,\n  \"input\": ");
    json_str(&sb, rep->input);
    sb_puts(&sb, ",\n  \"device\": ");
    json_str(&sb, rep->nks ? rep->res[0].device : "");
    sb_printf(&sb, ",\n  \"seed\": %llu,\n  \"global\": [%zu, %zu, %zu],\n  \"kernels\": [\n",
              rep->seed, rep->global[0], rep->global[1], rep->global[2]);
    for (unsigned i = 0; i < rep->nks; i++)
        json_kernel(&sb, rep, i, &kps[i]);
    sb_puts(&sb, "  ]\n}\n");
    FILE *f = fopen(rep->json, "w");
    int bad = !f || fwrite(sb.data, 1, sb.len, f) != sb.len;
    if (f)
        bad |= fclose(f) != 0;
    if (bad)
        fprintf(stderr, "nplus1gen: error: cannot write '%s'\n", rep->json);
    sb_free(&sb);
    return bad ? 3 : 0;
}

/* ---- all ------------------------------------------------------------------------- */

/*
 * The instrumented run against the original's. A difference is the original's
 * when it disagrees with itself in a second run, or every difference lies on
 * buffers its items may race on; else its items may race where its text does
 * not show it (the copy runs at another speed, its items in another order), or
 * the instrumentation is wrong, which the tests of the instrumented copy guard
 * (docs/testing.md). Each way the profile shows one schedule among those the
 * run allowed: a warning, the report, and no exit 3 (issue 29).
 */
static int check_runs(const profile_report *rep)
{
    for (unsigned i = 0; i < rep->nks; i++) {
        const profile_result *r = &rep->res[i];
        if (!r->mismatches)
            continue;
        if (r->self_mismatches)
            fprintf(stderr, "nplus1gen: warning: kernel '%s': the original kernel disagrees "
                            "with itself: a second run of it alone differs in %zu values (it "
                            "races or reads memory it never wrote), and the instrumented run "
                            "differs from it in %zu of %zu values; the profile shows one of "
                            "the schedules it allows\n",
                    rep->ks[i].name, r->self_mismatches, r->mismatches, r->compared);
        else if (r->race_mismatches == r->mismatches)
            fprintf(stderr, "nplus1gen: warning: kernel '%s': the instrumented run differs "
                            "from the original in %zu of %zu values, all on %s: possible race "
                            "between items on %s (the kernel writes it at an index read from "
                            "memory and reads it too); the profile shows one of the schedules "
                            "the original allows\n",
                    rep->ks[i].name, r->mismatches, r->compared, r->races, r->races);
        else /* a race the text does not show: the copy runs its items in another order */
            fprintf(stderr, "nplus1gen: warning: kernel '%s': the instrumented run differs "
                            "from the original in %zu of %zu values, and a second run of the "
                            "original agrees with its first: its items may race (two writing "
                            "one element, or one reading what another writes) where its text "
                            "does not show it, and the instrumented copy runs them in another "
                            "order, or it reads past a buffer; else the instrumentation is "
                            "wrong (please report it). The profile shows the paths of the "
                            "instrumented run\n",
                    rep->ks[i].name, r->mismatches, r->compared);
    }
    return 0;
}

int profile_report_all(const profile_report *rep)
{
    int rc = check_runs(rep);
    if (rc)
        return rc;
    kprof *kps = xcalloc(rep->nks ? rep->nks : 1, sizeof *kps);
    printf("profiling on %s: %u-D global %zu,%zu,%zu, seed %llu\n",
           rep->nks ? rep->res[0].device : "", rep->dim, rep->global[0], rep->global[1],
           rep->global[2], rep->seed);
    for (unsigned i = 0; i < rep->nks; i++) {
        profile_replay_kernel(rep, i, &kps[i]);
        if (kps[i].base.bad_trace) {
            fprintf(stderr, "nplus1gen: internal error: kernel '%s': a recorded path does not "
                            "fit its control flow\n", rep->ks[i].name);
            rc = 3;
        }
        profile_print_kernel(stdout, rep, i, &kps[i]);
    }
    if (rc == 0 && rep->json)
        rc = write_json(rep, kps);
    for (unsigned i = 0; i < rep->nks; i++)
        profile_replayed_free(&kps[i]);
    free(kps);
    return rc;
}

void profile_replayed_free(profile_replayed *kp)
{
    pstats_free(&kp->base);
    if (kp->has_split) {
        pstats_free(&kp->split);
        pstats_free(&kp->tile);
    }
    memset(kp, 0, sizeof *kp);
}

void profile_result_free(profile_result *r)
{
    free(r->record);
    free(r->traces);
    free(r->ids);
    memset(r, 0, sizeof *r);
}
