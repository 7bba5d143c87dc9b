/* SPDX-License-Identifier: Apache-2.0 */
/*
 * template.h - named template fragments (re2c's habit) with ${NAME}
 * placeholders. Templates are compiled into the binary (flex's habit);
 * a directory given with -T overrides them.
 *
 * The syntax (docs/design.md, "emit"):
 *   %% name          starts fragment `name` (lines before the first are not emitted)
 *   ${NAME}          the value of variable NAME (an unknown one is an error)
 *   %if FLAG         the lines up to the matching %elif / %else / %endif are emitted
 *   %if !FLAG        when variable FLAG is (is not) set to a value other than "" and
 *   %elif [!]FLAG    "0" (an unknown flag is an error); they nest. The C sets flags,
 *   %else            the fragment chooses its text with them (flex's m4_ifdef).
 *   %endif
 *   %include name    fragment `name` expanded here with the same variables; its lines
 *                    get the directive's indentation, but for the values put into
 *                    them and a line that is one ${NAME} alone (a block the C made)
 * A directive is a line of its own, blanks before it allowed; it emits no text.
 */
#ifndef NPLUS1_TEMPLATE_H
#define NPLUS1_TEMPLATE_H

#include <stddef.h>

#include "util.h"

typedef struct tmpl_fragment {
    char name[64];
    const char *text;
    size_t len;
} tmpl_fragment;

typedef struct tmpl_file {
    char *owned;              /* text read from an override directory */
    tmpl_fragment *frags;
    unsigned nfrags, capfrags;
} tmpl_file;

typedef struct tmpl_var {
    const char *name;
    const char *value;
} tmpl_var;

/*
 * Loads template `name` ("kernel.cl") from dir when non-NULL, else the
 * embedded copy. Returns 0, or -1 with a message in err.
 */
int tmpl_load(tmpl_file *t, const char *name, const char *dir, char *err, size_t errlen);
void tmpl_free(tmpl_file *t);

/*
 * Appends fragment `frag` with every ${NAME} replaced by its value and its
 * directives followed. Returns 0, or -1 when a fragment, placeholder or flag
 * is unknown or a directive is malformed (the message goes to err).
 */
int tmpl_expand(strbuf *out, const tmpl_file *t, const char *frag, const tmpl_var *vars,
                unsigned nvars, char *err, size_t errlen);

#endif
