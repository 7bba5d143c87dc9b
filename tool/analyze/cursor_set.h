/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cursor_set.h - a small ordered set of cursors (declarations, variables),
 * compared with clang_equalCursors: the one set every stage uses for the
 * variables a statement reads or writes, a slice needs, or a context carries.
 * Lookups are linear: these sets hold a statement's or a kernel's variables.
 * For memo tables keyed by cursor, see cursor_map.h. The same struct is the
 * ordered list of a cursor's children (cursor_list, syntax.h): one vector type.
 */
#ifndef NPLUS1_CURSOR_SET_H
#define NPLUS1_CURSOR_SET_H

#include <clang-c/Index.h>

typedef struct cursor_set {
    CXCursor *v;
    unsigned n, cap;
} cursor_set;

/* Is c among v[0..n)? */
int cursor_in(const CXCursor *v, unsigned n, CXCursor c);
/* Appends decl to the vector *v unless it is there already. */
void add_var(CXCursor **v, unsigned *n, unsigned *cap, CXCursor decl);

/* Is c in s? */
int cursor_set_has(const cursor_set *s, CXCursor c);
/* Adds c unless it is in s: 1 if it was added, else 0. */
int cursor_set_add(cursor_set *s, CXCursor c);
/* Frees s's storage; s is empty and usable again. */
void cursor_set_free(cursor_set *s);

#endif
