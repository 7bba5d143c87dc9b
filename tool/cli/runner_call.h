/* SPDX-License-Identifier: Apache-2.0 */
/*
 * runner_call.h - what --validate and --profile share to run a job in a
 * temporary folder with nplus1gen-validate (runner/): the folder's paths and
 * removal, where the runner is, and running it under --timeout.
 */
#ifndef NPLUS1_RUNNER_CALL_H
#define NPLUS1_RUNNER_CALL_H

/* "dir/name", malloc'd. */
char *path_join(const char *dir, const char *name);

/* Removes dir with its files and folders (a job's inputs/, include/N/). */
void remove_tree(const char *dir);

/* nplus1gen-validate: $NPLUS1_VALIDATE_RUNNER, else beside this executable. */
char *runner_path(void);

enum {
    RUNNER_NOT_STARTED = -1, /* fork failed */
    RUNNER_TIMED_OUT = -2,   /* stopped (with its process group) after timeout seconds */
    RUNNER_KILLED = -3,      /* died of a signal: *signal_out says which */
    RUNNER_LOST = -4,        /* waitpid failed */
    RUNNER_INTERRUPTED = -5  /* SIGINT, SIGTERM or SIGHUP reached nplus1gen: the runner's
                                group is killed; clean up, return, and let main call
                                runner_end_if_interrupted */
};

/*
 * Runs the runner with args (NULL-terminated, argv[1] on) in its own process
 * group, polling so that a kernel that never ends cannot hang the tool: its
 * exit status, or one of the RUNNER_* values. timeout 0: no limit. device_select,
 * when not NULL, is the runner's NPLUS1_DEVICE (--device NAME|INDEX); this
 * process's environment is left as it is.
 */
int runner_run(const char *const *args, unsigned timeout, const char *device_select,
               int *signal_out);

/* After a RUNNER_INTERRUPTED: ends this process by that signal (else returns). */
void runner_end_if_interrupted(void);

#endif
