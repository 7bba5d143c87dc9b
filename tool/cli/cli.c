/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cli.c - the command line (see cli.h): a table of options, {short, long,
 * takes a value, apply}, tried in order; then what the options ask for
 * together (docs/cli.md, "Options given together"): refused (exit 2) when
 * one cannot apply, warned about when it changes nothing.
 */
#define _DEFAULT_SOURCE /* strcasecmp */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rules.h"
#include "util.h"
#include "version.h"

/* The --help text is tool/cli/help.txt, embedded at build time; the man page
 * nplus1gen.1 and the option list in docs/cli.md are made from the same file. */
static void usage(FILE *f)
{
    fputs(nplus1_help_text, f);
}

static int print_version(void)
{
    char *v = version_text();
    if (!v)
        return EXIT_INTERNAL;
    fputs(v, stdout);
    free(v);
    return EXIT_OK;
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "nplus1gen: error: ");
    fprintf(stderr, fmt, arg);
    fputs("\nTry 'nplus1gen --help' for more information.\n", stderr);
    return EXIT_USAGE;
}

/* ---- options that cannot apply together (docs/cli.md, "Options given together") ---- */

/* The value option opt (as docs/cli.md names it) was first given with; "" for a flag; NULL. */
static const char *given(const cli *c, const char *opt)
{
    for (unsigned i = 0; i < c->ngiven; i++)
        if (!strcmp(c->given[i].opt, opt))
            return c->given[i].value;
    return NULL;
}

/*
 * Records option opt given with value v (NULL: a flag). once: a single-valued
 * option, which may come again only with the same value (of two, which was meant?).
 */
static int note_option(cli *c, const char *opt, const char *v, int once)
{
    const char *prev = given(c, opt);
    if (prev && once && strcmp(prev, v ? v : "")) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s given twice ('%s', then '%s'): give it once", opt, prev,
                 v ? v : "");
        return usage_error("%s", msg);
    }
    if (!prev && c->ngiven < sizeof c->given / sizeof c->given[0])
        c->given[c->ngiven++] = (given_option){opt, v ? v : ""};
    return EXIT_OK;
}

static int not_applied(const char *fmt, const char *opt)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, opt);
    return usage_error("%s", msg);
}

/* Exit 2 when options were given that the run asked for cannot apply; else EXIT_OK. */
static int refuse_unapplied(const cli *c)
{
    static const char *const no_check[] = {"-o", "--validate", "--emit-job", "--depfile",
                                           "-T", "--stem", "--profile-in", NULL};
    static const char *const validation[] = {"--global", "--local", "--offset", "--arg",
                                              "--seed", "--ulp", "--reps", "--timeout",
                                              "--unordered", "--count", "--require-all-leaves",
                                              "--device", "--build-options", NULL};
    for (int i = 0; c->check && no_check[i]; i++)
        if (given(c, no_check[i]))
            return not_applied("--check writes and runs nothing, so %s cannot apply: drop one "
                               "of them (--report prints the analysis beside -o or --validate)",
                               no_check[i]);
    /* --profile runs the original on the inputs --validate would build */
    static const char *const profile_inputs[] = {"--global", "--local", "--offset", "--arg",
                                                  "--seed", "--timeout", "--device", NULL};
    for (int i = 0; !c->validate && validation[i]; i++) {
        int input = 0;
        for (int k = 0; profile_inputs[k]; k++)
            input |= !strcmp(validation[i], profile_inputs[k]);
        if (given(c, validation[i]) && !(input && c->profile))
            return not_applied(input ? "%s applies only with --validate (or --emit-job) or "
                                       "--profile"
                                     : "%s applies only with --validate (or --emit-job)",
                               validation[i]);
    }
    for (int i = 0; !c->profile && i < 2; i++)
        if (given(c, i ? "--profile-memory" : "--simd-width"))
            return not_applied("%s applies only with --profile",
                               i ? "--profile-memory" : "--simd-width");
    static const char *const run_here[] = {"--device", "--timeout", "--profile-json",
                                            "--profile-map", "--profile-html", NULL};
    for (int i = 0; given(c, "--emit-job") && run_here[i]; i++)
        if (given(c, run_here[i]))
            return not_applied("%s applies to a run here, and --emit-job runs nothing",
                               run_here[i]);
    if (given(c, "--depfile") && !c->outdir)
        return not_applied("%s applies only with -o (it lists the files -o writes)", "--depfile");
    for (int i = 0; i < 2; i++)
        if (given(c, i ? "--stem" : "-T") && !c->outdir && !c->validate)
            return not_applied("%s applies only with -o or --validate", i ? "--stem" : "-T");
    if (given(c, "--skip-refused") && c->profile)
        return not_applied("%s applies to -o, --check, --report and --validate; --profile "
                           "profiles the kernels it names (-k)", "--skip-refused");
    if (given(c, "--profile-in") && c->profile)
        return not_applied("%s feeds a profile to the generated set (-o); --profile makes one: "
                           "run them one after the other", "--profile-in");
    if (given(c, "--profile-in") && !c->outdir)
        return not_applied("%s applies only with -o (it goes into the driver and the manifest)",
                           "--profile-in");
    return EXIT_OK;
}

