/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_emit.c - the instrumented copy of the original (profile_build.h).
 * The input file unchanged but for insertions: a prelude that defines the
 * recorder, one more parameter per kernel (the recording buffer), the
 * recorder's state at the top of each body, and each decision's and loop
 * test's condition wrapped so that it records its token and yields the
 * same truth value. The layout (docs/cli.md, "--profile"):
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
    return x->order < y->order ? -1 : x->order > y->order;
}

char *profile_instrumented_source(const analysis *an, const profile_kernel *pks, unsigned n)
{
    unsigned total = 0;
    for (unsigned k = 0; k < n; k++)
        total += pks[k].nedits;
    const pedit **all = xcalloc(total ? total : 1, sizeof *all);
    total = 0;
    for (unsigned k = 0; k < n; k++)
        for (unsigned e = 0; e < pks[k].nedits; e++)
            all[total++] = &pks[k].edits[e];
    qsort(all, total, sizeof *all, by_offset);
    const src_file *f = &an->pr->files[0];
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "/* nplus1gen --profile: the instrumented copy of %s */\n", f->path);
    sb_puts(&sb, prelude);
    sb_puts(&sb, "#line 1\n");
    size_t at = 0;
    for (unsigned i = 0; i < total; i++) {
        sb_putn(&sb, f->text + at, all[i]->at - at);
        sb_puts(&sb, all[i]->text);
        at = all[i]->at;
    }
    sb_putn(&sb, f->text + at, f->len - at);
    free(all);
    return sb_steal(&sb);
}
