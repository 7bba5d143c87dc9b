/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cursor_map.h - a hash map from (cursor, tag) to an index, for the analyze
 * stage's memo tables: helper summaries, divergence memos, reached helpers.
 * Keys are hashed with clang_hashCursor and compared with clang_equalCursors
 * and the tag, so a lookup costs the same with 10 entries or 100,000.
 */
#ifndef NPLUS1_CURSOR_MAP_H
#define NPLUS1_CURSOR_MAP_H

#include <clang-c/Index.h>
#include <stdint.h>

typedef struct cursor_map {
    struct cursor_bucket *buckets; /* uthash table; private */
    unsigned n;                    /* entries */
} cursor_map;

/* The index stored for (c, tag), or -1. */
long cursor_map_get(const cursor_map *m, CXCursor c, uint64_t tag);
/* Stores index for (c, tag), replacing an index stored before. */
void cursor_map_put(cursor_map *m, CXCursor c, uint64_t tag, unsigned index);
/* Empties the map; it can be used again. */
void cursor_map_clear(cursor_map *m);

/*
 * A hashed set of expressions or statements told apart by kind and source
 * extent (clang_equalRanges), not by clang_equalCursors: the same node reached
 * by two walks (a visitor's cursor and a children list's) is one member.
 */
typedef struct node_set {
    struct node_entry *entries;    /* uthash table; private */
    unsigned n;
} node_set;

/* Adds c unless it is there: 1 if it was added, else 0. */
int node_set_add(node_set *s, CXCursor c);
int node_set_has(const node_set *s, CXCursor c);
/* Empties the set; it can be used again. */
void node_set_clear(node_set *s);

#endif
