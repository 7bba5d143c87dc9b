// RUN: env NPLUS1_SPLIT=auto nplus1gen %s --validate --global 4096 --arg np=4000 \
// RUN: --arg phase=choice:0,0,0,1 --arg cell_start=range:0:3900 --arg cell_count=range:0:12 \
// RUN: --arg pos=range:0:1 --arg h=0.2 --report
// RUN: nplus1gen %s --validate --global 4096 --arg np=4000 --arg phase=choice:0,0,0,1 \
// RUN: --arg cell_start=range:0:3900 --arg cell_count=range:0:12 --arg pos=range:0:1 \
// RUN: --arg h=0.2 --split always --report
// EXPECT: match
// OUTPUT: ^    leaf 2 -> fluid_density__nplus1_leaf1  lines 34-61  cost
// OUTPUT-NOT: regrouped round by round
/*
 * Shape of: gepe3d (Gepe3D), fluid.cl: the position-based-fluid density kernel. A
 * particle that is not liquid returns early (a data decision at the top level); a
 * liquid one gathers its neighbours through the FOR_EACH_NEIGHBOUR macro: three nested
 * loops over the 3x3x3 neighbour cells, a fourth over the particles of a cell, and in
 * the innermost body `if (dist > KERNEL_SIZE) continue;` then `if (i != j)`. The cell
 * table here is random (start and count per cell), so the inner trip counts vary per
 * item. Today (the OUTPUT lines): split at the phase decision; the loop nest runs in
 * its leaf, no loop regrouped.
 */
#define CELLS 4
__kernel void fluid_density(__global const int *phase, __global const float4 *pos,
                            __global const int *cell_start, __global const int *cell_count,
                            __global float *density, __global float4 *grad, const int np,
                            const float h)
{
    const int i = get_global_id(0);
    if (i >= np)
        return;
    if (phase[i] != 0) {
        density[i] = 0.0f;
        grad[i] = (float4)(0.0f);
        return;
    }
    const float4 p = pos[i];
    const int cx = (int)(p.x * CELLS), cy = (int)(p.y * CELLS), cz = (int)(p.z * CELLS);
    float rho = 0.0f;
    float4 g = (float4)(0.0f);
    for (int x = max(cx - 1, 0); x <= min(cx + 1, CELLS - 1); x++) {
        for (int y = max(cy - 1, 0); y <= min(cy + 1, CELLS - 1); y++) {
            for (int z = max(cz - 1, 0); z <= min(cz + 1, CELLS - 1); z++) {
                const int cell = (x * CELLS + y) * CELLS + z;
                const int first = cell_start[cell];
                for (int k = 0; k < cell_count[cell]; k++) {
                    const int j = (first + k) % np;
                    const float4 d = p - pos[j];
                    const float dist = length(d.xyz);
                    if (dist > h)
                        continue;
                    const float q = h * h - dist * dist;
                    rho += q * q * q;
                    if (i != j) {
                        const float s = (h - dist) * (h - dist) / fmax(dist, 1e-3f);
                        g += d * s;
                    }
                }
            }
        }
    }
    density[i] = rho;
    grad[i] = g;
}
