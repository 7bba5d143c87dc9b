/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fx.c - the effect set: one statement's (or helper's) effects as the scan
 * records them and the later stages read them. Its bits with their first
 * sites, the variables read and written, the stores and loads for the
 * memory-order rule (and the loads it needs no record of, for the cost), and
 * the rough cost; made empty, merged, freed. The scan
 * that fills it is effects.c's and access.c's.
 */
#include "analyze_int.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void effects_init(effects *fx)
{
    memset(fx, 0, sizeof *fx);
    fx->hidden_exit = clang_getNullCursor();
    fx->param_store = clang_getNullCursor();
    for (unsigned i = 0; i < EFF_COUNT; i++)
        fx->site[i].at = fx->site[i].via = clang_getNullCursor();
}

void analyze_note_effect(effects *fx, unsigned bit, CXCursor at, CXCursor via)
{
    for (unsigned i = 0; i < EFF_COUNT; i++) {
        if (!(bit & (1u << i)) || (fx->bits & (1u << i)))
            continue;
        fx->site[i].at = at;
        fx->site[i].via = via;
    }
    fx->bits |= bit;
}

void merge_effects(effects *into, const effects *from)
{
    for (unsigned i = 0; i < EFF_COUNT; i++)
        if ((from->bits & (1u << i)) && !(into->bits & (1u << i)))
            into->site[i] = from->site[i];
    into->bits |= from->bits;
    for (unsigned i = 0; i < from->nreads; i++)
        add_var(&into->reads, &into->nreads, &into->capreads, from->reads[i]);
    for (unsigned i = 0; i < from->nwrites; i++)
        add_var(&into->writes, &into->nwrites, &into->capwrites, from->writes[i]);
    for (unsigned i = 0; i < from->nstores; i++)
        analyze_record_store(into, from->stores[i]);
    for (unsigned i = 0; i < from->nloads; i++)
        analyze_record_load(into, from->loads[i]);
    for (unsigned i = 0; i < from->nrestrict_loads; i++)
        analyze_record_restrict_load(into, from->restrict_loads[i]);
    for (unsigned i = 0; i < from->nonce; i++)
        math_once_add(into, from->once[i].key, from->once[i].time);
    into->cost += from->cost;
    into->math += from->math;
}

void effects_free(effects *fx)
{
    free(fx->reads);
    free(fx->writes);
    free(fx->stores);
    free(fx->loads);
    free(fx->restrict_loads);
    for (unsigned i = 0; i < fx->nonce; i++)
        free(fx->once[i].key);
    free(fx->once);
    memset(fx, 0, sizeof *fx);
}

void analyze_record_store(effects *fx, CXCursor access)
{
    VEC_PUSH(fx->stores, fx->nstores, fx->capstores, access);
}

void analyze_record_load(effects *fx, CXCursor access)
{
    VEC_PUSH(fx->loads, fx->nloads, fx->caploads, access);
}

void analyze_record_restrict_load(effects *fx, CXCursor access)
{
    VEC_PUSH(fx->restrict_loads, fx->nrestrict_loads, fx->caprestrict_loads, access);
}

double effects_accesses(const effects *fx)
{
    return (double)fx->nloads + fx->nstores + fx->nrestrict_loads;
}
