/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_profile_predict.c - the carried candidates' predictions
 * (common/profile_replay_cost.c) on hand-made replay costs, and the
 * calibration file's text (runtime/nplus1rt_format.h): each figure
 * computed by hand from the formulas in profile_replay_cost.c's head.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "profile_report.h"

#define ORIGINAL (1u << NPLUS1RT_CAND_ORIGINAL)
#define SPLIT (1u << NPLUS1RT_CAND_SPLIT)
#define AGGREGATED (1u << NPLUS1RT_CAND_AGGREGATED)
#define TILE (1u << NPLUS1RT_CAND_TILE)

/* The split's own buffers an item, in DRAM sectors: its leaf id (1 byte) and its index in
 * its bucket (4) each written and read back, coalesced: 10 bytes, by their bytes */
#define OWN (10.0 / PROFILE_SECTOR_BYTES)

/* A model whose kernel gaps cost 1 FMA-equivalent an item at 1000 items: fma_ns 1, 1 us. */
static nplus1rt_calibration model(void)
{
    nplus1rt_calibration c;
    memset(&c, 0, sizeof c);
    c.fma_ns = 1.0;
    c.word = 10.0;
    c.round = 50.0;
    c.launch_us = 1.0;
    return c;
}

static void only_carried_candidates(void)
{
    nplus1rt_calibration cal = model();
    replay_costs rc = {.original = 400, .split = 100, .tile = 150, .has_split = 1};
    profile_set set = {.known = 1, .carries = ORIGINAL | SPLIT, .launches = 3, .classifier = 20,
                       .ops = 1000};
    candidate_prediction p[PROFILE_MAX_CANDIDATES];
    unsigned n = profile_predict_candidates(&rc, &set, &cal, 1000, p);
    checkf(n == 2 && p[0].cand == NPLUS1RT_CAND_ORIGINAL && p[1].cand == NPLUS1RT_CAND_SPLIT,
           "a set of the original and the split gets exactly those two predictions (got %u)", n);
    /* original: 400; split: 100 + classifier 20 + its own 10 bytes (leaf id and index
     * written and read back, coalesced) + 2 gaps of 1 */
    double own = 10 / PROFILE_DRAM_BYTES_NS;
    check_near(p[0].cost, 400, "the original costs its replayed work (one kernel: no launch gap)");
    check_near(p[1].cost, 122 + own, "the split costs its leaves, the classifier, the leaf id "
                                     "and the bucket entry written and read back, and the gaps "
                                     "before its second and third kernels");
    check_near(p[1].speedup, 400.0 / (122 + own),
               "the split's speed-up is the original's cost over its own");
    checkf(profile_auto_first(p, n) == NPLUS1RT_CAND_SPLIT,
           "auto tries the split first when it predicts 2.8x (>= 1.25)");
}

static void tile_schedules(void)
{
    nplus1rt_calibration cal = model();
    replay_costs rc = {.original = 400, .split = 100, .tile = 150, .has_split = 1};
    profile_set set = {.known = 1, .carries = ORIGINAL | SPLIT | TILE, .tile = 1, .launches = 3,
                       .classifier = 20, .prologue = 30, .ops = 1000,
                       .regroup = 1};
    candidate_prediction p[PROFILE_MAX_CANDIDATES];
    unsigned n = profile_predict_candidates(&rc, &set, &cal, 1000, p);
    checkf(n == 3 && p[2].cand == NPLUS1RT_CAND_TILE, "a set with a tile kernel gets its tile "
           "predicted third (got %u)", n);
    /* plain tile: 150 + classifier 20 + prologue again 30 + round 50 + one word (the id) 10 */
    check_near(p[2].cost, 260, "the plain tile runs the prologue twice and regroups the ids");
    set.tile = 2;
    set.ctx_bytes = 16;
    profile_predict_candidates(&rc, &set, &cal, 1000, p);
    /* context tile: 150 + 20 + round 50 + 4 words 40 */
    check_near(p[2].cost, 260, "the context tile moves its 4 context words instead");
    set.ctx_bytes = 64;
    set.regroup = 1;
    profile_predict_candidates(&rc, &set, &cal, 1000, p);
    check_near(p[2].cost, 380, "a 64-byte context costs 16 words a round");
    set.regroup = 0;
    profile_predict_candidates(&rc, &set, &cal, 1000, p);
    check_near(p[2].cost, 420, "a context tile in place costs the original's work and its "
                               "classify phase, no round");
}

