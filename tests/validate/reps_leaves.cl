/* --reps' leaves-alone line: the split's leaf kernels alone, by their profiling events
 * (runtime/validate.c, leaves_alone_ms). Two leaves of different cost. */
__kernel void two_costs(__global const int *sel, __global float *out)
{
    int gid = get_global_id(0);
    float acc = 0.0f;
    if (sel[gid] & 1) {
        for (int i = 0; i < 64; i++)
            acc += sin(acc + (float)i);
    } else {
        acc = (float)sel[gid];
    }
    out[gid] = acc;
}
