/* SPDX-License-Identifier: Apache-2.0 */
/*
 * analyze.h - the analyze stage: per kernel, the condition tree (decisions,
 * their branches, the statements around them), the effects of every
 * statement, and the legality verdict. Pure data out; problems go through
 * the diagnostics module.
 */
#ifndef NPLUS1_ANALYZE_H
#define NPLUS1_ANALYZE_H

#include <clang-c/Index.h>

#include "parse.h"

/* Effects of a statement or expression (bits). */
enum {
    EFF_MEM_WRITE = 1u << 0,   /* store through a pointer, vstore, write_image */
    EFF_ATOMIC = 1u << 1,      /* atomic_* / atom_* */
    EFF_PRINTF = 1u << 2,
    EFF_BARRIER = 1u << 3,     /* barrier, work_group_barrier, *mem_fence */
    EFF_LOCAL_MEM = 1u << 4,   /* __local variable */
    EFF_LOCAL_ID = 1u << 5,    /* get_local_id, get_group_id, ... */
    EFF_GROUP_FN = 1u << 6,    /* work_group_*, sub_group_*, async copies */
    EFF_MEM_READ = 1u << 7,    /* load through a pointer (not __constant/restrict) */
    EFF_LOCAL_WRITE = 1u << 8, /* assigns a local variable */
    EFF_WORKITEM = 1u << 9,    /* get_global_id/size/offset, get_work_dim */
    EFF_UNSUPPORTED = 1u << 10,/* goto, recursion, ... */
    EFF_COUNT = 11
};
#define EFF_OBSERVABLE (EFF_MEM_WRITE | EFF_ATOMIC | EFF_PRINTF)
#define EFF_FORBIDDEN (EFF_BARRIER | EFF_LOCAL_MEM | EFF_LOCAL_ID | EFF_GROUP_FN | EFF_UNSUPPORTED)

/* A half-open byte range [begin, end) in one loaded file. */
typedef struct src_range {
    unsigned file;
    unsigned begin, end;
    unsigned line;        /* line of begin */
    unsigned end_line;
} src_range;

/* Where one effect was first seen, and through which call (helpers). */
typedef struct effect_site {
    CXCursor at;          /* the offending construct */
    CXCursor via;         /* call in the analysed code that leads there, or null */
} effect_site;

typedef struct effects {
    unsigned bits;
    effect_site site[EFF_COUNT];
    CXCursor *reads;      /* local variables and parameters read (decl cursors) */
    unsigned nreads, capreads;
    CXCursor *writes;     /* local variables written or declared */
    unsigned nwrites, capwrites;
    CXCursor hidden_exit; /* a return/break/continue nested inside, or null */
    double cost;          /* rough operation count */
    double math;          /* the profile's correction of cost for math builtins: what they
                           * take on a GPU (analyze_builtin_time) less what cost counts, and
                           * less a call computed already on the same values (math_once.c:
                           * negative where that outweighs) */
    /* helper summaries: bit p set when the helper stores (loads) through its pointer
     * parameter p; a call turns them into writes of the caller's private variables
     * (an argument '&t') or into memory effects (any other pointer) */
    unsigned param_writes, param_reads;
    CXCursor param_store; /* the first store through a parameter, or null */
    /* memory accesses, for the memory-order rule (rules_slice.c): the lvalue stored to and the
     * expression loaded from (p[i].f, *q, ...), or the call that does it */
    CXCursor *stores;
    unsigned nstores, capstores;
    CXCursor *loads;
    unsigned nloads, caploads;
    /* loads through a `restrict` parameter: no store of the kernel reaches what they read, so
     * the memory-order rule needs no record of them (nor EFF_MEM_READ); they move memory all
     * the same, and the cost figures count them (effects_accesses) */
    CXCursor *restrict_loads;
    unsigned nrestrict_loads, caprestrict_loads;
    /* the pure math builtins called on values fixed for the work-item (math_once.c), each
     * once: their key and what one call takes (cost and math). A call whose key is here
     * already takes its time back from math (the compiler computes it once); a helper's
     * keys name its parameters ($0$), which its call sites replace with their arguments */
    struct math_call *once;
    unsigned nonce, caponce;
} effects;

typedef struct math_call {
    char *key;   /* the builtin and its arguments' values: "cos(@v12.w)" */
    double time; /* what one call adds to effects.cost and effects.math together */
} math_call;

