/*
 * reqd_wg_size.cl - a kernel declared with reqd_work_group_size.
 *
 * The original must be launched with exactly that local size, so the
 * validation (and any host code) gives --local 64. The generated set
 * checks the launch as OpenCL checks the original's: no local size, or
 * another one, is CL_INVALID_WORK_GROUP_SIZE. The generated kernels carry
 * their own reqd_work_group_size (the size the driver launches them
 * with). The kernel itself is a small piecewise function (a clamp, a
 * polynomial and a rational branch), with vec_type_hint as well.
 * Expected: 3 leaves, all non-empty. Validate with
 *   nplus1gen samples/reqd_wg_size.cl --validate --global 8192 --local 64
 */
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
__attribute__((vec_type_hint(float)))
void piecewise(__global const float *x, __global float *y, const float knee)
{
    const size_t i = get_global_id(0);
    const float v = 4.0f * x[i] - 2.0f;
    if (v < -knee) {
        y[i] = -knee;
    } else if (v <= knee) {
        y[i] = v - v * v * v / (3.0f * knee * knee);
    } else {
        y[i] = knee + (v - knee) / (1.0f + (v - knee));
    }
}
