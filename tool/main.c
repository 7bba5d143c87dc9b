/*
 * main.c - the nplus1gen command line: options, the pipeline
 * (parse -> analyze -> plan -> emit), --report / --check output, and the
 * atomic write of the output directory.
 */
#define _DEFAULT_SOURCE /* flock() */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze.h"
#include "big_stack.h"
#include "diag.h"
#include "emit.h"
#include "parse.h"
#include "plan.h"
#include "profile_cmd.h"
#include "profile_in.h"
#include "report.h"
#include "safety_net.h"
#include "util.h"
#include "validate_cmd.h"
#include "version.h"

#ifndef NPLUS1_VERSION
#define NPLUS1_VERSION "0.0.0"
#endif

enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_USAGE = 2, EXIT_INTERNAL = 3 };

typedef struct given_option {
    const char *opt, *value;
} given_option;

typedef struct cli {
    const char *input;
    const char *outdir;
    const char *depfile;
    const char *template_dir;
    const char *stem;
    const char **kernels;
    unsigned nkernels;
    const char **defines;
    unsigned ndefines;
    const char **includes;
    unsigned nincludes;
    const char *cl_std;
    plan_options plan;
    int report, check, quiet;
    int validate;
    validate_options vopt;
    given_option given[64]; /* the options seen: see note_option */
    unsigned ngiven;
    int profile;              /* --profile (profile_cmd.h) */
    profile_options popt;
    const char *profile_in;   /* --profile-in P.json (profile_in.h), or NULL */
    profile_in prior;         /* what it holds, once read */
} cli;

