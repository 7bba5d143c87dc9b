/* SPDX-License-Identifier: Apache-2.0 */
/*
 * main.c - the consumer app: an outside project that found nplus1gen with
 * find_package() and generated the drivers of kernels/shade.cl and
 * kernels/physics.cl with nplus1_generate().
 *
 * For each kernel it creates the generated set through its driver, runs it
 * through the driver (nplus1_<K>_enqueue) and through the original kernel
 * on identical random inputs with libnplus1rt's nplus1rt_validate, and
 * prints one line:
 *
 *   shade: 3 leaf kernels, items per leaf 12344 12221 8203, 0 mismatches in 36992 values
 *
 * (items per leaf are all 0 when the driver ran the original kernel instead
 * of splitting it, as the tool's cost model or the divergence probe may choose).
 * The original kernels are read at run time from KERNEL_DIR (a compile
 * definition). Exit status 0 only when every output matches.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nplus1rt.h"
#include "physics_nplus1.h"
#include "shade_nplus1.h"
#ifdef CONSUMER_HAS_MIXED
#include "mixed_nplus1.h" /* SKIP_REFUSED: heavy's set; with_barrier was refused */
#endif

#ifndef KERNEL_DIR
#error "define KERNEL_DIR, the folder of the original .cl files"
#endif

#ifdef CONSUMER_HAS_CXX
/* main_cpp.cpp: the same driver API called from C++. */
unsigned consumer_cpp_leaf_kernels(void);
#endif

/* ---- the generated drivers, behind the validation's callback -------------- */

static cl_mem mem_arg(const nplus1rt_argval *a)
{
    return *(const cl_mem *)a->value;
}

static cl_int enqueue_shade(void *ud, cl_command_queue q, cl_uint dim, const size_t *off,
                            const size_t *gsz, const size_t *lsz, const nplus1rt_argval *a)
{
    return nplus1_shade_enqueue(ud, q, dim, off, gsz, lsz, mem_arg(&a[0]), mem_arg(&a[1]),
                                mem_arg(&a[2]), *(const cl_int *)a[3].value);
}

static cl_int enqueue_physics(void *ud, cl_command_queue q, cl_uint dim, const size_t *off,
                              const size_t *gsz, const size_t *lsz, const nplus1rt_argval *a)
{
    return nplus1_physics_enqueue(ud, q, dim, off, gsz, lsz, mem_arg(&a[0]), mem_arg(&a[1]),
                                  mem_arg(&a[2]), *(const cl_float *)a[3].value,
                                  *(const cl_int *)a[4].value);
}

/* ---- one kernel: create, validate, report ---------------------------------- */

typedef struct check {
    const char *kernel;                    /* also the .cl file's stem */
    const nplus1rt_set_desc *desc;
    nplus1rt_enqueue_fn enqueue;
    cl_uint work_dim;
    size_t offset[3], global[3];
    const void *const *values;             /* scalar arguments by position */
} check;

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *s = NULL;
    long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (s = malloc((size_t)n + 1)) != NULL) {
        if (fread(s, 1, (size_t)n, f) == (size_t)n) {
            s[n] = '\0';
        } else {
            free(s);
            s = NULL;
        }
    }
    fclose(f);
    return s;
}

/* Runs the driver's set against the original kernel; 0 when they match. */
static int validate(const check *c, void *drv, cl_context ctx, const nplus1rt_device *dev,
                    cl_command_queue q, nplus1rt_validation *r)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.cl", KERNEL_DIR, c->kernel);
    char *src = read_text(path);
    if (!src) {
        fprintf(stderr, "app: cannot read the original kernel %s\n", path);
        return 1;
    }
    nplus1rt_validate_opts o;
    memset(&o, 0, sizeof o);
    o.work_dim = c->work_dim;
    memcpy(o.global_offset, c->offset, sizeof o.global_offset);
    memcpy(o.global_size, c->global, sizeof o.global_size);
    o.seed = 7;
    o.ulp_tol = 4;
    o.values = c->values;
    /* the original includes "common.h": build it with its folder on the path */
    cl_int e = nplus1rt_validate(ctx, dev->device, q, c->desc, src, "-I " KERNEL_DIR, c->enqueue,
                                 drv, &o, r);
    free(src);
    if (e != CL_SUCCESS) {
        fprintf(stderr, "app: %s: validation could not run: %s\n", c->kernel, r->message);
        return 1;
    }
    return 0;
}

