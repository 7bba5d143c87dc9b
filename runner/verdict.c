/* SPDX-License-Identifier: Apache-2.0 */
/*
 * verdict.c - what nplus1gen-validate prints (runner.h): per kernel the
 * result and the side-by-side table of --reps, the leaves no item reached
 * with hints at the inputs that would reach them, and the last line.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

/* kdesc.tile_kind of a set whose split is the loop kernel (3) or the state machine (4): its
 * leaves are the arms of their regroup points, which an item may never reach after running
 * the rest of the kernel's code */
#define TILE_KIND_LOOP 3
#define TILE_KIND_MACHINE 4
#define REGROUPS_ONLY(k) ((k)->tile_kind == TILE_KIND_LOOP || (k)->tile_kind == TILE_KIND_MACHINE)

/* "tile", or what the job says the tile kernel is: "tile+context", "tile+loop". */
static const char *variant_name(const kdesc *k, const char *name)
{
    static const char *const kinds[] = {"tile", "tile", "tile+context", "tile+loop",
                                         "tile+machine"};
    if (!strcmp(name, "tile") && k->tile_kind < sizeof kinds / sizeof *kinds)
        return kinds[k->tile_kind];
    return name;
}

/* --reps: the original, each candidate forced, and auto (what it chose), side by side. */
static void print_variants(const kdesc *k, const nplus1rt_validation *r)
{
    if (!(r->original_ms > 0) || !r->nvariants)
        return;
    printf("  side by side (median wall; x = original / variant):\n");
    printf("    %-18s %12.3f ms  1.00x\n", "original", r->original_ms);
    for (unsigned i = 0; i < r->nvariants; i++) {
        double ms = r->variants[i].ms;
        if (!strcmp(r->variants[i].name, "leaves-alone")) { /* validate.c, leaves_alone_ms */
            printf("    %-18s %12.3f ms  %.2fx  leaf kernels only (profiling events): the split's "
                   "ceiling if classifying and regrouping cost nothing\n",
                   "leaves-alone", ms, ms > 0 ? r->original_ms / ms : 0.0);
            continue;
        }
        printf("    %-18s %12.3f ms  %.2fx  %s%s\n", variant_name(k, r->variants[i].name), ms,
               ms > 0 ? r->original_ms / ms : 0.0, r->variants[i].chose[0] ? "chose " : "forced",
               variant_name(k, r->variants[i].chose));
    }
}

/* Mismatches on buffers items may race on (job.h, `racy`): name them, blame nobody. */
static void print_races(const kdesc *k, const nplus1rt_validation *r)
{
    unsigned char seen[MAX_ARGS] = {0};
    unsigned n = 0, other = 0;
    for (unsigned i = 0; i < r->nfirst; i++) {
        unsigned a = r->first[i].arg;
        if (a < MAX_ARGS && k->racy[a])
            n += !seen[a]++;
        else
            other++;
    }
    if (!n)
        return;
    printf("  possible race between items on ");
    for (unsigned a = 0, m = 0; a < MAX_ARGS && a < k->d.nargs; a++)
        if (seen[a])
            printf("%s%s", m++ ? (m == n ? " and " : ", ") : "", k->args[a].name);
    printf(": a mismatch there may be an interleaving the original allows (the kernel writes "
           "%s at an index read from memory and reads %s too)%s; validate with race-free "
           "inputs (no two items writing one element, none reading what another writes) or "
           "compare order-free outputs with --unordered\n",
           n > 1 ? "them" : "it", n > 1 ? "them" : "it",
           other ? "; the mismatches on other buffers are not explained by it" : "");
}

