/* SPDX-License-Identifier: Apache-2.0 */
/*
 * demo_common.h - the shared main of the sample drivers: runs the original
 * kernel and the generated set (through the generated driver) on identical
 * random inputs with libnplus1rt, diffs every output, and prints the
 * leaves with their bucket sizes and one timing of each.
 */
#ifndef DEMO_COMMON_H
#define DEMO_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nplus1rt.h"

typedef struct demo {
    const char *original;              /* path of the original .cl file */
    const nplus1rt_set_desc *desc;
    const char *const *conditions;     /* per leaf kernel, for printing */
    nplus1rt_enqueue_fn enqueue;       /* calls the generated driver */
    void *(*create)(cl_context, cl_device_id, cl_int *, char **);
    void (*release)(void *);
    cl_uint work_dim;
    size_t global[3], offset[3], local[3];
    int has_local;
    const void *const *values;         /* scalar arguments, NULL: defaults */
    int require_every_leaf;            /* fail when a leaf got no items */
} demo;

static int demo_run(const demo *d, int reps)
{
    char err[512];
    /* The demo is here to show the split kernels at work: on a CPU the auto
     * policy would run the original kernel (docs/performance.md). */
    setenv("NPLUS1_SPLIT", "always", 0);
    printf("split policy: NPLUS1_SPLIT=%s\n", getenv("NPLUS1_SPLIT"));
    nplus1rt_device dev;
    if (nplus1rt_pick_device(&dev, err, sizeof err) != CL_SUCCESS) {
        fprintf(stderr, "demo: no OpenCL device: %s\n", err);
        return 2;
    }
    cl_context ctx;
    cl_command_queue q;
    if (nplus1rt_open(&dev, 0, &ctx, &q) != CL_SUCCESS) {
        fprintf(stderr, "demo: cannot open %s\n", dev.device_name);
        return 2;
    }
    char *src = nplus1rt_read_file(d->original);
    if (!src) {
        fprintf(stderr, "demo: cannot read %s\n", d->original);
        return 2;
    }
    cl_int e;
    char *msg = NULL;
    void *drv = d->create(ctx, dev.device, &e, &msg);
    if (!drv) {
        fprintf(stderr, "demo: creating the generated set failed: %s\n%s\n", nplus1_strerror(e),
                msg ? msg : "");
        return 1;
    }
    nplus1rt_validate_opts o;
    memset(&o, 0, sizeof o);
    o.work_dim = d->work_dim;
    memcpy(o.global_size, d->global, sizeof o.global_size);
    memcpy(o.global_offset, d->offset, sizeof o.global_offset);
    memcpy(o.local_size, d->local, sizeof o.local_size);
    o.has_local_size = d->has_local;
    o.seed = 42;
    o.ulp_tol = 4;
    o.values = d->values;
    o.reps = reps;
    nplus1rt_validation r;
    e = nplus1rt_validate(ctx, dev.device, q, d->desc, src, "", d->enqueue, drv, &o, &r);
    int rc = 0;
    printf("device: %s (%s)\n", dev.device_name, dev.platform_name);
    if (e != CL_SUCCESS) {
        printf("validation could not run: %s\n", r.message);
        rc = 1;
    } else {
        printf("kernel %s: %zu work-items, %u leaf kernels\n", d->desc->kernel,
               (size_t)d->global[0] * (d->work_dim > 1 ? d->global[1] : 1) *
                   (d->work_dim > 2 ? d->global[2] : 1),
               r.nleaves);
        for (unsigned l = 0; l < r.nleaves; l++) {
            printf("  leaf %u: %8zu items, %zu mismatches   %s\n", l, r.leaf_items[l],
                   r.leaf_mismatches[l], d->conditions ? d->conditions[l] : "");
            if (d->require_every_leaf && r.leaf_items[l] == 0) {
                printf("  leaf %u was not exercised\n", l);
                rc = 1;
            }
        }
        printf("  items on empty paths: %zu\n", r.empty_items);
        for (unsigned i = 0; i < r.nfirst; i++)
            printf("  mismatch: %s[%zu] (leaf %d): expected %.9g, got %.9g\n",
                   d->desc->args[r.first[i].arg].name, r.first[i].index, r.first[i].leaf,
                   r.first[i].expected, r.first[i].got);
        printf("compared %zu values: %zu mismatches -> %s\n", r.compared, r.mismatches,
               r.mismatches ? "FAIL" : "generated set == original");
        if (reps > 0)
            printf("time (median of %d, wall): original %.3f ms, generated %.3f ms (%.2fx)\n", reps,
                   r.original_ms, r.generated_ms, r.original_ms / r.generated_ms);
        rc |= r.mismatches != 0;
    }
    d->release(drv);
    free(src);
    free(msg);
    nplus1rt_cache_clear();
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return rc;
}

#endif
