/*
 * profile_cmd.c - the --profile command (profile_cmd.h).
 *
 * Like --validate, the device side runs in nplus1gen-validate (POCL's LLVM
 * and libclang's cannot share a process): this writes a job whose source is
 * the instrumented original (profile_emit.c), the runner runs it and the
 * original on the same inputs and leaves each kernel's recording in the
 * job, and the replay (profile_replay.c) and the report happen here.
 */
#define _DEFAULT_SOURCE
#include "profile_cmd.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analyze_int.h"
#include "divergence.h"
#include "profile_build.h"
#include "profile_map.h"
#include "profile_report.h"
#include "util.h"

#define UNIT_ITEMS 4096u     /* items sampled together: whole tiles, whole groups */
#define FIRST_SLOT 64u       /* bytes per item on the first run: 60 tokens */

typedef struct pctx {
    const char *input;
    const validate_options *vo;
    const profile_options *o;
    analysis an;
    plan pl;
    profile_kernel *pks;
    unsigned npks;
    unsigned long long items;
    int named;                /* -k given: a kernel that cannot be profiled is an error */
    profile_layout lay;
    char dir[64];
} pctx;

/* ---- which kernels, and their trees ----------------------------------------- */

static int is_kernel(CXCursor c)
{
    return clang_getCursorKind(c) == CXCursor_FunctionDecl && clang_isCursorDefinition(c) &&
           clang_getFunctionTypeCallingConv(clang_getCursorType(c)) == CXCallingConv_Unexposed;
}

typedef struct names {
    const char **v;
    unsigned n, cap;
} names;

static enum CXChildVisitResult kernel_names_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    names *ns = data;
    if (is_kernel(c)) {
        CXString s = clang_getCursorSpelling(c);
        VEC_PUSH(ns->v, ns->n, ns->cap, xstrdup(clang_getCString(s)));
        clang_disposeString(s);
    }
    return CXChildVisit_Continue;
}

static int params_ok(analysis *an, kernel_info *k)
{
    kernel_info tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.cursor = k->cursor;
    diag_sink quiet;
    diag_init(&quiet);
    quiet.quiet = 1;
    int errors = analyze_params(an, &tmp, &quiet);
    for (unsigned p = 0; p < tmp.nparams; p++) {
        free(tmp.params[p].name);
        free(tmp.params[p].decl_text);
        free(tmp.params[p].type_text);
        free(tmp.params[p].host_type);
        free(tmp.params[p].fields);
    }
    free(tmp.params);
    return errors == 0;
}

static int planned(const plan *pl, const kernel_info *k)
{
    for (unsigned i = 0; i < pl->nkernels; i++)
        if (pl->kernels[i].k == k)
            return pl->kernels[i].errors == 0;
    return 0;
}

static int has_construct(const ptree *t)
{
    return t->nc > 0;
}

/* Trees for every kernel; 0, or 1 after an error message. */
static int build_trees(pctx *x)
{
    x->pks = xcalloc(x->an.nkernels ? x->an.nkernels : 1, sizeof *x->pks);
    for (unsigned i = 0; i < x->an.nkernels; i++) {
        kernel_info *k = &x->an.kernels[i];
        profile_kernel *pk = &x->pks[x->npks++];
        pk->k = k;
        pk->planned = planned(&x->pl, k);
        if (!params_ok(&x->an, k))
            snprintf(pk->err, sizeof pk->err, "a parameter the validation inputs cannot make "
                                              "(nplus1gen --check names it)");
        else if (profile_build_kernel(&x->an, pk) == 0 && !has_construct(&pk->tree))
            snprintf(pk->err, sizeof pk->err, "no decision and no loop: nothing to profile");
        if (!x->named && strstr(pk->err, "nothing to profile")) { /* and its edits */
            fprintf(stderr, "nplus1gen: note: kernel '%s' left out: %s\n", k->name, pk->err);
            profile_kernel_free(pk);
            x->npks--;
        } else if (pk->err[0]) {
            fprintf(stderr, "nplus1gen: error: cannot profile kernel '%s': %s\n", k->name,
                    pk->err);
            return 1;
        }
    }
    if (!x->npks)
        fprintf(stderr, "nplus1gen: error: no kernel in %s has a decision or a loop: nothing "
                        "to profile\n", x->input);
    return x->npks ? 0 : 1;
}

/* ---- the recording's layout -------------------------------------------------- */

