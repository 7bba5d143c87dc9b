/* SPDX-License-Identifier: Apache-2.0 */
/*
 * nplus1rt_format.h - the contract between nplus1gen (the generator) and
 * libnplus1rt (the runtime): what a generated kernel set is made of, as both
 * sides must spell it. Plain C, no OpenCL: the generator includes it too.
 *
 * - X-macro lists of the strategies, dispatches, split policies and element
 *   kinds: each generates the runtime's enum (nplus1rt.h) and its name table;
 * - the suffixes of the generated kernels' names;
 * - the hidden arguments of each generated kernel, as named indices;
 * - the candidates of the measured choice, and when a set carries each.
 *
 * Changing a value here changes the generated format: NPLUS1RT_FORMAT_VERSION
 * (nplus1rt.h) says which versions a runtime runs.
 */
#ifndef NPLUS1RT_FORMAT_H
#define NPLUS1RT_FORMAT_H

#include <stdio.h>  /* the calibration file's text (below) */
#include <stdlib.h>
#include <string.h>

/* ---- lists: X(ID, value, "name") -------------------------------------------- */

/* --strategy: how the classifier compacts the items into buckets. */
#define NPLUS1RT_STRATEGIES(X)                                                                 \
    X(ATOMIC, 0, "atomic")         /* one global atomic per item */                           \
    X(AGGREGATED, 1, "aggregated") /* per-work-group counts, one atomic per group and leaf */ \
    X(ORDERED, 2, "ordered")       /* per-group counts, a scan, an order-keeping scatter */   \
    X(CHUNKED, 3, "chunked")       /* one pass into warp-aligned chunks (fused only) */       \
    X(TILE, 4, "tile")             /* one kernel: each work-group regroups its tile */

/* --dispatch: how the leaves are launched. */
#define NPLUS1RT_DISPATCHES(X)                                                  \
    X(HOST, 0, "host")   /* read the leaf counts back, launch each leaf */     \
    X(FUSED, 1, "fused") /* one kernel over the concatenated buckets */        \
    X(AUTO, 2, "auto")   /* FUSED on GPUs, HOST elsewhere */

/* The run-time split policy of a set (the generator writes the first three). */
#define NPLUS1RT_SPLITS(X)                                                            \
    X(ALWAYS, 0, "always")     /* every launch runs the classifier and the leaves */ \
    X(ADAPTIVE, 1, "adaptive") /* probe divergence; run the original when low */     \
    X(NEVER, 2, "never")       /* the leaves are too cheap: always the original */   \
    X(MEASURED, 3, "measured") /* time the candidates, keep the fastest (auto) */

/* Element kinds of buffers and scalars: X(ID, value, OpenCL C name, bytes). */
#define NPLUS1RT_ELEMS(X)                                                                   \
    X(I8, 0, "char", 1) X(U8, 1, "uchar", 1) X(I16, 2, "short", 2) X(U16, 3, "ushort", 2) \
    X(I32, 4, "int", 4) X(U32, 5, "uint", 4) X(I64, 6, "long", 8) X(U64, 7, "ulong", 8)   \
    X(F16, 8, "half", 2) X(F32, 9, "float", 4) X(F64, 10, "double", 8)

/* The enums (nplus1rt.h documents them; the generator uses them as they are). */
#define NPLUS1RT_STRATEGY_ENUM_(id, v, name) NPLUS1RT_##id = v,
#define NPLUS1RT_DISPATCH_ENUM_(id, v, name) NPLUS1RT_DISPATCH_##id = v,
#define NPLUS1RT_SPLIT_ENUM_(id, v, name) NPLUS1RT_SPLIT_##id = v,
#define NPLUS1RT_ELEM_ENUM_(id, v, name, size) NPLUS1RT_##id = v,
typedef enum nplus1rt_strategy { NPLUS1RT_STRATEGIES(NPLUS1RT_STRATEGY_ENUM_) } nplus1rt_strategy;
typedef enum nplus1rt_dispatch { NPLUS1RT_DISPATCHES(NPLUS1RT_DISPATCH_ENUM_) } nplus1rt_dispatch;
typedef enum nplus1rt_split { NPLUS1RT_SPLITS(NPLUS1RT_SPLIT_ENUM_) } nplus1rt_split;
typedef enum nplus1rt_elem { NPLUS1RT_ELEMS(NPLUS1RT_ELEM_ENUM_) } nplus1rt_elem;
#undef NPLUS1RT_STRATEGY_ENUM_
#undef NPLUS1RT_DISPATCH_ENUM_
#undef NPLUS1RT_SPLIT_ENUM_
#undef NPLUS1RT_ELEM_ENUM_

