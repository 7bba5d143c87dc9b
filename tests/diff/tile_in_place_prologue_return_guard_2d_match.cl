// RUN: nplus1gen %s --validate --global 40,33 --offset 1,2 --strategy tile --split always \
// RUN: -D NPLUS1_TILE_REGROUP=-1 --arg w=38 --arg h=30 --arg out=size:1400 --arg kind=choice:0,1,2
// RUN: env NPLUS1_TILE_REGROUP=off nplus1gen %s --validate --global 40,33 --offset 1,2 \
// RUN: --strategy tile --split always --arg w=38 --arg h=30 --arg out=size:1400 \
// RUN: --arg kind=choice:0,1,2 --reps 2
// EXPECT: match
// OUTPUT: leaves not counted: the tile kernel ran in place
/* issue 28 item 4: a kernel whose prologue returns (the 2-D guard, past w x h) and whose
 * leaves take different amounts of work; regrouping off (-D, then the environment's
 * "off") runs the kernel's own body in place, launched with the original's 2-D sizes and
 * offsets. */
__kernel void guard_then_classes(__global const int *kind, __global float *out,
                                 const int w, const int h)
{
    const int x = get_global_id(0) - get_global_offset(0);
    const int y = get_global_id(1) - get_global_offset(1);
    if (x >= w || y >= h)
        return;
    const int i = y * w + x;
    float v = (float)(x + 3 * y) * 0.01f;
    if (kind[i] == 0) {
        for (int k = 0; k < 40; k++)
            v = v * 0.97f + sin(v);
    } else if (kind[i] == 1) {
        v = v * v + 1.0f;
    } else {
        for (int k = 0; k < 12; k++)
            v = sqrt(v * v + 2.0f);
    }
    out[i] = v;
}
