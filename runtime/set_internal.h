/* SPDX-License-Identifier: Apache-2.0 */
/*
 * set_internal.h - what the files of the set launcher share (private to
 * libnplus1rt): the set itself, one launch request, messages, and the
 * functions one file of the launcher calls in another.
 *
 *   set.c         create, release, enqueue, the run-time configuration (set_config_from_env)
 *   set_passes.c  the launch protocol: classifier passes, leaves, chunked, tile, the original
 *   set_choice.c  the measured choice's candidates and timing (choose.c decides)
 *   set_inspect.c what validation and the benchmark read back: counts, times, item leaves
 *   set_msg.c     the set's error message
 *   set_cache.c   the measured choice across processes: its file
 *   calibrate.c   the device's cost model, measured once and stored beside the choices
 */
#ifndef NPLUS1RT_SET_INTERNAL_H
#define NPLUS1RT_SET_INTERNAL_H

#include "choose.h"
#include "nplus1rt.h"

#define MAX_EVENTS 80
#define NPLUS1_IPT_DEFAULT 8 /* items per work-item in the classifier passes */

/*
 * The NPLUS1_* environment variables a set honours, read once when it is
 * created (set_config_from_env lists them all). Unset: the field's default.
 */
typedef struct set_config {
    const char *split;          /* NPLUS1_SPLIT: always|auto|adaptive|never, NULL: unset */
    int has_probe_threshold;    /* NPLUS1_PROBE_THRESHOLD is set (adaptive probes on CPUs) */
    double probe_threshold;     /* ... its value; default 0.25 */
    unsigned probe_period;      /* NPLUS1_PROBE_PERIOD; default 16 */
    unsigned ipt;               /* NPLUS1_IPT in 1-64; default NPLUS1_IPT_DEFAULT */
    int tile_ipt;               /* NPLUS1_TILE_IPT as given, 0: unset (tile_ipt_for checks it) */
    int tile_match_off;         /* NPLUS1_TILE_MATCH=0 */
    int tile_match_on;          /* NPLUS1_TILE_MATCH=1 */
    int loop_regroup;           /* NPLUS1_LOOP_REGROUP 0-2, -1 off, -2: unset (the tool's choice) */
    unsigned loop_every;        /* NPLUS1_LOOP_REGROUP_EVERY, 0: unset */
    int tile_regroup;           /* NPLUS1_TILE_REGROUP 0-2, -1 off, -2: unset (the tool's choice) */
    int has_recheck_period;     /* NPLUS1_RECHECK_PERIOD is set */
    unsigned recheck_period;
    int has_choice_delay;       /* NPLUS1_CHOICE_DELAY is set */
    unsigned choice_delay;
    const char *choice;         /* NPLUS1_CHOICE: a candidate's name, NULL: unset */
    int choice_classic;         /* NPLUS1_CHOICE_START=classic: the start before lean */
    int trial_events;           /* NPLUS1_TRIAL_CLOCK=events: trials timed by profiling events */
    int trace_choice;           /* NPLUS1_TRACE_CHOICE=1: trials and choices to stderr */
} set_config;

/*
 * A kernel's user arguments as last set (size, then value, for each): a launch whose
 * arguments are the same bytes sets none again (a short kernel's launch is a few
 * microseconds; clSetKernelArg on every argument is a visible part of it).
 */
typedef struct {
    unsigned char *bytes;
    size_t len; /* 0: nothing kept */
} arg_memo;