/* The name tables: "aggregated", "fused", "never", "float"; NULL out of range. */
#define NPLUS1RT_CASE3_(id, v, name) \
    case v:                          \
        return name;
#define NPLUS1RT_CASE4_(id, v, name, x) \
    case v:                             \
        return name;

static inline const char *nplus1rt_strategy_text(int v)
{
    switch (v) {
        NPLUS1RT_STRATEGIES(NPLUS1RT_CASE3_)
    default:
        return 0;
    }
}

static inline const char *nplus1rt_dispatch_text(int v)
{
    switch (v) {
        NPLUS1RT_DISPATCHES(NPLUS1RT_CASE3_)
    default:
        return 0;
    }
}

static inline const char *nplus1rt_split_text(int v)
{
    switch (v) {
        NPLUS1RT_SPLITS(NPLUS1RT_CASE3_)
    default:
        return 0;
    }
}

static inline const char *nplus1rt_elem_text(int v)
{
    switch (v) {
        NPLUS1RT_ELEMS(NPLUS1RT_CASE4_)
    default:
        return 0;
    }
}

/* The enumerator's spelling in C, for the generated driver: "NPLUS1RT_F32". */
#define NPLUS1RT_ELEM_ID_(id, v, name, size) \
    case v:                                  \
        return "NPLUS1RT_" #id;
static inline const char *nplus1rt_elem_id(int v)
{
    switch (v) {
        NPLUS1RT_ELEMS(NPLUS1RT_ELEM_ID_)
    default:
        return 0;
    }
}
#undef NPLUS1RT_ELEM_ID_

/* ---- kernel names: the original kernel's name, then one of these ------------ */

#define NPLUS1RT_SUFFIX_COUNT "__nplus1_count"             /* classifier, counting pass */
#define NPLUS1RT_SUFFIX_SCAN "__nplus1_scan"               /* ORDERED: per-group offsets */
#define NPLUS1RT_SUFFIX_SCATTER "__nplus1_scatter"         /* classifier, bucket filling */
#define NPLUS1RT_SUFFIX_FUSED "__nplus1_fused"             /* every leaf over its bucket */
#define NPLUS1RT_SUFFIX_LEAF "__nplus1_leaf"               /* then the leaf's number */
#define NPLUS1RT_SUFFIX_CHUNK "__nplus1_chunk"             /* CHUNKED: the one classifier pass */
#define NPLUS1RT_SUFFIX_FUSED_CHUNK "__nplus1_fused_chunk" /* CHUNKED: leaves over the chunks */
#define NPLUS1RT_SUFFIX_TILE "__nplus1_tile"               /* the one-kernel tile */

/* ---- hidden arguments (templates/kernel.cl.tmpl spells the same order) ------ */

/*
 * Every generated kernel but the scan and the scatter takes the user's
 * arguments first (nargs of them), then, when it counts (count, fused,
 * chunk, tile), the item count n, then the launch head: the original
 * launch's dimension, global sizes and offsets. Its own arguments follow
 * the head; the indices below count from there.
 */
enum nplus1rt_head_arg {
    NPLUS1RT_HEAD_DIM = 0,  /* const uint: work_dim of the original launch */
    NPLUS1RT_HEAD_GSZ = 1,  /* const uint4: its global sizes (1 past work_dim) */
    NPLUS1RT_HEAD_GOFF = 2, /* const uint4: its global offsets */
    NPLUS1RT_HEAD_ARGS = 3  /* the head's length */
};

