/* SPDX-License-Identifier: Apache-2.0 */
/*
 * version.h - the versions nplus1gen reports: its own, the format of the code
 * it generates (NPLUS1RT_FORMAT_VERSION of runtime/nplus1rt.h, which the
 * build passes in as NPLUS1_FORMAT_VERSION), and the libclang it runs with.
 */
#ifndef NPLUS1_VERSION_H
#define NPLUS1_VERSION_H

#ifndef NPLUS1_VERSION
#define NPLUS1_VERSION "0.0.0"
#endif
#ifndef NPLUS1_FORMAT_VERSION
#define NPLUS1_FORMAT_VERSION 1
#endif
#define NPLUS1_STRINGIFY_(x) #x
#define NPLUS1_STRINGIFY(x) NPLUS1_STRINGIFY_(x)
/* The format version as text, for the templates' ${FORMAT}. */
#define NPLUS1_FORMAT_VERSION_STRING NPLUS1_STRINGIFY(NPLUS1_FORMAT_VERSION)

/* The --version text (malloc'd, NULL when out of memory): the tool's
 * version, the libclang it runs with (clang_getClangVersion) and the one it
 * was built against, and the generated-code format version. */
char *version_text(void);

/* The --help text: tool/cli/help.txt, embedded by the build (cmake/embed_text.cmake). */
extern const char nplus1_help_text[];

#endif
