/* SPDX-License-Identifier: Apache-2.0 */
/*
 * nplus1rt.h - libnplus1rt, the runtime the generated drivers link against.
 *
 * The module owns: device selection, program builds (with an in-process
 * cache and the build log on failure), the generic launcher of a generated
 * kernel set (classifier passes, buckets, leaf dispatch), random inputs and
 * buffer diffs for validation, and profiling timers.
 *
 * Every function returns its OpenCL status; nothing here prints or exits.
 * The caller owns what a *_create returns and frees it with *_release.
 */
#ifndef NPLUS1RT_H
#define NPLUS1RT_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stddef.h>
#include <stdint.h>
#include "nplus1rt_format.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NPLUS1RT_VERSION "0.1.0"

/*
 * The generated-code format this runtime reads: the nplus1rt_set_desc table a
 * generated driver hands to nplus1rt_set_create, and what the generated
 * kernels expect of the runtime. nplus1gen writes the version it generates
 * into the driver (desc->format_version) and the manifest ("format_version"),
 * and `nplus1gen --version` prints it. nplus1rt_set_create refuses, with
 * NPLUS1_ERR_FORMAT and a message, a set outside [OLDEST, VERSION]: rebuild
 * the driver with the nplus1gen that matches this runtime. A change that old
 * drivers cannot run under raises VERSION (and OLDEST). Fields added at the
 * end of nplus1rt_set_desc raise VERSION only: the runtime reads them from
 * drivers of that format on, and takes them as 0 from older ones.
 *   1: up to tile_kernel.
 *   2: predicted_split, predicted_tile (nplus1gen --profile-in).
 */
#define NPLUS1RT_FORMAT_VERSION 2
#define NPLUS1RT_FORMAT_OLDEST  1

/* ---- errors ------------------------------------------------------------ */

/* The name of an OpenCL status ("CL_INVALID_VALUE"), or of an nplus1 one. */
const char *nplus1_strerror(cl_int err);

/* nplus1-specific statuses, outside OpenCL's range. */
#define NPLUS1_ERR_NO_DEVICE      (-9001) /* no device matches the selection */
#define NPLUS1_ERR_BUILD          (-9002) /* program build failed; see log */
#define NPLUS1_ERR_OOM            (-9003) /* host allocation failed */
#define NPLUS1_ERR_BAD_LAUNCH     (-9004) /* launch description is invalid */
#define NPLUS1_ERR_FORMAT         (-9005) /* driver generated for another format version */
/*
 * The build options change a macro the set was cut with (an #ifdef in a
 * kernel takes another branch): the set would compute other results than
 * the original, so _create refuses. The message names the macro, its value
 * when the set was generated and the -D to regenerate with.
 */
#define NPLUS1_ERR_MACRO          (-9006)

/* ---- device selection -------------------------------------------------- */

typedef struct nplus1rt_device {
    cl_platform_id platform;
    cl_device_id device;
    cl_device_type type;
    char platform_name[256];
    char device_name[256];
} nplus1rt_device;

/*
 * Picks a device. NPLUS1_PLATFORM and NPLUS1_DEVICE select by index
 * ("0", "1") or by case-insensitive name substring ("pocl", "H100").
 * Default: the first GPU of any platform, else the first device of a
 * platform whose name contains "Portable Computing Language" (POCL), else
 * the first device at all. On failure, errbuf says what was found.
 */
cl_int nplus1rt_pick_device(nplus1rt_device *out, char *errbuf, size_t errlen);

/* Creates a context and an in-order queue (profiling on when asked). */
cl_int nplus1rt_open(const nplus1rt_device *dev, int profiling,
                     cl_context *ctx, cl_command_queue *queue);

/* ---- program builds ---------------------------------------------------- */

/*
 * Builds source for dev. Programs are cached in-process, keyed by context,
 * device, options and source (thread-safe); the returned program is
 * retained for the caller (clReleaseProgram when done). On a failed build
 * returns NULL, sets *err = NPLUS1_ERR_BUILD (or the OpenCL status), and
 * when log is non-NULL stores a malloc'd copy of the build log there.
 */
cl_program nplus1rt_build(cl_context ctx, cl_device_id dev, const char *source,
                          const char *options, char **log, cl_int *err);

/* Drops every cached program (tests; process exit). */
void nplus1rt_cache_clear(void);

/* ---- element types, random inputs, diffs ------------------------------- */