/* An empty effects (no bits, null sites); effects_free releases one, merge_effects joins two. */
void effects_init(effects *fx);
void effects_free(effects *fx);
void merge_effects(effects *into, const effects *from);
/* The memory accesses fx makes per item, for the cost figures (the profile's accesses, the
 * classifier's reads): its loads and stores and its loads through `restrict` parameters.
 * __constant loads are not counted (a table the constant cache serves). */
double effects_accesses(const effects *fx);
/* The bytes those accesses move per item: each one's type (a helper's call, whose accesses
 * are not seen here: 4), the profile's memory model (docs/cli.md). */
double effects_access_bytes(const effects *fx);

/* May a store to the access w change what the access r loads? (Distinct fields of one struct do not.) */
int accesses_may_alias(CXCursor w, CXCursor r);

typedef enum item_kind { ITEM_STMT, ITEM_DECISION, ITEM_RETURN, ITEM_BREAK } item_kind;

struct decision;

typedef struct seq_item {
    item_kind kind;
    CXCursor cursor;
    src_range range;          /* includes the trailing ';' */
    struct decision *decision;
    /*
     * Its effects. A decision's (in a kernel's tree): those of the whole
     * statement (conditions and every branch, reads, writes, cost, and a
     * return or break that leaves it), what the plan counts when the
     * decision stays in the leaves as one plain statement.
     */
    effects fx;
    unsigned id;              /* pre-order number in its kernel's tree (kernel_info.nitems) */
} seq_item;

typedef struct seq {
    seq_item *items;
    unsigned n;
} seq;

typedef enum branch_kind {
    BR_IF, BR_ELSE, BR_IMPLICIT_ELSE, BR_CASE, BR_DEFAULT, BR_IMPLICIT_DEFAULT
} branch_kind;

typedef struct branch {
    branch_kind kind;
    src_range cond;          /* BR_IF: the condition, inside the parentheses */
    CXCursor cond_cursor;
    src_range body;          /* BR_IF / BR_ELSE: the statement */
    seq seq;                 /* what runs when the branch is taken */
    long long *values;       /* BR_CASE: the case values of this entry */
    unsigned nvalues;
    char **labels;           /* BR_CASE: each label's expression as written ("SEL", "A ... B") */
    unsigned nlabels;
    int macro_labels;        /* a label's value comes from a macro: emit the labels as written */
    int folded_label;        /* a macro writes a whole label: the values, as folded, are emitted */
} branch;

typedef enum decision_kind { DEC_IF, DEC_SWITCH } decision_kind;

/*
 * An input a decision's condition depends on (divergence.c), as --arg names
 * it: a field of a buffer's elements "shapes[].type", a buffer "sel[]", a
 * scalar argument "n", a field of a struct value "p.gain", an image "img".
 */
typedef struct cond_input {
    char *name;
    char *indexed_by;        /* the inputs its index reads, ","-joined, or NULL */
} cond_input;

/* Adds an input to *v unless one of that name is there (then its indices join). */
void cond_inputs_add(cond_input **v, unsigned *n, const char *name, const char *indexed_by);
void cond_inputs_free(cond_input *v, unsigned n);

/* How a decision's condition varies across the work-items (divergence.h); ordered: the
 * join of two classes is the larger. */
typedef enum div_class { DIV_UNIFORM = 0, DIV_AFFINE = 1, DIV_DATA = 2 } div_class;

/* "uniform", "affine", "data". */
const char *div_class_name(div_class c);

typedef struct decision {
    decision_kind kind;
    CXCursor cursor;
    src_range range;
    src_range cond;           /* DEC_SWITCH: the controlling expression */
    CXCursor cond_cursor;
    effects cond_fx;          /* all conditions together */
    branch *branches;
    unsigned nbranches;
    seq body;                 /* DEC_SWITCH: the body's statements, flattened */
    long long default_value;  /* DEC_SWITCH: a value no case matches */
    int has_default_value;
    int macro_labels;         /* DEC_SWITCH: some branch's macro_labels (the values may change) */
    unsigned id;              /* pre-order number in its kernel's tree (kernel_info.ndecisions):
                               * the plan's per-decision data is indexed by it */
    div_class divergence;     /* divergence.c (run by analyze_tu): class of the condition(s) */
    char divergence_why[200]; /* divergence.c: the value that makes it so */
    cond_input *inputs;       /* divergence.c: the inputs the condition(s) depend on, */
    unsigned ninputs;         /* in branch order: a path through branch b reads the */
    unsigned *inputs_upto;    /* first inputs_upto[b] (the conditions before it and its own) */
} decision;

