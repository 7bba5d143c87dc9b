/* SPDX-License-Identifier: Apache-2.0 */
/*
 * paths.c - impossible paths (see paths.h). Only the simplest integer facts
 * count, so that a dropped leaf is certainly dead: `k = C;` or `int k = C;`
 * for a private integer scalar k whose address the kernel never takes, with
 * no other write of k between that statement and the decision, and a
 * decision that compares k with a constant (k OP C, C OP k, k, !k, && and
 * || of those) or switches on k. And an if condition written again, the same
 * text, over private integer scalars only (no load, no call with an effect; a
 * helper it calls names only its parameters and locals) that nothing on the
 * path writes in between: it has the outcome it had.
 */
#include "paths.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan_facts.h"
#include "syntax.h"
#include "util.h"

typedef struct fact {
    CXCursor var;
    long long value;
    unsigned line;
} fact;

/* An if condition the path has evaluated: branch b's condition of d was `value`. */
typedef struct outcome {
    const decision *d;
    unsigned b;
    int value;
} outcome;

typedef struct facts {
    fact v[32];
    unsigned n;
    outcome o[32];
    unsigned no;
    const kernel_info *k;
    const analysis *an;
} facts;

static const fact *fact_of(const facts *fs, CXCursor var)
{
    for (unsigned i = 0; i < fs->n; i++)
        if (cursors_equal(fs->v[i].var, var))
            return &fs->v[i];
    return NULL;
}

static void forget(facts *fs, CXCursor var)
{
    for (unsigned i = 0; i < fs->n; i++)
        if (cursors_equal(fs->v[i].var, var)) {
            fs->v[i] = fs->v[--fs->n];
            return;
        }
}

static int reads_var(const effects *fx, CXCursor var)
{
    for (unsigned i = 0; i < fx->nreads; i++)
        if (cursors_equal(fx->reads[i], var))
            return 1;
    return 0;
}

/* A write of var: the outcomes of the conditions that read it no longer hold. */
static void forget_outcomes(facts *fs, CXCursor var)
{
    for (unsigned i = 0; i < fs->no;)
        if (reads_var(&fs->o[i].d->cond_fx, var))
            fs->o[i] = fs->o[--fs->no];
        else
            i++;
}

static void forget_writes(facts *fs, const effects *fx)
{
    for (unsigned w = 0; w < fx->nwrites; w++) {
        forget(fs, fx->writes[w]);
        forget_outcomes(fs, fx->writes[w]);
    }
}

static void run_stmt(facts *fs, const seq_item *it)
{
    CXCursor var;
    long long c;
    int assigns = stmt_assigns_constant(fs->an, it->cursor, &var, &c);
    forget_writes(fs, &it->fx);
    if (!assigns || fs->n == 32 || !var_tracks_constant(fs->an, fs->k, var, c))
        return;
    forget(fs, var);
    fs->v[fs->n++] = (fact){var, c, cursor_expansion_line(it->cursor)};
}

/* ---- conditions ---------------------------------------------------------- */

/* The fact on var, for cond_evaluate (the analyze stage reads the condition). */
static const void *known_fact(const void *ud, CXCursor var, long long *value)
{
    const fact *f = fact_of(ud, var);
    if (f)
        *value = f->value;
    return f;
}

static cond_value eval_cond(const facts *fs, CXCursor e)
{
    return cond_evaluate(fs->an, e, known_fact, fs);
}

/* ---- the path ------------------------------------------------------------ */

static void put_text(const analysis *an, src_range r, char *out, size_t len)
{
    size_t n;
    const char *t = range_text(an, r, &n);
    char buf[96];
    size_t w = 0;
    for (size_t i = 0; i < n && w + 1 < sizeof buf; i++) { /* one line, single spaces */
        char ch = t[i] == '\n' || t[i] == '\t' || t[i] == '\r' ? ' ' : t[i];
        if (ch == ' ' && (w == 0 || buf[w - 1] == ' '))
            continue;
        buf[w++] = ch;
    }
    while (w && buf[w - 1] == ' ')
        w--;
    buf[w] = '\0';
    snprintf(out, len, "%s", buf);
}

static void say_why(const analysis *an, const fact *f, const char *test, unsigned line, char *why,
                    size_t len)
{
    char *name = cursor_spelling(f->var);
    snprintf(why, len, "%s = %lld on line %u, %s on line %u", name, f->value, f->line, test,
             line);
    free(name);
    (void)an;
}

/* The if's branch b: earlier conditions false, its own true. 1 when a fact rules it out. */
static int if_impossible(facts *fs, const decision *d, unsigned b, char *why, size_t len)
{
    for (unsigned i = 0; i <= b && i < d->nbranches; i++) {
        const branch *br = &d->branches[i];
        if (br->kind != BR_IF)
            continue;
        cond_value v = eval_cond(fs, br->cond_cursor);
        int want = i == b;
        if (v.value < 0 || v.value == want || !v.used)
            continue;
        char text[96], test[112];
        put_text(fs->an, br->cond, text, sizeof text);
        snprintf(test, sizeof test, want ? "%s" : "!(%s)", text);
        say_why(fs->an, v.used, test, br->cond.line, why, len);
        return 1;
    }
    return 0;
}

/* ---- a condition the path evaluated before -------------------------------- */