/* nplus1rt_elem: NPLUS1RT_I8 ... NPLUS1RT_F64, listed in nplus1rt_format.h (NPLUS1RT_ELEMS). */

size_t nplus1rt_elem_size(nplus1rt_elem e);
const char *nplus1rt_elem_name(nplus1rt_elem e); /* "int", "float", ... */

/* Deterministic generator (splitmix64); state is the caller's. */
uint64_t nplus1rt_rand(uint64_t *state);

/*
 * Fills count scalar elements of kind e: 8- and 16-bit integers uniform over
 * their kind's whole range (char [-128, 128), ushort [0, 65536), ...), wider
 * integers uniform in [0, 1024) (signed kinds in [-512, 512) when
 * signed_range), floats uniform in [-1, 1) (in [0, 1) unless signed_range).
 */
void nplus1rt_fill_random(void *buf, size_t count, nplus1rt_elem e,
                          int signed_range, uint64_t *state);

/* Fills count elements with a poison pattern (0xA5 bytes; NaN for floats). */
void nplus1rt_fill_poison(void *buf, size_t count, nplus1rt_elem e);

typedef struct nplus1rt_mismatch {
    size_t index;          /* element index */
    double expected, got;  /* values as doubles (bit patterns for u64) */
} nplus1rt_mismatch;

/*
 * Compares count elements: integers bitwise, floats within ulp_tol units in
 * the last place (NaN equals NaN, +0 equals -0). Returns the number of
 * mismatching elements; the first max_report go to first[].
 */
size_t nplus1rt_diff(const void *expected, const void *got, size_t count,
                     nplus1rt_elem e, unsigned ulp_tol,
                     nplus1rt_mismatch *first, size_t max_report);

/* A whole file as a malloc'd NUL-terminated string (kernel sources), or NULL. */
char *nplus1rt_read_file(const char *path);

/* ---- timing ------------------------------------------------------------ */

double nplus1rt_now_ms(void);                 /* monotonic wall clock */
double nplus1rt_event_ms(cl_event ev);        /* end - start, profiling queue */
double nplus1rt_median(double *v, size_t n);  /* sorts v in place */

/* ---- the generated kernel set ------------------------------------------ */

/*
 * nplus1rt_strategy (NPLUS1RT_ATOMIC, _AGGREGATED, _ORDERED, _CHUNKED, _TILE),
 * nplus1rt_dispatch (NPLUS1RT_DISPATCH_HOST, _FUSED, _AUTO) and nplus1rt_split
 * (NPLUS1RT_SPLIT_ALWAYS, _ADAPTIVE, _NEVER, _MEASURED): nplus1rt_format.h
 * lists them, with what each means.
 */

typedef enum nplus1rt_arg_kind {
    NPLUS1RT_ARG_BUFFER = 0,  /* __global / __constant pointer: cl_mem */
    NPLUS1RT_ARG_VALUE = 1,   /* scalar, vector or struct by value */
    NPLUS1RT_ARG_IMAGE = 2,   /* image1d_t ... image2d_array_t: cl_mem; type says which */
    NPLUS1RT_ARG_SAMPLER = 3  /* sampler_t: cl_sampler */
} nplus1rt_arg_kind;

/* One parameter of the original kernel, as the manifest describes it. */
typedef struct nplus1rt_arg {
    const char *name;
    const char *type;       /* source spelling without address space, e.g. "const float *" */
    nplus1rt_arg_kind kind;
    int writable;           /* buffer the kernel may write (not const, not __constant),
                               image write_only or read_write */
    int is_constant;        /* __constant address space */
    nplus1rt_elem elem;     /* element (buffer) or scalar (value) kind */
    unsigned lanes;         /* vector lanes, 1 for scalars */
    size_t size;            /* value size in bytes (VALUE); element size (BUFFER) */
} nplus1rt_arg;