typedef struct kernel_param {
    char *name;
    char *decl_text;          /* as written: "__global const float *restrict x" */
    char *type_text;          /* canonical, no address space: "const float *" */
    char *host_type;          /* "cl_mem", "cl_int", "cl_float4", ... */
    int is_pointer;
    int is_constant_space;    /* __constant */
    int writable;
    int elem;                 /* nplus1rt_elem of the element or scalar */
    unsigned lanes;
    unsigned size;            /* value size, or element size for pointers */
    int is_restrict;
    struct param_field *fields; /* structs (buffers, values): the scalar fields, for inputs */
    unsigned nfields;
    int is_struct;            /* a struct passed by value: host_type points to host_struct */
    char *struct_tag;         /* its host struct's tag, "nplus1_Camera" */
    char *host_struct;        /* its host declaration: cl_ types, explicit padding */
    int is_image;             /* image1d_t ... image2d_array_t: cl_mem */
    int is_sampler;           /* sampler_t: cl_sampler */
    char *image_kind;         /* "image2d", "image1d_buffer", ... */
} kernel_param;

/* One scalar field (or array of them) inside a struct buffer's element. */
typedef struct param_field {
    char *name;               /* its path: "origin", "in.uv", "w[2]" */
    unsigned offset;          /* bytes from the element's start */
    int elem;                 /* nplus1rt_elem */
    unsigned count;           /* consecutive scalars: arrays, vector lanes */
} param_field;

/*
 * A loop statement at a kernel's top level, or at the top level of a branch of
 * a top-level decision: its body's tree, built by the analyze stage for the tile
 * kernel's loop shape (loop.h), which regroups the items at a decision of that body. The decisions at the body's top level are
 * classified (divergence.h), a value the loop carries from one iteration to
 * the next counting as data (loop_tree.c).
 */
typedef struct loop_tree {
    unsigned item;            /* index of the loop statement in its sequence (kernel_info.top,
                               * or the branch's) */
    CXCursor stmt;            /* the loop statement */
    int ok;                   /* the body is a braced block read without errors and without
                               * a decision a macro writes (else body may be partial) */
    seq body;                 /* the body's statements (not numbered: ids are 0) */
} loop_tree;

struct ir_kernel;

/*
 * A macro the generated copy of a kernel's (or helper's) text uses and that the
 * kernel's file changes after it (#undef, or a #define of the same name): the
 * generated code, which follows the whole original text, gets it back as it was
 * (macro_restore.c).
 */
typedef struct macro_restore {
    char *name;
    char *at;                 /* its definition at the kernel: "NAME body", "NAME(a) body";
                               * NULL when it comes from the command line (cmdline) */
    int cmdline;              /* defined by a -D: no text to restore from; the generated file
                               * saves it in its head (#pragma push_macro) and takes it back
                               * (pop, then push again) before the kernel's text, so a -D of
                               * the build, not only the generation's, reaches the copies */
    char *after;              /* at the end of the kernel's file; NULL: undefined there */
    src_pos where;            /* the definition at the kernel (a user file) */
    src_pos *changes;         /* the #define / #undef lines after the kernel, in order */
    unsigned nchanges;
} macro_restore;

typedef struct macro_restores {
    macro_restore *v;         /* in order of first use */
    unsigned n, cap;
} macro_restores;

typedef struct kernel_info {
    char *name;
    CXCursor cursor;
    src_range range;          /* the whole function */
    src_range body;           /* the compound statement */
    kernel_param *params;
    unsigned nparams;
    seq top;
    unsigned nitems;          /* items of top's tree, every level (seq_item.id) */
    unsigned ndecisions;      /* decisions of top's tree, every level (decision.id) */
    unsigned reqd_wg[3];      /* reqd_work_group_size, zeros if none */
    unsigned linear_ids;      /* get_group_id(d) * get_local_size(d) + get_local_id(d) sums
                               * (legality.c): the generated kernels compute them from the
                               * original's global id (kernel.cl.tmpl, ids-from-wi) */
    unsigned linear_id_line;  /* the first one's line */
    char *attr_text;          /* attributes to keep on the classifier, or "" */
    int has_decision;
    unsigned loop_only;       /* analyze_tu_loops: no top-level decision, an if or switch
                               * inside a loop at this line (0: not such a kernel) */
    int loop_kept;            /* kept only for its loop (not named by -k, no top-level
                               * decision): its diagnostics are recorded in blockers, not
                               * printed; the plan replays them (--strategy tile, where the
                               * loop kernel is the set) or leaves it alone (plan.h) */
    diag_sink *blockers;      /* loop_kept: its diagnostics, recorded (plan.c) */
    int legal;                /* no errors reported for this kernel */
    loop_tree *loops;         /* legal kernels with a decision (or loop_only): the loops */
    unsigned nloops, caploops; /* at the top level, in order (loop_tree.c) */
    struct ir_kernel *ir;     /* legal kernels: the IR (ir.h), built by analyze_tu; owned */
    macro_restores restores;  /* the macros its generated text must get back (macro_restore.c) */
} kernel_info;