/* Options that do not change this run but have a clear meaning: a warning, like clang's. */
static void warn_unapplied_pair(const char *named, strategy st, dispatch d)
{
    if (st == STRATEGY_TILE && named && strcmp(named, "auto"))
        fprintf(stderr, "nplus1gen: warning: --dispatch %s does not apply to --strategy tile "
                        "(one kernel, no leaf launches): ignored\n", named);
    if (st == STRATEGY_CHUNKED && d == DISPATCH_HOST)
        fprintf(stderr, "nplus1gen: warning: --strategy chunked runs with the fused dispatch "
                        "only: with --dispatch host the set uses aggregated\n");
}

/* Each strategy/dispatch pair a run validates (the one pair without lists). */
static void warn_unapplied(const cli *c)
{
    unsigned ns = c->nstrategies ? c->nstrategies : 1, nd = c->ndispatches ? c->ndispatches : 1;
    if (ns == 1 && nd == 1) {
        warn_unapplied_pair(given(c, "--dispatch"), c->plan.strategy, c->dispatch);
        return;
    }
    for (unsigned i = 0; i < ns; i++)
        for (unsigned k = 0; k < nd; k++) {
            dispatch d = c->ndispatches ? c->dispatches[k] : c->dispatch;
            warn_unapplied_pair(c->ndispatches ? dispatch_name(d) : NULL,
                                c->nstrategies ? c->strategies[i] : c->plan.strategy, d);
        }
}

static void push_arg(const char ***v, unsigned *n, const char *s)
{
    *v = xrealloc((void *)*v, (*n + 1) * sizeof **v);
    (*v)[(*n)++] = s;
}