/* What the tool generated for one kernel; emitted as a const table by the driver. */
typedef struct nplus1rt_set_desc {
    const char *kernel;           /* the original kernel's name */
    const char *source;           /* the generated program */
    unsigned nargs;
    const nplus1rt_arg *args;
    unsigned nleaves;             /* non-empty leaves (kernels) */
    const char *const *leaf_kernels;
    const char *count_kernel;     /* classifier, counting pass */
    const char *scan_kernel;      /* ORDERED only, else NULL */
    const char *scatter_kernel;   /* classifier, bucket-filling pass */
    const char *fused_kernel;     /* one kernel running every leaf over its bucket */
    nplus1rt_strategy strategy;
    nplus1rt_dispatch dispatch;
    unsigned wg;                  /* work-group size of the generated kernels */
    size_t reqd_local[3];         /* original's reqd_work_group_size, zeros if none */
    nplus1rt_split split;         /* when to split (--split) */
    unsigned format_version;      /* NPLUS1RT_FORMAT_VERSION the tool generated for;
                                     0: a driver from before this field (format 1) */
    const char *tile_kernel;      /* the one-kernel tile strategy, NULL when the set has none */
    /* format 2: the divergence profile's predicted speed-up bounds (nplus1gen
     * --profile-in), the prior of the measured choice; 0: no profile */
    double predicted_split;       /* the n+1 split's */
    double predicted_tile;        /* the tile strategy's */
} nplus1rt_set_desc;

/* One argument value for a launch: exactly what clSetKernelArg takes. */
typedef struct nplus1rt_argval {
    size_t size;
    const void *value;
} nplus1rt_argval;

typedef struct nplus1rt_set nplus1rt_set;

/*
 * Builds desc->source for dev (build_options are appended to the tool's
 * own) and creates the kernels. The set copies *desc; the strings and
 * arrays it points to must stay valid while the set lives (a generated
 * driver's are static). On failure returns NULL, sets *err, and
 * when errmsg is non-NULL stores a malloc'd message there (build log
 * included).
 */
nplus1rt_set *nplus1rt_set_create(cl_context ctx, cl_device_id dev,
                                  const nplus1rt_set_desc *desc,
                                  const char *build_options, cl_int *err,
                                  char **errmsg);

/*
 * Enqueues the set exactly as clEnqueueNDRangeKernel would enqueue the
 * original kernel: work_dim 1-3, global_offset may be NULL, local_size may
 * be NULL. args holds desc->nargs values in the original order. Returns
 * when everything is enqueued (the HOST dispatch waits for the counts).
 */
cl_int nplus1rt_set_enqueue(nplus1rt_set *s, cl_command_queue q, cl_uint work_dim,
                            const size_t *global_offset, const size_t *global_size,
                            const size_t *local_size, const nplus1rt_argval *args);

/*
 * ADAPTIVE split: a probing launch runs the classifier and measures the
 * share of 32-item chunks that mix leaves; below threshold (default 0.25)
 * the next period-1 launches (default 16) run the original kernel. Also
 * NPLUS1_PROBE_PERIOD / NPLUS1_PROBE_THRESHOLD in the environment.
 */
void nplus1rt_set_adaptive(nplus1rt_set *s, unsigned period, double threshold);
/* The last launch: 1 when it ran the original kernel, 0 when it split. */
int nplus1rt_set_last_ran_original(const nplus1rt_set *s);

/*
 * The measured choice. A generated auto set (split ADAPTIVE or NEVER: the
 * static model is the prior that orders the trials) times its candidates
 * during the first launches of each size class (a power of two of the item
 * count): "original", "split" (the generated strategy) and, where the set
 * carries one, "tile". It keeps the fastest and measures again every 64
 * launches (NPLUS1_RECHECK_PERIOD) or when the divergence probe moves.
 * NPLUS1_SPLIT=always|auto|adaptive|never forces a policy, NPLUS1_CHOICE a
 * candidate.
 *
 * last_choice: what the last launch ran: "original", the split as
 * "<strategy>/<dispatch>" (e.g. "aggregated/fused"), "tile"; "none" before
 * the first launch. A static string.
 * force_choice: later launches run this candidate (a name above, or "split");
 * NULL or "auto" measures again. CL_INVALID_VALUE when the set lacks it.
 */
const char *nplus1rt_set_last_choice(const nplus1rt_set *s);
cl_int nplus1rt_set_force_choice(nplus1rt_set *s, const char *name);
/* 1 while launches of `items` work-items are still being measured (trials, delay). */
int nplus1rt_set_measuring(const nplus1rt_set *s, size_t items);

/* Overrides the strategy's dispatch for later launches (benchmarks). */
void nplus1rt_set_dispatch(nplus1rt_set *s, nplus1rt_dispatch d);

/*
 * Keeps the events of later launches (the queue must have profiling on);
 * nplus1rt_set_last_kernel_ms sums the last launch's kernel times.
 */
