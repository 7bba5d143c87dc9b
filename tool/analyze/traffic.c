/* SPDX-License-Identifier: Apache-2.0 */
/*
 * traffic.c - the coalescing class of each memory access (traffic.h): where its address
 * is, its element's and its access's bytes, and the divergence analysis's class and stride
 * of that address.
 */
#include "traffic.h"

#include <stdlib.h>
#include <string.h>

#include "cursor_map.h"
#include "syntax.h"
#include "util.h"

#define SECTOR_BYTES 32.0 /* profile_report.h's PROFILE_SECTOR_BYTES */

/* An access's address: a base pointer and an index in elements of elem bytes (either may
 * be null), and the bytes the access moves. */
typedef struct address {
    CXCursor base, index;
    double elem, bytes;
} address;

static double size_of(CXType t)
{
    long long n = clang_Type_getSizeOf(t);
    return n > 0 ? (double)n : 0;
}

static double pointee_size(CXCursor pointer)
{
    return size_of(clang_getPointeeType(clang_getCanonicalType(clang_getCursorType(pointer))));
}

static int is_pointer(CXCursor e)
{
    return clang_getCanonicalType(clang_getCursorType(e)).kind == CXType_Pointer;
}

/* vloadN(offset, p), vstoreN(data, offset, p): offset counts vectors of N */
static int vector_address(CXCursor call, address *a)
{
    char name[64];
    spelling_into(call, name, sizeof name);
    int load = !strncmp(name, "vload", 5), store = !strncmp(name, "vstore", 6);
    const char *n = name + (load ? 5 : 6);
    if ((!load && !store) || *n < '1' || *n > '9')
        return 0; /* vload_half and friends: not followed */
    cursor_list ch = children_of(call); /* child 0 the callee */
    int ok = ch.n == (load ? 3u : 4u);
    if (ok) {
        a->index = ch.v[ch.n - 2];
        a->base = ch.v[ch.n - 1];
        a->bytes = pointee_size(a->base) * atoi(n);
        a->elem = a->bytes;
    }
    free(ch.v);
    return ok;
}

static int address_of(CXCursor e, double bytes, address *a)
{
    CXCursor s = strip_casts(e);
    cursor_list ch = children_of(s);
    int ok = 0;
    a->base = a->index = clang_getNullCursor();
    a->bytes = bytes;
    switch (clang_getCursorKind(s)) {
    case CXCursor_ArraySubscriptExpr: /* base[index] */
        if ((ok = ch.n == 2 && is_pointer(ch.v[0]))) {
            a->base = ch.v[0];
            a->index = ch.v[1];
            a->elem = pointee_size(ch.v[0]);
        }
        break;
    case CXCursor_MemberRefExpr: /* p->f, or the field of an element: p[i].f */
        if (ch.n == 1 && is_pointer(ch.v[0])) {
            a->base = ch.v[0];
            a->elem = pointee_size(ch.v[0]);
            ok = 1;
        } else if (ch.n == 1) {
            ok = address_of(ch.v[0], bytes, a);
        }
        break;
    case CXCursor_UnaryOperator: /* *p */
        if ((ok = ch.n == 1 && is_pointer(ch.v[0]))) {
            a->base = ch.v[0];
            a->elem = pointee_size(ch.v[0]);
        }
        break;
    case CXCursor_CallExpr:
        ok = vector_address(s, a);
        break;
    default:
        break;
    }
    free(ch.v);
    return ok && a->elem > 0 && a->bytes > 0;
}

/* The class and stride (in elements) of a part of an address: none is uniform. */
static div_class part_class(div_session *ds, const div_site *where, CXCursor part, long *stride)
{
    *stride = 0;
    if (clang_Cursor_isNull(part))
        return DIV_UNIFORM;
    div_site s = *where;
    s.cond = part;
    return divergence_classify_address(ds, &s, stride);
}

/* What one access adds to its statement's traffic (traffic.h's classes; ONE_SECTOR: none). */
typedef enum access_class { ONE_SECTOR, ONE_BROADCAST, ONE_COALESCED } access_class;

typedef struct access_result {
    access_class cls;
    double moved; /* ONE_COALESCED: the bytes an item moves */
} access_result;

static access_result one_access(div_session *ds, const div_site *where, CXCursor access)
{
    access_result r = {ONE_SECTOR, 0};
    address a;
    if (!address_of(access, size_of(clang_getCursorType(access)), &a))
        return r; /* a helper's call, an atomic, an image: a sector */
    long sb, si;
    div_class cb = part_class(ds, where, a.base, &sb);
    div_class ci = part_class(ds, where, a.index, &si);
    if (cb == DIV_DATA || ci == DIV_DATA || sb == DIV_STRIDE_UNKNOWN ||
        si == DIV_STRIDE_UNKNOWN)
        return r;
    long step = sb + si; /* p + i: both in elements */
    if (step == 0) {
        r.cls = ONE_BROADCAST;
        return r;
    }
    double moved = (double)labs(step) * a.elem;
    if (moved < a.bytes)
        moved = a.bytes;
    if (moved >= SECTOR_BYTES)
        return r;
    r.cls = ONE_COALESCED;
    r.moved = moved;
    return r;
}

/* The accesses of one traffic_of call already classed: an access both loaded and stored
 * (o[g] += x) is classed once at a site, found by hash. */
typedef struct access_memo {
    cursor_map index; /* access -> results[] */
    access_result *results;
    unsigned n, cap;
} access_memo;

static void add_access(div_session *ds, const div_site *where, CXCursor access,
                       access_memo *m, access_traffic *out)
{
    long i = cursor_map_get(&m->index, access, 0);
    access_result r;
    if (i >= 0) {
        r = m->results[i];
    } else {
        r = one_access(ds, where, access);
        cursor_map_put(&m->index, access, 0, m->n);
        VEC_PUSH(m->results, m->n, m->cap, r);
    }
    if (r.cls == ONE_BROADCAST) {
        out->broadcast += 1;
    } else if (r.cls == ONE_COALESCED) {
        out->coalesced += 1;
        out->coalesced_bytes += r.moved;
    }
}

void traffic_of(div_session *ds, const div_site *where, const effects *fx, access_traffic *out)
{
    access_memo m;
    memset(&m, 0, sizeof m);
    for (unsigned i = 0; i < fx->nloads; i++)
        add_access(ds, where, fx->loads[i], &m, out);
    for (unsigned i = 0; i < fx->nrestrict_loads; i++)
        add_access(ds, where, fx->restrict_loads[i], &m, out);
    for (unsigned i = 0; i < fx->nstores; i++)
        add_access(ds, where, fx->stores[i], &m, out);
    cursor_map_clear(&m.index);
    free(m.results);
}