/*
 * May the outcome of d's conditions be reused by a later condition of the same text?
 * Only when they read nothing but private integer scalars of the kernel whose address
 * it never takes (so only a statement the path runs can change them: run_stmt forgets
 * the outcome then) and __constant pointer parameters (no work-item writes __constant
 * memory), load no other memory, and write and call nothing with an effect.
 */
static int outcome_reusable(const facts *fs, const decision *d)
{
    const effects *fx = &d->cond_fx;
    if (d->kind != DEC_IF || fx->nwrites || fx->nloads || fx->nstores ||
        (fx->bits & ~(unsigned)EFF_WORKITEM))
        return 0;
    for (unsigned i = 0; i < fx->nreads; i++)
        if (!var_tracks_constant(fs->an, fs->k, fx->reads[i], 0) &&
            !var_is_constant_pointer_param(fs->k, fx->reads[i]))
            return 0;
    for (unsigned b = 0; b < d->nbranches; b++)
        if (d->branches[b].kind == BR_IF && !cond_reads_only_locals(d->branches[b].cond_cursor))
            return 0;
    return 1;
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Is the text of range a (whitespace runs as one space) the text of range b? */
static int same_text(const analysis *an, src_range a, src_range b)
{
    size_t na, nb;
    const char *ta = range_text(an, a, &na), *tb = range_text(an, b, &nb);
    if (!ta || !tb)
        return 0;
    size_t i = 0, j = 0;
    for (int first = 1;; first = 0) {
        int sa = 0, sb = 0;
        while (i < na && is_blank(ta[i]))
            i++, sa = 1;
        while (j < nb && is_blank(tb[j]))
            j++, sb = 1;
        if (i == na || j == nb)
            return i == na && j == nb;
        if ((!first && sa != sb) || ta[i] != tb[j])
            return 0;
        i++, j++;
    }
}

/* The if's branch b needs a condition to be other than the path found it before: 1. */
static int if_repeats_other(const facts *fs, const decision *d, unsigned b, char *why,
                            size_t len)
{
    if (!outcome_reusable(fs, d))
        return 0;
    for (unsigned i = 0; i <= b && i < d->nbranches; i++) {
        const branch *br = &d->branches[i];
        if (br->kind != BR_IF)
            continue;
        int want = i == b;
        for (unsigned o = 0; o < fs->no; o++) {
            const outcome *oc = &fs->o[o];
            const branch *before = &oc->d->branches[oc->b];
            if (oc->value == want || !same_text(fs->an, before->cond, br->cond))
                continue;
            char text[96];
            put_text(fs->an, br->cond, text, sizeof text);
            snprintf(why, len, "%s %s on line %u, %s on line %u, nothing between writes what "
                     "it reads", text, oc->value ? "true" : "false", before->cond.line,
                     want ? "true" : "false", br->cond.line);
            return 1;
        }
    }
    return 0;
}

/* The path takes d's branch b: its conditions' outcomes, when a later one may reuse them. */
static void note_outcomes(facts *fs, const decision *d, unsigned b)
{
    if (!outcome_reusable(fs, d))
        return;
    for (unsigned i = 0; i <= b && i < d->nbranches && fs->no < 32; i++)
        if (d->branches[i].kind == BR_IF)
            fs->o[fs->no++] = (outcome){d, i, i == b};
}

static int case_has(const branch *br, long long v)
{
    for (unsigned i = 0; i < br->nvalues; i++)
        if (br->values[i] == v)
            return 1;
    return 0;
}

static int switch_impossible(facts *fs, const decision *d, unsigned b, char *why, size_t len)
{
    const fact *f = fact_of(fs, named_var(d->cond_cursor));
    if (!f || d->macro_labels || b >= d->nbranches)
        return 0;
    const branch *br = &d->branches[b];
    int possible;
    if (br->kind == BR_CASE) {
        possible = case_has(br, f->value);
    } else {
        possible = 1;
        for (unsigned i = 0; i < d->nbranches; i++)
            if (d->branches[i].kind == BR_CASE && case_has(&d->branches[i], f->value))
                possible = 0;
    }
    if (possible)
        return 0;
    char text[96], test[140];
    put_text(fs->an, d->cond, text, sizeof text);
    if (br->kind == BR_CASE && br->nvalues)
        snprintf(test, sizeof test, "switch (%s) enters case %lld", text, br->values[0]);
    else
        snprintf(test, sizeof test, "switch (%s) matches no case", text);
    say_why(fs->an, f, test, d->range.line, why, len);
    return 1;
}

int path_impossible(const analysis *an, const kernel_info *k, const path_event *ev, unsigned n,
                    char *why, size_t len)
{
    facts fs;
    memset(&fs, 0, sizeof fs);
    fs.k = k;
    fs.an = an;
    for (unsigned i = 0; i < n; i++) {
        if (ev[i].stmt) {
            run_stmt(&fs, ev[i].stmt);
            continue;
        }
        const decision *d = ev[i].d;
        forget_writes(&fs, &d->cond_fx); /* (v = ...) > 3: v is not known */
        int dead = d->kind == DEC_IF ? if_impossible(&fs, d, ev[i].branch, why, len) ||
                                           if_repeats_other(&fs, d, ev[i].branch, why, len)
                                     : switch_impossible(&fs, d, ev[i].branch, why, len);
        if (dead)
            return 1;
        note_outcomes(&fs, d, ev[i].branch);
    }
    return 0;
}