void nplus1rt_set_profiling(nplus1rt_set *s, int on);
double nplus1rt_set_last_kernel_ms(nplus1rt_set *s);
/* The last launch's kernel times in enqueue order (count, [scan], scatter, leaves). */
unsigned nplus1rt_set_last_kernel_times(nplus1rt_set *s, double *ms, unsigned max);

/*
 * The last launch's bucket sizes, one per non-empty leaf (reads them from
 * the device if the dispatch did not). Returns CL_SUCCESS or the status.
 * A TILE launch counts only when it records or probes (nplus1rt_set_item_leaves).
 */
cl_int nplus1rt_set_last_counts(nplus1rt_set *s, cl_uint *counts, unsigned n);

/* The last error message (build log, launch problem); never NULL. */
const char *nplus1rt_set_errmsg(const nplus1rt_set *s);

void nplus1rt_set_release(nplus1rt_set *s);

/*
 * Which leaf each item went to in the last launch: leaf_of[i] gets the
 * leaf kernel of linear item i, or -1 (empty leaf). Blocking read. A TILE
 * launch keeps no buckets: it records the leaves (and counts them for
 * nplus1rt_set_last_counts) only on the set's first launch (not under the
 * measured choice, --split auto: there the record would cost every process's
 * first launch), on probing launches (counts only) and after
 * nplus1rt_set_record_leaves(s, 1); otherwise both calls fail with
 * CL_INVALID_OPERATION.
 */
cl_int nplus1rt_set_item_leaves(nplus1rt_set *s, cl_int *leaf_of, size_t n);
/* TILE: later launches also count and write each item's leaf (validation; a byte per item). */
void nplus1rt_set_record_leaves(nplus1rt_set *s, int on);

/* ---- validation: original vs generated on identical inputs ------------- */

/* Enqueues the generated set (e.g. through a generated driver). */
typedef cl_int (*nplus1rt_enqueue_fn)(void *ud, cl_command_queue q, cl_uint work_dim,
                                      const size_t *global_offset, const size_t *global_size,
                                      const size_t *local_size, const nplus1rt_argval *args);

typedef struct nplus1rt_validate_opts {
    cl_uint work_dim;
    size_t global_offset[3], global_size[3], local_size[3];
    int has_local_size;
    uint64_t seed;
    unsigned ulp_tol;              /* float tolerance in ULPs */
    const size_t *buffer_elems;    /* per argument, 0: prod(offset + size) elements */
    const void *const *values;     /* per argument, NULL: default value (see docs) */
    int reps;                      /* timed repetitions (0: none) */
    /* issue 12 (zeros keep the old behaviour): */
    const void *const *buffer_init;  /* per argument: initial contents (buffer_elems[i] elements), NULL: seeded random */
    const int *unordered;          /* per argument: 1 compares the buffer as a multiset of elements */
    const int *count_arg;          /* per unordered argument: the buffer whose element 0 counts the compared elements, -1: all */
    /* issue 19 (NULL: the defaults): */
    const struct nplus1rt_image_spec *images;     /* per argument: an image's size and format */
    const struct nplus1rt_sampler_spec *samplers; /* per argument: a sampler's properties */
} nplus1rt_validate_opts;

/*
 * An image argument's size and format for validation. Zeros are defaults:
 * each dimension the launch's extent (offset + global size) in that
 * dimension, 1 beyond the launch's dimensions; CL_RGBA, CL_FLOAT. size[]
 * follows clCreateImage's region: width, then height or the array size
 * (image1d_array), then depth or the array size (image2d_array).
 */
typedef struct nplus1rt_image_spec {
    size_t size[3];
    cl_channel_order order;
    cl_channel_type type;
} nplus1rt_image_spec;

/* A sampler argument's properties (given 0: unnormalized, clamp to edge, nearest). */
typedef struct nplus1rt_sampler_spec {
    int given;
    cl_bool normalized;
    cl_addressing_mode addressing;
    cl_filter_mode filter;
} nplus1rt_sampler_spec;

/*
 * An image argument's spec with the defaults filled in for the launch of o;
 * the image's bytes (pixels x pixel size) and its channel element and count
 * go to bytes, elem and channels. -1 when a's type is no image type or the
 * format is not one validation can fill (packed formats such as
 * CL_UNORM_SHORT_565).
 */
