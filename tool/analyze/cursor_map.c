/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cursor_map.c - (cursor, tag) -> index, hashed. One bucket per (hash of
 * the cursor, tag); the entries of a bucket (cursors whose hashes collide)
 * are told apart with clang_equalCursors.
 */
#include "util.h"

#define uthash_malloc(sz) xmalloc(sz)
#define uthash_free(ptr, sz) free(ptr)
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "cursor_map.h"
#include "cursor_set.h"

/* Hashed as bytes: no padding, every byte set. */
typedef struct bucket_key {
    uint64_t tag;
    uint32_t hash;      /* clang_hashCursor */
    uint32_t zero;
} bucket_key;

typedef struct cursor_entry {
    CXCursor cursor;
    unsigned index;
} cursor_entry;

typedef struct cursor_bucket {
    bucket_key key;
    cursor_entry *v;
    unsigned n, cap;
    UT_hash_handle hh;
} cursor_bucket;

static bucket_key key_of(CXCursor c, uint64_t tag)
{
    bucket_key k = {tag, clang_hashCursor(c), 0};
    return k;
}

static cursor_bucket *find_bucket(const cursor_map *m, const bucket_key *k)
{
    cursor_bucket *b = NULL;
    HASH_FIND(hh, m->buckets, k, sizeof *k, b);
    return b;
}

static cursor_entry *find_entry(const cursor_bucket *b, CXCursor c)
{
    for (unsigned i = 0; b && i < b->n; i++)
        if (clang_equalCursors(b->v[i].cursor, c))
            return &b->v[i];
    return NULL;
}

long cursor_map_get(const cursor_map *m, CXCursor c, uint64_t tag)
{
    bucket_key k = key_of(c, tag);
    const cursor_entry *e = find_entry(find_bucket(m, &k), c);
    return e ? (long)e->index : -1;
}

void cursor_map_put(cursor_map *m, CXCursor c, uint64_t tag, unsigned index)
{
    bucket_key k = key_of(c, tag);
    cursor_bucket *b = find_bucket(m, &k);
    if (!b) {
        b = xcalloc(1, sizeof *b);
        b->key = k;
        HASH_ADD(hh, m->buckets, key, sizeof b->key, b);
    }
    cursor_entry *e = find_entry(b, c);
    if (e) {
        e->index = index;
        return;
    }
    cursor_entry ne = {c, index};
    VEC_PUSH(b->v, b->n, b->cap, ne);
    m->n++;
}

void cursor_map_clear(cursor_map *m)
{
    cursor_bucket *b, *tmp;
    HASH_ITER(hh, m->buckets, b, tmp) {
        HASH_DEL(m->buckets, b);
        free(b->v);
        free(b);
    }
    m->buckets = NULL;
    m->n = 0;
}

/* ---- node_set ---------------------------------------------------------- */

/* Hashed as bytes: no padding, every byte set. */
typedef struct node_key {
    uint64_t ptr[2];    /* the extent's pointers */
    uint32_t begin, end; /* ... and offsets */
    uint32_t kind, zero;
} node_key;

typedef struct node_entry {
    node_key key;
    UT_hash_handle hh;
} node_entry;

static node_key node_key_of(CXCursor c)
{
    CXSourceRange r = clang_getCursorExtent(c);
    node_key k;
    memset(&k, 0, sizeof k);
    k.ptr[0] = (uint64_t)(uintptr_t)r.ptr_data[0];
    k.ptr[1] = (uint64_t)(uintptr_t)r.ptr_data[1];
    k.begin = r.begin_int_data;
    k.end = r.end_int_data;
    k.kind = (uint32_t)clang_getCursorKind(c);
    return k;
}

int node_set_has(const node_set *s, CXCursor c)
{
    node_key k = node_key_of(c);
    node_entry *e = NULL;
    HASH_FIND(hh, s->entries, &k, sizeof k, e);
    return e != NULL;
}

int node_set_add(node_set *s, CXCursor c)
{
    if (node_set_has(s, c))
        return 0;
    node_entry *e = xcalloc(1, sizeof *e);
    e->key = node_key_of(c);
    HASH_ADD(hh, s->entries, key, sizeof e->key, e);
    s->n++;
    return 1;
}

void node_set_clear(node_set *s)
{
    node_entry *e, *tmp;
    HASH_ITER(hh, s->entries, e, tmp) {
        HASH_DEL(s->entries, e);
        free(e);
    }
    s->entries = NULL;
    s->n = 0;
}

/* ---- cursor_set.h ---------------------------------------------------- */

int cursor_in(const CXCursor *v, unsigned n, CXCursor c)
{
    for (unsigned i = 0; i < n; i++)
        if (clang_equalCursors(v[i], c))
            return 1;
    return 0;
}

void add_var(CXCursor **v, unsigned *n, unsigned *cap, CXCursor decl)
{
    if (!cursor_in(*v, *n, decl))
        VEC_PUSH(*v, *n, *cap, decl);
}

int cursor_set_has(const cursor_set *s, CXCursor c)
{
    return cursor_in(s->v, s->n, c);
}

int cursor_set_add(cursor_set *s, CXCursor c)
{
    if (cursor_set_has(s, c))
        return 0;
    VEC_PUSH(s->v, s->n, s->cap, c);
    return 1;
}

void cursor_set_free(cursor_set *s)
{
    free(s->v);
    *s = (cursor_set){0};
}
