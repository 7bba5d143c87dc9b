/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_template - the template language of tool/emit/template.h: ${NAME}
 * values, %if/%elif/%else/%endif on flags (nested, negated, "" and "0"
 * false), %include with the directive's indentation (not on the values nor
 * on a line of one ${NAME}), and a clear error for an unknown flag,
 * fragment or placeholder, an unbalanced %if and an include that never ends.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "template.h"

#include "check.h"

static const char *const TEMPLATE =
    "head comment, not emitted\n"
    "%% plain\n"
    "a ${X} b\n"
    "%% choose\n"
    "%if A\n"
    "A on\n"
    "%elif !B\n"
    "B off\n"
    "%elif B\n"
    "  %if C\n"
    "B and C\n"
    "  %else\n"
    "B not C\n"
    "  %endif\n"
    "%else\n"
    "never\n"
    "%endif\n"
    "end\n"
    "%% outer\n"
    "{\n"
    "    %include inner\n"
    "}\n"
    "%% inner\n"
    "x = ${X};\n"
    "\n"
    "${BLOCK}\n"
    "%if A\n"
    "    %include leaf\n"
    "%endif\n"
    "%% leaf\n"
    "leaf ${X}\n"
    "%% bad-flag\n"
    "%if NOPE\n"
    "%endif\n"
    "%% bad-open\n"
    "%if A\n"
    "%% bad-else\n"
    "%else\n"
    "%% bad-include\n"
    "%include missing\n"
    "%% loop\n"
    "%include loop\n";

static char dir[64];

/* Expands frag with vars; returns the text (static), or NULL with the message in err. */
static const char *run(const char *frag, const tmpl_var *v, unsigned n, char *err, size_t errlen)
{
    static char out[4096];
    tmpl_file t;
    err[0] = '\0';
    if (tmpl_load(&t, "t", dir, err, errlen) != 0)
        return NULL;
    strbuf sb;
    sb_init(&sb);
    int rc = tmpl_expand(&sb, &t, frag, v, n, err, errlen);
    snprintf(out, sizeof out, "%s", sb.data ? sb.data : "");
    sb_free(&sb);
    tmpl_free(&t);
    return rc == 0 ? out : NULL;
}

static void expect(const char *frag, const tmpl_var *v, unsigned n, const char *want,
                   const char *sentence)
{
    char err[256];
    const char *got = run(frag, v, n, err, sizeof err);
    if (!checkf(got && !strcmp(got, want), "%s", sentence))
        printf("  got: [%s] %s\n  want: [%s]\n", got ? got : "(error)", err, want);
}

static void expect_error(const char *frag, const tmpl_var *v, unsigned n, const char *part,
                         const char *sentence)
{
    char err[256];
    const char *got = run(frag, v, n, err, sizeof err);
    if (!checkf(!got && strstr(err, part), "%s", sentence))
        printf("  got: [%s] [%s], want an error with '%s'\n", got ? got : "", err, part);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/nplus1-tmpl-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    char path[128];
    snprintf(path, sizeof path, "%s/t.tmpl", dir);
    FILE *f = fopen(path, "w");
    fputs(TEMPLATE, f);
    fclose(f);

    tmpl_var x[] = {{"X", "1"}};
    expect("plain", x, 1, "a 1 b\n", "a value replaces its ${NAME}");
    tmpl_var a[] = {{"A", "yes"}, {"B", ""}, {"C", ""}};
    expect("choose", a, 3, "A on\nend\n", "%if on a set flag keeps its lines, drops the rest");
    tmpl_var nb[] = {{"A", "0"}, {"B", ""}, {"C", ""}};
    expect("choose", nb, 3, "B off\nend\n", "\"0\" is false; %elif !B holds when B is empty");
    tmpl_var bc[] = {{"A", ""}, {"B", "1"}, {"C", "1"}};
    expect("choose", bc, 3, "B and C\nend\n", "an %if nests in an %elif (indented directives)");
    tmpl_var bn[] = {{"A", ""}, {"B", "1"}, {"C", ""}};
    expect("choose", bn, 3, "B not C\nend\n", "the nested %else is taken, the outer %else not");
    tmpl_var inc[] = {{"X", "v\nw"}, {"BLOCK", "  b1\n  b2"}, {"A", "1"}};
    expect("outer", inc, 3, "{\n    x = v\nw;\n\n  b1\n  b2\n        leaf v\nw\n}\n",
           "%include indents the fragment's lines by the directive's, twice when nested; "
           "not the values, an empty line, or a line of one ${NAME}");
    tmpl_var inc0[] = {{"X", "1"}, {"BLOCK", "b"}, {"A", ""}};
    expect("outer", inc0, 3, "{\n    x = 1;\n\nb\n}\n", "an %include under a false %if emits nothing");
    expect_error("bad-flag", x, 1, "unknown flag 'NOPE'", "an unknown flag is an error");
    expect_error("bad-open", a, 3, "%if without %endif", "an %if left open is an error");
    expect_error("bad-else", a, 3, "%else without %if", "an %else without %if is an error");
    expect_error("bad-include", a, 3, "no fragment 'missing'", "an include of no fragment is an error");
    expect_error("loop", a, 3, "too deep", "an include that includes itself stops with an error");
    expect_error("plain", a, 3, "unknown placeholder '${X}'", "an unknown ${NAME} is an error");
    unlink(path);
    rmdir(dir);
    return check_summary("template");
}