int nplus1rt_image_resolve(const nplus1rt_arg *a, const nplus1rt_image_spec *given,
                           const nplus1rt_validate_opts *o, nplus1rt_image_spec *out,
                           size_t *bytes, nplus1rt_elem *elem, unsigned *channels);

#define NPLUS1RT_MAX_REPORT 8
#define NPLUS1RT_NOT_COUNTED ((size_t)-1) /* nplus1rt_validation.empty_items */

typedef struct nplus1rt_validation {
    unsigned nleaves;
    size_t leaf_items[64];         /* items in each leaf's bucket */
    size_t leaf_mismatches[64];
    size_t empty_items;            /* items whose path does nothing; NPLUS1RT_NOT_COUNTED: the
                                    * set counted nothing (its tile kernel runs in place, the
                                    * regroup policy off), leaf_items are 0 */
    size_t mismatches;
    size_t compared;               /* elements compared */
    struct {
        unsigned arg;
        size_t index;              /* element index in the buffer */
        int leaf;                  /* leaf of the work-item with that linear id, -1 unknown */
        double expected, got;
    } first[NPLUS1RT_MAX_REPORT];
    unsigned nfirst;
    double original_ms, generated_ms;   /* medians of reps wall times */
    char message[512];             /* what went wrong when the call fails */
    /* after a mismatch the original runs once more: elements where it disagrees with itself */
    int original_rechecked;
    size_t original_self_mismatches;
    unsigned original_self_arg;    /* the first buffer it disagreed on */
    /* reps > 0, side by side: the split forced (generated_ms), "leaves-alone" (the
     * split's leaf kernels alone, ms the median of their summed profiling events: a set
     * that launches leaf kernels only), each other
     * candidate the set carries forced ("tile"), then auto, the default,
     * once settled, and "auto-first16": a fresh auto set's first 16 launches
     * (probes and trials included), ms = their mean per launch, as in a first
     * process; with the choice cache on, "auto-first16-warm": the same in a
     * later process, which starts on the stored choices */
    struct {
        char name[32];             /* "aggregated/fused", "tile", "auto" */
        double ms;                 /* median of reps wall times */
        char chose[32];            /* auto: what the last launch ran */
    } variants[6];                 /* at most 6: split, leaves-alone, tile, auto, two first16 */
    unsigned nvariants;
} nplus1rt_validation;

/*
 * Runs the original kernel (built from original_source) and the generated
 * set on identical seeded random inputs, writable buffers poisoned first,
 * and diffs every writable buffer. When gen is NULL the set is run
 * directly from desc. Returns CL_SUCCESS when both ran (check
 * res->mismatches), or the failing status with res->message set.
 */
cl_int nplus1rt_validate(cl_context ctx, cl_device_id dev, cl_command_queue q,
                         const nplus1rt_set_desc *desc, const char *original_source,
                         const char *build_options, nplus1rt_enqueue_fn gen, void *gen_ud,
                         const nplus1rt_validate_opts *opts, nplus1rt_validation *res);

/*
 * Runs the original kernel alone on the inputs nplus1rt_validate would
 * give it (no generated set): the out-of-bounds check under oclgrind. Its
 * buffers are created in argument order, nothing else.
 */
cl_int nplus1rt_run_original(cl_context ctx, cl_device_id dev, cl_command_queue q,
                             const nplus1rt_set_desc *desc, const char *original_source,
                             const char *build_options, const nplus1rt_validate_opts *opts,
                             nplus1rt_validation *res);

/*
 * Runs the kernel built from source on the inputs nplus1rt_validate would
 * give the original, and hands back each writable buffer as the run left
 * it: out[i] (malloc'd, the caller frees it) and out_bytes[i] for every
 * writable buffer argument i, NULL and 0 for the others (--profile).
 */
cl_int nplus1rt_run_original_outputs(cl_context ctx, cl_device_id dev, cl_command_queue q,
                                     const nplus1rt_set_desc *desc, const char *source,
                                     const char *build_options,
                                     const nplus1rt_validate_opts *opts, void **out,
                                     size_t *out_bytes, nplus1rt_validation *res);

/* ---- validation inputs: struct layouts and recipes ---------------------- */

/* One scalar (or array of scalars) inside a struct element of a buffer. */
typedef struct nplus1rt_field {
    size_t offset;          /* bytes from the start of the element */
    nplus1rt_elem elem;
    unsigned count;         /* consecutive scalars (arrays, vector lanes) */
} nplus1rt_field;

