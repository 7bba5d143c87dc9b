/*
 * stencil_guards.cl - a 2-D stencil with boundary guards and cell classes.
 *
 * Models the lattice/grid update kernels of OpenCL CFD and heat-diffusion
 * codes: one work-item per cell; solid (obstacle) and inflow cells are
 * handled first and return; a fluid cell walks its 3x3 neighbourhood,
 * guards each neighbour against the grid's border, skips solid neighbours
 * and weights the others with an edge-stopping (exp) weight.
 *
 * Today: the cell-class decisions are at the top level and read data, so
 * they split (solid, inflow, fluid); the neighbour tests inside the 3x3
 * loop stay in the fluid leaf.
 */
#define FLUID 0
#define SOLID 1
#define INFLOW 2

__kernel void diffuse_cells(__global const uchar *cell, __global const float *u,
                            __global float *u_next, const int w, const int h,
                            const float kappa)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    const int c = y * w + x;
    const int kind = cell[c];
    if (kind == SOLID) {
        u_next[c] = 0.0f;
        return;
    }
    if (kind == INFLOW) {
        u_next[c] = 1.0f;
        return;
    }
    const float uc = u[c];
    float acc = 0.0f, wsum = 0.0f;
    for (int dy = -1; dy <= 1; dy++) {
        for (int dx = -1; dx <= 1; dx++) {
            const int xx = x + dx, yy = y + dy;
            if (xx < 0 || yy < 0 || xx >= w || yy >= h)
                continue;
            const int nb = yy * w + xx;
            if (cell[nb] != SOLID) {
                const float d = u[nb] - uc;
                const float wt = exp(-kappa * d * d) * (dx == 0 || dy == 0 ? 1.0f : 0.7071f);
                acc += wt * u[nb];
                wsum += wt;
            }
        }
    }
    u_next[c] = acc / fmax(wsum, 1e-6f);
}
