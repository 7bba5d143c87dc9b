// main.cpp - the C++-only consumer: creates the generated physics set through
// its driver (compiled as C by nplus1_generate() in a project that enabled
// only C++), runs it against the original kernel with nplus1rt_validate and
// prints one line:
//
//   physics from C++: 3 leaf kernels, 0 mismatches in 40000 values
//
// Exit status 0 only when every output matches.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "nplus1rt.h"
#include "physics_nplus1.h"

static cl_mem mem_arg(const nplus1rt_argval *a)
{
    return *static_cast<const cl_mem *>(a->value);
}

static cl_int enqueue_physics(void *ud, cl_command_queue q, cl_uint dim, const size_t *off,
                              const size_t *gsz, const size_t *lsz, const nplus1rt_argval *a)
{
    return nplus1_physics_enqueue(static_cast<nplus1_physics *>(ud), q, dim, off, gsz, lsz,
                                  mem_arg(&a[0]), mem_arg(&a[1]), mem_arg(&a[2]),
                                  *static_cast<const cl_float *>(a[3].value),
                                  *static_cast<const cl_int *>(a[4].value));
}

static int validate(nplus1_physics *s, cl_context ctx, const nplus1rt_device &dev,
                    cl_command_queue q)
{
    std::ifstream in(KERNEL_DIR "/physics.cl");
    std::stringstream text;
    text << in.rdbuf();
    if (!in) {
        std::fprintf(stderr, "app: cannot read %s/physics.cl\n", KERNEL_DIR);
        return 1;
    }
    static const cl_float dt = 0.01f;
    static const cl_int n = 9000;
    const void *values[5] = {nullptr, nullptr, nullptr, &dt, &n};
    nplus1rt_validate_opts o;
    std::memset(&o, 0, sizeof o);
    o.work_dim = 1;
    o.global_size[0] = 10000;
    o.global_size[1] = o.global_size[2] = 1;
    o.seed = 7;
    o.ulp_tol = 4;
    o.values = values;
    nplus1rt_validation r;
    cl_int e = nplus1rt_validate(ctx, dev.device, q, nplus1_physics_desc(), text.str().c_str(),
                                 "-I " KERNEL_DIR, enqueue_physics, s, &o, &r);
    if (e != CL_SUCCESS) {
        std::fprintf(stderr, "app: validation could not run: %s\n", r.message);
        return 1;
    }
    std::printf("physics from C++: %u leaf kernels, %zu mismatches in %zu values\n",
                nplus1_physics_leaf_count(), r.mismatches, r.compared);
    return r.mismatches != 0;
}

int main()
{
    char err[512];
    nplus1rt_device dev;
    if (nplus1rt_pick_device(&dev, err, sizeof err) != CL_SUCCESS) {
        std::fprintf(stderr, "app: no OpenCL device: %s\n", err);
        return 2;
    }
    cl_context ctx;
    cl_command_queue q;
    if (nplus1rt_open(&dev, 0, &ctx, &q) != CL_SUCCESS) {
        std::fprintf(stderr, "app: cannot open %s\n", dev.device_name);
        return 2;
    }
    cl_int e;
    nplus1_physics *s = nplus1_physics_create(ctx, dev.device, "", &e);
    int rc = 1;
    if (s) {
        rc = validate(s, ctx, dev, q);
        nplus1_physics_release(s);
    } else {
        std::fprintf(stderr, "app: nplus1_physics_create: %s\n", nplus1_strerror(e));
    }
    nplus1rt_cache_clear();
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return rc;
}