/* A helper function that (transitively) calls a work-item builtin. */
typedef struct wi_helper {
    char *name;
    CXCursor cursor;
    src_range range;          /* the definition */
    unsigned name_begin, name_end;   /* the name in the text */
    unsigned lparen;          /* offset of '(' of the parameter list */
    unsigned nparams;
    macro_restores restores;  /* as a kernel's, for the helper's copy */
} wi_helper;

typedef struct analysis {
    parse_result *pr;
    kernel_info *kernels;
    unsigned nkernels, capkernels;
    wi_helper *helpers;
    unsigned nhelpers, caphelpers;
    char **skipped;           /* kernels left alone: no decision (default selection) */
    unsigned nskipped, capskipped;
    unsigned *skipped_loop_line; /* per skipped kernel: line of an if/switch inside a loop, or 0 */
    unsigned capskippedlines;
    void *summaries;          /* private: memoised helper-function effects (effects.c), made
                               * by analyze_tu; a memo, so a const analysis may fill it */
    void *stmt_ranges;        /* private: memoised statement ranges (syntax.c's stmt_range),
                               * made by analyze_tu; a memo, as summaries */
    int loops;                /* analyze_tu_loops: keep kernels whose decisions sit in loops */
} analysis;

/*
 * Finds the kernels named in want (all when nwant is 0), builds each one's
 * condition tree, numbers it, classifies the divergence of its decisions
 * (when legal) and decides legality. Later stages read it and do not write
 * the tree (the plan keeps its own per-decision data, plan.h). Returns 0 when every selected
 * kernel can be transformed, 1 otherwise (diagnostics reported).
 */
int analyze_tu(analysis *an, parse_result *pr, const char **want, unsigned nwant,
               diag_sink *diag);
/* analyze_tu; with loops (nonzero), a kernel whose decisions all sit inside loops is kept
 * too, its loop_only set, for the plan to regroup its loop (loop.h). One not selected by name
 * is analyzed quietly (loop_kept, its diagnostics in blockers): whether its refusals are
 * errors depends on the strategy, which the plan reads, not the analysis. */
int analyze_tu_loops(analysis *an, parse_result *pr, const char **want, unsigned nwant,
                     int loops, diag_sink *diag);
/* analyze_tu_loops, leaving out the kernels named in skip[0..nskip) as if not selected
 * (--skip-refused: main.c found them refused). When every selected kernel is left out,
 * an->nkernels is 0 and it returns 0: nothing to transform, nothing wrong. */
int analyze_tu_skip(analysis *an, parse_result *pr, const char **want, unsigned nwant,
                    const char **skip, unsigned nskip, int loops, diag_sink *diag);
void analyze_free(analysis *an);

/* Describes k's parameters (k->params) for the driver and the manifest; the number
 * of errors reported (a parameter the driver cannot pass). The profile command asks it
 * of kernels the analysis did not select. */
int analyze_params(const analysis *an, kernel_info *k, diag_sink *diag);
/* Frees what analyze_params made (k->params); k has no parameters after. */
void analyze_params_free(kernel_info *k);

/* The tree of the loop statement k->top.items[item], or NULL when analyze built none. */
const loop_tree *kernel_loop_tree(const kernel_info *k, unsigned item);
/* The tree of the loop statement stmt (top level, or a top-level decision's branch). */
const loop_tree *kernel_loop_tree_at(const kernel_info *k, CXCursor stmt);

/* k's parameters, comma-separated: their declarations (names 0) or their names
 * (names 1), as a kernel's signature and a call spell them (caller frees). */
char *kernel_param_list(const kernel_info *k, int names);

/* The text of r (not NUL-terminated). */
const char *range_text(const analysis *an, src_range r, size_t *len);

/* Appends the active text of r: no skipped #if block, no conditional directive line. */
void put_active_range(const analysis *an, strbuf *sb, src_range r);

#endif
