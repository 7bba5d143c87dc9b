/* SPDX-License-Identifier: Apache-2.0 */
/*
 * job.h - the job: THE one reader and writer of job.desc, the plain-text
 * description nplus1gen writes (--validate, --profile, --emit-job:
 * tool/cli/validate_cmd.c, tool/cli/profile_cmd.c) and nplus1gen-validate reads
 * (runner/runner.c). The writer takes plain data and needs no libclang;
 * the reader fills the runtime's set description (nplus1rt.h).
 *
 * A job is a folder: job.desc, the sources, inputs/, include/ (docs/cli.md).
 * Description lines (paths relative to the job's folder):
 *   source PATH | original PATH | options TEXT | input NAME (the user's file, for messages)
 *   set LABEL PATH                 (--strategy A,B --dispatch C,D: the kernels that follow
 *                                   are the set PATH, reported under LABEL, "tile/fused";
 *                                   one verdict per set, then one for the job; absent in a
 *                                   job of one set)
 *   launch DIM G0 G1 G2 O0 O1 O2 L0 L1 L2 HAS_LOCAL
 *   check SEED ULP REPS QUIET
 *   value NAME=VALUE | NAME=size:N | NAME=file:PATH | NAME=RECIPE   (any number)
 *   value NAME=image:W[xH[xD]][:ORDER:TYPE] | NAME=sampler:NORM:ADDRESS:FILTER
 *   value NAME.FIELD=VALUE                     (a field of a struct value, of every struct
 *                                               of a buffer; FIELD: "a", "in.uv", "w[2]")
 *   unordered NAME COUNTNAME|-  |  require_all_leaves
 *   kernel NAME STRATEGY DISPATCH WG R0 R1 R2 NLEAFKERNELS SPLIT [HAS_TILE]
 *   arg NAME KIND WRITABLE CONSTANT ELEM LANES SIZE TYPE...  (in order; KIND 0 value,
 *                                                            1 buffer, 2 image, 3 sampler)
 *   field OFFSET ELEM COUNT [PATH]                          (structs: after their arg)
 *   leaf KERNEL|-1 CONDITION...                             (every path)
 *   inputs NAME[<INDEX,...] ...     (after its leaf line: what the path's decisions read,
 *                                    "shapes[].type<pairs[]", "n"; absent in older jobs)
 *   racy NAME ...                   (after the args: buffers items may race on, written at
 *                                    an index read from memory and read too (race_scan.h):
 *                                    a mismatch there may be a schedule the original
 *                                    allows; absent in older jobs and when none)
 *   end
 *   profile UNIT EVERY UNITS SLOT MEMORY ITEMS WIDTH TREE
 *                   --profile (docs/cli.md, "Profile jobs"): `source` is the
 *                   instrumented original, built with -DNPLUS1_PROF_UNIT=UNIT (and
 *                   _EVERY, _UNITS, _SLOT); each kernel runs it with a zeroed
 *                   recording buffer of UNITS*UNIT*SLOT bytes as one more argument,
 *                   and the original alone, on the same inputs, and writes
 *                   profile-KERNEL.bin (the recording) and profile-KERNEL.txt (values
 *                   compared, mismatches, tile size, device, layout) into the job.
 *                   When a path did not fit SLOT, every kernel runs once more with
 *                   room for the longest (within MEMORY bytes). Then the runs are
 *                   replayed at width WIDTH on the trees of the file TREE
 *                   (profile_job.c) and the report printed, the JSON written to
 *                   --profile-json FILE (default: profile.json in the job).
 */
#ifndef NPLUS1_RUNNER_JOB_H
#define NPLUS1_RUNNER_JOB_H

#include <stddef.h>

#include "nplus1rt.h"
#include "profile_job.h"
#include "util.h"

/* ---- writing: each function appends one line (or a few) to sb ---------------------- */

/* `KEY VALUE` on one line (newlines in VALUE become spaces). */
void job_put_text(strbuf *sb, const char *key, const char *value);
/* The head: source SOURCE, original original.cl, input INPUT, options OPTIONS. */
void job_put_head(strbuf *sb, const char *source, const char *input, const char *options);
/* `set LABEL SOURCE`: the kernels written after it are the set in SOURCE. */
void job_put_set(strbuf *sb, const char *label, const char *source);
void job_put_launch(strbuf *sb, unsigned dim, const size_t global[3], const size_t offset[3],
                    const size_t local[3], int has_local);
void job_put_check(strbuf *sb, unsigned long long seed, unsigned ulp, int reps, int quiet);
void job_put_value(strbuf *sb, const char *spec);
void job_put_require_all_leaves(strbuf *sb);
void job_put_unordered(strbuf *sb, const char *name, const char *count); /* count: NULL, "-" */
void job_put_profile(strbuf *sb, const profile_layout *lay, unsigned long long memory,
                     unsigned long long items, unsigned width, const char *tree);

