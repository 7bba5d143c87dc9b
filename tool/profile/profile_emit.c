/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_emit.c - the instrumented copy of the original (profile_build.h).
 * The input file unchanged but for insertions: a prelude that defines the
 * recorder, one more parameter per kernel (the recording buffer), the
 * recorder's state at the top of each body, and each decision's and loop
 * test's condition wrapped so that it records its token and yields the
 * same truth value; and a recording copy of each helper the tree holds at
 * its calls (profile_build.h), right after the helper, called instead of it
 * at those calls with the recorder as the first argument. The layout (docs/cli.md, "--profile"):
 *
 *   item with linear id i, unit u = i / UNIT, recorded when u % EVERY == 0
 *   and u / EVERY < UNITS, in slot (u / EVERY) * UNIT + i % UNIT;
 *   a slot is SLOT bytes: a uint, the tokens the item took (it counts past
 *   the room), then the tokens, one byte each, as many as fit.
 */
#include <stdlib.h>
#include <string.h>

#include "profile_build.h"
#include "util.h"

static const char prelude[] =
    "typedef struct __nplus1_rec_t { __global uint *p; uint n; } __nplus1_rec_t;\n"
    "int __nplus1_rec(__nplus1_rec_t *s, int t)\n"
    "{\n"
    "    if (s->p) {\n"
    "        if (s->n < NPLUS1_PROF_SLOT - 4)\n"
    "            ((__global uchar *)(s->p + 1))[s->n] = (uchar)t;\n"
    "        s->p[0] = ++s->n;\n"
    "    }\n"
    "    return t;\n"
    "}\n"
    "void __nplus1_rec_init(__nplus1_rec_t *s, __global uint *buf)\n"
    "{\n"
    "    ulong id = 0, stride = 1;\n"
    "    for (uint d = 0; d < get_work_dim(); d++) {\n"
    "        id += (get_global_id(d) - get_global_offset(d)) * stride;\n"
    "        stride *= get_global_size(d);\n"
    "    }\n"
    "    ulong unit = id / NPLUS1_PROF_UNIT, lane = id % NPLUS1_PROF_UNIT;\n"
    "    s->n = 0;\n"
    "    s->p = 0;\n"
    "    if (unit % NPLUS1_PROF_EVERY == 0 && unit / NPLUS1_PROF_EVERY < NPLUS1_PROF_UNITS)\n"
    "        s->p = buf + ((unit / NPLUS1_PROF_EVERY) * NPLUS1_PROF_UNIT + lane) *\n"
    "                     (NPLUS1_PROF_SLOT / 4);\n"
    "}\n";

static int by_offset(const void *a, const void *b)
{
    const pedit *x = *(const pedit *const *)a, *y = *(const pedit *const *)b;
    if (x->at != y->at)
        return x->at < y->at ? -1 : 1;
    if (x->early != y->early)
        return x->early ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* text[begin, end) with the edits (sorted) that fall inside it applied. */
static void apply(strbuf *sb, const char *text, unsigned begin, unsigned end,
                  const pedit *const *edits, unsigned n)
{
    size_t at = begin;
    for (unsigned i = 0; i < n; i++) {
        if (edits[i]->at < begin || edits[i]->at > end || edits[i]->at < at)
            continue;
        sb_putn(sb, text + at, edits[i]->at - at);
        sb_puts(sb, edits[i]->text);
        at = edits[i]->at + edits[i]->skip;
    }
    if (at < end)
        sb_putn(sb, text + at, end - at);
}

/* The edits of one clone (clone < 0: the input file's) of pk, sorted; *n of them. */
static const pedit **edits_of(const profile_kernel *pk, int clone, unsigned *n)
{
    const pedit **v = xcalloc(pk->nedits ? pk->nedits : 1, sizeof *v);
    *n = 0;
    for (unsigned e = 0; e < pk->nedits; e++)
        if (pk->edits[e].clone == clone)
            v[(*n)++] = &pk->edits[e];
    qsort(v, *n, sizeof *v, by_offset);
    return v;
}

/*
 * The clones' texts as insertions into the input file: each helper's copy right after
 * it (and its prototype after an earlier prototype of the helper), with #line so that
 * the build's messages name the helper's lines. A helper recorded by several kernels
 * has one copy. The insertions go to ins (owned by the caller: free their texts).
 */
static void clone_insertions(const src_file *f, const profile_kernel *pks, unsigned n,
                             pedit **ins, unsigned *nins, unsigned *cap)
{
    unsigned order = 0x40000000u; /* after every other edit at the offset */
    for (unsigned k = 0; k < n; k++) {
        for (unsigned c = 0; c < pks[k].nclones; c++) {
            const pclone *cl = &pks[k].clones[c];
            int seen = cl->failed;
            for (unsigned j = 0; j < *nins && !seen; j++)
                seen = (*ins)[j].clone == (int)cl->src.def.begin;
            if (seen)
                continue;
            unsigned ne;
            const pedit **es = edits_of(&pks[k], (int)c, &ne);
            strbuf sb;
            sb_init(&sb);
            sb_printf(&sb, "\n#line %u\n", cl->src.def.line);
            apply(&sb, f->text, cl->src.def.begin, cl->src.def.end, es, ne);
            sb_printf(&sb, "\n#line %u\n", cl->src.def.end_line);
            pedit e = {cl->src.def.end, order++, sb_steal(&sb), 0, (int)cl->src.def.begin, 0};
            VEC_PUSH(*ins, *nins, *cap, e);
            if (cl->src.proto_end) {
                sb_init(&sb);
                sb_printf(&sb, "\n#line %u\n", cl->src.proto_line);
                apply(&sb, f->text, cl->src.def.begin, cl->src.body_open, es, ne);
                sb_printf(&sb, ";\n#line %u\n", cl->src.proto_line);
                pedit p = {cl->src.proto_end, order++, sb_steal(&sb), 0, -1, 0};
                VEC_PUSH(*ins, *nins, *cap, p);
            }
            free(es);
        }
    }
}

char *profile_instrumented_source(const analysis *an, const profile_kernel *pks, unsigned n)
{
    const src_file *f = &an->pr->files[0];
    pedit *ins = NULL;
    unsigned nins = 0, capins = 0;
    clone_insertions(f, pks, n, &ins, &nins, &capins);
    unsigned total = nins;
    for (unsigned k = 0; k < n; k++)
        total += pks[k].nedits;
    const pedit **all = xcalloc(total ? total : 1, sizeof *all);
    total = 0;
    for (unsigned k = 0; k < n; k++)
        for (unsigned e = 0; e < pks[k].nedits; e++)
            if (pks[k].edits[e].clone < 0)
                all[total++] = &pks[k].edits[e];
    for (unsigned i = 0; i < nins; i++)
        all[total++] = &ins[i];
    qsort(all, total, sizeof *all, by_offset);
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "/* nplus1gen --profile: the instrumented copy of %s */\n", f->path);
    sb_puts(&sb, prelude);
    sb_puts(&sb, "#line 1\n");
    apply(&sb, f->text, 0, (unsigned)f->len, all, total);
    free(all);
    for (unsigned i = 0; i < nins; i++)
        free(ins[i].text);
    free(ins);
    return sb_steal(&sb);
}
