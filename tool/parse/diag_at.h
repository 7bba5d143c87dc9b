/* SPDX-License-Identifier: Apache-2.0 */
/*
 * diag_at.h - the one "report at a cursor": a diagnostic (diag.h) at the
 * expansion location of a cursor of the parse, so that no stage resolves
 * cursor locations for its messages by itself.
 */
#ifndef NPLUS1_DIAG_AT_H
#define NPLUS1_DIAG_AT_H

#include <stdarg.h>

#include "diag.h"
#include "parse.h"

/* Reports one diagnostic at cursor at of pr's translation unit; rule may be NULL. */
void diag_at(diag_sink *d, parse_result *pr, diag_level level, CXCursor at, const char *rule,
             const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* diag_at with a va_list. */
void diag_vat(diag_sink *d, parse_result *pr, diag_level level, CXCursor at, const char *rule,
              const char *fmt, va_list ap) __attribute__((format(printf, 6, 0)));

#endif