/* K__nplus1_count(user, n, head, ...) */
enum nplus1rt_count_arg {
    NPLUS1RT_COUNT_CTR = 0,    /* __global uint *: this launch's counter set */
    NPLUS1RT_COUNT_COUNTS = 1, /* __global uint *: ORDERED per-group counts (else unused) */
    NPLUS1RT_COUNT_LEAFID = 2, /* __global uchar *: each item's leaf, 255: none */
    NPLUS1RT_COUNT_PROBE = 3   /* const uint: 1 to count the mixed 32-item chunks */
};

/* K__nplus1_scan(groups, counts, ctr): no user arguments, no head. */
enum nplus1rt_scan_arg {
    NPLUS1RT_SCAN_GROUPS = 0, /* const uint: the classifier's work-groups */
    NPLUS1RT_SCAN_COUNTS = 1, /* __global uint *: per-group counts, leaf-major */
    NPLUS1RT_SCAN_CTR = 2
};

/* K__nplus1_scatter(n, ctr, counts, idx, leafid, next_ctr): no user arguments, no head. */
enum nplus1rt_scatter_arg {
    NPLUS1RT_SCATTER_N = 0,
    NPLUS1RT_SCATTER_CTR = 1,
    NPLUS1RT_SCATTER_COUNTS = 2,
    NPLUS1RT_SCATTER_IDX = 3,     /* __global uint *: the buckets, leaf after leaf */
    NPLUS1RT_SCATTER_LEAFID = 4,
    NPLUS1RT_SCATTER_NEXT_CTR = 5 /* the other counter set, zeroed for the next launch */
};

/* K__nplus1_leafL(user, head, ...): no n. */
enum nplus1rt_leaf_arg {
    NPLUS1RT_LEAF_IDX = 0,  /* __global const uint *: the buckets */
    NPLUS1RT_LEAF_BASE = 1, /* const uint: the leaf's first bucket entry */
    NPLUS1RT_LEAF_COUNT = 2 /* const uint: its items */
};

/* K__nplus1_fused(user, n, head, ...) and K__nplus1_fused_chunk(user, head, ...): no n. */
enum nplus1rt_fused_arg { NPLUS1RT_FUSED_IDX = 0, NPLUS1RT_FUSED_CTR = 1 };

/* K__nplus1_chunk(user, n, head, ...) */
enum nplus1rt_chunk_arg {
    NPLUS1RT_CHUNK_CTR = 0,
    NPLUS1RT_CHUNK_IDX = 1,     /* entries (leaf << 26 | id), padding 0xffffffff */
    NPLUS1RT_CHUNK_PROBE = 2,
    NPLUS1RT_CHUNK_NEXT_CTR = 3
};

/* K__nplus1_tile(user, n, head, ...) */
enum nplus1rt_tile_arg {
    NPLUS1RT_TILE_CTR = 0,
    NPLUS1RT_TILE_NEXT_CTR = 1,
    NPLUS1RT_TILE_PROBE = 2,
    NPLUS1RT_TILE_LEAFID = 3,   /* __global uchar *: written when NPLUS1RT_TILE_RECORD */
    NPLUS1RT_TILE_FLAGS = 4     /* const uint: NPLUS1RT_TILE_COUNT | NPLUS1RT_TILE_RECORD */
};
enum nplus1rt_tile_flag { NPLUS1RT_TILE_COUNT = 1, NPLUS1RT_TILE_RECORD = 2 };

/* ---- the measured choice's candidates: X(ID, value, "name", needs divergence) -- */

/*
 * What a set can run (runtime/set_choice.c launches them, runtime/choose.c
 * picks). A set carries
 * - original:   when its split policy is not ALWAYS (the set builds the user's kernel);
 * - split:      always (the set's own strategy and dispatch);
 * - aggregated: a CHUNKED set under FUSED dispatch (its fallback passes);
 * - tile:       a tile kernel beside another strategy (a TILE set's split is the tile).
 * "needs divergence": it pays only when the items of a SIMD group diverge.
 */
