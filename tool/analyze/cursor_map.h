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

#endif
