/*
 * validate_cmd.c - the --validate command (see validate_cmd.h).
 *
 * POCL loads its own LLVM into the process, and two LLVMs in one process
 * crash; the tool links libclang. So the tool writes the generated source
 * and a plain-text description of each set into a temporary directory and
 * runs `nplus1gen-validate` (libnplus1rt only) on it.
 */
#define _DEFAULT_SOURCE
#include "validate_cmd.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

unsigned parse_dims(const char *s, size_t out[3])
{
    unsigned n = 0;
    while (*s && n < 3) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(s, &end, 10);
        if (end == s || errno || v > UINT_MAX || *s == '-')
            return 0;
        out[n++] = (size_t)v;
        if (*end == '\0')
            return n;
        if (*end != ',')
            return 0;
        s = end + 1;
    }
    return 0;
}

static void one_line(strbuf *sb, const char *key, const char *value)
{
    sb_printf(sb, "%s ", key);
    for (const char *p = value; *p; p++)
        sb_putc(sb, *p == '\n' ? ' ' : *p);
    sb_putc(sb, '\n');
}

static char *build_options(const validate_options *o)
{
    strbuf sb;
    sb_init(&sb);
    for (unsigned i = 0; i < o->ndefines; i++)
        sb_printf(&sb, "-D%s ", o->defines[i]);
    /* the original is built from a string: its own folder goes first, as for #include "x" */
    char *input = realpath(o->input, NULL);
    if (input) {
        char *slash = strrchr(input, '/');
        if (slash)
            *slash = '\0';
        sb_printf(&sb, "-I%s ", input);
        free(input);
    }
    for (unsigned i = 0; i < o->nincludes; i++) {
        char *abs = realpath(o->includes[i], NULL);
        sb_printf(&sb, "-I%s ", abs ? abs : o->includes[i]);
        free(abs);
    }
    return sb_steal(&sb);
}

/* The description nplus1gen-validate reads: see tool/validate_runner.c. */
static char *describe(const plan *pl, const validate_options *o, const char *source_path,
                      const char *original_path)
{
    strbuf sb;
    sb_init(&sb);
    char *opts = build_options(o);
    sb_printf(&sb, "source %s\noriginal %s\n", source_path, original_path);
    one_line(&sb, "options", opts);
    free(opts);
    sb_printf(&sb, "launch %u %zu %zu %zu %zu %zu %zu %zu %zu %zu %d\n", o->dim, o->global[0],
              o->global[1], o->global[2], o->offset[0], o->offset[1], o->offset[2], o->local[0],
              o->local[1], o->local[2], o->has_local);
    sb_printf(&sb, "check %llu %u %d %d\n", o->seed, o->ulp, o->reps, o->quiet);
    for (unsigned i = 0; i < o->nargs; i++)
        one_line(&sb, "value", o->args[i]);
    for (unsigned i = 0; i < pl->nkernels; i++) {
        const kernel_plan *kp = &pl->kernels[i];
        const kernel_info *k = kp->k;
        sb_printf(&sb, "kernel %s %u %u %u %u %u %u %u %u %d\n", k->name, pl->opt.strategy,
                  pl->opt.dispatch, pl->opt.wg, k->reqd_wg[0], k->reqd_wg[1], k->reqd_wg[2],
                  kp->nkernels, kp->split,
                  pl->opt.strategy == STRATEGY_TILE || pl->opt.split == SPLIT_AUTO);
        for (unsigned p = 0; p < k->nparams; p++) {
            const kernel_param *a = &k->params[p];
            sb_printf(&sb, "arg %s %d %d %d %d %u %u ", a->name, a->is_pointer, a->writable,
                      a->is_constant_space, a->elem, a->lanes, a->size);
            one_line(&sb, "", a->type_text);
        }
        for (unsigned l = 0; l < kp->nleaves; l++) {
            sb_printf(&sb, "leaf %d ", kp->leaves[l].kernel);
            one_line(&sb, "", kp->leaves[l].condition);
        }
        sb_puts(&sb, "end\n");
    }
    return sb_steal(&sb);
}

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t n = strlen(text);
    int bad = fwrite(text, 1, n, f) != n;
    return (fclose(f) != 0 || bad) ? -1 : 0;
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
    char *slash = strrchr(self, '/');
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "%.*s/nplus1gen-validate", (int)(slash - self), self);
    return sb_steal(&sb);
}

static int run_runner(const char *desc_path, unsigned timeout)
{
    char *runner = runner_path();
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        execl(runner, runner, desc_path, (char *)NULL);
        fprintf(stderr, "nplus1gen: error: cannot run '%s': %s (set NPLUS1_VALIDATE_RUNNER)\n",
                runner, strerror(errno));
        _exit(3);
    }
    free(runner);
    if (pid < 0)
        return 3;
    int status = 0;
    /* a kernel that never ends must not hang the tool: poll, then stop it */
    for (unsigned long waited_ms = 0;; waited_ms += 50) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            break;
        if (r < 0)
            return 3;
        if (timeout && waited_ms >= timeout * 1000UL) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            fprintf(stderr, "nplus1gen: error: validation stopped after %u s (--timeout): a "
                            "kernel ran too long; check the --arg values (loop bounds, sizes)\n",
                    timeout);
            return 3;
        }
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    if (WIFSIGNALED(status)) {
        fprintf(stderr, "nplus1gen: error: the validation runner died (signal %d): a kernel "
                        "probably read or wrote out of bounds; check --arg sizes and values\n",
                WTERMSIG(status));
        return 3;
    }
    return WEXITSTATUS(status);
}

int validate_run(const plan *pl, const emit_output *out, const validate_options *o)
{
    char dir[] = "/tmp/nplus1gen-validate-XXXXXX";
    if (!mkdtemp(dir)) {
        fprintf(stderr, "nplus1gen: error: cannot create a temporary directory: %s\n",
                strerror(errno));
        return 3;
    }
    char src[sizeof dir + 32], desc[sizeof dir + 32];
    snprintf(src, sizeof src, "%s/set.cl", dir);
    snprintf(desc, sizeof desc, "%s/set.desc", dir);
    char *original = realpath(o->input, NULL);
    char *text = describe(pl, o, src, original ? original : o->input);
    int rc = 3;
    if (write_text(src, out->kernel_file) == 0 && write_text(desc, text) == 0)
        rc = run_runner(desc, o->timeout);
    else
        fprintf(stderr, "nplus1gen: error: cannot write to %s: %s\n", dir, strerror(errno));
    unlink(src);
    unlink(desc);
    rmdir(dir);
    free(text);
    free(original);
    return rc;
}