#define NPLUS1RT_CANDIDATES(X)              \
    X(ORIGINAL, 0, "original", 0)           \
    X(SPLIT, 1, "split", 1)                 \
    X(AGGREGATED, 2, "aggregated", 1)       \
    X(TILE, 3, "tile", 1)

#define NPLUS1RT_CAND_ENUM_(id, v, name, needs) NPLUS1RT_CAND_##id = v,
enum nplus1rt_candidate { NPLUS1RT_CANDIDATES(NPLUS1RT_CAND_ENUM_) NPLUS1RT_NCANDIDATES };
#undef NPLUS1RT_CAND_ENUM_

static inline const char *nplus1rt_candidate_text(int v)
{
    switch (v) {
        NPLUS1RT_CANDIDATES(NPLUS1RT_CASE4_)
    default:
        return 0;
    }
}

/* Whether a set carries candidate c (the rules above), from what the generator wrote. */
static inline int nplus1rt_carries(int c, nplus1rt_split split, nplus1rt_strategy strategy,
                                   int fused, int tile)
{
    switch (c) {
    case NPLUS1RT_CAND_ORIGINAL:
        return split != NPLUS1RT_SPLIT_ALWAYS;
    case NPLUS1RT_CAND_SPLIT:
        return 1;
    case NPLUS1RT_CAND_AGGREGATED:
        return strategy == NPLUS1RT_CHUNKED && fused;
    case NPLUS1RT_CAND_TILE:
        return tile && strategy != NPLUS1RT_TILE;
    default:
        return 0;
    }
}

/* ---- the device's cost model: the calibration file (docs/driver.md, "Calibration") ---- */

/*
 * What nplus1rt_calibrate (runtime/calibrate.c) measured on one device, per
 * item and per regrouping round, in FMA-equivalents (one lane's fused
 * multiply-add at the device's full throughput): the unit of the tool's
 * static cost rule (tool/plan/context.h) and of the profile's predictions.
 * Stored as text in the choice cache's folder (calibration-<hash>.txt), one
 * "key value" per line after the magic line; the generator reads the same
 * file, so both sides spell it here. A negative figure: not measured (no
 * warp match on this device).
 */
#define NPLUS1RT_CALIBRATION_MAGIC "nplus1-calibration 1"

typedef struct nplus1rt_calibration {
    char device[640];      /* "vendor | name | driver | version", as the choice cache spells it */
    double fma_ns;         /* ns of one lane-FMA with the whole device busy (the unit) */
    double word;           /* a 4-byte context word into local memory and back */
    double round;          /* a round's four barriers, ranking by local atomics and offsets */
    double barriers;       /* the four barriers alone */
    double rank_atomic4, rank_atomic16; /* ranking by per-item local atomics, 4 / 16 leaves */
    double rank_match4, rank_match16;   /* by a warp match per item (-1: none here) */
    double launch_us;      /* one more kernel back to back (start to end, events), microseconds */
} nplus1rt_calibration;

/*
 * The defaults where no calibration is stored: an NVIDIA H200 measured outside the runtime
 * (docs/performance.md, "The cost model"; one SM-cycle per item = 126 FMA-equivalents): a
 * word 0.13 cycles, the barriers 0.25, ranking and offsets by atomics 0.31 at 4 leaves;
 * the ranking figures from the full rounds of a 64-byte context (atomics 2.46 / 2.89,
 * match 2.22 / 3.06 cycles at 4 / 16 leaves) against the atomics' 0.31 at 4 leaves.
 * fma_ns: 132 SMs x 128 lanes at 1.98 GHz; launch_us: a guess (2-4 us between kernels).
 */
static inline void nplus1rt_calibration_defaults(nplus1rt_calibration *c)
{
    static const nplus1rt_calibration h200 = {"defaults", 3.0e-5, 16.0, 70.0, 30.0, 39.0, 93.0,
                                              9.0, 115.0, 3.0};
    *c = h200;
}