/* The --help text is tool/help.txt, embedded at build time; the man page
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
                                            "--profile-map", NULL};
    for (int i = 0; given(c, "--emit-job") && run_here[i]; i++)
        if (given(c, run_here[i]))
            return not_applied("%s applies to a run here, and --emit-job runs nothing",
                               run_here[i]);
    if (given(c, "--depfile") && !c->outdir)
        return not_applied("%s applies only with -o (it lists the files -o writes)", "--depfile");
    for (int i = 0; i < 2; i++)
        if (given(c, i ? "--stem" : "-T") && !c->outdir && !c->validate)
            return not_applied("%s applies only with -o or --validate", i ? "--stem" : "-T");
    if (given(c, "--profile-in") && c->profile)
        return not_applied("%s feeds a profile to the generated set (-o); --profile makes one: "
                           "run them one after the other", "--profile-in");
    if (given(c, "--profile-in") && !c->outdir)
        return not_applied("%s applies only with -o (it goes into the driver and the manifest)",
                           "--profile-in");
    return EXIT_OK;
}

/* Options that do not change this run but have a clear meaning: a warning, like clang's. */
static void warn_unapplied(const cli *c)
{
    const char *dispatch = given(c, "--dispatch");
    if (c->plan.strategy == STRATEGY_TILE && dispatch && strcmp(dispatch, "auto"))
        fprintf(stderr, "nplus1gen: warning: --dispatch %s does not apply to --strategy tile "
                        "(one kernel, no leaf launches): ignored\n", dispatch);
    if (c->plan.strategy == STRATEGY_CHUNKED && c->plan.dispatch == DISPATCH_HOST)
        fprintf(stderr, "nplus1gen: warning: --strategy chunked runs with the fused dispatch "
                        "only: with --dispatch host the set uses aggregated\n");
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

static int match(const char *arg, const char *shrt, const char *lng, size_t *len)
{
    size_t n;
    if (shrt && !strncmp(arg, shrt, n = strlen(shrt)) && (arg[n] == '\0' || shrt[1] == 'D' ||
                                                         shrt[1] == 'I' || shrt[1] == 'k' ||
                                                         shrt[1] == 'o' || shrt[1] == 'T')) {
        *len = n;
        return 1;
    }
    if (lng && !strncmp(arg, lng, n = strlen(lng)) && (arg[n] == '\0' || arg[n] == '=')) {
        *len = n;
        return 1;
    }
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

static int parse_cli(cli *c, int argc, char **argv)
{
    memset(c, 0, sizeof *c);
    c->plan.strategy = STRATEGY_AGGREGATED; /* fastest measured: docs/performance.md */
    c->plan.dispatch = DISPATCH_AUTO;
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
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        size_t n;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(EXIT_OK);
        } else if (!strcmp(a, "--version")) {
            exit(print_version());
        } else if (!strcmp(a, "--report")) {
            c->report = 1;
        } else if (!strcmp(a, "--check")) {
            c->check = 1;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            c->quiet = 1;
        } else if (match(a, "-o", "--output", &n)) {
            if (!(c->outdir = take_value(argc, argv, &i, a, n)))
                return usage_error("option '%s' needs a directory", a);
            if (note_option(c, "-o", c->outdir, 1))
                return EXIT_USAGE;
        } else if (match(a, "-k", "--kernel", &n)) {
            if (!(v = take_value(argc, argv, &i, a, n)))
                return usage_error("option '%s' needs a kernel name", a);
            push_arg(&c->kernels, &c->nkernels, v);
        } else if (match(a, "-D", NULL, &n)) {
            if (!(v = take_value(argc, argv, &i, a, n)) || !*v || *v == '=')
                return usage_error("option '%s' needs NAME or NAME=VALUE", a);
            push_arg(&c->defines, &c->ndefines, v);
        } else if (match(a, "-I", NULL, &n)) {
            if (!(v = take_value(argc, argv, &i, a, n)))
                return usage_error("option '%s' needs a directory", a);
            push_arg(&c->includes, &c->nincludes, v);
        } else if (match(a, NULL, "--cl-std", &n)) {
            if (!(c->cl_std = take_value(argc, argv, &i, a, n)) || !known_cl_std(c->cl_std))
                return usage_error("--cl-std takes CL1.0, CL1.1, CL1.2, CL2.0, CL3.0 or CLC++ "
                                   "(got '%s')", c->cl_std ? c->cl_std : "");
            if (note_option(c, "--cl-std", c->cl_std, 1))
                return EXIT_USAGE;
        } else if (match(a, NULL, "--strategy", &n)) {
            if (!(v = take_value(argc, argv, &i, a, n)) || parse_strategy(v, &c->plan.strategy))
                return usage_error("--strategy takes aggregated, chunked, ordered, atomic or tile "
                                   "(got '%s')", v ? v : "");
            if (note_option(c, "--strategy", v, 1))
                return EXIT_USAGE;
        } else if (match(a, NULL, "--dispatch", &n)) {
            if (!(v = take_value(argc, argv, &i, a, n)) ||
                (strcmp(v, "host") && strcmp(v, "fused") && strcmp(v, "auto")))
                return usage_error("--dispatch takes auto, fused or host (got '%s')", v ? v : "");
            if (note_option(c, "--dispatch", v, 1))
                return EXIT_USAGE;
            c->plan.dispatch = !strcmp(v, "fused")  ? DISPATCH_FUSED
                               : !strcmp(v, "auto") ? DISPATCH_AUTO
                                                    : DISPATCH_HOST;
        } else if (match(a, NULL, "--split", &n)) {
            if (!(v = take_value(argc, argv, &i, a, n)) ||
                (strcmp(v, "auto") && strcmp(v, "always")))
                return usage_error("--split takes auto or always (got '%s')", v ? v : "");
            if (note_option(c, "--split", v, 1))
                return EXIT_USAGE;
            c->plan.split = !strcmp(v, "always") ? SPLIT_ALWAYS : SPLIT_AUTO;
        } else if (match(a, NULL, "--wg", &n)) {
            char *end;
            v = take_value(argc, argv, &i, a, n);
            unsigned long wg = v ? strtoul(v, &end, 10) : 0;
            if (!v || *end || wg < 1 || wg > 256 || (wg & (wg - 1)))
                return usage_error("--wg takes a power of two from 1 to 256 (got '%s')",
                                   v ? v : "");
            if (note_option(c, "--wg", v, 1))
                return EXIT_USAGE;
            c->plan.wg = (unsigned)wg;
        } else if (match(a, NULL, "--max-leaves", &n)) {
            char *end;
            v = take_value(argc, argv, &i, a, n);
            unsigned long m = v ? strtoul(v, &end, 10) : 0;
            if (!v || *end || m < 1 || m > PLAN_MAX_LEAVES)
                return usage_error("--max-leaves takes a number from 1 to 64 (got '%s')", v ? v : "");
            if (note_option(c, "--max-leaves", v, 1))
                return EXIT_USAGE;
            c->plan.max_leaves = (unsigned)m;
        } else if (match(a, NULL, "--stem", &n)) {
            if (!(c->stem = take_value(argc, argv, &i, a, n)) || !*c->stem ||
                strchr(c->stem, '/'))
                return usage_error("--stem needs a file name without '/' (got '%s')",
                                   c->stem ? c->stem : "");
            if (note_option(c, "--stem", c->stem, 1))
                return EXIT_USAGE;
        } else if (match(a, NULL, "--depfile", &n)) {
            if (!(c->depfile = take_value(argc, argv, &i, a, n)))
                return usage_error("option '%s' needs a file name", a);
            if (note_option(c, "--depfile", c->depfile, 1))
                return EXIT_USAGE;
        } else if (match(a, "-T", "--template-dir", &n)) {
            if (!(c->template_dir = take_value(argc, argv, &i, a, n)))
                return usage_error("option '%s' needs a directory", a);
            if (note_option(c, "-T", c->template_dir, 1))
                return EXIT_USAGE;
        } else if (!strcmp(a, "--validate")) {
            c->validate = 1;
            note_option(c, "--validate", NULL, 0);
        } else if (match(a, NULL, "--global", &n) || match(a, NULL, "--local", &n) ||
                   match(a, NULL, "--offset", &n)) {
            v = take_value(argc, argv, &i, a, n);
            size_t dims[3] = {1, 1, 1};
            unsigned nd = v ? parse_dims(v, dims) : 0;
            int zero_ok = a[2] == 'o';
            if (!nd || (!zero_ok && (!dims[0] || (nd > 1 && !dims[1]) || (nd > 2 && !dims[2]))))
                return usage_error("%s takes N, N,H or N,H,D (positive integers)", a);
            if (note_option(c, a[2] == 'g' ? "--global" : a[2] == 'l' ? "--local" : "--offset", v,
                            1))
                return EXIT_USAGE;
            size_t *dst = a[2] == 'g' ? c->vopt.global : a[2] == 'l' ? c->vopt.local : c->vopt.offset;
            for (unsigned d = 0; d < 3; d++)
                dst[d] = d < nd ? dims[d] : (a[2] == 'o' ? 0 : 1);
            if (a[2] == 'g')
                c->vopt.dim = nd;
            if (a[2] == 'l')
                c->vopt.has_local = (int)nd;
        } else if (match(a, NULL, "--arg", &n)) {
            if (!(v = take_value(argc, argv, &i, a, n)) || !strchr(v, '=') || *v == '=')
                return usage_error("--arg needs NAME=VALUE or NAME=size:N (got '%s')", v ? v : "");
            push_arg(&c->vopt.args, &c->vopt.nargs, v);
            note_option(c, "--arg", v, 0);
        } else if (match(a, NULL, "--seed", &n) || match(a, NULL, "--ulp", &n) ||
                   match(a, NULL, "--reps", &n) || match(a, NULL, "--timeout", &n)) {
            char *end;
            v = take_value(argc, argv, &i, a, n);
            unsigned long long x = v ? strtoull(v, &end, 10) : 0;
            if (!v || !*v || *end || *v == '-')
                return usage_error("%s needs a non-negative integer", a);
            if (note_option(c, a[2] == 't' ? "--timeout" : a[2] == 's' ? "--seed"
                               : a[2] == 'u' ? "--ulp" : "--reps", v, 1))
                return EXIT_USAGE;
            if (a[2] == 't')
                c->vopt.timeout = x > 86400 ? 86400 : (unsigned)x;
            else if (a[2] == 's')
                c->vopt.seed = x;
            else if (a[2] == 'u')
                c->vopt.ulp = (unsigned)x;
            else
                c->vopt.reps = x > 64 ? 64 : (int)x;
        } else if (match(a, NULL, "--device", &n)) {
            if (!(v = take_value(argc, argv, &i, a, n)))
                return usage_error("%s", "--device needs a name or an index");
            if (note_option(c, "--device", v, 1))
                return EXIT_USAGE;
            if (!strcasecmp(v, "oclgrind")) /* the runner runs under oclgrind */
                c->vopt.device = "oclgrind";
            else
                setenv("NPLUS1_DEVICE", v, 1);
        } else if (match(a, NULL, "--unordered", &n) || match(a, NULL, "--count", &n) ||
                   match(a, NULL, "--emit-job", &n)) {
            if (!(v = take_value(argc, argv, &i, a, n)) || !*v)
                return usage_error("%s needs a value", a);
            if (note_option(c, a[2] == 'e' ? "--emit-job" : a[2] == 'u' ? "--unordered" : "--count",
                            v, a[2] == 'e'))
                return EXIT_USAGE;
            if (a[2] == 'e') {
                c->vopt.emit_job = v;
                c->validate = 1;
            } else if (a[2] == 'u') {
                push_arg(&c->vopt.unordered, &c->vopt.nunordered, v);
                c->vopt.nunordered--;
                push_arg(&c->vopt.count, &c->vopt.nunordered, NULL);
            } else if (!c->vopt.nunordered || c->vopt.count[c->vopt.nunordered - 1]) {
                return usage_error("%s", "--count NAME follows the --unordered it counts for");
            } else {
                c->vopt.count[c->vopt.nunordered - 1] = v;
            }
        } else if (match(a, NULL, "--build-options", &n)) {
            if (!(c->vopt.build_options = take_value(argc, argv, &i, a, n)))
                return usage_error("%s", "--build-options needs a text (\"-DSEL=5 -DFAST\")");
            if (note_option(c, "--build-options", c->vopt.build_options, 1))
                return EXIT_USAGE;
        } else if (!strcmp(a, "--require-all-leaves")) {
            c->vopt.require_all_leaves = 1;
            note_option(c, "--require-all-leaves", NULL, 0);
        } else if (!strcmp(a, "--profile")) {
            c->profile = 1;
        } else if (match(a, NULL, "--simd-width", &n) || match(a, NULL, "--profile-memory", &n)) {
            char *end;
            v = take_value(argc, argv, &i, a, n);
            unsigned long x = v && *v != '-' ? strtoul(v, &end, 10) : 0;
            if (a[2] == 's' && (!v || *end || x < 1 || x > 64 || (x & (x - 1))))
                return usage_error("--simd-width takes a power of two from 1 to 64 (got '%s')",
                                   v ? v : "");
            if (a[2] == 'p' && (!v || *end || x < 1 || x > 1048576))
                return usage_error("--profile-memory takes MiB, 1 to 1048576 (got '%s')",
                                   v ? v : "");
            if (note_option(c, a[2] == 's' ? "--simd-width" : "--profile-memory", v, 1))
                return EXIT_USAGE;
            if (a[2] == 's')
                c->popt.width = (unsigned)x;
            else
                c->popt.memory = (unsigned long long)x << 20;
        } else if (match(a, NULL, "--profile-in", &n)) {
            if (!(c->profile_in = take_value(argc, argv, &i, a, n)) || !*c->profile_in)
                return usage_error("%s", "--profile-in needs a file (written by --profile-json)");
            if (note_option(c, "--profile-in", c->profile_in, 1))
                return EXIT_USAGE;
        } else if (match(a, NULL, "--profile-json", &n) || match(a, NULL, "--profile-map", &n)) {
            if (!(v = take_value(argc, argv, &i, a, n)) || !*v)
                return usage_error("option '%s' needs a file name", a);
            *(a[10] == 'j' ? &c->popt.json : &c->popt.map) = v;
            note_option(c, a[10] == 'j' ? "--profile-json" : "--profile-map", v, 0);
            c->profile = 1;
        } else if (a[0] == '-' && a[1] != '\0') {
            return usage_error("unknown option '%s'", a);
        } else if (c->input) {
            return usage_error("more than one input file ('%s')", a);
        } else {
            c->input = a;
        }
    }
    if (!c->input)
        return usage_error("%s", "no input file");
    if (c->profile && c->vopt.emit_job && !given(c, "--validate"))
        c->validate = 0; /* --profile --emit-job DIR: the profile's job (profile_cmd.c) */
    if (refuse_unapplied(c))
        return EXIT_USAGE;
    if ((c->validate || c->profile) && c->vopt.has_local &&
        (unsigned)c->vopt.has_local != c->vopt.dim)
        return usage_error("%s", "--local must have as many dimensions as --global");
    if ((c->validate || c->profile) && launch_error(&c->vopt))
        return usage_error("%s", launch_error(&c->vopt));
    if (c->profile && (c->validate || c->outdir || c->check || c->report))
        return usage_error("%s", "--profile runs alone: no -o, --check, --report or --validate");
    if (c->popt.map && c->vopt.dim != 2)
        return usage_error("%s", "--profile-map draws a 2-D launch: give --global W,H");
    if (!c->outdir && !c->check && !c->report && !c->validate && !c->profile)
        return usage_error("%s", "no output directory: give -o DIR (or --check / --report)");
    warn_unapplied(c);
    return EXIT_OK;
}

