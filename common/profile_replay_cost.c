/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_replay_cost.c - the predictions of the candidates a generated set
 * carries (profile_report.h, docs/performance.md "Predictions"). Each
 * candidate's schedule, replayed on the recorded paths, in FMA-equivalents
 * per item of the launch (the unit of the calibration, nplus1rt_format.h):
 *
 *   original  the measured grouping's issued work, one launch
 *   (every candidate) the kernel's memory accesses on the item's path (replayed), each by
 *             how the hardware serves it (user_memory: a coalesced access its bytes, a
 *             broadcast one a sector a SIMD group, any other a DRAM sector per item): the
 *             same accesses in every schedule, so the launches and rounds weigh against
 *             the kernel's whole time, not its operations alone
 *   split     its leaves over their buckets (the items grouped by leaf), its passes
 *             (split_passes: the counting pass's whole classifier slice and the decisions'
 *             inputs it reads, read again by the leaves; the leaf id written and read back,
 *             the item's id written into its bucket and read back by its leaf, by their
 *             bytes: they coalesce; two rankings in local memory), the leaves' gathered
 *             accesses (gather: the sectors their items touch beyond the original's), the
 *             extra traffic from the L2 where the working set fits it (dram_share), and its
 *             passes' and leaves' launches
 *   tile      the leaves regrouped inside tiles, the classify phase (the
 *             plain tile runs the prologue again in the leaves), one
 *             regrouping round (the item's id, or its context's words), the leaves'
 *             gathered accesses inside the tile (from the L2), one launch
 *   loop      (the tile+loop kernel, which a loop set's split and tile run) its
 *             schedule replayed on the recorded paths (profile_loop_kernel.c): under
 *             the policy "never" (NPLUS1_LOOP_REGROUP=0) each SIMD group steps its
 *             lanes' items an iteration at a time, a lane whose item ends taking the
 *             tile's next (refill: a group no longer waits for its longest item, but
 *             its lanes' iterations run side by side, each with the branch it takes);
 *             under 1 and 2 the work-group's rounds: the head with refill, the round
 *             (the calibration's round a lane), the contexts moved when it regroups
 *             (its words) and the branches sorted; in both the kernel's own operations
 *             an iteration and an item taken (below), one launch; "cannot tell" where
 *             the loop body makes a memory access every fewer than
 *             PROFILE_MEMORY_BOUND_OPS operations
 *   (a context tile in place, NPLUS1_TILE_REGROUP=0: the original's work and
 *             the classify phase, or "cannot tell" where the kernel's memory outweighs its
 *             work; a loop kernel with regrouping off, the rule's policy -1: the original's
 *             work)
 * The work is the replay's: the cost model's operations with math builtins and divisions at
 * their time (profile.tree's node costs), except a loop set's loop kernel and the original
 * it is compared with, replayed in the rough unit its own operations are counted in.
 *
 * Where the model cannot tell, a reason instead of a number: a kernel whose
 * top level does fewer than PROFILE_MEMORY_BOUND_OPS operations a memory
 * access (memory-bound: the replay counts operations, not traffic), a split whose
 * launch gaps outweigh the original's whole modeled time (a short kernel: its latency is
 * not in the model), or a schedule the profile has no replay of. Pure arithmetic: unit
 * tested.
 */
#include <stdio.h>
#include <string.h>

#include "profile_report.h"

#define PRIOR_GAIN 1.25 /* set_choice.c: a predicted gain this large is tried first */

/*
 * n kernels, per item: each after the first adds launch_us (the calibration's gap
 * between kernels back to back: the profiling events' view, which the measured
 * choice and --reps time by, sees no cost of the first).
 */
static double launches(const nplus1rt_calibration *cal, unsigned n, unsigned long long items)
{
    if (!items || !(cal->fma_ns > 0) || n < 2)
        return 0;
    return (n - 1) * cal->launch_us * 1000.0 / cal->fma_ns / (double)items;
}

/*
 * Per item, n memory accesses (counted statically): each moves at least one DRAM
 * sector at the device's bandwidth, in FMA-equivalents (the calibration measures no
 * global memory yet: PROFILE_DRAM_BYTES_NS).
 */
static double memory_cost(double n, const nplus1rt_calibration *cal)
{
    if (!(cal->fma_ns > 0) || !(n > 0))
        return 0;
    return n * PROFILE_SECTOR_BYTES / PROFILE_DRAM_BYTES_NS / cal->fma_ns;
}

/*
 * Per item, accesses that coalesce (consecutive items at consecutive addresses: a sector
 * holds PROFILE_SECTOR_BYTES / size of them) moving bytes: their bytes at the DRAM's
 * bandwidth, in FMA-equivalents.
 */
static double coalesced_cost(double bytes, const nplus1rt_calibration *cal)
{
    return memory_cost(bytes / PROFILE_SECTOR_BYTES, cal);
}

/*
 * The split's leaves take their items by bucket: an access at the item's index touches the
 * sectors of the leaf's items (replay_costs.gather, measured on the recording) where the
 * original's groups touch each once. The sector's items come from the accesses' mean size
 * (set->access_bytes: 4-byte elements, 8 a sector); 1 where either is unknown.
 */
static double gather(const double *g, const profile_set *set)
{
    if (!(set->accesses > 0) || !(set->access_bytes > 0))
        return 1;
    double mean = set->access_bytes / set->accesses;
    unsigned j = mean <= 4 ? 3 : mean <= 8 ? 2 : mean <= 16 ? 1 : 0;
    return g[j] > 1 ? g[j] : 1;
}

/* The memory accesses an item makes: replayed on its path, else the kernel's as written. */
static double item_accesses(const replay_costs *rc, const profile_set *set)
{
    return rc->accesses > 0 ? rc->accesses : set->accesses;
}

/* The DRAM bytes an item's accesses move on its path (replay_costs.memory_bytes; replay
 * costs made without it: a sector an access). */
static double path_bytes(const replay_costs *rc)
{
    return rc->memory_bytes > 0 ? rc->memory_bytes : rc->accesses * PROFILE_SECTOR_BYTES;
}

/*
 * The user's accesses, per item, in FMA-equivalents: the DRAM bytes they move on the item's
 * path (replay_costs.memory_bytes: each access by its coalescing class) at the DRAM's
 * bandwidth; a tree without the replayed accesses: the kernel's as written, a sector each.
 */
static double user_memory(const replay_costs *rc, const profile_set *set,
                          const nplus1rt_calibration *cal)
{
    if (rc->accesses > 0)
        return coalesced_cost(path_bytes(rc), cal);
    return memory_cost(set->accesses, cal);
}

/*
 * The bytes an item's accesses move once its items are taken by leaf (g: the gather of the
 * accesses' element size, replay_costs.gather) beyond what they moved in the original's
 * order, per item. Only the accesses that coalesce there change: a leaf's items at
 * scattered ids touch g times their sectors (at most a sector an access). A broadcast access
 * stays one address, any other was a sector an item already (and so is every access of a
 * tree without the classes).
 */
static double gathered_bytes(const double *g, const replay_costs *rc)
{
    if (!(rc->coalesced > 0) || !(rc->coalesced_bytes > 0))
        return 0;
    double mean = rc->coalesced_bytes / rc->coalesced;
    unsigned j = mean <= 4 ? 3 : mean <= 8 ? 2 : mean <= 16 ? 1 : 0;
    double f = g[j] > 1 ? g[j] : 1;
    double moved = f * rc->coalesced_bytes, cap = rc->coalesced * PROFILE_SECTOR_BYTES;
    return (moved < cap ? moved : cap) - rc->coalesced_bytes;
}

/*
 * The classifier's reads, per item, in FMA-equivalents: they read the decisions' inputs,
 * whose class the set line does not carry: at the bytes an access of the item's path moves
 * on average (a sector each in a tree without the classes).
 */
static double classifier_memory(const replay_costs *rc, const profile_set *set,
                                const nplus1rt_calibration *cal)
{
    if (!(rc->accesses > 0))
        return memory_cost(set->classifier_accesses, cal);
    return coalesced_cost(set->classifier_accesses * path_bytes(rc) / rc->accesses, cal);
}

/*
 * What the split's generated passes run besides the user's code (templates/kernel.cl.tmpl:
 * "count", "scatter-aggregated", "fused", "leaf-kernel"), per item:
 *   count    the classifier over the whole slice (set->split_classifier: a context set's
 *            classifier leaves out the prologue its tile runs once, the counting pass does
 *            not), its leaf id written (nplus1_leafid[lin]), the item ranked among its
 *            work-group's items of the same leaf (nplus1_group_slot, in local memory)
 *   scatter  the leaf id read back (nplus1_leafid[lin]), the item ranked again
 *            (nplus1_group_slot), its id written into its leaf's bucket
 *            (nplus1_idx[gbase[leaf] + slot])
 *   leaves   the id read back from the bucket (nplus1_idx[base + j], nplus1_idx[j] fused)
 * Those accesses to the set's own buffers coalesce: the leaf ids are bytes in item order
 * (lin = the group's first + it * NPLUS1_WG + lid), a work-group's items of one leaf take
 * consecutive slots of its bucket (its base, then their ranks: the same sectors, whichever
 * SIMD group writes them) and the leaves read the bucket in order. So they are charged by
 * their bytes (coalesced_cost: SPLIT_OWN_TRAFFIC_BYTES, each buffer written once and read
 * once), not as the user's accesses are (memory_cost: a sector an item, the model's unit for
 * an access it cannot see coalesce). SPLIT_OWN_BYTES: what the buffers hold an item (a leaf
 * id of 1 byte, an index of 4), for the working set. Each ranking costs the calibration's
 * per-item ranking by local atomics at 4 leaves (rank_atomic4: its atomic and the slot it
 * returns, what nplus1_group_slot does). The per-group work (the counters' atomics, the
 * bucket's base) is not charged.
 */
#define SPLIT_LEAFID_BYTES 1.0
#define SPLIT_INDEX_BYTES 4.0
#define SPLIT_OWN_BYTES (SPLIT_LEAFID_BYTES + SPLIT_INDEX_BYTES)
#define SPLIT_OWN_TRAFFIC_BYTES (2.0 * SPLIT_OWN_BYTES)
#define SPLIT_RANKINGS 2.0

/*
 * The share of the split's extra traffic (the classifier's reads again, the gathered
 * sectors, the set's own buffers) the DRAM serves: the part of the working set past the L2
 * (PROFILE_L2_BYTES), the rest at the L2's bandwidth. The working set: the launch's items
 * times the bytes an item's accesses move (replayed; their mean size from the kernel's
 * accesses) and the set's own. A kernel whose loads of `const restrict` buffers the analysis
 * does not count (they need no record for the memory-order rule) reads smaller than it is.
 */
static double dram_share(const replay_costs *rc, const profile_set *set,
                         unsigned long long items)
{
    if (!items || !(set->accesses > 0) || !(set->access_bytes > 0))
        return 1;
    double per_item = item_accesses(rc, set) * set->access_bytes / set->accesses;
    double working = (per_item + SPLIT_OWN_BYTES) * (double)items;
    double past = working > PROFILE_L2_BYTES ? (working - PROFILE_L2_BYTES) / working : 0.0;
    return past + (1.0 - past) * PROFILE_DRAM_BYTES_NS / PROFILE_L2_BYTES_NS;
}

/* The split's passes besides their launches (above): per item, FMA-equivalents. */
static double split_passes(const replay_costs *rc, const profile_set *set,
                           const nplus1rt_calibration *cal, unsigned long long items)
{
    double classifier = set->split_classifier > 0 ? set->split_classifier : set->classifier;
    double rank = cal->rank_atomic4 > 0 ? cal->rank_atomic4 : 0.0;
    /* the leaves' accesses gathered by bucket: what they touch beyond the original's
     * sectors (the original's, which every candidate pays, profile_predict_candidates) */
    double gathered = rc->accesses > 0
                          ? coalesced_cost(gathered_bytes(rc->gather, rc), cal)
                          : (gather(rc->gather, set) - 1.0) * memory_cost(set->accesses, cal);
    double traffic = classifier_memory(rc, set, cal) + gathered +
                     coalesced_cost(SPLIT_OWN_TRAFFIC_BYTES, cal);
    return classifier + SPLIT_RANKINGS * rank + traffic * dram_share(rc, set, items);
}

static void unknown(candidate_prediction *p, const char *why)
{
    p->known = 0;
    snprintf(p->why, sizeof p->why, "%s", why);
}

/*
 * The loop kernel's own operations (templates/kernel.cl.tmpl, "loop-tile" and the loop-*
 * phases), counted as the cost model counts the user's (an operator or an assignment 1;
 * the context's loads and stores left out: a lane's context stays in its registers, and a
 * regrouped round's moves are the calibration's words). Per iteration of a lane:
 *   never (0)   head: *g = -1, iter = 1, b = 0, b = cond ? .. : .., *g = b (6);
 *               after it: g == -3, g == -2, g < 0, branch = g, first < 0,
 *               trips += items == 1, flags & 1 (8); the branch phase: *r = 0,
 *               b = branch, *r = 1 (3) and a compare a group; after it: r == 2,
 *               live = r == 1, while (live) (4): 21 and one a group
 *   rounds (1, 2) the head loop: g < 0, !live, live, wi_make (2), the head's 6, g >= 0 (12);
 *               the round: the probe's test (2), lid == 0, end, rg, more, g >= 0,
 *               branch = g, rg, live = rg ? lid < end : g >= 0 (3), live, rg (12);
 *               wi_make (2), the branch phase's 3 and a compare a group, r == 2,
 *               live = r == 1, !live && flags & 2 (9): 33 and one a group
 * Per item a lane takes: atomic_inc on the tile's counter (a local atomic: the
 * calibration's per-item local atomic, rank_atomic4), its test against the tile, wi_make,
 * item, branch and iter set (8). Per lane and round (rounds only): the calibration's round
 * (its barriers, ranking and offsets); per context a regrouped round moves: its words.
 */
#define LOOP_NEVER_ITER_OPS 21.0
#define LOOP_ROUND_ITER_OPS 33.0
#define LOOP_TAKE_OPS 8.0

void profile_loop_kernel_costs(const profile_set *set, const nplus1rt_calibration *cal,
                               unsigned groups, loop_kernel_params *p)
{
    p->regroup = set->regroup;
    p->iter_cost = (set->regroup ? LOOP_ROUND_ITER_OPS : LOOP_NEVER_ITER_OPS) + groups;
    p->take_cost = LOOP_TAKE_OPS + (cal->rank_atomic4 > 0 ? cal->rank_atomic4 : 0.0);
    p->round_cost = set->regroup ? cal->round : 0.0;
    p->move_cost = set->regroup ? cal->word * set->ctx_bytes / 4.0 : 0.0;
}

/* A loop set: the loop kernel's schedule replayed (profile_loop.h). */
static void predict_loop(const replay_costs *rc, const profile_set *set,
                         const nplus1rt_calibration *cal, unsigned long long items,
                         candidate_prediction *p)
{
    char why[200];
    if (!rc->has_loop_kernel) {
        unknown(p, "no replay of its loop kernel (the profile finds no loop with a data "
                   "decision at its top level)");
        return;
    }
    if (set->loop_accesses > 0 && set->loop_ops < PROFILE_MEMORY_BOUND_OPS * set->loop_accesses) {
        snprintf(why, sizeof why, "memory-bound loop: an access every %.1f operations an "
                 "iteration, and the loop kernel runs other items' iterations side by side (at "
                 "other addresses): the model counts no traffic",
                 set->loop_ops / set->loop_accesses);
        unknown(p, why);
        return;
    }
    /* both in the rough unit: the loop kernel's own costs are the rough cost model's */
    double cost = rc->loop_kernel + launches(cal, 1, items);
    p->known = 1;
    p->cost = cost;
}

static void predict_one(const replay_costs *rc, const profile_set *set,
                        const nplus1rt_calibration *cal, unsigned long long items,
                        candidate_prediction *p)
{
    if (p->cand == NPLUS1RT_CAND_ORIGINAL) {
        p->known = 1;
        p->cost = rc->original + launches(cal, 1, items);
        return;
    }
    if (set->tile == 4 && set->regroup != PROFILE_REGROUP_OFF) { /* the state machine: its
                                                                   * rounds are not replayed yet */
        unknown(p, "the state machine's rounds (tile+machine) are not in the model");
        return;
    }
    /* the tile kernel (a TILE set's split too: its one launch) */
    const int runs_tile = p->cand == NPLUS1RT_CAND_TILE || set->launches == 1;
    if (set->regroup == PROFILE_REGROUP_OFF && (set->tile >= 3 || (set->tile <= 2 && runs_tile))) {
        /* the loop kernel or the state machine without regroup points (every candidate of
         * their sets) or the plain or context tile with regrouping off: the kernel's own
         * body, launched as the original (measured on the H200: 0.97x-1.03x of it,
         * sessions 6 and 8) */
        p->known = 1;
        p->cost = rc->original + launches(cal, 1, items);
        return;
    }
    if (set->tile == 3) { /* a loop set: its split and its tile run the loop kernel */
        predict_loop(rc, set, cal, items, p);
        return;
    }
    if (!rc->has_split) {
        unknown(p, "no decision the set regroups by is in the profile (none at the top "
                   "level, or all kept in the leaves)");
        return;
    }
    p->known = 1;
    /* the classifier (the split's pass, the tile's classify phase) reads the decisions'
     * inputs, and the leaves read them again: the split's leaves and the plain tile's run
     * the prologue again, and a context of one word holds only the item's index; a larger
     * context carries the values the classify phase read */
    int reread = p->cand != NPLUS1RT_CAND_TILE || set->tile != 2 || set->ctx_bytes <= 4;
    double classify = set->classifier + (reread ? classifier_memory(rc, set, cal) : 0.0);
    if (p->cand == NPLUS1RT_CAND_TILE && set->tile == 2 && !set->regroup) {
        /* in place: each item runs where it is, its context private; the classify phase. A
         * work-item runs its tile's items one after another (NPLUS1_TILE_IPT of them: a
         * quarter of the original's work-items on an H200), so a kernel whose time is its
         * memory has fewer SIMD groups to hide its latency with: not in the model */
        double memory = user_memory(rc, set, cal);
        if (memory > rc->original) {
            char why[200];
            snprintf(why, sizeof why, "the context tile runs in place, its items one after "
                     "another on fewer work-items, and the kernel's memory (%.0f) outweighs its "
                     "work (%.0f): the latency they hide is not in the model",
                     memory, rc->original);
            unknown(p, why);
            return;
        }
        p->cost = rc->original + classify + launches(cal, 1, items);
        return;
    }
    if (p->cand == NPLUS1RT_CAND_TILE) {
        double words = set->tile == 2 ? set->ctx_bytes / 4.0 : 1.0;
        /* the leaves' accesses by regrouped item inside the tile: the sectors the classify
         * phase has just brought in, from the L2 (a context of more than a word carries
         * what the classifier read: those are not read again) */
        double leaf = item_accesses(rc, set) - (reread ? 0.0 : set->classifier_accesses);
        double share = item_accesses(rc, set) > 0 ? (leaf > 0 ? leaf : 0) / item_accesses(rc, set)
                                                  : 0.0;
        double bytes = rc->accesses > 0 ? gathered_bytes(rc->gather_tile, rc)
                                        : (gather(rc->gather_tile, set) - 1.0) *
                                              set->accesses * PROFILE_SECTOR_BYTES;
        double gathered = coalesced_cost(bytes * share, cal) * PROFILE_DRAM_BYTES_NS /
                          PROFILE_L2_BYTES_NS;
        p->cost = rc->tile + classify + (set->tile == 2 ? 0.0 : set->prologue) +
                  cal->round + cal->word * words + gathered + launches(cal, 1, items);
        return;
    }
    double memory = user_memory(rc, set, cal), regathered = gathered_bytes(rc->gather, rc);
    if (memory > rc->original && regathered > 0) {
        /* the kernel's time is its memory, and the leaves, taking their items by bucket,
         * scatter what coalesced: that extra traffic the model sizes by sectors alone (no
         * DRAM burst, no partial write), where it decides the split's time */
        char why[200];
        snprintf(why, sizeof why, "memory-bound split: the kernel's accesses (%.0f) outweigh its "
                 "work (%.0f), and its leaves gather what coalesced (%.0f bytes an item more), "
                 "traffic the model cannot size", memory, rc->original, regathered);
        unknown(p, why);
        return;
    }
    unsigned n = p->cand == NPLUS1RT_CAND_AGGREGATED && set->launches > 2 ? set->launches + 1
                                                                            : set->launches;
    double gaps = launches(cal, n ? n : 2, items);
    if (gaps > rc->original + memory) {
        /* the original's modeled time (its issue and its bytes at the DRAM's bandwidth) is
         * under the split's launch gaps: a launch that short is a few waves of SIMD groups,
         * each as long as its chain of dependent accesses, a latency the model has no figure
         * for, and the split's ratio would be its gaps against that unknown */
        char why[200];
        snprintf(why, sizeof why, "short kernel: the split's launch gaps (%.0f) outweigh the "
                 "original's modeled time (%.0f), and a launch that short is bound by a latency "
                 "the model has no figure for", gaps, rc->original + memory);
        unknown(p, why);
        return;
    }
    p->cost = rc->split + split_passes(rc, set, cal, items) + gaps;
}

unsigned profile_predict_candidates(const replay_costs *rc, const profile_set *set,
                                    const nplus1rt_calibration *cal,
                                    unsigned long long launch_items, candidate_prediction *out)
{
    unsigned n = 0;
    int bound = set->accesses > 0 && set->ops < PROFILE_MEMORY_BOUND_OPS * set->accesses;
    double memory = user_memory(rc, set, cal);
    double original = rc->original + memory + launches(cal, 1, launch_items);
    /* a loop set's loop kernel is replayed in the rough unit (its own operations are counted
     * as the rough cost model counts, not measured in time): its original too */
    double rough = rc->original_rough > 0 && rc->has_loop_kernel
                       ? rc->original_rough + memory + launches(cal, 1, launch_items)
                       : original;
    for (int c = 0; c < NPLUS1RT_NCANDIDATES && n < PROFILE_MAX_CANDIDATES; c++) {
        if (!(set->carries & (1u << c)))
            continue;
        candidate_prediction *p = &out[n++];
        memset(p, 0, sizeof *p);
        p->cand = c;
        if (bound && c != NPLUS1RT_CAND_ORIGINAL) {
            char why[200];
            snprintf(why, sizeof why, "memory-bound: the kernel makes a memory access every "
                                      "%.1f operations, and the model counts operations, not "
                                      "memory traffic", set->ops / set->accesses);
            unknown(p, why);
            continue;
        }
        predict_one(rc, set, cal, launch_items, p);
        p->cost += p->known ? memory : 0;
        int loop = set->tile == 3 && c != NPLUS1RT_CAND_ORIGINAL && p->known &&
                   set->regroup != PROFILE_REGROUP_OFF;
        p->speedup = p->known && p->cost > 0 ? (loop ? rough : original) / p->cost : 0;
    }
    return n;
}

int profile_auto_first(const candidate_prediction *p, unsigned n)
{
    int best = -1, original = -1, split = -1;
    double bound = 0;
    for (unsigned i = 0; i < n; i++) {
        if (p[i].cand == NPLUS1RT_CAND_ORIGINAL)
            original = p[i].cand;
        if (p[i].cand == NPLUS1RT_CAND_SPLIT)
            split = p[i].cand;
        /* the prior weighs the split and the tile (the driver's predicted_split, _tile) */
        int weighed = p[i].cand == NPLUS1RT_CAND_SPLIT || p[i].cand == NPLUS1RT_CAND_TILE;
        if (weighed && p[i].known && p[i].speedup > bound) {
            bound = p[i].speedup;
            best = p[i].cand;
        }
    }
    if (bound >= PRIOR_GAIN)
        return best;
    return original >= 0 ? original : split;
}