/* The fields a file holds, in its order: X(key, field). */
#define NPLUS1RT_CALIBRATION_FIELDS(X)                                                     \
    X("fma_ns", fma_ns) X("word", word) X("round", round) X("barriers", barriers)          \
    X("rank_atomic4", rank_atomic4) X("rank_atomic16", rank_atomic16)                      \
    X("rank_match4", rank_match4) X("rank_match16", rank_match16) X("launch_us", launch_us)

/*
 * Parses a calibration file's text into c. 0, or -1 with why (a phrase) set:
 * not a calibration, a line missing or not a number, a figure out of range.
 */
static inline int nplus1rt_calibration_parse(const char *text, nplus1rt_calibration *c,
                                             const char **why)
{
    const char *p = text;
    size_t magic = sizeof NPLUS1RT_CALIBRATION_MAGIC - 1;
    memset(c, 0, sizeof *c);
    *why = "it is not a calibration file of this runtime";
    if (strncmp(p, NPLUS1RT_CALIBRATION_MAGIC, magic) || p[magic] != '\n')
        return -1;
    p += magic + 1;
    *why = "its device line is missing";
    if (strncmp(p, "device ", 7))
        return -1;
    p += 7;
    size_t n = strcspn(p, "\n");
    if (p[n] != '\n' || n >= sizeof c->device)
        return -1;
    memcpy(c->device, p, n);
    p += n + 1;
#define NPLUS1RT_CAL_READ_(key, field)                                                     \
    {                                                                                      \
        size_t k = strlen(key);                                                            \
        char *end;                                                                         \
        *why = "a figure is missing or not a number (" key ")";                          \
        if (strncmp(p, key " ", k + 1))                                                    \
            return -1;                                                                     \
        c->field = strtod(p + k + 1, &end);                                                \
        if (end == p + k + 1 || *end != '\n' || !(c->field < 1e9) || !(c->field > -2))      \
            return -1;                                                                     \
        p = end + 1;                                                                       \
    }
    NPLUS1RT_CALIBRATION_FIELDS(NPLUS1RT_CAL_READ_)
#undef NPLUS1RT_CAL_READ_
    *why = "a cost is not positive";
    if (!(c->word > 0) || !(c->round > 0) || !(c->fma_ns > 0) || *p)
        return -1;
    *why = "";
    return 0;
}

/* The file's text for c into buf (at most n bytes); returns what snprintf returns. */
static inline int nplus1rt_calibration_format(const nplus1rt_calibration *c, char *buf, size_t n)
{
#define NPLUS1RT_CAL_FMT_(key, field) key " %.6g\n"
#define NPLUS1RT_CAL_ARG_(key, field) , c->field
    return snprintf(buf, n, NPLUS1RT_CALIBRATION_MAGIC "\ndevice %s\n"
                    NPLUS1RT_CALIBRATION_FIELDS(NPLUS1RT_CAL_FMT_),
                    c->device NPLUS1RT_CALIBRATION_FIELDS(NPLUS1RT_CAL_ARG_));
#undef NPLUS1RT_CAL_FMT_
#undef NPLUS1RT_CAL_ARG_
}

/*
 * The ranking method of a regrouping round with nleaves leaves: 1 a warp
 * match per item, 0 per-item local atomics. The calibration's figures at 4
 * and 16 leaves, interpolated (extrapolated flat); where it has no match,
 * atomics. The defaults give match up to 8 leaves, atomics at 16 and more.
 */
static inline int nplus1rt_rank_by_match(const nplus1rt_calibration *c, unsigned nleaves)
{
    if (c->rank_match4 < 0 || c->rank_match16 < 0)
        return 0;
    double t = nleaves <= 4 ? 0.0 : nleaves >= 16 ? 1.0 : (nleaves - 4) / 12.0;
    double match = c->rank_match4 + t * (c->rank_match16 - c->rank_match4);
    double atomic = c->rank_atomic4 + t * (c->rank_atomic16 - c->rank_atomic4);
    return match <= atomic;
}

#endif