/* Option value: "--opt=value", "--opt value", "-Dvalue" or "-D value". */
static const char *take_value(int argc, char **argv, int *i, const char *arg, size_t optlen)
{
    if (arg[optlen] == '=')
        return arg + optlen + 1;
    if (arg[optlen] != '\0')
        return arg[1] != '-' ? arg + optlen : NULL;
    if (*i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

static int parse_strategy(const char *s, strategy *out)
{
    if (!strcmp(s, "atomic"))
        *out = STRATEGY_ATOMIC;
    else if (!strcmp(s, "aggregated"))
        *out = STRATEGY_AGGREGATED;
    else if (!strcmp(s, "ordered"))
        *out = STRATEGY_ORDERED;
    else if (!strcmp(s, "chunked"))
        *out = STRATEGY_CHUNKED;
    else if (!strcmp(s, "tile"))
        *out = STRATEGY_TILE;
    else
        return -1;
    return 0;
}

/* The OpenCL C versions clang's -cl-std= takes (any letter case). */
static int known_cl_std(const char *v)
{
    static const char *known[] = {"cl",     "cl1.0",    "cl1.1",     "cl1.2", "cl2.0",
                                  "cl3.0",  "clc++",    "clc++1.0",  "clc++2021", NULL};
    for (int i = 0; known[i]; i++)
        if (!strcasecmp(v, known[i]))
            return 1;
    return 0;
}

/* What is wrong with the --validate launch, or NULL: caught here, not as a device error. */
static const char *launch_error(const validate_options *o)
{
    const unsigned long long limit = 0xffffffffULL; /* the generated kernels count in uint */
    unsigned long long items = 1, elems = 1;
    for (unsigned d = 0; d < o->dim; d++) {
        unsigned long long g = o->global[d], e = g + o->offset[d];
        if (o->has_local && g % o->local[d])
            return "--local must divide --global in every dimension";
        if (g > limit / items || e > limit / elems)
            return "--global and --offset allow at most 2^32 - 1 work-items and buffer elements";
        items *= g;
        elems *= e;
    }
    return NULL;
}

/* ---- the options: one row each, one small apply function per option or family ---- */

typedef struct option option;
/* a: the argument as given; v: its value (NULL when missing; always NULL for a flag). */
typedef int (*apply_fn)(cli *c, const option *o, const char *a, const char *v);
struct option {
    const char *shrt, *lng; /* "-o" (its value may be joined: -oDIR), "--output" (or =VALUE) */
    int takes_value;        /* 0: a flag, given exactly as named */
    apply_fn apply;
};

static int apply_help(cli *c, const option *o, const char *a, const char *v)
{
    (void)c, (void)o, (void)a, (void)v;
    usage(stdout);
    return CLI_DONE;
}

static int apply_version(cli *c, const option *o, const char *a, const char *v)
{
    (void)c, (void)o, (void)a, (void)v;
    return print_version() == EXIT_OK ? CLI_DONE : EXIT_INTERNAL;
}

/* --list-rules: the legality rules' registry (rules.h), one a line. */
static int apply_list_rules(cli *c, const option *o, const char *a, const char *v)
{
    (void)c, (void)o, (void)a, (void)v;
    strbuf sb;
    sb_init(&sb);
    rules_list(&sb);
    fputs(sb.data, stdout);
    sb_free(&sb);
    return CLI_DONE;
}

/* --report, --check, -q, --validate, --require-all-leaves, --profile, --no-line,
 * --skip-refused, --dump-ir, --calibrate. */
static int apply_flag(cli *c, const option *o, const char *a, const char *v)
{
    (void)a, (void)v;
    const char *n = o->lng;
    if (!strcmp(n, "--report"))
        c->report = 1;
    else if (!strcmp(n, "--check"))
        c->check = 1;
    else if (!strcmp(n, "--quiet"))
        c->quiet = 1;
    else if (!strcmp(n, "--profile"))
        c->profile = 1;
    else if (!strcmp(n, "--validate"))
        c->validate = 1;
    else if (!strcmp(n, "--no-line"))
        c->no_line = 1;
    else if (!strcmp(n, "--skip-refused"))
        c->skip_refused = 1;
    else if (!strcmp(n, "--dump-ir"))
        c->dump_ir = 1;
    else if (!strcmp(n, "--calibrate"))
        c->calibrate = 1;
    else
        c->vopt.require_all_leaves = 1;
    if (!strcmp(n, "--validate") || !strcmp(n, "--require-all-leaves") ||
        !strcmp(n, "--skip-refused"))
        note_option(c, n, NULL, 0);
    return EXIT_OK;
}

/* -o, -T, --depfile: a path given once. */
static int apply_path(cli *c, const option *o, const char *a, const char *v)
{
    if (!v)
        return usage_error(o->lng[2] == 'd' ? "option '%s' needs a file name"
                                            : "option '%s' needs a directory", a);
    *(o->lng[2] == 'o' ? &c->outdir : o->lng[2] == 'd' ? &c->depfile : &c->template_dir) = v;
    return note_option(c, o->shrt ? o->shrt : o->lng, v, 1);
}

/* -k, -D, -I: given any number of times. */
static int apply_list(cli *c, const option *o, const char *a, const char *v)
{
    if (o->shrt[1] == 'D' && (!v || !*v || *v == '='))
        return usage_error("option '%s' needs NAME or NAME=VALUE", a);
    if (!v)
        return usage_error(o->shrt[1] == 'k' ? "option '%s' needs a kernel name"
                                             : "option '%s' needs a directory", a);
    if (o->shrt[1] == 'k')
        push_arg(&c->kernels, &c->nkernels, v);
    else if (o->shrt[1] == 'D')
        push_arg(&c->defines, &c->ndefines, v);
    else
        push_arg(&c->includes, &c->nincludes, v);
    return EXIT_OK;
}

static int apply_cl_std(cli *c, const option *o, const char *a, const char *v)
{
    (void)a;
    if (!(c->cl_std = v) || !known_cl_std(v))
        return usage_error("--cl-std takes CL1.0, CL1.1, CL1.2, CL2.0, CL3.0 or CLC++ "
                           "(got '%s')", v ? v : "");
    return note_option(c, o->lng, v, 1);
}

/* A comma list of names into out[] (at most max, each once); -1: unknown name or too many. */
static int parse_list(const char *v, int (*one)(const char *, unsigned *), unsigned *out,
                      unsigned max, unsigned *n)
{
    *n = 0;
    for (const char *p = v;; p++) {
        size_t len = strcspn(p, ",");
        char name[32];
        unsigned x;
        if (!len || len >= sizeof name || *n == max)
            return -1;
        memcpy(name, p, len);
        name[len] = '\0';
        if (one(name, &x))
            return -1;
        for (unsigned i = 0; i < *n; i++)
            if (out[i] == x)
                return -1;
        out[(*n)++] = x;
        p += len;
        if (!*p)
            return 0;
    }
}

static int one_strategy(const char *s, unsigned *out)
{
    strategy st;
    if (parse_strategy(s, &st))
        return -1;
    *out = (unsigned)st;
    return 0;
}

static int one_dispatch(const char *s, unsigned *out)
{
    if (strcmp(s, "host") && strcmp(s, "fused") && strcmp(s, "auto"))
        return -1;
    *out = !strcmp(s, "fused") ? DISPATCH_FUSED : !strcmp(s, "auto") ? DISPATCH_AUTO
                                                                       : DISPATCH_HOST;
    return 0;
}

/* --strategy S[,S...]: several only with --validate (check_together). */
static int apply_strategy(cli *c, const option *o, const char *a, const char *v)
{
    (void)a;
    unsigned l[8];
    if (!v || parse_list(v, one_strategy, l, 8, &c->nstrategies))
        return usage_error("--strategy takes aggregated, chunked, ordered, atomic or tile, "
                           "or several of them, each once, with commas (got '%s')",
                           v ? v : "");
    for (unsigned i = 0; i < c->nstrategies; i++)
        c->strategies[i] = (strategy)l[i];
    c->plan.strategy = c->strategies[0];
    return note_option(c, o->lng, v, 1);
}

/* --dispatch D[,D...]: several only with --validate (check_together). */
static int apply_dispatch(cli *c, const option *o, const char *a, const char *v)
{
    (void)a;
    unsigned l[4];
    if (!v || parse_list(v, one_dispatch, l, 4, &c->ndispatches))
        return usage_error("--dispatch takes auto, fused or host, or several of them, each "
                           "once, with commas (got '%s')", v ? v : "");
    if (note_option(c, o->lng, v, 1))
        return EXIT_USAGE;
    for (unsigned i = 0; i < c->ndispatches; i++)
        c->dispatches[i] = (dispatch)l[i];
    c->dispatch = c->dispatches[0];
    return EXIT_OK;
}

static int apply_split(cli *c, const option *o, const char *a, const char *v)
{
    (void)a;
    if (!v || (strcmp(v, "auto") && strcmp(v, "always")))
        return usage_error("--split takes auto or always (got '%s')", v ? v : "");
    if (note_option(c, o->lng, v, 1))
        return EXIT_USAGE;
    c->plan.split = !strcmp(v, "always") ? SPLIT_ALWAYS : SPLIT_AUTO;
    return EXIT_OK;
}

/* --wg, --max-leaves: a number in a range (--wg: a power of two). */
static int apply_plan_number(cli *c, const option *o, const char *a, const char *v)
{
    (void)a;
    char *end;
    unsigned long x = v ? strtoul(v, &end, 10) : 0;
    int wg = o->lng[2] == 'w';
    if (wg && (!v || *end || x < 1 || x > 256 || (x & (x - 1))))
        return usage_error("--wg takes a power of two from 1 to 256 (got '%s')", v ? v : "");
    if (!wg && (!v || *end || x < 1 || x > PLAN_MAX_LEAVES))
        return usage_error("--max-leaves takes a number from 1 to 64 (got '%s')", v ? v : "");
    if (note_option(c, o->lng, v, 1))
        return EXIT_USAGE;
    *(wg ? &c->plan.wg : &c->plan.max_leaves) = (unsigned)x;
    return EXIT_OK;
}

static int apply_stem(cli *c, const option *o, const char *a, const char *v)
{
    (void)a;
    if (!(c->stem = v) || !*v || strchr(v, '/'))
        return usage_error("--stem needs a file name without '/' (got '%s')", v ? v : "");
    return note_option(c, o->lng, v, 1);
}

/* --global, --local, --offset. */
static int apply_launch(cli *c, const option *o, const char *a, const char *v)
{
    char which = o->lng[2];
    size_t dims[3] = {1, 1, 1};
    unsigned nd = v ? parse_dims(v, dims) : 0;
    int zero_ok = which == 'o';
    if (!nd || (!zero_ok && (!dims[0] || (nd > 1 && !dims[1]) || (nd > 2 && !dims[2]))))
        return usage_error("%s takes N, N,H or N,H,D (positive integers)", a);
    if (note_option(c, o->lng, v, 1))
        return EXIT_USAGE;
    size_t *dst = which == 'g' ? c->vopt.global : which == 'l' ? c->vopt.local : c->vopt.offset;
    for (unsigned d = 0; d < 3; d++)
        dst[d] = d < nd ? dims[d] : (which == 'o' ? 0 : 1);
    if (which == 'g')
        c->vopt.dim = nd;
    if (which == 'l')
        c->vopt.has_local = (int)nd;
    return EXIT_OK;
}

static int apply_arg(cli *c, const option *o, const char *a, const char *v)
{
    (void)a;
    if (!v || !strchr(v, '=') || *v == '=')
        return usage_error("--arg needs NAME=VALUE or NAME=size:N (got '%s')", v ? v : "");
    push_arg(&c->vopt.args, &c->vopt.nargs, v);
    note_option(c, o->lng, v, 0);
    return EXIT_OK;
}

/* --seed, --ulp, --reps, --timeout: a non-negative integer. */
static int apply_check_number(cli *c, const option *o, const char *a, const char *v)
{
    char *end;
    unsigned long long x = v ? strtoull(v, &end, 10) : 0;
    if (!v || !*v || *end || *v == '-')
        return usage_error("%s needs a non-negative integer", a);
    if (note_option(c, o->lng, v, 1))
        return EXIT_USAGE;
    char which = o->lng[2];
    if (which == 't')
        c->vopt.timeout = x > 86400 ? 86400 : (unsigned)x;
    else if (which == 's')
        c->vopt.seed = x;
    else if (which == 'u')
        c->vopt.ulp = (unsigned)x;
    else
        c->vopt.reps = x > 64 ? 64 : (int)x;
    return EXIT_OK;
}

static int apply_device(cli *c, const option *o, const char *a, const char *v)
{
    (void)a;
    if (!v)
        return usage_error("%s", "--device needs a name or an index");
    if (note_option(c, o->lng, v, 1))
        return EXIT_USAGE;
    if (!strcasecmp(v, "oclgrind")) /* the runner runs under oclgrind */
        c->vopt.device = "oclgrind";
    else /* the runner's device selection (runtime/device.c), set in its environment only */
        c->vopt.device_select = v;
    return EXIT_OK;
}

/* --unordered NAME [--count NAME2], --emit-job DIR. */
static int apply_named(cli *c, const option *o, const char *a, const char *v)
{
    char which = o->lng[2];
    if (!v || !*v)
        return usage_error("%s needs a value", a);
    if (note_option(c, o->lng, v, which == 'e'))
        return EXIT_USAGE;
    if (which == 'e') {
        c->vopt.emit_job = v;
        c->validate = 1;
    } else if (which == 'u') {
        push_arg(&c->vopt.unordered, &c->vopt.nunordered, v);
        c->vopt.nunordered--;
        push_arg(&c->vopt.count, &c->vopt.nunordered, NULL);
    } else if (!c->vopt.nunordered || c->vopt.count[c->vopt.nunordered - 1]) {
        return usage_error("%s", "--count NAME follows the --unordered it counts for");
    } else {
        c->vopt.count[c->vopt.nunordered - 1] = v;
    }
    return EXIT_OK;
}

static int apply_build_options(cli *c, const option *o, const char *a, const char *v)
{
    (void)a;
    if (!(c->vopt.build_options = v))
        return usage_error("%s", "--build-options needs a text (\"-DSEL=5 -DFAST\")");
    return note_option(c, o->lng, v, 1);
}

/* --simd-width, --profile-memory. */
static int apply_profile_number(cli *c, const option *o, const char *a, const char *v)
{
    (void)a;
    char nul = '\0', *end = &nul; /* "-5": no number, and no end to read */
    unsigned long x = v && *v != '-' ? strtoul(v, &end, 10) : 0;
    int width = o->lng[2] == 's';
    if (width && (!v || *end || x < 1 || x > 64 || (x & (x - 1))))
        return usage_error("--simd-width takes a power of two from 1 to 64 (got '%s')",
                           v ? v : "");
    if (!width && (!v || *end || x < 1 || x > 1048576))
        return usage_error("--profile-memory takes MiB, 1 to 1048576 (got '%s')", v ? v : "");
    if (note_option(c, o->lng, v, 1))
        return EXIT_USAGE;
    if (width)
        c->popt.width = (unsigned)x;
    else
        c->popt.memory = (unsigned long long)x << 20;
    return EXIT_OK;
}

static int apply_profile_in(cli *c, const option *o, const char *a, const char *v)
{
    (void)a;
    if (!(c->profile_in = v) || !*v)
        return usage_error("%s", "--profile-in needs a file (written by --profile-json)");
    return note_option(c, o->lng, v, 1);
}

/* --profile-json FILE, --profile-map FILE, --profile-html FILE: they ask for --profile. */
static int apply_profile_out(cli *c, const option *o, const char *a, const char *v)
{
    if (!v || !*v)
        return usage_error("option '%s' needs a file name", a);
    char which = o->lng[10];
    *(which == 'j' ? &c->popt.json : which == 'm' ? &c->popt.map : &c->popt.html) = v;
    note_option(c, o->lng, v, 0);
    c->profile = 1;
    return EXIT_OK;
}

/* Every option, in the order they are tried (docs/cli.md lists them). */
static const option options[] = {
    {"-h", "--help", 0, apply_help},
    {NULL, "--version", 0, apply_version},
    {NULL, "--list-rules", 0, apply_list_rules},
    {NULL, "--report", 0, apply_flag},
    {NULL, "--check", 0, apply_flag},
    {NULL, "--dump-ir", 0, apply_flag},
    {NULL, "--calibrate", 0, apply_flag},
    {"-q", "--quiet", 0, apply_flag},
    {"-o", "--output", 1, apply_path},
    {"-k", "--kernel", 1, apply_list},
    {"-D", NULL, 1, apply_list},
    {"-I", NULL, 1, apply_list},
    {NULL, "--cl-std", 1, apply_cl_std},
    {NULL, "--strategy", 1, apply_strategy},
    {NULL, "--dispatch", 1, apply_dispatch},
    {NULL, "--split", 1, apply_split},
    {NULL, "--wg", 1, apply_plan_number},
    {NULL, "--max-leaves", 1, apply_plan_number},
    {NULL, "--no-line", 0, apply_flag},
    {NULL, "--skip-refused", 0, apply_flag},
    {NULL, "--stem", 1, apply_stem},
    {NULL, "--depfile", 1, apply_path},
    {"-T", "--template-dir", 1, apply_path},
    {NULL, "--validate", 0, apply_flag},
    {NULL, "--global", 1, apply_launch},
    {NULL, "--local", 1, apply_launch},
    {NULL, "--offset", 1, apply_launch},
    {NULL, "--arg", 1, apply_arg},
    {NULL, "--seed", 1, apply_check_number},
    {NULL, "--ulp", 1, apply_check_number},
    {NULL, "--reps", 1, apply_check_number},
    {NULL, "--timeout", 1, apply_check_number},
    {NULL, "--device", 1, apply_device},
    {NULL, "--unordered", 1, apply_named},
    {NULL, "--count", 1, apply_named},
    {NULL, "--emit-job", 1, apply_named},
    {NULL, "--build-options", 1, apply_build_options},
    {NULL, "--require-all-leaves", 0, apply_flag},
    {NULL, "--profile", 0, apply_flag},
    {NULL, "--simd-width", 1, apply_profile_number},
    {NULL, "--profile-memory", 1, apply_profile_number},
    {NULL, "--profile-in", 1, apply_profile_in},
    {NULL, "--profile-json", 1, apply_profile_out},
    {NULL, "--profile-map", 1, apply_profile_out},
    {NULL, "--profile-html", 1, apply_profile_out},
    {NULL, NULL, 0, NULL}};

/* Whether a names option o; *len: the length of the name part (the value may follow). */
static int matches(const char *a, const option *o, size_t *len)
{
    if (!o->takes_value)
        return (o->shrt && !strcmp(a, o->shrt)) || (o->lng && !strcmp(a, o->lng));
    size_t n;
    if (o->shrt && !strncmp(a, o->shrt, n = strlen(o->shrt))) { /* -oDIR, -o DIR */
        *len = n;
        return 1;
    }
    if (o->lng && !strncmp(a, o->lng, n = strlen(o->lng)) && (a[n] == '\0' || a[n] == '=')) {
        *len = n;
        return 1;
    }
    return 0;
}

/* argv[*i]: an option (its value may take the next argument) or the input file. */
static int parse_one(cli *c, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    size_t n = 0;
    for (const option *o = options; o->apply; o++)
        if (matches(a, o, &n))
            return o->apply(c, o, a, o->takes_value ? take_value(argc, argv, i, a, n) : NULL);
    if (a[0] == '-' && a[1] != '\0')
        return usage_error("unknown option '%s'", a);
    if (c->input)
        return usage_error("more than one input file ('%s')", a);
    c->input = a;
    return EXIT_OK;
}

static void set_defaults(cli *c)
{
    memset(c, 0, sizeof *c);
    c->plan.strategy = STRATEGY_AGGREGATED; /* fastest measured: docs/performance.md */
    c->dispatch = DISPATCH_AUTO;
    c->plan.wg = 256;
    c->vopt.dim = 1;
    c->vopt.global[0] = 65536;
    c->vopt.global[1] = c->vopt.global[2] = 1;
    c->vopt.local[0] = c->vopt.local[1] = c->vopt.local[2] = 1;
    c->vopt.seed = 1;
    c->vopt.ulp = 4;
    c->vopt.timeout = 600;
    c->popt.width = 32;
    c->popt.memory = 256ULL << 20;
}

/* What the options ask for together, once all are read. */
static int check_together(cli *c)
{
    if (c->calibrate && (c->input || c->outdir || c->check || c->report || c->validate ||
                         c->profile || c->dump_ir || given(c, "--emit-job")))
        return usage_error("%s", "--calibrate measures the device and runs nothing else: no "
                                 "input file, -o, --check, --report, --validate or --profile "
                                 "(--device picks the device)");
    if (c->calibrate)
        return EXIT_OK;
    if (!c->input)
        return usage_error("%s", "no input file");
    if (c->profile && c->vopt.emit_job && !given(c, "--validate"))
        c->validate = 0; /* --profile --emit-job DIR: the profile's job (profile_cmd.c) */
    if (c->dump_ir && (c->outdir || c->check || c->report || c->validate || c->profile ||
                       given(c, "--emit-job") || given(c, "--skip-refused")))
        return usage_error("%s", "--dump-ir prints the IR and runs nothing else: no -o, "
                                 "--check, --report, --validate, --profile or --skip-refused");
    if (refuse_unapplied(c))
        return EXIT_USAGE;
    if ((c->validate || c->profile) && c->vopt.has_local &&
        (unsigned)c->vopt.has_local != c->vopt.dim)
        return usage_error("%s", "--local must have as many dimensions as --global");
    if ((c->validate || c->profile) && launch_error(&c->vopt))
        return usage_error("%s", launch_error(&c->vopt));
    if (c->profile && (c->validate || c->outdir || c->check || c->report))
        return usage_error("%s", "--profile runs alone: no -o, --check, --report or --validate");
    if ((c->nstrategies > 1 || c->ndispatches > 1) &&
        (!c->validate || c->outdir || c->check || c->report || c->profile))
        return usage_error("%s", "--strategy or --dispatch with several values applies only "
                                 "to --validate (or --emit-job): give one value, or drop -o, "
                                 "--check, --report and --profile");
    if (!c->outdir && !c->check && !c->report && !c->validate && !c->profile && !c->dump_ir)
        return usage_error("%s", "no output directory: give -o DIR (or --check / --report)");
    warn_unapplied(c);
    return EXIT_OK;
}

void cli_free(cli *c)
{
    profile_in_free(&c->prior);
    free(c->kernels);
    free(c->defines);
    free(c->includes);
    free(c->vopt.args);
    free(c->vopt.unordered);
    free(c->vopt.count);
    memset(c, 0, sizeof *c);
}

int parse_cli(cli *c, int argc, char **argv)
{
    set_defaults(c);
    int rc = EXIT_OK;
    for (int i = 1; i < argc && rc == EXIT_OK; i++) {
        rc = parse_one(c, argc, argv, &i);
        if (rc != EXIT_OK && rc != CLI_DONE && rc != EXIT_INTERNAL)
            rc = EXIT_USAGE;
    }
    if (rc == EXIT_OK)
        rc = check_together(c);
    if (rc != EXIT_OK)
        cli_free(c);
    return rc;
}