void verdict_result(const kdesc *k, const nplus1rt_validation *r)
{
    printf("kernel %s: %zu values compared, %zu mismatches\n", k->name, r->compared, r->mismatches);
    if (r->empty_items == NPLUS1RT_NOT_COUNTED)
        printf("  leaves not counted: the tile kernel ran in place (regrouping off: "
               "NPLUS1_TILE_REGROUP or NPLUS1_LOOP_REGROUP -1), the kernel's own body\n");
    for (unsigned l = 0; r->empty_items != NPLUS1RT_NOT_COUNTED && l < k->npaths; l++) {
        int kern = k->path_kernel[l];
        if (kern < 0 || kern >= 64) {
            printf("  leaf %u (empty: no kernel, no bucket)  when %s\n", l, k->path_cond[l]);
            continue;
        }
        size_t items = r->leaf_items[kern];
        printf("  leaf %u -> kernel %d: %9zu items, %zu mismatches%s  when %s\n", l, kern, items,
               r->leaf_mismatches[kern], items ? "" : " (not exercised)", k->path_cond[l]);
    }
    if (r->empty_items != NPLUS1RT_NOT_COUNTED && REGROUPS_ONLY(k))
        printf("  items that reached no regroup point: %zu\n", r->empty_items);
    else if (r->empty_items != NPLUS1RT_NOT_COUNTED)
        printf("  items whose path does nothing: %zu\n", r->empty_items);
    for (unsigned i = 0; i < r->nfirst; i++)
        printf("  mismatch: %s[%zu] (leaf kernel %d): original %.9g, generated %.9g\n",
               k->args[r->first[i].arg].name, r->first[i].index, r->first[i].leaf,
               r->first[i].expected, r->first[i].got);
    if (r->original_ms > 0)
        printf("  time (median wall): original %.3f ms, generated %.3f ms, speedup %.2fx\n",
               r->original_ms, r->generated_ms, r->original_ms / r->generated_ms);
    print_variants(k, r);
    if (r->original_rechecked && r->original_self_mismatches)
        printf("  the original kernel disagrees with itself: a second run of it alone differs "
               "in %zu values (first in %s): it races or reads memory it never wrote, so these "
               "mismatches do not show the generated set is wrong (compare order-free outputs "
               "with --unordered)\n",
               r->original_self_mismatches, k->args[r->original_self_arg].name);
    if (r->mismatches)
        print_races(k, r);
}

/* ---- inconclusive: no item reached a leaf that does work ------------------ */

/* 1 when the parameter's name appears as a whole word in text. */
static int mentions(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
        int before = p > text && (p[-1] == '_' || isalnum((unsigned char)p[-1]));
        int after = p[n] == '_' || isalnum((unsigned char)p[n]);
        if (!before && !after)
            return 1;
    }
    return 0;
}

/* Jobs from before "inputs" lines: the parameters named in the condition's text. */
static void print_mentioned(const kdesc *k, unsigned l)
{
    int any = 0;
    for (unsigned p = 0; p < k->d.nargs; p++)
        if (mentions(k->path_cond[l], k->args[p].name))
            printf("%s %s", any++ ? "," : "    its condition reads:", k->args[p].name);
    if (any)
        printf(" (give buffers --arg NAME=choice:A,B,... | range:LO:HI | fill:V | file:PATH,"
               " values --arg NAME=VALUE)\n");
}

/* An input as the hint shows it: "[]" becomes "[...]". */
static void put_input(const char *name, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (name[i] == '[' && i + 1 < n && name[i + 1] == ']') {
            fputs("[...]", stdout);
            i++;
        } else {
            putchar(name[i]);
        }
    }
}

/* Is input [name, name+n) an index of another input of the list? */
static int is_index(const char *list, const char *name, size_t n)
{
    for (const char *p = strchr(list, '<'); p; p = strchr(p + 1, '<')) {
        const char *q = p + 1;
        for (;;) {
            size_t m = strcspn(q, ", ");
            if (m == n && !strncmp(q, name, n))
                return 1;
            if (q[m] != ',')
                break;
            q += m + 1;
        }
    }
    return 0;
}

/* The --arg that sets input [name, name+n): "shapes[].w[]" -> "--arg shapes.w=V". */
static void put_suggestion(const kdesc *k, const char *name, size_t n)
{
    size_t root = strcspn(name, "[.");
    root = root < n ? root : n;
    int p = kdesc_find_arg(k, name, root);
    fputs(" --arg ", stdout);
    fwrite(name, 1, root, stdout);
    int fields = 0;
    for (size_t i = root; i < n; i++) {
        if (name[i] == '[' && i + 1 < n && name[i + 1] == ']') {
            i++;
            continue;
        }
        fields |= name[i] == '.';
        putchar(name[i]);
    }
    int buffer = p >= 0 && k->args[p].kind == NPLUS1RT_ARG_BUFFER;
    int image = p >= 0 && k->args[p].kind == NPLUS1RT_ARG_IMAGE;
    fputs(image ? "=image:W[xH[xD]]|file:PATH" : buffer && !fields ? "=choice:A,B,..."
          : p >= 0 && !fields && kdesc_is_struct(k, (unsigned)p) ? ".FIELD=V" : "=V", stdout);
}