/* The stem: the input's file name without its directory and .cl. */
static char *default_stem(const char *input)
{
    const char *base = strrchr(input, '/');
    base = base ? base + 1 : input;
    size_t n = strlen(base);
    if (n > 3 && !strcmp(base + n - 3, ".cl"))
        n -= 3;
    char *s = xstrndup(base, n);
    for (char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
            *p = '_';
    return s;
}

/* ---- atomic output --------------------------------------------------------- */

typedef struct out_file {
    char *final;          /* where the file goes */
    const char *text;
    char *tmp, *backup;   /* hidden names beside final */
    int existed;          /* final was there before: backup holds it */
} out_file;

/* Creates the missing parents of dir, like mkdir -p. */
static void make_parents(const char *dir)
{
    char *p = xstrdup(dir);
    for (char *c = p + 1; *c; c++) {
        if (*c != '/')
            continue;
        *c = '\0';
        mkdir(p, 0777); /* errors show when dir itself is made */
        *c = '/';
    }
    free(p);
}

/* Creates dir (and its parents) if missing; *created says whether dir was made. */
static int make_dir(const char *dir, int *created)
{
    make_parents(dir);
    *created = mkdir(dir, 0777) == 0;
    if (*created || errno == EEXIST) {
        struct stat st;
        if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
            return 0;
        errno = ENOTDIR;
    }
    return -1;
}

static int write_all(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t n = strlen(text);
    int bad = fwrite(text, 1, n, f) != n;
    bad |= fclose(f) != 0;
    return bad ? -1 : 0;
}

/* "dir/.base<what><pid>" for final "dir/base". */
static char *hidden_sibling(const char *final, const char *what)
{
    const char *slash = strrchr(final, '/');
    size_t dirlen = slash ? (size_t)(slash - final) + 1 : 0;
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "%.*s.%s%s%ld", (int)dirlen, final, final + dirlen, what, (long)getpid());
    return sb_steal(&sb);
}

