/* SPDX-License-Identifier: Apache-2.0 */
/*
 * regroup_cost.c - the constants of the static rule (context.h): what a
 * regrouping round and a context word cost, per item, in FMA-equivalents
 * (effects.c's rough operations). The defaults are nplus1rt_format.h's (an
 * H200, docs/performance.md "The cost model"); the CLI sets the device's
 * calibration (common/calibration.h) once, before anything is planned.
 */
#include "context.h"

#include "nplus1rt_format.h"

static double move_cost, round_cost;
static int given;

static void load_defaults(void)
{
    nplus1rt_calibration d;
    nplus1rt_calibration_defaults(&d);
    move_cost = d.word;
    round_cost = d.round;
    given = 1;
}

void regroup_costs_set(double move_per_word, double round)
{
    load_defaults();
    if (move_per_word > 0)
        move_cost = move_per_word;
    if (round > 0)
        round_cost = round;
}

double regroup_move_cost(void)
{
    if (!given)
        load_defaults();
    return move_cost;
}

double regroup_round_cost(void)
{
    if (!given)
        load_defaults();
    return round_cost;
}