/* "    its conditions read: a, s[...].t (indexed by p[...]); give inputs ..., e.g. --arg s.t=V"
 * ("their" and "them" for a group of leaves). */
static void print_inputs_of(const kdesc *k, const char *list, int group)
{
    int any = 0;
    for (const char *t = list; *t; t += strspn(t, " ")) {
        size_t n = strcspn(t, " "), name = strcspn(t, "< ");
        if (!is_index(list, t, name)) {
            fputs(any++ ? ", " : group ? "    their conditions read: " : "    its conditions read: ",
                  stdout);
            put_input(t, name);
            if (name < n) {
                fputs(" (indexed by ", stdout);
                put_input(t + name + 1, n - name - 1);
                putchar(')');
            }
        }
        t += n;
    }
    if (!any)
        return;
    fputs(group ? "; give inputs that reach them, e.g." : "; give inputs that reach it, e.g.",
          stdout);
    for (const char *t = list; *t; t += strspn(t, " ")) {
        size_t n = strcspn(t, " "), name = strcspn(t, "< ");
        if (!is_index(list, t, name))
            put_suggestion(k, t, name);
        t += n;
    }
    putchar('\n');
}

static void print_inputs(const kdesc *k, const char *list)
{
    print_inputs_of(k, list, 0);
}

static int unreached(const kdesc *k, const nplus1rt_validation *r, unsigned l)
{
    int kern = k->path_kernel[l];
    return kern >= 0 && kern < 64 && !r->leaf_items[kern];
}

static int same_inputs(const char *a, const char *b)
{
    return a && b && !strcmp(a, b);
}

/* More unreached leaves than this are summarised: one line per set of inputs. */
#define UNREACHED_ONE_BY_ONE 4

/*
 * Many unreached leaves (a kernel of 32 leaves gave 21 KB of near-identical
 * lines): one line per set of inputs their conditions read, listing the leaves
 * (their conditions are in the table above), then that inputs line once.
 */
static void print_unreached_summary(const kdesc *k, const nplus1rt_validation *r)
{
    unsigned char done[1024] = {0};
    for (unsigned l = 0; l < k->npaths && l < sizeof done; l++) {
        if (done[l] || !unreached(k, r, l))
            continue;
        const char *in = k->path_inputs[l];
        unsigned n = 0;
        fputs("  leaves", stdout);
        for (unsigned m = l; m < k->npaths && m < sizeof done; m++) {
            if (done[m] || !unreached(k, r, m) || (m != l && !same_inputs(in, k->path_inputs[m])))
                continue;
            unsigned e = m; /* a run m..e of leaves of this group */
            while (e + 1 < k->npaths && e + 1 < sizeof done && !done[e + 1] &&
                   unreached(k, r, e + 1) && same_inputs(in, k->path_inputs[e + 1]))
                e++;
            printf(n++ ? ", %u" : " %u", m);
            if (e > m)
                printf("%s%u", e == m + 1 ? ", " : "-", e);
            for (unsigned x = m; x <= e; x++)
                done[x] = 1;
            m = e;
        }
        puts(" (conditions: the table above)");
        if (in)
            print_inputs_of(k, in, 1);
        else
            print_mentioned(k, l);
    }
}

/* The leaves (paths) whose kernel got no items, with the inputs their conditions read. */
static void print_unreached(const kdesc *k, const nplus1rt_validation *r)
{
    unsigned n = 0;
    for (unsigned l = 0; l < k->npaths; l++)
        n += unreached(k, r, l);
    if (n > UNREACHED_ONE_BY_ONE && k->npaths <= 1024) {
        print_unreached_summary(k, r);
        return;
    }
    for (unsigned l = 0; l < k->npaths; l++) {
        int kern = k->path_kernel[l];
        if (!unreached(k, r, l))
            continue;
        printf("  leaf %u (kernel %d) when %s\n", l, kern, k->path_cond[l]);
        if (k->path_inputs[l])
            print_inputs(k, k->path_inputs[l]);
        else
            print_mentioned(k, l);
    }
}