/* Puts back what was there before files[0..n) were renamed into place. */
static void restore(out_file *files, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        if (files[i].existed)
            rename(files[i].backup, files[i].final);
        else
            unlink(files[i].final);
    }
}

/* For file systems without hard links. */
static int copy_file(const char *from, const char *to)
{
    char *text;
    size_t len;
    if (read_file(from, &text, &len) != 0)
        return -1;
    FILE *f = fopen(to, "wb");
    int bad = !f || fwrite(text, 1, len, f) != len;
    if (f)
        bad |= fclose(f) != 0;
    free(text);
    if (bad)
        unlink(to);
    return bad ? -1 : 0;
}

/* Keeps a hard link to (or a copy of) every file about to be replaced; 0, or -1. */
static int keep_backups(out_file *files, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        struct stat st;
        if (lstat(files[i].final, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            fprintf(stderr, "nplus1gen: error: cannot write '%s': it is a directory\n",
                    files[i].final);
            return -1;
        }
        unlink(files[i].backup); /* a leftover of a killed run with our pid */
        files[i].existed = 1;
        if (link(files[i].final, files[i].backup) != 0 && copy_file(files[i].final,
                                                                   files[i].backup) != 0) {
            fprintf(stderr, "nplus1gen: error: cannot replace '%s': %s\n", files[i].final,
                    strerror(errno));
            return -1;
        }
    }
    return 0;
}