static int plan_layout(pctx *x, unsigned slot)
{
    unsigned long long unit = x->items < UNIT_ITEMS ? x->items : UNIT_ITEMS;
    unsigned long long total = (x->items + unit - 1) / unit;
    unsigned long long fit = x->o->memory / (unit * slot);
    if (fit == 0) {
        unsigned long long need = unit * slot, mib = (need + (1u << 20) - 1) >> 20;
        fprintf(stderr, "nplus1gen: error: too little memory for the recording: %llu items of "
                        "%u bytes (the paths' length) need %llu bytes, --profile-memory allows "
                        "%llu: give --profile-memory %llu (MiB) or more, or profile a smaller "
                        "launch (--global)\n",
                unit, slot, need, x->o->memory, mib);
        return -1;
    }
    unsigned long long every = (total + fit - 1) / fit;
    x->lay.unit = (unsigned)unit;
    x->lay.every = (unsigned)every;
    x->lay.units = (unsigned)((total + every - 1) / every);
    x->lay.slot = slot;
    return 0;
}

/* ---- the job ------------------------------------------------------------------ */

static void one_line(strbuf *sb, const char *key, const char *value)
{
    sb_printf(sb, "%s ", key);
    for (const char *p = value; *p; p++)
        sb_putc(sb, *p == '\n' ? ' ' : *p);
    sb_putc(sb, '\n');
}

static void put_options(strbuf *sb, const validate_options *vo)
{
    sb_puts(sb, "options ");
    for (unsigned i = 0; i < vo->ndefines; i++)
        sb_printf(sb, "-D%s ", vo->defines[i]);
    char *input = realpath(vo->input, NULL);
    char *slash = input ? strrchr(input, '/') : NULL;
    if (slash) {
        *slash = '\0';
        sb_printf(sb, "-I%s ", input);
    }
    free(input);
    for (unsigned i = 0; i < vo->nincludes; i++) {
        char *abs = realpath(vo->includes[i], NULL);
        sb_printf(sb, "-I%s ", abs ? abs : vo->includes[i]);
        free(abs);
    }
    sb_putc(sb, '\n');
}

/* --arg NAME=file:PATH: the runner reads PATH from the job's folder; give it absolute. */
static void put_value(strbuf *sb, const char *spec)
{
    const char *eq = strchr(spec, '=');
    char *abs = eq && !strncmp(eq + 1, "file:", 5) ? realpath(eq + 6, NULL) : NULL;
    if (abs)
        sb_printf(sb, "value %.*s=file:%s\n", (int)(eq - spec), spec, abs);
    else
        one_line(sb, "value", spec);
    free(abs);
}

static void put_kernel(strbuf *sb, const kernel_info *k, unsigned wg)
{
    sb_printf(sb, "kernel %s 0 0 %u %u %u %u 0 0\n", k->name, wg, k->reqd_wg[0], k->reqd_wg[1],
              k->reqd_wg[2]);
    for (unsigned p = 0; p < k->nparams; p++) {
        const kernel_param *a = &k->params[p];
        sb_printf(sb, "arg %s %d %d %d %d %u %u ", a->name, a->is_pointer, a->writable,
                  a->is_constant_space, a->elem, a->lanes, a->size);
        one_line(sb, "", a->type_text);
        for (unsigned f = 0; f < a->nfields; f++)
            sb_printf(sb, "field %u %d %u\n", a->fields[f].offset, a->fields[f].elem,
                      a->fields[f].count);
    }
    sb_puts(sb, "end\n");
}

static char *describe(const pctx *x)
{
    const validate_options *vo = x->vo;
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, "source instrumented.cl\noriginal original.cl\n");
    one_line(&sb, "input", vo->input);
    put_options(&sb, vo);
    sb_printf(&sb, "launch %u %zu %zu %zu %zu %zu %zu %zu %zu %zu %d\n", vo->dim, vo->global[0],
              vo->global[1], vo->global[2], vo->offset[0], vo->offset[1], vo->offset[2],
              vo->local[0], vo->local[1], vo->local[2], vo->has_local);
    sb_printf(&sb, "check %llu %u 0 1\n", vo->seed, vo->ulp);
    for (unsigned i = 0; i < vo->nargs; i++)
        put_value(&sb, vo->args[i]);
    sb_printf(&sb, "profile %llu\n", (unsigned long long)x->lay.units * x->lay.unit * x->lay.slot);
    for (unsigned i = 0; i < x->npks; i++)
        put_kernel(&sb, x->pks[i].k, x->pl.opt.wg ? x->pl.opt.wg : 256);
    return sb_steal(&sb);
}

static char *join(const char *dir, const char *name)
{
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "%s/%s", dir, name);
    return sb_steal(&sb);
}

static int write_file(const char *dir, const char *name, const char *data, size_t n)
{
    char *path = join(dir, name);
    FILE *f = fopen(path, "wb");
    int bad = !f || fwrite(data, 1, n, f) != n;
    if (f)
        bad |= fclose(f) != 0;
    if (bad)
        fprintf(stderr, "nplus1gen: error: cannot write '%s': %s\n", path, strerror(errno));
    free(path);
    return bad ? -1 : 0;
}

