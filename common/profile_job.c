/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_job.c - the profile job's tree, layout and recording
 * (profile_job.h). The tree's text (docs/cli.md, "Profile jobs"):
 *
 *   nplus1-profile-tree 1
 *   kernel NAME NCONSTRUCTS
 *   construct KIND WHAT LINE NARMS PARENT SPLIT DIVERGENCE OFFSET [HELPER CALL_LINE]
 *                              (NCONSTRUCTS lines; HELPER, CALL_LINE: one in a helper)
 *   seq N                      the top level: N nodes follow
 *   node KIND COST INIT STEP TEST CONSTRUCT NARMS [ACCESSES [MATH [COALESCED CBYTES
 *        BROADCAST]]]         then NARMS seqs, its arms (MATH: the part of COST that math
 *                              builtins add; COALESCED, CBYTES, BROADCAST: of ACCESSES, those
 *                              that coalesce and the bytes they move an item, and those at
 *                              one address for a row of items; the rest a sector each)
 *   end
 *   set CARRIES TILE CTXBYTES LAUNCHES CLASSIFIER PROLOGUE ACCESSES OPS REGROUP
 *       [CACCESSES [LACCESSES LOPS [BYTES [SPLITCLASSIFIER]]]]  (optional: the generated
 *                              set, profile_report.h's profile_set)
 *
 * KIND: work, if, switch, loop, break, continue, return, call (a helper's
 * body, its one arm), leave (a helper's return); TEST: pre, post,
 * none; DIVERGENCE: -1 (none), 0 uniform, 1 affine, 2 data; costs with 17
 * significant digits, so that the replay reads back the very doubles.
 */
#include "profile_job.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *const kinds[] = {"work", "if", "switch", "loop", "break", "continue",
                                    "return", "call", "leave", NULL};
static const char *const tests[] = {"pre", "post", "none", NULL};
static const char *const whats[] = {"if", "switch", "for", "while", "do", NULL};

static int find(const char *const *names, const char *s)
{
    for (int i = 0; names[i]; i++)
        if (!strcmp(names[i], s))
            return i;
    return -1;
}

/* ---- writing ---------------------------------------------------------------------- */

static void write_seq(strbuf *sb, const pseq *s)
{
    sb_printf(sb, "seq %u\n", s->n);
    for (unsigned i = 0; i < s->n; i++) {
        const pnode *n = &s->v[i];
        sb_printf(sb, "node %s %.17g %.17g %.17g %s %u %u %.17g %.17g %.17g %.17g %.17g\n",
                  kinds[n->kind], n->cost, n->init_cost, n->step_cost, tests[n->test],
                  n->construct, n->narms, n->accesses, n->math, n->coalesced,
                  n->coalesced_bytes, n->broadcast);
        for (unsigned a = 0; a < n->narms; a++)
            write_seq(sb, &n->arms[a]);
    }
}

void profile_tree_write(strbuf *sb, const char *name, const ptree *t)
{
    if (sb->len == 0)
        sb_puts(sb, "nplus1-profile-tree 1\n");
    sb_printf(sb, "kernel %s %u\n", name, t->nc);
    for (unsigned c = 0; c < t->nc; c++) {
        const pconstruct *pc = &t->c[c];
        sb_printf(sb, "construct %s %s %u %u %d %d %d %u", kinds[pc->kind], pc->what, pc->line,
                  pc->narms, pc->parent, pc->split, pc->divergence, pc->offset);
        if (pc->helper[0])
            sb_printf(sb, " %s %u", pc->helper, pc->call_line);
        sb_putc(sb, '\n');
    }
    write_seq(sb, &t->top);
    sb_puts(sb, "end\n");
}

void profile_set_write(strbuf *sb, const profile_set *ps)
{
    sb_printf(sb, "set %u %u %u %u %.17g %.17g %.17g %.17g %u %.17g %.17g %.17g %.17g %.17g\n",
              ps->carries, ps->tile, ps->ctx_bytes, ps->launches, ps->classifier, ps->prologue,
              ps->accesses, ps->ops, ps->regroup, ps->classifier_accesses, ps->loop_accesses,
              ps->loop_ops, ps->access_bytes, ps->split_classifier);
}


/* ---- reading ---------------------------------------------------------------------- */

typedef struct reader {
    FILE *f;
    const char *path;
    unsigned line;
    char buf[512];
    unsigned nc;              /* the kernel's constructs: CONSTRUCT must be below */
    unsigned depth;
} reader;

static int bad(reader *r, const char *why)
{
    fprintf(stderr, "nplus1gen-validate: %s:%u: %s\n", r->path, r->line, why);
    return -1;
}

static int next_line(reader *r)
{
    if (!fgets(r->buf, sizeof r->buf, r->f))
        return bad(r, "ends early");
    r->line++;
    r->buf[strcspn(r->buf, "\n")] = '\0';
    return 0;
}

static int read_seq(reader *r, pseq *s)
{
    unsigned n;
    if (next_line(r) || sscanf(r->buf, "seq %u", &n) != 1)
        return bad(r, "a 'seq N' line expected");
    if (++r->depth > 1000)
        return bad(r, "nested too deep");
    s->v = xcalloc(n ? n : 1, sizeof *s->v);
    s->cap = n ? n : 1;
    for (; s->n < n; s->n++) {
        pnode *p = &s->v[s->n];
        char kind[16], test[16];
        /* ACCESSES and MATH, the eighth and ninth, and the accesses' classes, the tenth to
         * twelfth, are newer: a tree without them reads 0 (every access a sector) */
        int got = next_line(r) ? 0
                               : sscanf(r->buf, "node %15s %lf %lf %lf %15s %u %u %lf %lf %lf %lf %lf",
                                        kind, &p->cost, &p->init_cost, &p->step_cost, test,
                                        &p->construct, &p->narms, &p->accesses, &p->math,
                                        &p->coalesced, &p->coalesced_bytes, &p->broadcast);
        if (got < 7 || got == 10 || got == 11)
            return bad(r, "a 'node' line of 7, 8, 9 or 12 fields expected");
        if (got < 12)
            p->coalesced = p->coalesced_bytes = p->broadcast = 0;
        if (p->coalesced < 0 || p->broadcast < 0 || p->coalesced_bytes < 0 ||
            p->coalesced + p->broadcast > p->accesses)
            return bad(r, "a node whose coalesced and broadcast accesses are not among its "
                          "accesses");
        if (got < 8)
            p->accesses = 0;
        if (got < 9)
            p->math = 0;
        int k = find(kinds, kind), t = find(tests, test);
        if (k < 0 || t < 0 || p->narms > PROFILE_MAX_ARMS + 1 ||
            ((k == PN_IF || k == PN_SWITCH || k == PN_LOOP) && p->construct >= r->nc))
            return bad(r, "a node of an unknown kind, test or construct");
        p->kind = (pnode_kind)k;
        p->test = (loop_test)t;
        p->arms = p->narms ? xcalloc(p->narms, sizeof *p->arms) : NULL;
        for (unsigned a = 0; a < p->narms; a++)
            if (read_seq(r, &p->arms[a]) != 0)
                return -1;
    }
    r->depth--;
    return 0;
}

static int read_construct(reader *r, pconstruct *pc)
{
    char kind[16], what[16];
    int used = 0;
    if (next_line(r) || sscanf(r->buf, "construct %15s %15s %u %u %d %d %d %u%n", kind, what,
                               &pc->line, &pc->narms, &pc->parent, &pc->split,
                               &pc->divergence, &pc->offset, &used) != 8)
        return bad(r, "a 'construct' line expected");
    if (r->buf[used] && sscanf(r->buf + used, " %63s %u", pc->helper, &pc->call_line) != 2)
        return bad(r, "a construct's helper and call line expected");
    int k = find(kinds, kind), w = find(whats, what);
    if (k < 0 || w < 0 || pc->parent < -1 || pc->divergence < -1 || pc->divergence > 2)
        return bad(r, "a construct of an unknown kind");
    pc->kind = (pnode_kind)k;
    pc->what = whats[w];
    return 0;
}

static int read_kernel(reader *r, profile_kernel_tree *k)
{
    char name[256];
    unsigned nc;
    if (sscanf(r->buf, "kernel %255s %u", name, &nc) != 2 || nc > 1000000)
        return bad(r, "a 'kernel NAME N' line expected");
    k->name = xstrdup(name);
    k->tree.c = xcalloc(nc ? nc : 1, sizeof *k->tree.c);
    k->tree.capc = nc ? nc : 1;
    for (; k->tree.nc < nc; k->tree.nc++)
        if (read_construct(r, &k->tree.c[k->tree.nc]) != 0)
            return -1;
    for (unsigned c = 0; c < nc; c++)
        if (k->tree.c[c].parent >= (int)nc)
            return bad(r, "a construct's parent is not one of the kernel's");
    r->nc = nc;
    r->depth = 0;
    if (read_seq(r, &k->tree.top) != 0)
        return -1;
    if (next_line(r) || strcmp(r->buf, "end"))
        return bad(r, "'end' expected");
    return 0;
}

/* A kernel's "set" line (after its "end"): the generated set it predicts for. */
static int read_set(reader *r, profile_kernel_tree *k)
{
    profile_set *ps = &k->set;
    /* the tenth number, the classifier's accesses, and the eleventh and twelfth, the loop
     * body's accesses and operations, the thirteenth, the accesses' bytes, and the fourteenth,
     * the split's classifier, are newer: a tree without them reads them as 0 */
    int got = sscanf(r->buf, "set %u %u %u %u %lf %lf %lf %lf %u %lf %lf %lf %lf %lf",
                     &ps->carries, &ps->tile, &ps->ctx_bytes, &ps->launches, &ps->classifier,
                     &ps->prologue, &ps->accesses, &ps->ops, &ps->regroup,
                     &ps->classifier_accesses, &ps->loop_accesses, &ps->loop_ops,
                     &ps->access_bytes, &ps->split_classifier);
    if (got < 9 || got == 11 || ps->carries >= 1u << NPLUS1RT_NCANDIDATES || ps->tile > 4 ||
        ps->regroup > PROFILE_REGROUP_OFF)
        return bad(r, "a 'set' line of 9, 10, 12, 13 or 14 numbers expected");
    if (got < 14)
        ps->split_classifier = 0;
    if (got < 13)
        ps->access_bytes = 0;
    if (got < 10)
        ps->classifier_accesses = 0;
    if (got < 12)
        ps->loop_accesses = ps->loop_ops = 0;
    ps->known = 1;
    return 0;
}

int profile_tree_read(const char *path, profile_kernel_tree **ks, unsigned *nks)
{
    reader r = {fopen(path, "r"), path, 0, "", 0, 0};
    *ks = NULL;
    *nks = 0;
    if (!r.f) {
        fprintf(stderr, "nplus1gen-validate: cannot read '%s': %s\n", path, strerror(errno));
        return -1;
    }
    int rc = next_line(&r) || strcmp(r.buf, "nplus1-profile-tree 1")
                 ? bad(&r, "not a profile tree (nplus1-profile-tree 1)")
                 : 0;
    unsigned cap = 0;
    while (rc == 0 && fgets(r.buf, sizeof r.buf, r.f)) {
        r.line++;
        r.buf[strcspn(r.buf, "\n")] = '\0';
        if (!strncmp(r.buf, "set ", 4) && *nks) {
            rc = read_set(&r, &(*ks)[*nks - 1]);
            continue;
        }
        profile_kernel_tree k;
        memset(&k, 0, sizeof k);
        rc = read_kernel(&r, &k);
        VEC_PUSH(*ks, *nks, cap, k);
    }
    fclose(r.f);
    if (rc == 0 && *nks == 0)
        rc = bad(&r, "no kernel");
    if (rc != 0) {
        profile_kernel_trees_free(*ks, *nks);
        *ks = NULL;
        *nks = 0;
    }
    return rc;
}

void profile_kernel_trees_free(profile_kernel_tree *ks, unsigned nks)
{
    for (unsigned i = 0; i < nks; i++) {
        free(ks[i].name);
        ptree_free(&ks[i].tree);
    }
    free(ks);
}

/* ---- the layout and the recording ---------------------------------------------------- */

int profile_plan_layout(unsigned long long items, unsigned long long memory, unsigned slot,
                        profile_layout *lay)
{
    unsigned long long unit = items < PROFILE_UNIT_ITEMS ? items : PROFILE_UNIT_ITEMS;
    unsigned long long total = (items + unit - 1) / unit;
    unsigned long long fit = memory / (unit * slot);
    if (fit == 0) {
        unsigned long long need = unit * slot, mib = (need + (1u << 20) - 1) >> 20;
        fprintf(stderr, "nplus1gen: error: too little memory for the recording: %llu items of "
                        "%u bytes (the paths' length) need %llu bytes, --profile-memory allows "
                        "%llu: give --profile-memory %llu (MiB) or more, or profile a smaller "
                        "launch (--global)\n",
                unit, slot, need, memory, mib);
        return -1;
    }
    unsigned long long every = (total + fit - 1) / fit;
    lay->unit = (unsigned)unit;
    lay->every = (unsigned)every;
    lay->units = (unsigned)((total + every - 1) / every);
    lay->slot = slot;
    return 0;
}

unsigned long long profile_record_bytes(const profile_layout *lay)
{
    return (unsigned long long)lay->units * lay->unit * lay->slot;
}

int profile_take_record(profile_result *r, unsigned char *data, size_t len,
                        const profile_layout *lay, unsigned long long items)
{
    if (len != profile_record_bytes(lay)) {
        free(data);
        return -1;
    }
    size_t slots = (size_t)lay->units * lay->unit;
    r->record = data;
    r->traces = xcalloc(slots ? slots : 1, sizeof *r->traces);
    r->ids = xcalloc(slots ? slots : 1, sizeof *r->ids);
    r->n = 0;
    r->longest = 0;
    r->cut = 0;
    for (size_t s = 0; s < slots; s++) {
        unsigned long long id = (s / lay->unit) * lay->every * lay->unit + s % lay->unit;
        if (id >= items)
            continue;
        const unsigned char *slot = r->record + s * lay->slot;
        unsigned n;
        memcpy(&n, slot, 4);
        if (n > r->longest)
            r->longest = n;
        if (n > lay->slot - 4) { /* its path does not fit: it cannot be replayed */
            r->cut++;
            continue;
        }
        r->traces[r->n] = (ptrace){slot + 4, n};
        r->ids[r->n++] = id;
    }
    return 0;
}