/*
 * Locks the folder of final (an exclusive flock on the folder itself, which
 * adds no file to it) against other nplus1gen runs writing there; blocks
 * until it has the lock. The descriptor to close, or -1 where the file
 * system has no flock (the files are then still replaced one by one).
 */
static int lock_folder(const char *final)
{
    const char *slash = strrchr(final, '/');
    char *dir = slash ? xstrndup(final, (size_t)(slash - final) + 1) : xstrdup(".");
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(dir);
    if (fd < 0)
        return -1;
    int rc;
    while ((rc = flock(fd, LOCK_EX)) != 0 && errno == EINTR)
        ;
    if (rc != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/*
 * Writes every file to a temporary name beside it, then renames them all into
 * place while holding the output folder's lock (lock_folder), so two runs
 * into one folder leave one run's set, never a mix. Files being replaced are
 * kept (hard links) until every rename has succeeded, so a failure at any
 * step leaves every path as it was.
 */
static int write_outputs(out_file *files, unsigned n)
{
    int rc = EXIT_OK, lock = -1;
    unsigned written = 0, renamed = 0;
    for (unsigned i = 0; i < n; i++) {
        files[i].tmp = hidden_sibling(files[i].final, "tmp");
        files[i].backup = hidden_sibling(files[i].final, "bak");
        files[i].existed = 0;
    }
    for (; written < n && rc == EXIT_OK; written++) {
        if (write_all(files[written].tmp, files[written].text) != 0) {
            fprintf(stderr, "nplus1gen: error: cannot write '%s': %s\n", files[written].final,
                    strerror(errno));
            rc = EXIT_INPUT;
        }
    }
    if (rc == EXIT_OK)
        lock = lock_folder(files[0].final);
    if (rc == EXIT_OK && keep_backups(files, n) != 0)
        rc = EXIT_INPUT;
    for (; rc == EXIT_OK && renamed < n; renamed++) {
        if (rename(files[renamed].tmp, files[renamed].final) != 0) {
            fprintf(stderr, "nplus1gen: error: cannot rename to '%s': %s\n",
                    files[renamed].final, strerror(errno));
            rc = EXIT_INPUT;
            break;
        }
    }
    if (rc != EXIT_OK)
        restore(files, renamed);
    for (unsigned i = 0; i < n; i++) {
        if (i >= renamed && i < written)
            unlink(files[i].tmp);
        if (files[i].existed && (rc == EXIT_OK || i >= renamed))
            unlink(files[i].backup);
        free(files[i].tmp);
        free(files[i].backup);
    }
    if (lock >= 0)
        close(lock);
    return rc;
}

static char *depfile_text(const cli *c, const emit_output *out, const char *stem)
{
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "%s/%s.nplus1.cl %s/%s_nplus1.h %s/%s_nplus1.c %s/%s.nplus1.json:", c->outdir,
              stem, c->outdir, stem, c->outdir, stem, c->outdir, stem);
    for (unsigned i = 0; i < out->ndeps; i++) {
        sb_puts(&sb, " \\\n  ");
        for (const char *p = out->deps[i]; *p; p++) {
            if (*p == ' ' || *p == '#' || *p == '$')
                sb_putc(&sb, *p == '$' ? '$' : '\\');
            sb_putc(&sb, *p);
        }
    }
    sb_putc(&sb, '\n');
    return sb_steal(&sb);
}

/* An emit failure: templates given with -T are the user's input, the built-in ones ours. */
static int emit_failed(const cli *c, const char *err)
{
    if (c->template_dir) {
        fprintf(stderr, "nplus1gen: error: %s\n", err);
        return EXIT_INPUT;
    }
    fprintf(stderr, "nplus1gen: internal error: %s\n", err);
    return EXIT_INTERNAL;
}

static int validate(cli *c, const plan *pl)
{
    char *stem = c->stem ? xstrdup(c->stem) : default_stem(c->input);
    emit_options eo = {c->input, stem, c->template_dir, c->defines, c->ndefines,
                       c->profile_in ? &c->prior : NULL};
    emit_output out;
    char err[512] = "";
    int rc;
    parse_options po = {c->cl_std, NULL, 0, c->includes, c->nincludes};
    if (emit_all(pl, &eo, &out, err, sizeof err) != 0) {
        rc = emit_failed(c, err);
    } else if (safety_net_check(pl, &po, c->input, stem, out.kernel_file, !!c->template_dir)) {
        rc = c->template_dir ? EXIT_INPUT : EXIT_INTERNAL;
    } else {
        c->vopt.input = c->input;
        c->vopt.defines = c->defines;
        c->vopt.ndefines = c->ndefines;
        c->vopt.includes = c->includes;
        c->vopt.nincludes = c->nincludes;
        c->vopt.quiet = c->quiet;
        fflush(stdout);
        rc = validate_run(pl, &out, &c->vopt);
    }
    emit_output_free(&out);
    free(stem);
    return rc;
}

static int generate(const cli *c, const plan *pl)
{
    char *stem = c->stem ? xstrdup(c->stem) : default_stem(c->input);
    emit_options eo = {c->input, stem, c->template_dir, c->defines, c->ndefines,
                       c->profile_in ? &c->prior : NULL};
    emit_output out;
    char err[512] = "";
    parse_options po = {c->cl_std, NULL, 0, c->includes, c->nincludes};
    if (emit_all(pl, &eo, &out, err, sizeof err) != 0 ||
        safety_net_check(pl, &po, c->input, stem, out.kernel_file, !!c->template_dir)) {
        int rc = err[0] ? emit_failed(c, err) : c->template_dir ? EXIT_INPUT : EXIT_INTERNAL;
        emit_output_free(&out);
        free(stem);
        return rc;
    }
    const char *fmt[4] = {"%s/%s.nplus1.cl", "%s/%s_nplus1.h", "%s/%s_nplus1.c",
                          "%s/%s.nplus1.json"};
    const char *texts[4] = {out.kernel_file, out.driver_h, out.driver_c, out.manifest};
    out_file files[5];
    unsigned n = 0;
    for (; n < 4; n++) {
        strbuf name;
        sb_init(&name);
        sb_printf(&name, fmt[n], c->outdir, stem);
        files[n] = (out_file){sb_steal(&name), texts[n], NULL, NULL, 0};
    }
    char *dep = c->depfile ? depfile_text(c, &out, stem) : NULL;
    if (dep)
        files[n++] = (out_file){xstrdup(c->depfile), dep, NULL, NULL, 0};
    int created = 0, rc = EXIT_OK;
    if (make_dir(c->outdir, &created) != 0) {
        fprintf(stderr, "nplus1gen: error: cannot create output directory '%s': %s\n",
                c->outdir, strerror(errno));
        rc = EXIT_INPUT;
    } else {
        rc = write_outputs(files, n);
        if (rc != EXIT_OK && created)
            rmdir(c->outdir);
    }
    if (rc == EXIT_OK && !c->quiet) {
        for (unsigned i = 0; i < pl->nkernels; i++)
            fprintf(stderr, "nplus1gen: %s: %u leaf kernels (%u paths), strategy %s\n",
                    pl->kernels[i].k->name, pl->kernels[i].nkernels, pl->kernels[i].nleaves,
                    strategy_name(pl->opt.strategy));
        fprintf(stderr, "nplus1gen: wrote %s/%s.nplus1.cl, %s_nplus1.h, %s_nplus1.c, %s.nplus1.json\n",
                c->outdir, stem, stem, stem, stem);
    }
    for (unsigned i = 0; i < n; i++)
        free(files[i].final);
    free(dep);
    emit_output_free(&out);
    free(stem);
    return rc;
}

/*
 * --profile-in: reads the profile and checks that it is one of the input's
 * kernels; EXIT_USAGE with a message when it is not. A generated kernel the
 * profile lacks keeps the static prior (a note says so).
 */
static int load_profile(cli *c, const plan *pl)
{
    char err[512];
    if (profile_in_load(&c->prior, c->profile_in, c->input, err, sizeof err) != 0) {
        fprintf(stderr, "nplus1gen: error: --profile-in '%s': %s\n", c->profile_in, err);
        return EXIT_USAGE;
    }
    unsigned found = 0;
    for (unsigned i = 0; i < pl->nkernels; i++)
        found += profile_in_find(&c->prior, pl->kernels[i].k->name) != NULL;
    if (!found && pl->nkernels) {
        fprintf(stderr, "nplus1gen: error: --profile-in '%s': it profiles ", c->profile_in);
        for (unsigned i = 0; i < c->prior.nkernels; i++)
            fprintf(stderr, "%s'%s'", i ? ", " : "", c->prior.kernels[i].name);
        fprintf(stderr, "%s, not '%s'%s\n", c->prior.nkernels ? "" : "no kernel",
                pl->kernels[0].k->name, pl->nkernels > 1 ? " or the other generated kernels" : "");
        return EXIT_USAGE;
    }
    for (unsigned i = 0; i < pl->nkernels && !c->quiet; i++)
        if (!profile_in_find(&c->prior, pl->kernels[i].k->name))
            fprintf(stderr, "nplus1gen: note: --profile-in '%s' has no kernel '%s': its "
                            "measured choice keeps the static prior\n",
                    c->profile_in, pl->kernels[i].k->name);
    return EXIT_OK;
}

static int run(int argc, char **argv)
{
    cli c;
    int rc = parse_cli(&c, argc, argv);
    if (rc != EXIT_OK)
        return rc;
    if (c.profile) {
        parse_options ppo = {c.cl_std, c.defines, c.ndefines, c.includes, c.nincludes};
        c.vopt.input = c.input;
        c.vopt.defines = c.defines;
        c.vopt.ndefines = c.ndefines;
        c.vopt.includes = c.includes;
        c.vopt.nincludes = c.nincludes;
        rc = profile_command(c.input, &ppo, c.kernels, c.nkernels, &c.plan, &c.vopt, &c.popt);
        free(c.kernels);
        free(c.defines);
        free(c.includes);
        free(c.vopt.args);
        free(c.vopt.unordered);
        free(c.vopt.count);
        return rc;
    }
    diag_sink diag;
    diag_init(&diag);
    parse_options po = {c.cl_std, c.defines, c.ndefines, c.includes, c.nincludes};
    parse_result pr;
    analysis an;
    plan pl;
    memset(&an, 0, sizeof an);
    memset(&pl, 0, sizeof pl);
    rc = parse_input(&pr, c.input, &po, &diag);
    if (rc == EXIT_OK) {
        int bad = analyze_tu(&an, &pr, c.kernels, c.nkernels, &diag);
        bad |= plan_build(&pl, &an, &c.plan, &diag);
        if (c.report || c.check)
            report_print(stdout, &an, &pl, c.report);
        rc = bad ? EXIT_INPUT : EXIT_OK;
        if (rc == EXIT_OK && c.profile_in && c.outdir && !c.check)
            rc = load_profile(&c, &pl);
        if (rc == EXIT_OK && c.outdir && !c.check)
            rc = generate(&c, &pl);
        if (rc == EXIT_OK && c.validate && !c.check)
            rc = validate(&c, &pl);
    }
    if (rc == EXIT_INPUT && diag.errors)
        fprintf(stderr, "nplus1gen: %u error%s; no files written\n", diag.errors,
                diag.errors == 1 ? "" : "s");
    profile_in_free(&c.prior);
    plan_free(&pl);
    analyze_free(&an);
    parse_free(&pr);
    free(c.kernels);
    free(c.defines);
    free(c.includes);
    free(c.vopt.args);
    free(c.vopt.unordered);
    free(c.vopt.count);
    return rc;
}

typedef struct main_args {
    int argc;
    char **argv;
} main_args;

static int run_args(void *p)
{
    main_args *a = p;
    return run(a->argc, a->argv);
}

/* The work runs on a large stack: deep expressions recurse deeply (big_stack.h). */
int main(int argc, char **argv)
{
    main_args a = {argc, argv};
    return big_stack_run(run_args, &a, big_stack_size());
}
