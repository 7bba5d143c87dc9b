/* SPDX-License-Identifier: Apache-2.0 */
/*
 * traffic.h - how the memory accesses of a statement reach the DRAM, per item, for the
 * profile's cost model (docs/cli.md, "--profile"): each access's address classed by the
 * divergence analysis (divergence.h) and, where it is affine, by its stride along
 * dimension 0:
 *
 *   coalesced  consecutive items touch addresses one step apart, a step below a sector
 *              (a[i], p[i].f, vload4(i, p)): an item moves its step's bytes (at least its
 *              access's), the sector's other bytes are its neighbours';
 *   broadcast  every item of a row reads or writes one address (a[0], a[n], a[y]):
 *              one sector a SIMD group, about nothing an item;
 *   (the rest) data-dependent, a step of a sector or more, or unknown (a[idx[i]],
 *              a[i * 7], a stride given at run time, a helper's): a sector an item.
 */
#ifndef NPLUS1_TRAFFIC_H
#define NPLUS1_TRAFFIC_H

#include "analyze.h"
#include "divergence.h"

typedef struct access_traffic {
    double coalesced;         /* accesses that coalesce */
    double coalesced_bytes;   /* the bytes they move per item */
    double broadcast;         /* accesses at one address for a row of items */
} access_traffic;

/*
 * Classes fx's accesses (effects_accesses: loads, `restrict` loads, stores) at the site
 * where (its cond ignored: each access's address in turn); adds to out.
 */
void traffic_of(div_session *ds, const div_site *where, const effects *fx, access_traffic *out);

#endif