/* 0: fine; 1: inconclusive, or a working leaf empty under --require-all-leaves. */
int verdict_coverage(job *j, const kdesc *k, const nplus1rt_validation *r)
{
    size_t reached = 0;
    unsigned idle = 0, working = 0;
    if (r->empty_items == NPLUS1RT_NOT_COUNTED) { /* in place: no leaves to cover */
        if (j->require_all_leaves)
            printf("validation FAILED (--require-all-leaves): kernel %s's leaves were not "
                   "counted (its tile kernel ran in place)\n", k->name);
        return j->require_all_leaves;
    }
    for (unsigned l = 0; l < k->d.nleaves && l < 64; l++) {
        reached += r->leaf_items[l];
        idle += r->leaf_items[l] == 0;
        working++;
    }
    if (working && !reached) {
        j->inconclusive = 1;
        if (REGROUPS_ONLY(k)) /* the leaves are the regroup points' arms: every item ran the
                               * code outside them */
            printf("validation inconclusive: no item of kernel %s reached a regroup point of "
                   "its %s: the outputs compare its code outside the arms, but no arm ran; give "
                   "inputs that reach them:\n", k->name,
                   k->tile_kind == TILE_KIND_LOOP ? "loop kernel" : "state machine");
        else
            printf("validation inconclusive: no item of kernel %s reached a leaf that does "
                   "work, so the outputs prove nothing; give inputs that reach these leaves:\n",
                   k->name);
        print_unreached(k, r);
        return 1;
    }
    if (!idle)
        return 0;
    printf("%s: %u of the %u leaves that do work got no items%s:\n",
           j->require_all_leaves ? "validation FAILED (--require-all-leaves)" : "note", idle,
           working, j->require_all_leaves ? "" : " (not proven; --require-all-leaves fails then)");
    print_unreached(k, r);
    return j->require_all_leaves;
}


/* The verdict of one set (a job of several): "passed for tile/fused", tallied when not. */
void verdict_print_set(job *j, int rc)
{
    const char *why = rc == 1                  ? "outputs differ"
                      : rc >= 2 && rc != EXIT_UNPROVEN ? "could not run"
                      : j->inconclusive ? "inconclusive"
                                        : "a leaf that does work got no items";
    if (rc == 0)
        printf("validation passed for %s: the generated set matches the original\n",
               j->set_label);
    else if (rc == 1 || !j->inconclusive)
        printf("validation FAILED for %s: %s\n", j->set_label, why);
    else
        printf("validation inconclusive for %s: no item reached a leaf that does work (see "
               "above)\n", j->set_label);
    if (rc)
        sb_printf(&j->failed, "%s%s (%s)", j->sets_failed++ ? ", " : "", j->set_label, why);
}

/* The last line of a job of several sets. */
static void verdict_print_sets(const job *j, int rc)
{
    if (rc == 0)
        printf("validation passed: the generated sets of all %u strategy/dispatch pairs match "
               "the original\n", j->nsets);
    else
        printf("validation FAILED: %u of the %u sets did not pass: %s\n", j->sets_failed,
               j->nsets, j->failed.data ? j->failed.data : "");
}

void verdict_print(const job *j, int rc)
{
    if (rc == EXIT_REFUSED)
        printf("validation refused: the set refuses these build options (NPLUS1_ERR_MACRO, "
               "see above); nothing was compared\n");
    if (j->nsets > 1 && !j->original_only && (rc <= 1 || rc == EXIT_UNPROVEN))
        verdict_print_sets(j, rc);
    if (rc >= 2 || j->original_only || j->profile || j->nsets > 1)
        return;
    if (rc == 0)
        printf("validation passed: the generated set matches the original\n");
    else if (rc == 1)
        printf("validation FAILED: outputs differ\n");
    else if (j->inconclusive)
        printf("validation inconclusive: no item reached a leaf that does work (see above)\n");
    else
        printf("validation FAILED: a leaf that does work got no items (--require-all-leaves)\n");
}