/* A kernel: its line, its args (each with its fields), its leaves, then job_put_end. */
typedef struct job_kernel {
    const char *name;
    unsigned strategy, dispatch, wg, reqd_wg[3], nkernels, split;
    int has_tile;                /* -1: the field is left out (profile jobs); 0 none, 1 plain,
                                  * 2 with the context, 3 the loop kernel */
} job_kernel;
typedef struct job_arg {
    const char *name, *type;
    int kind;                    /* 0 value, 1 buffer, 2 image, 3 sampler */
    int writable, constant, elem;
    unsigned lanes, size;
} job_arg;
void job_put_kernel(strbuf *sb, const job_kernel *k);
void job_put_arg(strbuf *sb, const job_arg *a);
void job_put_field(strbuf *sb, unsigned offset, int elem, unsigned count, const char *path);
void job_put_leaf(strbuf *sb, int kernel, const char *condition);
/* "inputs NAME[<INDEX] ...": n names, each with its index's name or NULL; n = 0 writes none. */
void job_put_inputs(strbuf *sb, unsigned n, const char *const *names,
                    const char *const *indexed_by);
/* "racy NAME ...": the n buffers items may race on; n = 0 writes none. */
void job_put_racy(strbuf *sb, unsigned n, const char *const *names);
void job_put_end(strbuf *sb);

/* ---- reading ----------------------------------------------------------------------- */

#define MAX_ARGS 128
#define MAX_LEAVES 80
#define MAX_FIELDS 4096

#define EXIT_RUN_FAILED 4 /* child to parent: a kernel run failed (not a build) */
#define EXIT_UNPROVEN 5   /* child to parent: inconclusive, or a leaf without items (exit 1) */
#define EXIT_REFUSED 6    /* child to parent: the set refuses the build options (exit 1) */

typedef struct kdesc {
    char *name;                   /* any length: OpenCL C sets no limit */
    nplus1rt_set_desc d;
    nplus1rt_arg args[MAX_ARGS];
    char *arg_names[MAX_ARGS], *arg_types[MAX_ARGS];
    char *leaf_names[MAX_LEAVES];
    int path_kernel[MAX_LEAVES];
    char *path_cond[MAX_LEAVES];
    char *path_inputs[MAX_LEAVES]; /* the leaf's "inputs" line, or NULL */
    unsigned npaths;
    char *count, *scan, *scatter, *fused, *tile;
    unsigned tile_kind;           /* the kernel line's tile: 0 none, 1 plain, 2 with the
                                   * context, 3 the loop kernel (the tool's auto_tile.h) */
    nplus1rt_field *fields[MAX_ARGS]; /* structs: buffers' elements and values */
    char **field_names[MAX_ARGS];     /* each field's path, "" in jobs from before names */
    unsigned nfields[MAX_ARGS];
    unsigned char racy[MAX_ARGS];     /* the `racy` line: buffers items may race on */
} kdesc;

typedef struct job {
    char *source, *original, *options;
    char *input;                    /* the user's file name (the `input` line) */
    nplus1rt_validate_opts o;
    int quiet;
    char *values[MAX_ARGS];
    unsigned nvalues;
    char *dir;                      /* the job's folder: relative paths start there */
    char *unordered[MAX_ARGS], *count[MAX_ARGS];
    unsigned nunordered;
    int require_all_leaves;
    char *set_label;                /* the `set` line read last, or NULL (a job of one set) */
    unsigned nsets;                 /* `set` lines read */
    unsigned sets_failed;           /* sets whose verdict was not "passed" */
    strbuf failed;                  /* "ordered/host (outputs differ), ..." */
    int original_only;              /* under oclgrind: run the original alone */
    int inconclusive;               /* some kernel had no item in a working leaf */
    int profile;                    /* a profile job: the fields below */
    profile_layout lay;             /* the recording's, this pass */
    unsigned long long prof_memory, prof_items;
    unsigned prof_width, prof_pass;
    char *prof_tree;                /* the trees' file, relative to dir */
    const char *prof_json;          /* --profile-json FILE, or NULL (profile.json in dir) */
    profile_result *pres;           /* per kernel run, in job order */
    char **pnames;
    unsigned npres;
} job;

/* "DIR" (DIR/job.desc) or a description file; sets j->dir. Returns the file's path. */
char *job_file(job *j, const char *path);
/* A line outside kernels; -1: not one the format knows. */
int job_read_line(job *j, const char *line);
/* A `kernel` line: starts k. -1: bad. */
int job_read_kernel(kdesc *k, const char *line);
/* An arg, field, leaf or inputs line of k: 0, -1 bad, 1 not one of those. */
int job_read_kernel_part(kdesc *k, const char *line);
void kdesc_free(kdesc *k);
/* The index of parameter [name, name+n) of k, or -1. */
int kdesc_find_arg(const kdesc *k, const char *name, size_t n);
/* 1: parameter p is a struct (a value, or a buffer's element: its layout came with it). */
int kdesc_is_struct(const kdesc *k, unsigned p);
/* What the description's lines set (a profile job's second pass reads them again). */
void job_free_lines(job *j);
void job_free(job *j);
/* A path of the description: absolute as it is, else under the job's folder (malloc'd). */
char *job_path(const job *j, const char *path);
/* The user's file name for messages: the job's "input" line, else "the kernel file". */
void job_input_name(const char *path, char *out, size_t n);

#endif