static int write_job(pctx *x)
{
    const src_file *f = &x->an.pr->files[0];
    char *src = profile_instrumented_source(&x->an, x->pks, x->npks, &x->lay);
    char *desc = describe(x);
    int bad = write_file(x->dir, "original.cl", f->text, f->len) ||
              write_file(x->dir, "instrumented.cl", src, strlen(src)) ||
              write_file(x->dir, "job.desc", desc, strlen(desc));
    if (getenv("NPLUS1_PROFILE_KEEP_SOURCE")) /* tests: the instrumented copy, to read */
        write_file(".", getenv("NPLUS1_PROFILE_KEEP_SOURCE"), src, strlen(src));
    free(src);
    free(desc);
    return bad ? 3 : 0;
}

static void remove_job(const char *dir)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char *p = join(dir, e->d_name);
        unlink(p);
        free(p);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* nplus1gen-validate: $NPLUS1_VALIDATE_RUNNER, else beside this executable. */
static char *runner_path(void)
{
    const char *env = getenv("NPLUS1_VALIDATE_RUNNER");
    if (env && *env)
        return xstrdup(env);
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return xstrdup("nplus1gen-validate");
    self[n] = '\0';
    *strrchr(self, '/') = '\0';
    return join(self, "nplus1gen-validate");
}

static int run_runner(const char *dir, unsigned timeout, const char *device)
{
    char *runner = runner_path();
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        if (device)
            execl(runner, runner, "--device", device, dir, (char *)NULL);
        else
            execl(runner, runner, dir, (char *)NULL);
        fprintf(stderr, "nplus1gen: error: cannot run '%s': %s (set NPLUS1_VALIDATE_RUNNER)\n",
                runner, strerror(errno));
        _exit(3);
    }
    free(runner);
    int status = 0;
    for (unsigned long ms = 0; pid > 0; ms += 50) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            break;
        if (r < 0)
            return 3;
        if (timeout && ms >= timeout * 1000UL) {
            kill(-pid, SIGKILL);
            waitpid(pid, &status, 0);
            fprintf(stderr, "nplus1gen: error: the profile run stopped after %u s (--timeout)\n",
                    timeout);
            return 3;
        }
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    if (pid < 0 || WIFSIGNALED(status)) {
        fprintf(stderr, "nplus1gen: error: the profile runner died: a kernel probably read or "
                        "wrote out of bounds; check --arg sizes and values\n");
        return 3;
    }
    return WEXITSTATUS(status);
}

/* ---- reading the recording ---------------------------------------------------- */

static int read_run_info(const pctx *x, const char *name, profile_result *r)
{
    strbuf p;
    sb_init(&p);
    sb_printf(&p, "%s/profile-%s.txt", x->dir, name);
    FILE *f = fopen(p.data, "r");
    sb_free(&p);
    if (!f)
        return -1;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!strncmp(line, "device ", 7))
            snprintf(r->device, sizeof r->device, "%.255s", line + 7);
        sscanf(line, "compared %zu", &r->compared);
        sscanf(line, "mismatches %zu", &r->mismatches);
        sscanf(line, "tile %u", &r->tile);
    }
    fclose(f);
    return 0;
}

/* The recording: the real items' slots, and the longest path (0 when it fits). */
static int read_record(const pctx *x, const char *name, profile_result *r)
{
    strbuf p;
    sb_init(&p);
    sb_printf(&p, "%s/profile-%s.bin", x->dir, name);
    char *data;
    size_t len;
    int rc = read_file(p.data, &data, &len);
    sb_free(&p);
    size_t want = (size_t)x->lay.units * x->lay.unit * x->lay.slot;
    if (rc != 0 || len != want) {
        if (rc == 0)
            free(data);
        return -1;
    }
    r->record = (unsigned char *)data;
    r->traces = xcalloc((size_t)x->lay.units * x->lay.unit, sizeof *r->traces);
    r->ids = xcalloc((size_t)x->lay.units * x->lay.unit, sizeof *r->ids);
    for (size_t s = 0; s < (size_t)x->lay.units * x->lay.unit; s++) {
        unsigned long long id = (s / x->lay.unit) * x->lay.every * x->lay.unit + s % x->lay.unit;
        if (id >= x->items)
            continue;
        const unsigned char *slot = r->record + s * x->lay.slot;
        unsigned n;
        memcpy(&n, slot, 4);
        if (n > r->longest)
            r->longest = n;
        r->traces[r->n] = (ptrace){slot + 4, n > x->lay.slot - 4 ? x->lay.slot - 4 : n};
        r->ids[r->n++] = id;
    }
    return 0;
}