/* Each memory access a DRAM sector: the same in every candidate, so the gaps and rounds
 * weigh against the kernel's whole time. */
static void memory_accesses(void)
{
    nplus1rt_calibration cal = model();
    cal.fma_ns = PROFILE_SECTOR_BYTES / PROFILE_DRAM_BYTES_NS; /* an access: 1 an item */
    replay_costs rc = {.original = 400, .split = 100, .has_split = 1};
    profile_set set = {.known = 1, .carries = ORIGINAL | SPLIT, .launches = 3, .classifier = 20,
                       .ops = 1000, .accesses = 50};
    candidate_prediction p[PROFILE_MAX_CANDIDATES];
    profile_predict_candidates(&rc, &set, &cal, 1000, p);
    double gap = 1000.0 / cal.fma_ns / 1000; /* a launch gap an item */
    check_near(p[0].cost, 450, "the original costs its work and its 50 accesses");
    check_near(p[1].cost, 100 + 20 + OWN + 2 * gap + 50, "the split costs its schedule, its own "
                                                         "10 bytes and the same 50 accesses");
    check_near(p[1].speedup, 450 / (170 + OWN + 2 * gap),
               "the speed-up weighs both with the accesses");
    /* the classifier reads the decisions' inputs (3 accesses), which the leaves read again */
    rc.tile = 150;
    set.classifier_accesses = 3;
    set.carries |= TILE;
    set.tile = 2;
    set.ctx_bytes = 4;
    set.regroup = 1;
    profile_predict_candidates(&rc, &set, &cal, 1000, p);
    check_near(p[1].cost, 100 + 20 + 3 + OWN + 2 * gap + 50, "the split's classifier pays its "
                                                             "accesses too");
    check_near(p[2].cost, 150 + 20 + 3 + 50 + 10 + 50, "so does a context tile whose context is "
                                                        "the item's index alone");
    set.ctx_bytes = 16;
    profile_predict_candidates(&rc, &set, &cal, 1000, p);
    check_near(p[2].cost, 150 + 20 + 50 + 40 + 50, "a larger context carries what the classify "
                                                   "phase read: no access again");
}

/*
 * The leaves' accesses gathered by bucket (replay_costs.gather: the sectors the leaves touch
 * over the original's, by items a sector) and by regrouped item in the tile (gather_tile,
 * from the L2 at PROFILE_DRAM_BYTES_NS / PROFILE_L2_BYTES_NS of the DRAM's cost).
 */
