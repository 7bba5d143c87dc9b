/* --validate --reps on a kernel that updates its input in place: each timed run must start
 * from the same inputs (runtime/validate.c, refresh_inputs). Every run adds 100000 to
 * steps[gid], and the loop runs steps[gid] times: timed on the data the previous run left,
 * the tenth run would loop a million times an item, and the test would time out. */
__kernel void grow(__global int *steps, __global float *out)
{
    int gid = get_global_id(0);
    int n = steps[gid];
    float acc = 0.0f;
    if (n & 1) {
        for (int i = 0; i < n; i++)
            acc += sin((float)i);
    } else {
        acc = (float)n;
    }
    out[gid] = acc;
    steps[gid] = n + 100000;
}
