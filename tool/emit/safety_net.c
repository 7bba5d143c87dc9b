/* SPDX-License-Identifier: Apache-2.0 */
/* safety_net.c - parse the generated kernel file before it is written or built. */
#include "safety_net.h"

#include <stdlib.h>
#include <string.h>

#include "emit_facts.h"
#include "util.h"

/* The generated file's name: beside the input (where -T templates' includes resolve). */
static char *generated_name(const char *input, const char *stem)
{
    strbuf sb;
    sb_init(&sb);
    const char *slash = strrchr(input, '/');
    if (slash)
        sb_putn(&sb, input, (size_t)(slash - input) + 1);
    sb_printf(&sb, "%s.nplus1.cl", stem);
    return sb_steal(&sb);
}

/* The kernel whose generated set holds offset ("==== kernel K:" before it), or NULL. */
static const kernel_info *kernel_at(const plan *pl, const char *text, unsigned offset)
{
    const kernel_info *found = NULL;
    size_t best = 0;
    for (unsigned i = 0; i < pl->nkernels; i++) {
        const kernel_info *k = pl->kernels[i].k;
        strbuf mark;
        sb_init(&mark);
        sb_printf(&mark, "/* ==== kernel %s: ", k->name);
        for (const char *p = strstr(text, mark.data); p && (size_t)(p - text) <= offset;
             p = strstr(p + 1, mark.data))
            if (!found || (size_t)(p - text) >= best) {
                found = k;
                best = (size_t)(p - text);
            }
        sb_free(&mark);
    }
    return found;
}

int safety_net_check(const plan *pl, const parse_options *po, const char *input,
                     const char *stem, const char *text, int user_templates)
{
    char *name = generated_name(input, stem);
    parse_error first;
    /* The driver builds the file from a string, without -I: the user's headers are inlined,
     * so it is parsed in a folder of its own, with no include path (templates given with
     * -T may include headers of their own, found as for the input). */
    parse_options alone = *po;
    alone.nincludes = 0;
    strbuf nowhere;
    sb_init(&nowhere);
    sb_printf(&nowhere, "/nplus1gen-no-such-folder/%s.nplus1.cl", stem);
    int errors = user_templates ? parse_check_text(name, text, po, &first)
                                : parse_check_text(nowhere.data, text, &alone, &first);
    sb_free(&nowhere);
    if (errors == 0) {
        free(name);
        return 0;
    }
    diag_sink diag;
    diag_init(&diag);
    const kernel_info *k = first.line ? kernel_at(pl, text, first.offset) : NULL;
    diag_loc at = {0};
    if (k)
        at = emit_facts_kernel_loc(pl->an, k);
    else
        at.path = input;
    diag_report(&diag, DIAG_ERROR, &at, user_templates ? "nplus1-template" : "nplus1-internal",
                "the code generated for %s%s%s does not compile (%u error%s); nothing was "
                "written: %s",
                k ? "kernel '" : "this file", k ? k->name : "", k ? "'" : "", (unsigned)errors,
                errors == 1 ? "" : "s", first.message);
    if (first.line) {
        diag_loc gen = {name, first.line, first.col, text, strlen(text)};
        diag_report(&diag, DIAG_NOTE, &gen, NULL, "here, in the generated file");
    }
    diag_report(&diag, DIAG_NOTE, NULL, NULL,
                user_templates ? "the templates given with -T produce this code: check them"
                               : "this is a bug in nplus1gen: please report it with the input; "
                                 "meanwhile -k can leave this kernel out");
    free(name);
    return -1;
}