static void gathered_accesses(void)
{
    nplus1rt_calibration cal = model();
    cal.fma_ns = PROFILE_SECTOR_BYTES / PROFILE_DRAM_BYTES_NS; /* an access: 1 an item */
    double gap = 1000.0 / cal.fma_ns / 1000;
    replay_costs rc = {.original = 400, .split = 100, .tile = 150, .has_split = 1,
                       .gather = {1, 1.5, 2, 3}, .gather_tile = {1, 1.2, 1.5, 2}};
    profile_set set = {.known = 1, .carries = ORIGINAL | SPLIT | TILE, .tile = 2, .ctx_bytes = 16,
                       .launches = 3, .classifier = 20, .ops = 1000, .accesses = 50,
                       .classifier_accesses = 10, .regroup = 1};
    candidate_prediction p[PROFILE_MAX_CANDIDATES];
    profile_predict_candidates(&rc, &set, &cal, 1000, p);
    check_near(p[1].cost, 100 + 20 + 10 + OWN + 2 * gap + 50, "a tree without the accesses' "
               "bytes (older) gathers nothing, all from the DRAM");
    set.access_bytes = 200; /* 4 bytes an access: 8 a sector, gather[3] */
    profile_predict_candidates(&rc, &set, &cal, 1000, p);
    /* 1000 items of 205 bytes (the set's own 5) fit the L2: the split's extra traffic from it */
    double l2 = PROFILE_DRAM_BYTES_NS / PROFILE_L2_BYTES_NS;
    check_near(p[1].cost, 100 + 20 + (10 + OWN + (3 - 1) * 50) * l2 + 2 * gap + 50,
               "the split's leaves touch 3 times the original's sectors: 2 more an access, from "
               "the L2 where the working set fits it");
    /* the tile's leaves: the 40 accesses besides the classifier's (a context of 16 bytes
     * carries what it read), twice the sectors, from the L2 */
    check_near(p[2].cost, 150 + 20 + 50 + 40 + 50 + (2 - 1) * 40 * l2,
               "the tile's regrouped leaves touch twice the sectors, from the L2");
    set.access_bytes = 800; /* 16 bytes an access */
    rc.accesses = 20;       /* the accesses the items' paths make, not classed: a sector each */
    profile_predict_candidates(&rc, &set, &cal, 1000, p);
    check_near(p[0].cost, 400 + 20, "the original pays the 20 accesses of the items' paths, "
                                    "not the kernel's 50 as written");
    check_near(p[1].cost, 100 + 20 + (10 + OWN) * l2 + 2 * gap + 20,
               "accesses a sector each in the original gather nothing more in the leaves");
    check_near(p[2].cost, 150 + 20 + 50 + 40 + 20, "nor in the tile's");
    /* a context tile in place: the original's work and the classify phase, unless the
     * kernel's memory outweighs its work (its items one after another: latency) */
    set.regroup = 0;
    profile_predict_candidates(&rc, &set, &cal, 1000, p);
    checkf(p[2].known && fabs(p[2].cost - (400 + 20 + 20)) < 1e-6,
           "in place, 20 accesses against 400 of work: the original's work, the classify "
           "phase and the accesses (got %g)", p[2].cost);
    rc.accesses = 500;
    profile_predict_candidates(&rc, &set, &cal, 1000, p);
    checkf(!p[2].known && strstr(p[2].why, "in place") != NULL,
           "in place, 500 accesses against 400 of work: cannot tell (%s)", p[2].why);
}

/*
 * The user's accesses by their coalescing class (replay_costs.coalesced, .coalesced_bytes,
 * .memory_bytes, from profile.tree's node classes): a coalesced access its bytes, a
 * broadcast one a sector a SIMD group, any other a sector; the leaves taken by bucket
 * gather only what coalesced (at most a sector an access).
 */