struct nplus1rt_set {
    const nplus1rt_set_desc *desc;  /* points to desc_copy */
    nplus1rt_set_desc desc_copy;
    cl_context ctx;
    cl_device_id dev;
    cl_program prog;
    cl_kernel count, scan, scatter, fused;
    cl_kernel chunk, fused_chunk;  /* CHUNKED */
    cl_kernel original;         /* the user's kernel (ADAPTIVE / NEVER splits) */
    cl_kernel *leaves;
    /* Counters, two sets used in turn: [0, L) leaf sizes, [L, 2L) fill
     * counters, [2L] mixed 32-item chunks. Each scatter zeroes the other set. */
    cl_mem ctrs[2];
    cl_mem ctr;                 /* the set this launch uses */
    int cur, clean[2];
    cl_mem idx;                 /* the buckets, concatenated, leaf after leaf */
    cl_mem counts;              /* ORDERED: per-group counts, leaf-major */
    cl_mem leafid;              /* one byte per item: its leaf (255: none) */
    size_t idx_cap, counts_cap, leafid_cap;
    size_t wg;
    size_t dev_max_wg;          /* CL_DEVICE_MAX_WORK_GROUP_SIZE, read once */
    unsigned ipt;               /* items per work-item in the classifier passes */
    nplus1rt_dispatch dispatch;
    nplus1rt_split split;       /* desc->split, after the environment and the device */
    cl_uint *last_counts;
    int counts_valid;
    cl_command_queue last_queue;
    int profiling;
    unsigned probe_period, until_probe; /* ADAPTIVE: launches until the next probe */
    int use_original;                   /* the last probe's verdict */
    double probe_threshold;
    int last_original;
    int last_chunked;           /* the last launch used the chunk layout */
    size_t last_positions;      /* CHUNKED: index entries the fused kernel covered */
    cl_event events[MAX_EVENTS];
    unsigned char event_leaf[MAX_EVENTS]; /* events[i] is a leaf kernel's (the host dispatch) */
    unsigned nevents;
    int launching_leaf;         /* the kernel being enqueued is a leaf kernel */
    char *errmsg;
    chooser chooser;            /* MEASURED: which candidate runs (choose.c) */
    set_config config;          /* the environment at create */
    int timing;                 /* this launch is a timed trial: keep its events */
    int forced;                 /* a forced candidate (NPLUS1_CHOICE), -1: none */
    int no_chunk;               /* CHUNKED: this launch runs the aggregated passes */
    arg_memo orig_args;         /* the original's arguments as last set */
    arg_memo in_place_user_args; /* the tile kernel's in place (regrouping off) */
    cl_kernel tile;             /* desc->tile_kernel, or NULL */
    cl_kernel tile_half;        /* the top-level tile kernel at half tile_ipt, or NULL */
    unsigned tile_ipt;          /* items per work-item in a tile (-DNPLUS1_TILE_IPT) */
    size_t half_below;          /* tile_half runs a launch of fewer full tiles than this */
    int tile_match;             /* NVIDIA sm_70+: one warp match per item (-DNPLUS1_TILE_MATCH) */
    int tile_atomic;            /* ... or per-item local atomics at many leaves (-DNPLUS1_TILE_ATOMIC) */
    nplus1rt_calibration cal;   /* the device's cost model (calibrate.c), else the defaults */
    char cal_path[1024];        /* its file, "" for the defaults */
    int has_cal;
    int tile_in_place;          /* the tile kernel was built with regrouping off: the original's
                                 * body, launched with the original's sizes; it counts nothing */
    int in_place_args;          /* ... and its hidden and launch arguments are set */
    int record_leaves;          /* TILE: write each item's leaf (validation) */
    int last_tile;              /* the last launch was TILE: 1, 2 when it recorded the leaves */
    int last_uncounted;         /* ... and did not count its items (the fast path) */
    unsigned launches;          /* TILE launches so far (the first records the leaves) */
    /* the choice cache (set_cache.c): on for a measured set with a cache folder */
    int cache_on;
    char cache_device[512];     /* the device, one line */
    unsigned long long cache_program; /* hash of the program, options, kernel, strategy */
    char cache_path[1024];
    char cache_name[CHOOSER_CLASSES][16]; /* the stored candidate of each class, "": none */
};