/* ---- the whole command --------------------------------------------------------- */

static int run_once(pctx *x, profile_result *res)
{
    strcpy(x->dir, "/tmp/nplus1gen-profile-XXXXXX");
    if (!mkdtemp(x->dir)) {
        fprintf(stderr, "nplus1gen: error: cannot create a temporary directory: %s\n",
                strerror(errno));
        return 3;
    }
    int rc = write_job(x);
    if (rc == 0)
        rc = run_runner(x->dir, x->vo->timeout, x->vo->device);
    for (unsigned i = 0; rc == 0 && i < x->npks; i++) {
        profile_result *r = &res[i];
        profile_result_free(r);
        if (read_run_info(x, x->pks[i].k->name, r) != 0 ||
            read_record(x, x->pks[i].k->name, r) != 0) {
            fprintf(stderr, "nplus1gen: error: the profile run left no recording of '%s'\n",
                    x->pks[i].k->name);
            rc = 3;
        }
    }
    remove_job(x->dir);
    return rc;
}

/* Runs; when a path did not fit, once more with room for the longest. */
static int record(pctx *x, profile_result *res)
{
    if (plan_layout(x, FIRST_SLOT) != 0)
        return 1; /* the user's limit, not a bug: exit 1 */
    int rc = run_once(x, res);
    unsigned longest = 0;
    for (unsigned i = 0; rc == 0 && i < x->npks; i++)
        if (res[i].longest > longest)
            longest = res[i].longest;
    if (rc != 0 || longest <= x->lay.slot - 4)
        return rc;
    if (plan_layout(x, (longest + 4 + 3) / 4 * 4) != 0)
        return 1;
    rc = run_once(x, res);
    for (unsigned i = 0; rc == 0 && i < x->npks; i++)
        if (res[i].longest > x->lay.slot - 4) {
            fprintf(stderr, "nplus1gen: error: kernel '%s' took a longer path on a second run "
                            "of the same inputs: it does not run the same way twice\n",
                    x->pks[i].k->name);
            rc = 3;
        }
    return rc;
}

static int analyze_input(pctx *x, parse_result *pr, const char **kernels, unsigned nkernels,
                         const plan_options *popt)
{
    names all = {0};
    if (!nkernels)
        clang_visitChildren(clang_getTranslationUnitCursor(pr->tu), kernel_names_cb, &all);
    diag_sink quiet;
    diag_init(&quiet);
    quiet.quiet = 1;
    const char **want = nkernels ? kernels : all.v;
    unsigned nwant = nkernels ? nkernels : all.n;
    int rc = 0;
    if (!nwant) {
        fprintf(stderr, "nplus1gen: error: %s defines no __kernel function: nothing to profile\n",
                x->input);
        rc = 1;
    } else {
        analyze_tu(&x->an, pr, want, nwant, &quiet);
        plan_build(&x->pl, &x->an, popt, &quiet);
        if (x->an.nkernels < nwant) {
            fprintf(stderr, "nplus1gen: error: no kernel named '%s' in %s\n",
                    want[x->an.nkernels], x->input);
            rc = 1;
        }
    }
    for (unsigned i = 0; i < all.n; i++)
        free((void *)all.v[i]);
    free(all.v);
    return rc;
}

int profile_command(const char *input, const parse_options *po, const char **kernels,
                    unsigned nkernels, const plan_options *popt, const validate_options *vo,
                    const profile_options *o)
{
    diag_sink diag;
    diag_init(&diag);
    parse_result pr;
    if (parse_input(&pr, input, po, &diag) != 0)
        return 1;
    pctx x;
    memset(&x, 0, sizeof x);
    x.input = input;
    x.vo = vo;
    x.o = o;
    x.items = 1;
    x.named = nkernels > 0;
    for (unsigned d = 0; d < vo->dim; d++)
        x.items *= vo->global[d];
    int rc = analyze_input(&x, &pr, kernels, nkernels, popt);
    if (rc == 0)
        rc = build_trees(&x);
    profile_result *res = xcalloc(x.npks ? x.npks : 1, sizeof *res);
    if (rc == 0)
        rc = record(&x, res);
    profile_report rep = {input, vo, o, &x.lay, x.items, x.pks, x.npks, res};
    if (rc == 0)
        rc = profile_report_all(&rep);
    for (unsigned i = 0; i < x.npks; i++) {
        profile_result_free(&res[i]);
        profile_kernel_free(&x.pks[i]);
    }
    free(res);
    free(x.pks);
    plan_free(&x.pl);
    analyze_free(&x.an);
    parse_free(&pr);
    return rc;
}
