/* SPDX-License-Identifier: Apache-2.0 */
/*
 * diag_at.c - a diagnostic at a cursor (diag_at.h).
 */
#include "diag_at.h"

#include "util.h"

void diag_vat(diag_sink *d, parse_result *pr, diag_level level, CXCursor at, const char *rule,
              const char *fmt, va_list ap)
{
    strbuf msg;
    sb_init(&msg);
    sb_vprintf(&msg, fmt, ap);
    diag_loc loc = parse_diag_loc(pr, clang_getCursorLocation(at));
    diag_report(d, level, &loc, rule, "%s", msg.data ? msg.data : "");
    sb_free(&msg);
}

void diag_at(diag_sink *d, parse_result *pr, diag_level level, CXCursor at, const char *rule,
             const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vat(d, pr, level, at, rule, fmt, ap);
    va_end(ap);
}
