// fuzzgen seed 1000010 (run.py --seed 1): at 9839e28 (and its working
// tree after) the validation runner died (SIGSEGV in a leaf kernel) or found
// mismatches in items no leaf took; fine at 9bf24de and from 5dd687e on.
// RUN: nplus1gen %s --validate -q --global 1000 --arg k=587 --arg s=0.125 --seed 603638408 --dispatch fused
// EXPECT: match
/* nplus1gen fuzzgen: seed 1000010, legal */

static int h0f424a_0_peek(__global const int *q, int i)
{
    return q[i] & 31;
}

__kernel void fz_0f424a_0(__global const int *ia,
        __global const float *fa,
        __global const int *ib,
        __global float *out,
        __global int *iout,
        const int n,
        const int k,
        const float s)
{
    int gid = (int)(get_global_id(0));
    const int total = (int)((get_global_size(0) + get_global_offset(0)));
    int iv = ia[gid];
    float fv = fa[gid];
    int i1 = (25 ^ 1);
    if (fv > 0.390625f) {
        i1 = i1 & 7;
        out[gid] = out[gid] * 0.5f + 2.5f + 0.125f * (tanh(fv) * 0.5f + (fv * 2.0f) * 0.25f);
        {
            int t2 = 0;
            int c3 = (gid) & 7;
            while (c3 > 0) {
                t2 += c3 * 3 + 1;
                c3--;
            }
            iout[gid] += t2;
        }
    }
    out[gid] = out[gid] * 0.5f + 2.5f + 0.125f * fv;
}
