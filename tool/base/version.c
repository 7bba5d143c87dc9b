/* SPDX-License-Identifier: Apache-2.0 */
/*
 * version.c - the --version text. Kept apart from main.c because it asks
 * libclang which version it is.
 */
#include "version.h"

#include <clang-c/Index.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef NPLUS1_LIBCLANG_VERSION
#define NPLUS1_LIBCLANG_VERSION "unknown"
#endif

char *version_text(void)
{
    static const char fmt[] = "nplus1gen %s\n"
                              "libclang: %s (built against libclang %s, C API %d.%d)\n"
                              "generated-code format: %s\n";
    CXString clang = clang_getClangVersion();
    const char *cv = clang_getCString(clang);
    if (!cv)
        cv = "unknown";
    int n = snprintf(NULL, 0, fmt, NPLUS1_VERSION, cv, NPLUS1_LIBCLANG_VERSION,
                     CINDEX_VERSION_MAJOR, CINDEX_VERSION_MINOR, NPLUS1_FORMAT_VERSION_STRING);
    char *out = n > 0 ? malloc((size_t)n + 1) : NULL;
    if (out)
        snprintf(out, (size_t)n + 1, fmt, NPLUS1_VERSION, cv, NPLUS1_LIBCLANG_VERSION,
                 CINDEX_VERSION_MAJOR, CINDEX_VERSION_MINOR, NPLUS1_FORMAT_VERSION_STRING);
    clang_disposeString(clang);
    return out;
}