/*
 * Fills count struct elements of stride bytes field by field: integers in
 * [0, int_limit) (int_limit 0: as nplus1rt_fill_random), floats in [0, 1);
 * padding bytes are zero.
 */
void nplus1rt_fill_fields(void *buf, size_t count, size_t stride, const nplus1rt_field *f,
                          unsigned nfields, uint64_t int_limit, uint64_t *state);

/*
 * Fills count scalar elements of kind e from a recipe: "fill:V", "iota",
 * "range:LO:HI" (uniform in [LO, HI)), "choice:A,B,C". Returns 0, or -1
 * with a message in err when the recipe does not parse for e or names an
 * integer that e cannot hold ("range 0:200 does not fit char (-128..127)";
 * range's HI is exclusive: range:-128:128 is a char's whole range).
 */
int nplus1rt_fill_recipe(void *buf, size_t count, nplus1rt_elem e, const char *recipe,
                         uint64_t *state, char *err, size_t errlen);

/* 1 when text starts with a recipe word (fill:, iota, range:, choice:). */
int nplus1rt_is_recipe(const char *text);

/*
 * Compares two buffers of count elements of elem_size bytes as multisets
 * (sorted, then byte for byte). Returns the number of elements of the
 * sorted expected buffer that differ from the sorted produced one.
 */
size_t nplus1rt_diff_unordered(const void *expected, const void *got, size_t count,
                               size_t elem_size);

/* ---- bindings from other languages (python/nplus1) ---------------------- */

/*
 * sizeof the named public struct ("nplus1rt_set_desc", "nplus1rt_arg",
 * "nplus1rt_argval"), 0 for any other name: a binding that mirrors these
 * structs checks its layout against the library it loaded.
 */
size_t nplus1rt_struct_size(const char *name);
/*
 * The choice cache's folder (NPLUS1_CACHE_DIR, else $XDG_CACHE_HOME/nplus1, else
 * ~/.cache/nplus1) into out (n bytes): 1; 0 when the cache is off (NPLUS1_CACHE=0) or no
 * folder can be named. Where the driver stores its choices and the calibration.
 */
int nplus1rt_cache_folder(char *out, size_t n);
/*
 * A choice cache of the caller's own (a measurement that must neither read nor write the
 * user's): a fresh temporary folder ($TMPDIR or /tmp) made NPLUS1_CACHE_DIR, the
 * calibration still read from the user's folder (NPLUS1_CALIBRATION_DIR). 1 with its path
 * in dir (n bytes); 0 when the cache is off, or when no folder can be made (then
 * NPLUS1_CACHE=0: no cache rather than the user's). nplus1rt_private_cache_remove deletes
 * the folder and the files in it.
 */
int nplus1rt_private_cache_open(char *dir, size_t n);
void nplus1rt_private_cache_remove(const char *dir);

/* ---- the device's cost model (docs/driver.md, "Calibration") ------------ */

/*
 * Measures the cost model on dev (a second or less on a GPU, small sizes
 * elsewhere; nplus1rt_calibration in nplus1rt_format.h) and stores it in the
 * choice cache's folder (NPLUS1_CACHE_DIR, $XDG_CACHE_HOME/nplus1,
 * ~/.cache/nplus1; nothing stored with NPLUS1_CACHE=0). out gets the figures,
 * path (pathlen bytes) the file written, "" when none was. CL_SUCCESS, or the
 * status with err (errlen bytes) saying why.
 */
cl_int nplus1rt_calibrate(cl_context ctx, cl_device_id dev, nplus1rt_calibration *out,
                          char *path, size_t pathlen, char *err, size_t errlen);
/*
 * The stored calibration of dev into out and its file into path: 1; else
 * the defaults (nplus1rt_calibration_defaults), path "", and 0. A file that
 * does not parse or names another device is ignored with a note on stderr.
 */
int nplus1rt_calibration_load(cl_device_id dev, nplus1rt_calibration *out, char *path,
                              size_t pathlen);
/* The calibration file a set read when it was created, "" for the defaults. */
const char *nplus1rt_set_calibration(const nplus1rt_set *s);

/* NPLUS1RT_VERSION of the library loaded ("0.1.0"). */
const char *nplus1rt_version(void);
/* free() for what the runtime malloc'd (nplus1rt_set_create's *errmsg). */
void nplus1rt_free(void *p);

#ifdef __cplusplus
}
#endif
#endif
