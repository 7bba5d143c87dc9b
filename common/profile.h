/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile.h - the divergence profile (nplus1gen --profile): how much a
 * kernel's SIMD groups diverge on the validation inputs, where, and what a
 * split would gain.
 *
 *   profile_tree.c    the kernel's structured control flow (decisions and
 *                     loops) with the cost model's cost of every region
 *   profile_emit.c    the instrumented copy of the original: each item
 *                     records its path (a token per decision and loop test)
 *   profile_replay.c  groups of W items replayed in lock-step on that tree
 *   profile_job.c     the tree as text (the job's profile.tree), the layout,
 *                     the recording read back
 *   profile_report.c  the replays' report, printed and as JSON
 *   profile_loop.c    the prediction for a regrouped loop (profile_loop.h)
 *   profile_loop_kernel.c  the loop kernel's schedule replayed (profile_loop.h)
 *   profile_cmd.c     the command: the job, the run (nplus1gen-validate
 *                     records, replays and reports), the pictures
 *   profile_map.c     --profile-map: the pictures of a launch (tool only:
 *                     libpng; canvas.c draws them)
 *   profile_html.c    --profile-html: the page (tool only)
 *
 * profile_replay.c, profile_job.c, profile_report.c, profile_loop.c and
 * profile_loop_kernel.c (with util.c) are
 * the library nplus1prof: plain C, no libclang, linked by nplus1gen and by
 * nplus1gen-validate, which runs profile jobs on a machine without libclang.
 *
 * The path of one item is a string of tokens in execution order: an if
 * gives 1 (then) or 2 (else), a switch the 1-based index of the case entry
 * it jumps to (entries in source order, default included), a loop test 2
 * (one more iteration) or 1 (leave). break, continue and return record
 * nothing: the tree knows where they are. A helper that holds a decision or
 * a loop records its tokens where it runs: the tree holds its body at each
 * call (PN_CALL), its return a PN_LEAVE.
 */
#ifndef NPLUS1_PROFILE_H
#define NPLUS1_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#define PROFILE_MAX_WIDTH 64
#define PROFILE_MAX_ARMS 250   /* case entries of one switch */

typedef enum pnode_kind {
    PN_WORK, PN_IF, PN_SWITCH, PN_LOOP, PN_BREAK, PN_CONTINUE, PN_RETURN,
    PN_CALL,    /* a helper's body where it is called (arms[0]); records nothing itself */
    PN_LEAVE    /* a helper's return: on after the innermost PN_CALL */
} pnode_kind;

/* Where a loop tests: while/for before each iteration, do after, for(;;) never. */
typedef enum loop_test { LOOP_PRE, LOOP_POST, LOOP_NONE } loop_test;

struct pnode;

typedef struct pseq {
    struct pnode *v;
    unsigned n, cap;
} pseq;

typedef struct pnode {
    pnode_kind kind;
    double cost;              /* WORK: its cost; IF, SWITCH, LOOP: the condition's */
    double accesses;          /* its memory accesses, counted as its cost is (a tree without
                               * them: 0) */
    /* of those, by how the hardware serves them (tool/analyze/traffic.h; a tree without
     * them: 0, every access a sector): the accesses that coalesce and the bytes they move per
     * item, and those at one address for a row of items (broadcast) */
    double coalesced, coalesced_bytes, broadcast;
    double math;              /* the part of cost that weighs math builtins and divisions at
                               * their time (effects.math; 0 in a tree without it) */
    double init_cost;         /* LOOP: a for's init */
    double step_cost;         /* LOOP: a for's increment */
    loop_test test;           /* LOOP */
    unsigned construct;       /* IF, SWITCH, LOOP: index in ptree.c */
    pseq *arms;               /* IF: then, else; SWITCH: the entries; LOOP, CALL: the body */
    unsigned narms;
} pnode;

/* A decision or a loop, for the report. */
typedef struct pconstruct {
    pnode_kind kind;          /* PN_IF, PN_SWITCH or PN_LOOP */
    const char *what;         /* "if", "switch", "for", "while", "do" */
    unsigned line;
    unsigned narms;           /* tokens: if 2, switch its entries, loop 2 (leave, stay) */
    int parent;               /* the enclosing construct, -1 at the top */
    int split;                /* the n+1 split (and tile) regroup items by it */
    int divergence;           /* div_class from the analysis, -1 when it has none */
    unsigned offset;          /* where it starts in the input file */
    /* in a helper the kernel calls (recorded at each call: one construct per call) */
    char helper[64];          /* the helper's name, "" in the kernel's own body */
    unsigned call_line;       /* the line of the call that runs it */
} pconstruct;

typedef struct ptree {
    pseq top;
    pconstruct *c;
    unsigned nc, capc;
} ptree;

void ptree_free(ptree *t);

/* One item's recorded path. */
typedef struct ptrace {
    const unsigned char *tok;
    unsigned n;
} ptrace;

/* Per construct, what the replay saw. */
typedef struct pcstats {
    double lost;              /* lane work idle because of it (see docs/cli.md) */
    unsigned long long reached;  /* groups where it ran */
    unsigned long long diverged; /* groups where its lanes went different ways */
    unsigned long long *arm_items; /* item executions per arm (narms) */
    double lane_iters;        /* LOOP: iterations the lanes ran */
    double issued_iters;      /* LOOP: iterations the groups ran, times their lanes */
    double useful_in, issued_in; /* lane work done / issued while it is the innermost
                                  * construct running (its arms, a loop's test and body) */
} pcstats;

typedef struct pstats {
    double useful, issued;    /* lane work done / lane work the groups issued */
    double accesses;          /* the memory accesses the lanes made (pnode.accesses) */
    double coalesced, coalesced_bytes, broadcast; /* of those, by class (pnode's) */
    int rough;                /* set before the replay: each node issues its cost without its
                               * math (the loop kernel's unit, profile_loop_kernel.c) */
    double lost_top;          /* idle after a return at the top level */
    unsigned long long groups, items;
    unsigned nc;
    pcstats *c;
    int bad_trace;            /* a path ended early or held a token the tree has not */
} pstats;

void pstats_init(pstats *s, const ptree *t);
void pstats_free(pstats *s);

/* useful / issued, 1 when nothing was issued. */
double pstats_efficiency(const pstats *s);

/*
 * Replays n items in lock-step: groups of at most width consecutive items
 * of order (NULL: 0..n-1); a group also ends where seg (NULL: none)
 * changes. Adds to s. Returns 0, or -1 when width is not 1..64.
 */
int profile_replay(const ptree *t, const ptrace *items, const size_t *order, const unsigned *seg,
                   size_t n, unsigned width, pstats *s);

/*
 * The tokens of the decisions marked split, in the order one item takes
 * them: the leaf the item goes to. Writes at most cap bytes to key; returns
 * the key's length (bytes past cap are dropped).
 */
unsigned profile_leaf_key(const ptree *t, const ptrace *item, unsigned char *key, unsigned cap);

/* Where the recording goes: see profile_emit.c. */
typedef struct profile_layout {
    unsigned unit;            /* items sampled together (consecutive linear ids) */
    unsigned every;           /* one unit in this many is recorded */
    unsigned units;           /* units recorded */
    unsigned slot;            /* bytes per item: a uint count, then the tokens */
} profile_layout;

#endif
