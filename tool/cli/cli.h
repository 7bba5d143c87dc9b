/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cli.h - nplus1gen's command line (docs/cli.md): the options read into a
 * cli, by a table of options with one small apply function per option or
 * family (cli.c), and the rules for options given together.
 */
#ifndef NPLUS1_CLI_H
#define NPLUS1_CLI_H

#include "exit_codes.h"
#include "plan.h"
#include "profile_cmd.h"
#include "profile_in.h"
#include "validate_cmd.h"

/* parse_cli's answer to --help, --version and --list-rules: printed, nothing more to do
 * (main exits EXIT_OK). Not an exit status. */
enum { CLI_DONE = -1 };

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
    plan_options plan;        /* strategy: the first of the list below */
    dispatch dispatch;        /* the first of dispatches[] (emit's option) */
    strategy strategies[8];   /* --strategy A,B,...: --validate checks each pair with */
    unsigned nstrategies;     /* each of dispatches[] (0: the default alone) */
    dispatch dispatches[4];
    unsigned ndispatches;
    int report, check, quiet;
    int dump_ir;              /* --dump-ir: print each kernel's IR (ir.h), nothing else */
    int calibrate;            /* --calibrate: measure the device's cost model, nothing else */
    int no_line;              /* --no-line: no #line directives in the kernel file */
    int skip_refused;         /* --skip-refused: leave refused (and never) kernels out */
    const struct emit_skip *skipped; /* the kernels it left out (main.c), for the manifest */
    unsigned nskipped;
    int validate;
    validate_options vopt;
    given_option given[64]; /* the options seen: see note_option */
    unsigned ngiven;
    int profile;              /* --profile (profile_cmd.h) */
    profile_options popt;
    const char *profile_in;   /* --profile-in P.json (profile_in.h), or NULL */
    profile_in prior;         /* what it holds, once read */
} cli;

/*
 * Reads argv into *c (its arrays malloc'd: cli_free). EXIT_OK; EXIT_USAGE after a
 * message; CLI_DONE after --help, --version or --list-rules printed (EXIT_INTERNAL when
 * the version cannot be told); in every case but EXIT_OK *c is freed.
 */
int parse_cli(cli *c, int argc, char **argv);

/* Frees what parse_cli allocated in *c (and the --profile-in prior). */
void cli_free(cli *c);

#endif