static void coalesced_accesses(void)
{
    nplus1rt_calibration cal = model();
    cal.fma_ns = PROFILE_SECTOR_BYTES / PROFILE_DRAM_BYTES_NS; /* a sector: 1 an item */
    double gap = 1000.0 / cal.fma_ns / 1000;
    double l2 = PROFILE_DRAM_BYTES_NS / PROFILE_L2_BYTES_NS;
    /* 20 accesses an item: 12 of 4 bytes coalesced (48 bytes), 4 broadcast (a sector for 32
     * items: 4 bytes), 4 a sector (128 bytes): 180 bytes, 5.625 sectors */
    replay_costs rc = {.original = 400, .split = 100, .tile = 150, .has_split = 1,
                       .gather = {1, 1.5, 2, 3}, .gather_tile = {1, 1.2, 1.5, 2},
                       .accesses = 20, .coalesced = 12, .coalesced_bytes = 48,
                       .memory_bytes = 180};
    profile_set set = {.known = 1, .carries = ORIGINAL | SPLIT | TILE, .tile = 2, .ctx_bytes = 4,
                       .launches = 3, .classifier = 20, .ops = 1000, .accesses = 50,
                       .classifier_accesses = 2, .access_bytes = 200, .regroup = 1};
    candidate_prediction p[PROFILE_MAX_CANDIDATES];
    profile_predict_candidates(&rc, &set, &cal, 1000, p);
    double mem = 180 / PROFILE_SECTOR_BYTES, reads = 2 * 9 / PROFILE_SECTOR_BYTES;
    check_near(p[0].cost, 400 + mem, "the original pays its accesses by their class: 180 bytes, "
                                     "not 20 sectors");
    /* the leaves: the 4-byte coalesced accesses gather 3 a sector: 96 bytes more */
    check_near(p[1].cost, 100 + 20 + (reads + OWN + 96 / PROFILE_SECTOR_BYTES) * l2 + 2 * gap + mem,
               "the split's leaves gather what coalesced (3 times its 48 bytes), and the "
               "classifier's 2 reads cost the paths' mean 9 bytes each");
    check_near(p[2].cost, 150 + 20 + reads + 50 + 10 + mem + 48 / PROFILE_SECTOR_BYTES * l2,
               "the tile's leaves gather twice what coalesced, from the L2");
    rc.coalesced_bytes = 96; /* 8 bytes each: gather[2], 2 a sector */
    rc.memory_bytes = 228;
    profile_predict_candidates(&rc, &set, &cal, 1000, p);
    mem = 228 / PROFILE_SECTOR_BYTES;
    reads = 2 * 11.4 / PROFILE_SECTOR_BYTES;
    check_near(p[1].cost, 100 + 20 + (reads + OWN + 96 / PROFILE_SECTOR_BYTES) * l2 + 2 * gap + mem,
               "8-byte coalesced accesses gather twice their bytes");
    /* memory-bound: the accesses outweigh the work, and the leaves gather: cannot tell */
    rc.original = 5;
    profile_predict_candidates(&rc, &set, &cal, 1000, p);
    checkf(p[0].known && !p[1].known && strstr(p[1].why, "memory-bound split") != NULL,
           "a split whose kernel's accesses outweigh its work, and whose leaves gather what "
           "coalesced, cannot tell (%s)", p[1].why);
    rc.coalesced = rc.coalesced_bytes = 0;
    rc.memory_bytes = 20 * PROFILE_SECTOR_BYTES;
    /* (a launch of 1M items: its gaps, 300 an item over 1000, would outweigh this short
     * kernel's 25, short_kernel below) */
    profile_predict_candidates(&rc, &set, &cal, 1000000, p);
    checkf(p[1].known, "nor one whose leaves gather nothing more (every access a sector)");
}

/*
 * The split's passes as the generated set runs them: the counting pass's whole classifier
 * slice (split_classifier, where a context set's classifier leaves out its prologue), a
 * ranking in the counting and the scatter pass, and the extra traffic from the DRAM for the
 * share of the working set past the L2.
 */
static void split_passes_charged(void)
{
    nplus1rt_calibration cal = model();
    cal.fma_ns = PROFILE_SECTOR_BYTES / PROFILE_DRAM_BYTES_NS; /* an access: 1 an item */
    cal.rank_atomic4 = 30;
    double gap = 1000.0 / cal.fma_ns / 1000;
    replay_costs rc = {.original = 400, .split = 100, .has_split = 1};
    profile_set set = {.known = 1, .carries = ORIGINAL | SPLIT, .launches = 3, .classifier = 2,
                       .split_classifier = 300, .ops = 1000};
    candidate_prediction p[PROFILE_MAX_CANDIDATES];
    profile_predict_candidates(&rc, &set, &cal, 1000, p);
    check_near(p[1].cost, 100 + 300 + 2 * 30 + OWN + 2 * gap,
               "the counting pass runs the whole slice (300, not the context tile's 2) and "
               "each pass ranks every item (two rankings of 30)");
    set.accesses = 1;
    set.access_bytes = 4;
    unsigned long long items = 20000000; /* 20M items of 9 bytes: 180 MB, 50 past the L2 */
    double past = (180e6 - PROFILE_L2_BYTES) / 180e6;
    double l2 = PROFILE_DRAM_BYTES_NS / PROFILE_L2_BYTES_NS;
    profile_predict_candidates(&rc, &set, &cal, items, p);
    double gaps = 2 * 1000.0 / cal.fma_ns / (double)items;
    check_near(p[1].cost, 100 + 300 + 60 + OWN * (past + (1 - past) * l2) + gaps + 1,
               "the set's own bytes from the DRAM for the working set's share past the L2");
    /* the set's own buffers coalesce: 10 bytes an item, not a sector for each of its four
     * accesses (what the user's accesses, unseen, are charged) */
    set.accesses = 0;
    profile_predict_candidates(&rc, &set, &cal, 1000, p);
    check_near(p[1].cost, 100 + 300 + 60 + 10 / PROFILE_SECTOR_BYTES + 2 * gap,
               "the leaf id and the bucket's index written and read back cost their 10 bytes, "
               "a third of one sector, not four sectors");
}

