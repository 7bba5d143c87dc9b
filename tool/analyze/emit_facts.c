/* SPDX-License-Identifier: Apache-2.0 */
/*
 * emit_facts.c - the cursor facts emit needs, read in the analyze stage (emit_facts.h).
 */
#include "emit_facts.h"

int emit_facts_switch_wide(const decision *d)
{
    return clang_Type_getSizeOf(clang_getCanonicalType(clang_getCursorType(d->cond_cursor))) > 4;
}

diag_loc emit_facts_kernel_loc(const analysis *an, const kernel_info *k)
{
    return parse_diag_loc(an->pr, clang_getCursorLocation(k->cursor));
}