/* One launch of the original's shape, as check_launch read it. */
typedef struct launch {
    cl_uint n, dim;
    cl_uint4 gsz, goff;
    size_t groups;
} launch;

/* One launch request, as the user gave it and as check_launch read it. */
typedef struct request {
    cl_command_queue q;
    cl_uint dim;
    const size_t *off, *gsz, *lsz;
    const nplus1rt_argval *args;
    launch L;
} request;

/* ---- set_msg.c ---- */
/* A malloc'd formatted message, or NULL. */
char *set_new_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void set_msg(nplus1rt_set *s, const char *fmt, ...);
/* Sets the message "what: <err's name> (err)" and returns err. */
cl_int set_fail(nplus1rt_set *s, cl_int err, const char *what);

/* ---- set_cache.c: the measured choice across processes (the file; set_choice.c seeds) ---- */
/* The set's cache key and file, from the built program's options (after build). */
void set_cache_key(nplus1rt_set *s, const char *build_options);
/* Reads the stored choices into s->cache_name (all "" when off, absent or bad). */
void set_cache_read(nplus1rt_set *s);
/* Class cls chose the candidate name: the file is rewritten when it held another. */
void set_cache_write(nplus1rt_set *s, unsigned cls, const char *name);
/* Waits until every choice queued for the disk is written (set_cache_write queues them
 * for the runtime's writer thread). */
void set_cache_flush(void);
/* One line on stderr: the entry is ignored, and why. */
void set_cache_note(const nplus1rt_set *s, const char *why);
/* The cache is on and has a folder (NPLUS1_CACHE, NPLUS1_CACHE_DIR, XDG_CACHE_HOME, HOME). */
int set_cache_enabled(void);
/* For the calibration (calibrate.c), which lives in the same folder: the device's line,
 * the folder (0: the cache is off or has none), and making it. */
void set_cache_device_line(cl_device_id dev, char *out, size_t n);
int set_cache_folder(char *out, size_t n);
int set_cache_make_dirs(char *dir);

/* ---- set_inspect.c ---- */
/* The last launch's leaf kernels, summed (their profiling events, the host dispatch): ms,
 * or -1 when it kept none (no profiling, a fused or tile launch, the original). */
double set_last_leaves_ms(nplus1rt_set *s);

/* ---- set.c ---- */
void set_config_from_env(set_config *c);

/* ---- set_passes.c ---- */
cl_int set_check_launch(nplus1rt_set *s, cl_uint dim, const size_t *off, const size_t *gsz,
                        const size_t *lsz, launch *L);
/* The classifier and the leaves (or, when a probe finds little divergence, the original). */
cl_int set_launch_split(nplus1rt_set *s, const request *r, int probing);
/* The user's kernel, launched exactly as the user asked. */
cl_int set_run_original(nplus1rt_set *s, cl_command_queue q, cl_uint dim, const size_t *off,
                        const size_t *gsz, const size_t *lsz, const nplus1rt_argval *args);
/* The one-kernel tile (probing or not), counted in s->launches. */
cl_int set_run_tile(nplus1rt_set *s, const request *r, int probing);

/* ---- set_choice.c ---- */
void set_init_choice(nplus1rt_set *s);
/* Runs candidate c (NPLUS1RT_CAND_*) of the set. */
cl_int set_run_candidate(nplus1rt_set *s, const request *r, int c, int probing);
cl_int set_enqueue_measured(nplus1rt_set *s, const request *r);
/* A candidate by name ("original", "split", "tile", "<strategy>/<dispatch>"); -1 when
 * the set does not carry it. */
int set_candidate_named(const nplus1rt_set *s, const char *name);
/* The set starts as in a first process: its chooser re-made without the stored choices
 * (validate.c's cold first launches); what it chooses is still stored. */
void set_choice_forget_stored(nplus1rt_set *s);

/* A warp match (PTX match.any): NVIDIA compute capability 7.0 and later (set.c). */
int set_device_has_match(cl_device_id dev);

#endif