static void loop_sets_and_unknowns(void)
{
    nplus1rt_calibration cal = model();
    replay_costs rc = {.original = 1000, .split = 300, .has_split = 1, .has_loop_kernel = 1,
                       .loop_kernel = 780};
    profile_set set = {.known = 1, .carries = ORIGINAL | SPLIT | TILE, .tile = 3,
                       .ctx_bytes = 8, .ops = 1000, .regroup = 1};
    candidate_prediction p[PROFILE_MAX_CANDIDATES];
    unsigned n = profile_predict_candidates(&rc, &set, &cal, 1000, p);
    /* the loop kernel: its replayed schedule (one kernel: no launch gap), never the split's */
    check(n == 3, "a loop set carries the original, its split and its tile");
    check_near(p[1].cost, 780, "a loop set's split runs the loop kernel: its replayed schedule");
    check_near(p[2].cost, 780, "... and so does its tile");
    check_near(p[1].speedup, 1000.0 / 780, "the loop kernel against the original");
    rc.original_rough = 900; /* the original without its math builtins' time */
    profile_predict_candidates(&rc, &set, &cal, 1000, p);
    check_near(p[1].speedup, 900.0 / 780, "the loop kernel, replayed in the rough unit, against "
                                          "the original in that unit");
    check_near(p[0].speedup, 1, "the original itself: 1x");
    rc.original_rough = 0;
    set.regroup = 0;
    profile_predict_candidates(&rc, &set, &cal, 1000, p);
    check_near(p[2].cost, 780, "a loop kernel that never regroups: its schedule too (refill)");
    /* the kernel's own costs from the calibration: per iteration, per item taken, per round */
    loop_kernel_params lk;
    memset(&lk, 0, sizeof lk);
    cal.rank_atomic4 = 30;
    profile_loop_kernel_costs(&set, &cal, 2, &lk);
    check(lk.regroup == 0 && lk.round_cost == 0 && lk.move_cost == 0,
          "policy 0: no round, no move");
    check_near(lk.iter_cost, 21 + 2, "policy 0: 21 operations an iteration and a compare a group");
    check_near(lk.take_cost, 8 + 30, "an item taken: 8 operations and a local atomic");
    set.regroup = 1;
    profile_loop_kernel_costs(&set, &cal, 4, &lk);
    check_near(lk.iter_cost, 33 + 4, "rounds: 33 operations an iteration and a compare a group");
    check_near(lk.round_cost, 50, "rounds: the calibration's round a lane");
    check_near(lk.move_cost, 20, "rounds: an 8-byte context moves 2 words");
    /* a loop that reads memory every few operations an iteration: cannot tell */
    set.loop_accesses = 4;
    set.loop_ops = 40;
    profile_predict_candidates(&rc, &set, &cal, 1000, p);
    check(p[0].known && !p[1].known && strstr(p[1].why, "memory-bound loop"),
          "a loop body under 16 operations a memory access: the loop kernel cannot be told");
    set.loop_ops = 64;
    profile_predict_candidates(&rc, &set, &cal, 1000, p);
    check(p[1].known, "16 operations an access: told");
    set.tile = 4; /* the state machine: no replay of its rounds */
    profile_predict_candidates(&rc, &set, &cal, 1000, p);
    check(p[0].known && !p[1].known && strstr(p[1].why, "state machine"),
          "a machine set's candidates cannot be told (its rounds are not in the model)");
    set.tile = 3;
    set.regroup = 1;
    rc.has_loop_kernel = 0;
    profile_predict_candidates(&rc, &set, &cal, 1000, p);
    check(!p[1].known && strstr(p[1].why, "no replay of its loop kernel"),
          "without a predicted loop the loop set's candidates cannot be told");
    set.tile = 0;
    set.carries = ORIGINAL | SPLIT;
    set.accesses = 100; /* 10 operations an access: memory-bound */
    n = profile_predict_candidates(&rc, &set, &cal, 1000, p);
    check(p[0].known && !p[1].known && strstr(p[1].why, "memory-bound"),
          "a kernel under 16 operations a memory access: the split cannot be told");
    checkf(profile_auto_first(p, n) == NPLUS1RT_CAND_ORIGINAL,
           "auto tries the original first when nothing is predicted");
    set.carries = 0;
    check(profile_predict_candidates(&rc, &set, &cal, 1000, p) == 0,
          "a kernel without a generated set gets no prediction");
}

