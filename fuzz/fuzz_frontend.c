/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_frontend.c - libFuzzer target over the nplus1gen front end.
 *
 * Each input is an OpenCL C file: it goes through parse -> analyze -> plan ->
 * emit (and --report) in memory, exactly as nplus1gen runs them, with the
 * diagnostics counted but not printed. libclang parses from a path, so the
 * input is written to one scratch file per process first. The plan options
 * (strategy, dispatch, split, work-group size) are derived from the input's
 * length, so every emit path is reached without taking bytes from the source.
 *
 * Build and run: fuzz/build.sh (clang-14, -fsanitize=fuzzer,address,undefined);
 * see docs/testing.md.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "diag.h"
#include "emit.h"
#include "front_end.h"
#include "parse.h"
#include "plan.h"
#include "report.h"

static char scratch[64];
static FILE *devnull;

static int write_input(const uint8_t *data, size_t size)
{
    FILE *f = fopen(scratch, "wb");
    if (!f)
        return -1;
    int bad = size && fwrite(data, 1, size, f) != size;
    bad |= fclose(f) != 0;
    return bad ? -1 : 0;
}

/* The contract's lists (nplus1rt_format.h): every strategy and dispatch is reached. */
#define FUZZ_COUNT_(id, v, name) +1
enum { FUZZ_STRATEGIES = 0 NPLUS1RT_STRATEGIES(FUZZ_COUNT_),
       FUZZ_DISPATCHES = 0 NPLUS1RT_DISPATCHES(FUZZ_COUNT_) };
#undef FUZZ_COUNT_

/* Input lengths n, n+1, ... walk every strategy, then dispatch, split and work-group size. */
static void plan_options_for(size_t size, plan_options *o, dispatch *d)
{
    const size_t ns = FUZZ_STRATEGIES, nd = FUZZ_DISPATCHES;
    memset(o, 0, sizeof *o);
    o->strategy = (strategy)(size % ns);
    *d = (dispatch)(size / ns % nd);
    o->split = (split_policy)(size / (ns * nd) % 2);
    o->wg = 1u << (size / (ns * nd * 2) % 9); /* 1 .. 256 */
}

static void run_front_end(size_t size)
{
    diag_sink diag;
    diag_init(&diag);
    diag.quiet = 1;
    parse_options po = {NULL, NULL, 0, NULL, 0};
    plan_options opt;
    dispatch d;
    plan_options_for(size, &opt, &d);
    front_end fe;
    if (front_end_run(&fe, scratch, &po, NULL, 0, &opt, &diag) == 0) {
        report_print(devnull, &fe.an, &fe.pl, d, 1);
        if (!fe.bad) {
            emit_options eo = {.input = scratch, .stem = "fuzz", .dispatch = d};
            emit_output out;
            char err[512];
            if (emit_all(&fe.pl, &eo, &out, err, sizeof err) != 0) {
                fprintf(stderr, "fuzz_frontend: emit failed on a legal plan: %s\n", err);
                abort();
            }
            emit_output_free(&out);
        }
    }
    front_end_free(&fe);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(scratch, sizeof scratch, "%s/nplus1-fuzz-%ld.cl", dir, (long)getpid());
    devnull = fopen("/dev/null", "w");
    return devnull ? 0 : 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20) || write_input(data, size) != 0)
        return 0;
    run_front_end(size);
    return 0;
}
