/*
 * template.h - named template fragments (re2c's habit) with ${NAME}
 * placeholders. Templates are compiled into the binary (flex's habit);
 * a directory given with -T / NPLUS1_TEMPLATE_DIR overrides them.
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
 * Appends fragment `frag` with every ${NAME} replaced by its value.
 * Returns 0, or -1 when the fragment or a placeholder is unknown (the
 * message goes to err).
 */
int tmpl_expand(strbuf *out, const tmpl_file *t, const char *frag, const tmpl_var *vars,
                unsigned nvars, char *err, size_t errlen);

#endif
