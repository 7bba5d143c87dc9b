// RUN: nplus1gen %s --validate --global 20000 --strategy tile --split always \
// RUN: --arg code=size:8 --arg code=choice:0,1,2 --arg n=19990 -D NPLUS1_TILE_REGROUP=1 \
// RUN: --require-all-leaves
// RUN: nplus1gen %s --validate --global 20000 --strategy tile --split always \
// RUN: --arg code=size:8 --arg code=choice:0,1,2 --arg n=19990 -D NPLUS1_TILE_REGROUP=2
// RUN: nplus1gen %s --validate --global 20000 --strategy tile --split always \
// RUN: --arg code=size:8 --arg code=choice:2 --arg n=19990 -D NPLUS1_TILE_REGROUP=1
// RUN: nplus1gen %s --validate --global 20000 --strategy tile --split always \
// RUN: --arg code=size:8 --arg code=choice:0,1,2 --arg n=19990 -D NPLUS1_TILE_REGROUP=0
// EXPECT: match
/* issue 28 item 4: the tile kernel with contexts regroups a round only when its items
 * take two leaves or more; a round of one leaf runs each work-item's own items in place
 * from the contexts it stored itself. The prologue (a loop, carried into the leaves
 * through the context) runs once an item; the leaf comes from code[i / 2500]: runs of
 * 2500 items, some rounds coherent, some mixed (first RUN), regrouped every round
 * (policy 2, second), all coherent (third), and the in-place policy 0 beside them. */
__kernel void context_runs(__global const int *code, __global const float *in,
                           __global float *out, const uint n)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    float acc = in[i];
    for (int k = 0; k < 16; k++)
        acc = acc * 0.9f + 0.1f * (float)k;
    const int c = code[i / 2500];
    if (c == 0) {
        float v = acc;
        for (int k = 0; k < 40; k++)
            v = sqrt(v * v + 1.0f);
        out[i] = v;
    } else if (c == 1) {
        out[i] = acc * 2.0f;
    } else {
        float v = acc;
        for (int k = 0; k < 25; k++)
            v = v * 1.01f + cos(v);
        out[i] = v;
    }
}