static void print_result(const check *c, unsigned nleaves, const cl_uint *counts,
                         const char *(*condition)(unsigned), const nplus1rt_validation *r)
{
    printf("%s: %u leaf kernels, items per leaf", c->kernel, nleaves);
    for (unsigned l = 0; l < nleaves; l++)
        printf(" %u", (unsigned)counts[l]);
    printf(", %zu mismatches in %zu values\n", r->mismatches, r->compared);
    for (unsigned l = 0; l < nleaves; l++)
        printf("  leaf kernel %u: %s\n", l, condition(l));
    for (unsigned i = 0; i < r->nfirst; i++)
        printf("  mismatch: %s[%zu] (leaf %d): expected %.9g, got %.9g\n",
               c->desc->args[r->first[i].arg].name, r->first[i].index, r->first[i].leaf,
               r->first[i].expected, r->first[i].got);
}

static int run_shade(cl_context ctx, const nplus1rt_device *dev, cl_command_queue q)
{
    static const cl_int width = 16 + 256; /* rows span the offset and the launch */
    const void *values[4] = {NULL, NULL, NULL, &width};
    check c = {"shade", nplus1_shade_desc(), enqueue_shade, 2, {16, 8, 0}, {256, 128, 1}, values};
    cl_int e;
    char *msg = NULL;
    nplus1_shade *s = nplus1_shade_create_ex(ctx, dev->device, "", &e, &msg);
    if (!s) {
        fprintf(stderr, "app: nplus1_shade_create: %s\n%s\n", nplus1_strerror(e), msg ? msg : "");
        free(msg);
        return 1;
    }
    cl_uint counts[8] = {0};
    nplus1rt_validation r;
    int rc = validate(&c, s, ctx, dev, q, &r);
    unsigned n = nplus1_shade_leaf_count();
    n = n < 8 ? n : 8;
    if (!rc && (e = nplus1_shade_last_counts(s, counts, n)) != CL_SUCCESS) {
        fprintf(stderr, "app: shade: last_counts: %s: %s\n", nplus1_strerror(e),
                nplus1_shade_errmsg(s));
        rc = 1;
    }
    if (!rc) {
        print_result(&c, n, counts, nplus1_shade_leaf_condition, &r);
        rc = r.mismatches != 0;
    }
    nplus1_shade_release(s);
    return rc;
}

static int run_physics(cl_context ctx, const nplus1rt_device *dev, cl_command_queue q)
{
    static const cl_float dt = 0.01f;
    static const cl_int n = 9000; /* the last 1000 work-items take the guard's return */
    const void *values[5] = {NULL, NULL, NULL, &dt, &n};
    check c = {"physics", nplus1_physics_desc(), enqueue_physics, 1, {0, 0, 0}, {10000, 1, 1},
               values};
    cl_int e;
    nplus1_physics *s = nplus1_physics_create(ctx, dev->device, "", &e);
    if (!s) {
        fprintf(stderr, "app: nplus1_physics_create: %s\n", nplus1_strerror(e));
        return 1;
    }
    cl_uint counts[8] = {0};
    nplus1rt_validation r;
    int rc = validate(&c, s, ctx, dev, q, &r);
    unsigned nl = nplus1_physics_leaf_count();
    nl = nl < 8 ? nl : 8;
    if (!rc && (e = nplus1_physics_last_counts(s, counts, nl)) != CL_SUCCESS) {
        fprintf(stderr, "app: physics: last_counts: %s: %s\n", nplus1_strerror(e),
                nplus1_physics_errmsg(s));
        rc = 1;
    }
    if (!rc) {
        print_result(&c, nl, counts, nplus1_physics_leaf_condition, &r);
        rc = r.mismatches != 0;
    }
    nplus1_physics_release(s);
    return rc;
}

int main(void)
{
    char err[512];
    nplus1rt_device dev;
    if (nplus1rt_pick_device(&dev, err, sizeof err) != CL_SUCCESS) {
        fprintf(stderr, "app: no OpenCL device: %s\n", err);
        return 2;
    }
    cl_context ctx;
    cl_command_queue q;
    if (nplus1rt_open(&dev, 0, &ctx, &q) != CL_SUCCESS) {
        fprintf(stderr, "app: cannot open %s\n", dev.device_name);
        return 2;
    }
    printf("device: %s (%s)\n", dev.device_name, dev.platform_name);
    int rc = run_shade(ctx, &dev, q);
    rc |= run_physics(ctx, &dev, q);
#ifdef CONSUMER_HAS_MIXED
    printf("mixed: heavy's set has %u leaf kernels (with_barrier left out)\n",
           nplus1_heavy_leaf_count());
    rc |= nplus1_heavy_leaf_count() == 0;
#endif
#ifdef CONSUMER_HAS_CXX
    unsigned from_cpp = consumer_cpp_leaf_kernels();
    unsigned from_c = nplus1_shade_leaf_count() + nplus1_physics_leaf_count();
    printf("c++: %u leaf kernels seen from C++, %u from C\n", from_cpp, from_c);
    rc |= from_cpp != from_c;
#endif
    nplus1rt_cache_clear();
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    printf("%s\n", rc ? "FAIL" : "ok: every generated set matches its original kernel");
    return rc;
}
