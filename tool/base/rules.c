/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rules.c - the legality rules' registry (rules.h): each rule's name,
 * summary and section of docs/legality.md, in the order the document
 * gives them. `nplus1gen --list-rules` prints this table.
 *
 * Where each family is checked:
 *   kernel-wide (barrier .. unsupported)   legality.c, on the effects of effects.c
 *   the slice (side-effect, hidden-return, rules_slice.c, run by plan.c
 *     memory-order, too-many-leaves)
 *   loop-state                             context.c, loop.c
 *   the decisions (macro-decision ..)      cond_tree.c, legality.c, plan.c (loop-only)
 *   the kernels and their arguments        analyze.c, params.c
 */
#include "rules.h"

#include <stddef.h>

static const rule_info rules[RULE_COUNT] = {
    [RULE_BARRIER] = {"nplus1-barrier",
                      "a barrier or a scoped fence: the leaf kernels re-form work-groups",
                      "nplus1-barrier"},
    [RULE_LOCAL_MEMORY] = {"nplus1-local-memory",
                           "a __local variable or argument: shared by a work-group",
                           "nplus1-local-memory"},
    [RULE_LOCAL_ID] = {"nplus1-local-id",
                       "a local id, group id or local size whose value is used",
                       "nplus1-local-id"},
    [RULE_GROUP_FUNCTION] = {"nplus1-group-function",
                             "a work-group or sub-group function: it combines a group's items",
                             "nplus1-group-function"},
    [RULE_UNSUPPORTED] = {"nplus1-unsupported",
                          "a construct the rewrite cannot carry (goto, recursion, ...)",
                          "nplus1-unsupported"},
    [RULE_SIDE_EFFECT] = {"nplus1-side-effect",
                          "a condition, or a statement it needs, writes memory or a variable",
                          "nplus1-side-effect"},
    [RULE_MEMORY_ORDER] = {"nplus1-memory-order",
                           "a condition reads memory the kernel may have written before it",
                           "nplus1-memory-order"},
    [RULE_HIDDEN_RETURN] = {"nplus1-hidden-return",
                            "a return or break nested in a statement before a decision",
                            "nplus1-hidden-return"},
    [RULE_LOOP_STATE] = {"nplus1-loop-state",
                         "(warning, --strategy tile) a pointer the context cannot move",
                         "nplus1-loop-state"},
    [RULE_MACRO_DECISION] = {"nplus1-macro-decision",
                             "an if or switch, or its condition's parentheses, from a macro",
                             "nplus1-macro-decision"},
    [RULE_NO_DECISION] = {"nplus1-no-decision",
                          "nothing to split: no if or switch outside loops",
                          "nplus1-no-decision"},
    [RULE_TOO_MANY_LEAVES] = {"nplus1-too-many-leaves",
                              "one decision alone has more paths than --max-leaves",
                              "nplus1-too-many-leaves"},
    [RULE_UNSUPPORTED_ARG] = {"nplus1-unsupported-arg",
                              "a kernel argument the driver and --validate cannot pass",
                              "nplus1-unsupported-arg"},
    [RULE_UNKNOWN_KERNEL] = {"nplus1-unknown-kernel",
                             "-k names no kernel of the file",
                             "nplus1-unknown-kernel-nplus1-no-kernel"},
    [RULE_NO_KERNEL] = {"nplus1-no-kernel",
                        "the file defines no __kernel function",
                        "nplus1-unknown-kernel-nplus1-no-kernel"},
};

const rule_info *rule_get(rule_id id)
{
    return &rules[id];
}

const char *rule_name(rule_id id)
{
    return rules[id].name;
}

void rules_list(strbuf *out)
{
    for (int i = 0; i < RULE_COUNT; i++)
        sb_printf(out, "%-24s %s (docs/legality.md#%s)\n", rules[i].name, rules[i].summary,
                  rules[i].anchor);
}
