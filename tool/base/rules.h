/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rules.h - the registry of nplus1gen's legality rules: every rule a
 * refusal (or a warning) names in brackets, with a one-line summary and its
 * section in docs/legality.md. The rule names are spelled once, in rules.c;
 * a check names its rule by id (rule_name(RULE_MEMORY_ORDER)). The checks
 * are grouped by family; rules.c says which file holds each family.
 */
#ifndef NPLUS1_RULES_H
#define NPLUS1_RULES_H

#include "util.h"

typedef enum rule_id {
    /* kernel-wide: what the kernel and its helpers run (legality.c) */
    RULE_BARRIER,
    RULE_LOCAL_MEMORY,
    RULE_LOCAL_ID,
    RULE_GROUP_FUNCTION,
    RULE_UNSUPPORTED,
    /* the slice: what the classifier runs ahead of the leaves (rules_slice.c, run by plan.c) */
    RULE_SIDE_EFFECT,
    RULE_MEMORY_ORDER,
    RULE_HIDDEN_RETURN,
    /* the tile's context (context.c) */
    RULE_LOOP_STATE,
    /* the decisions: what can be split (cond_tree.c, legality.c, plan.c) */
    RULE_MACRO_DECISION,
    RULE_NO_DECISION,
    RULE_TOO_MANY_LEAVES,
    /* the kernels and their arguments (analyze.c, params.c) */
    RULE_UNSUPPORTED_ARG,
    RULE_UNKNOWN_KERNEL,
    RULE_NO_KERNEL,
    RULE_COUNT
} rule_id;

typedef struct rule_info {
    const char *name;    /* "nplus1-<rule>", as diagnostics print it in brackets */
    const char *summary; /* one line: what the rule refuses */
    const char *anchor;  /* its section in docs/legality.md (a heading's GitHub anchor) */
} rule_info;

const rule_info *rule_get(rule_id id);
/* The rule's name, for diag_report. */
const char *rule_name(rule_id id);
/* The table as text, one rule a line: name, summary, docs/legality.md#anchor. */
void rules_list(strbuf *out);

#endif
