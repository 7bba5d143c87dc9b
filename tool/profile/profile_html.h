/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_html.h - --profile-html FILE: one self-contained HTML page of a
 * profile run (docs/cli.md, "--profile-html"): the kernel's source with
 * each decision's and loop's efficiency beside its line, the maps
 * (profile_map.h) as data: URIs, and the report --profile prints.
 */
#ifndef NPLUS1_PROFILE_HTML_H
#define NPLUS1_PROFILE_HTML_H

#include <stddef.h>

#include "profile_report.h"

/* The page as text (malloc'd): source is the input file's text, len bytes. */
char *profile_html_page(const profile_report *rep, const char *source, size_t len);

/* Writes the page to file; 0, or 3 after a message. */
int profile_write_html(const profile_report *rep, const char *source, size_t len,
                       const char *file);

#endif
