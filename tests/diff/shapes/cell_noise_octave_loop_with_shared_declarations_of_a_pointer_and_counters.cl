// RUN: env NPLUS1_SPLIT=auto nplus1gen %s --validate --global 1024 --arg octaves=3 \
// RUN: --arg rank=3 --arg px=range:0:50 --report
// RUN: nplus1gen %s --validate --global 1024 --arg octaves=3 --arg rank=3 \
// RUN: --arg px=range:0:50 --split always --require-all-leaves --report
// EXPECT: match all-leaves
// OUTPUT: candidates: original and tile\+machine only
/*
 * Shape of: GEGL (GNOME/gegl), operations/opencl/noise-cell.cl, kernel_noise: one
 * declaration names scalars, a private array and a pointer into it (`float c, d, n,
 * closest[MAX_RANK], *d_0 = &closest[MAX_RANK - 1];`); an octave loop calls a search helper
 * (a feature loop with a data-dependent insertion) on the item's cell, then on the
 * neighbour cells only while the distance to a cell's edge is under the rank-th closest
 * distance read through the pointer. The state machine regroups at that decision and keeps
 * the item in place (the pointer points into its private state); it turned the shared
 * declaration into `c, d, n, closest, *d_0 = &closest[...]` with its members, so the `*` of
 * the pointer's declarator stored through the member (the generated code did not compile,
 * exit 3). `int i, j;` declares a counter the context needs (j) beside one it does not (i):
 * the emitter dropped the statement's `int i,` with the type, and `i` was undeclared (exit 3);
 * both are kept now (one declaration, one status). Our own kernel, written in that shape.
 */
void nearest(float *best, uint *tag, int cell, float x, uint rank)
{
    uint h = (uint)cell * 2654435761u;
    int n = (int)(h >> 29) + 1;
    for (int i = 0; i < n; i++) {
        h = h * 1664525u + 1013904223u;
        float d = fabs((float)(h >> 8) / 16777216.0f + cell - x);
        if (d < best[rank - 1]) {
            best[rank - 1] = d;
            *tag = h;
        }
    }
}

__kernel void cells(__global float *out, __global const float *px, uint octaves, uint rank)
{
    const int gid = get_global_id(0);
    float c, s, acc, best[3], *far = &best[2];
    uint tag = 0;
    int i, j;
    for (j = 0, acc = 0, c = 1, s = 1.0f; j < octaves; c *= 2, s *= 2, j += 1) {
        float x = px[gid] * s;
        int cell = (int)floor(x);
        for (i = 0; i < 3; i++)
            best[i] = 1e30f;
        nearest(best, &tag, cell, x, rank);
        far = &best[rank - 1];
        if (x - cell < *far) {
            nearest(best, &tag, cell - 1, x, rank);
            nearest(best, &tag, cell - 2, x, rank);
            nearest(best, &tag, cell - 3, x, rank);
        }
        if (cell + 1 - x < *far)
            nearest(best, &tag, cell + 1, x, rank);
        acc += *far / c + (float)(tag & 1u);
    }
    out[gid] = acc;
}