static void calibration_text(void)
{
    nplus1rt_calibration c, back;
    nplus1rt_calibration_defaults(&c);
    snprintf(c.device, sizeof c.device, "NVIDIA | H200 | 570 | OpenCL 3.0");
    char text[2048];
    nplus1rt_calibration_format(&c, text, sizeof text);
    const char *why = "";
    check(nplus1rt_calibration_parse(text, &back, &why) == 0 && back.word == c.word &&
              back.round == c.round && !strcmp(back.device, c.device) &&
              back.rank_match4 == c.rank_match4,
          "a calibration's text reads back as the same figures");
    char bad[2048];
    snprintf(bad, sizeof bad, "%s", text);
    *strstr(bad, "word ") = 'x';
    check(nplus1rt_calibration_parse(bad, &back, &why) != 0 && strstr(why, "(word)"),
          "a damaged line is refused, naming the figure");
    check(nplus1rt_calibration_parse("nplus1-choice-cache 1\n", &back, &why) != 0 &&
              strstr(why, "not a calibration"),
          "another cache file is not a calibration");
    check(nplus1rt_rank_by_match(&c, 4) && nplus1rt_rank_by_match(&c, 8) &&
              !nplus1rt_rank_by_match(&c, 16) && !nplus1rt_rank_by_match(&c, 32),
          "the defaults rank by a warp match up to 8 leaves and by local atomics at 16 and more");
    c.rank_match4 = c.rank_match16 = -1;
    check(!nplus1rt_rank_by_match(&c, 2), "no warp match on the device: local atomics");
}

/*
 * A kernel whose modeled time (its work and its bytes) is under the split's launch gaps: the
 * split cannot tell (a launch that short is bound by its latency); the tile, one launch, can.
 */
static void short_kernel(void)
{
    nplus1rt_calibration cal = model(); /* a gap of 1000 units over 1000 items: 1 an item */
    replay_costs rc = {.original = 1.2, .split = 1, .tile = 1, .has_split = 1};
    profile_set set = {.known = 1, .carries = ORIGINAL | SPLIT | TILE, .tile = 1, .launches = 3,
                       .classifier = 0.1, .ops = 1000, .regroup = 1};
    candidate_prediction p[PROFILE_MAX_CANDIDATES];
    profile_predict_candidates(&rc, &set, &cal, 1000, p);
    checkf(p[0].known && !p[1].known && strstr(p[1].why, "short kernel") != NULL && p[2].known,
           "the split's two gaps (2) over a kernel of 1.2 cannot tell, the tile can (%s)",
           p[1].why);
    rc.original = 2.5;
    profile_predict_candidates(&rc, &set, &cal, 1000, p);
    checkf(p[1].known, "a kernel of 2.5 against the same gaps can");
}

int main(void)
{
    only_carried_candidates();
    tile_schedules();
    memory_accesses();
    gathered_accesses();
    coalesced_accesses();
    split_passes_charged();
    short_kernel();
    loop_sets_and_unknowns();
    calibration_text();
    return check_summary("the carried candidates' predictions and the calibration's text");
}
