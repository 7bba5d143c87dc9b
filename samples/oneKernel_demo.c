/* SPDX-License-Identifier: Apache-2.0 */
/*
 * oneKernel_demo - the classic example end to end: the generated driver
 * (oneKernel_nplus1.h) runs the n+1 kernel set; the result is diffed
 * against the original kernel on the same random inputs.
 *
 * usage: oneKernel_demo samples/oneKernel.cl [N] [REPS]
 */
#include "oneKernel_nplus1.h"

#include "demo_common.h"

static cl_int enqueue(void *ud, cl_command_queue q, cl_uint dim, const size_t *off,
                      const size_t *gsz, const size_t *lsz, const nplus1rt_argval *a)
{
    return nplus1_oneKernel_enqueue(ud, q, dim, off, gsz, lsz, *(const cl_mem *)a[0].value,
                                    *(const cl_mem *)a[1].value, *(const cl_mem *)a[2].value);
}

static void *create(cl_context ctx, cl_device_id dev, cl_int *err, char **msg)
{
    return nplus1_oneKernel_create_ex(ctx, dev, "", err, msg);
}

static void release(void *s)
{
    nplus1_oneKernel_release(s);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s samples/oneKernel.cl [N] [REPS]\n", argv[0]);
        return 2;
    }
    const char *conds[3];
    for (unsigned l = 0; l < 3 && l < nplus1_oneKernel_leaf_count(); l++)
        conds[l] = nplus1_oneKernel_leaf_condition(l);
    demo d;
    memset(&d, 0, sizeof d);
    d.original = argv[1];
    d.desc = nplus1_oneKernel_desc();
    d.conditions = conds;
    d.enqueue = enqueue;
    d.create = create;
    d.release = release;
    d.work_dim = 1;
    d.global[0] = argc > 2 ? strtoul(argv[2], NULL, 10) : 65536;
    d.require_every_leaf = 1;
    return demo_run(&d, argc > 3 ? atoi(argv[3]) : 0);
}
