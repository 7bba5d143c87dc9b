/* SPDX-License-Identifier: Apache-2.0 */
/*
 * runner_call.c - running a job with nplus1gen-validate from the tool
 * (runner_call.h): used by --validate (validate_cmd.c) and --profile
 * (profile_cmd.c).
 */
#define _DEFAULT_SOURCE
#include "runner_call.h"

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

#include "exit_codes.h"
#include "util.h"

char *path_join(const char *dir, const char *name)
{
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "%s/%s", dir, name);
    return sb_steal(&sb);
}

void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char *p = path_join(dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            remove_tree(p);
        else
            unlink(p);
        free(p);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

char *runner_path(void)
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
    return path_join(self, "nplus1gen-validate");
}

extern char **environ;

/* The runner's environment: ours, with NPLUS1_DEVICE=device_select when that is not NULL
 * (caller frees the array and *added, the one string it made). */
static char **runner_env(const char *device_select, char **added)
{
    static const char var[] = "NPLUS1_DEVICE=";
    size_t n = 0, k = 0;
    while (environ[n])
        n++;
    char **env = xcalloc(n + 2, sizeof *env);
    for (size_t i = 0; i < n; i++)
        if (!device_select || strncmp(environ[i], var, sizeof var - 1) != 0)
            env[k++] = environ[i];
    *added = NULL;
    if (device_select) {
        strbuf sb;
        sb_init(&sb);
        sb_printf(&sb, "%s%s", var, device_select);
        env[k++] = *added = sb_steal(&sb);
    }
    env[k] = NULL;
    return env;
}

/*
 * The runner runs in a process group of its own (so that --timeout stops oclgrind with
 * it), which the terminal's Ctrl-C and a `timeout` around nplus1gen do not reach: while
 * it runs, SIGINT, SIGTERM and SIGHUP kill its group, runner_run returns
 * RUNNER_INTERRUPTED, the caller removes its temporary folder, and main ends by the same
 * signal (runner_end_if_interrupted). A runner left behind had kept a CPU busy for
 * minutes after its caller ended, and the profile's folder stayed in /tmp.
 */
static volatile sig_atomic_t runner_group, stop_signal;
static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP};

static void stop_the_runner(int sig)
{
    stop_signal = sig;
    if (runner_group > 0) {
        kill(-(pid_t)runner_group, SIGKILL);
        kill((pid_t)runner_group, SIGKILL); /* before its setpgid */
    }
}

/* A child execve resets the handlers: the runner keeps the default actions. */
static void forward_signals(pid_t pid, struct sigaction *saved)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = stop_the_runner;
    sigemptyset(&sa.sa_mask);
    runner_group = (sig_atomic_t)pid;
    for (unsigned i = 0; i < sizeof forwarded / sizeof *forwarded; i++) {
        sigaction(forwarded[i], &sa, &saved[i]);
        if (saved[i].sa_handler == SIG_IGN) /* nohup, a background job's SIGINT: ignored */
            sigaction(forwarded[i], &saved[i], NULL);
    }
}

static void restore_signals(const struct sigaction *saved)
{
    for (unsigned i = 0; i < sizeof forwarded / sizeof *forwarded; i++)
        sigaction(forwarded[i], &saved[i], NULL);
    runner_group = 0;
}

void runner_end_if_interrupted(void)
{
    if (!stop_signal)
        return;
    fflush(stdout);
    signal(stop_signal, SIG_DFL);
    raise(stop_signal);
}

int runner_run(const char *const *args, unsigned timeout, const char *device_select,
               int *signal_out)
{
    const char *argv[16];
    if (stop_signal) { /* interrupted already: no second runner */
        *signal_out = stop_signal;
        return RUNNER_INTERRUPTED;
    }
    char *runner = runner_path();
    unsigned n = 0;
    argv[n++] = runner;
    for (; *args && n < 15; args++)
        argv[n++] = *args;
    argv[n] = NULL;
    char *added;
    char **env = runner_env(device_select, &added);
    fflush(stdout);
    fflush(stderr);
    struct sigaction saved[sizeof forwarded / sizeof *forwarded];
    forward_signals(0, saved); /* before the fork: no moment where a signal leaves it behind */
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0); /* the runner may start oclgrind: --timeout stops the whole group */
        execve(runner, (char *const *)argv, env);
        fprintf(stderr, "nplus1gen: error: cannot run '%s': %s (set NPLUS1_VALIDATE_RUNNER)\n",
                runner, strerror(errno));
        _exit(EXIT_INTERNAL);
    }
    free(runner);
    free(env);
    free(added);
    if (pid < 0) {
        restore_signals(saved);
        return RUNNER_NOT_STARTED;
    }
    setpgid(pid, pid); /* as the child does: whichever runs first */
    runner_group = (sig_atomic_t)pid;
    if (stop_signal) /* a signal came between the fork and now */
        stop_the_runner(stop_signal);
    int status = 0;
    for (unsigned long waited_ms = 0;; waited_ms += 50) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            break;
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            restore_signals(saved);
            return RUNNER_LOST;
        }
        if (timeout && waited_ms >= timeout * 1000UL) {
            kill(-pid, SIGKILL);
            waitpid(pid, &status, 0);
            restore_signals(saved);
            return RUNNER_TIMED_OUT;
        }
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    restore_signals(saved);
    if (stop_signal) {
        *signal_out = stop_signal;
        return RUNNER_INTERRUPTED;
    }
    if (WIFSIGNALED(status)) {
        *signal_out = WTERMSIG(status);
        return RUNNER_KILLED;
    }
    return WEXITSTATUS(status);
}
