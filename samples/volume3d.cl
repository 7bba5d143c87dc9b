/*
 * volume3d.cl - one step of heat diffusion on a 3-D grid, boundaries apart.
 *
 * One work-item per voxel of the launched box; the box may start anywhere
 * in the volume (a non-zero global offset) and the volume is `nx` by `ny`
 * by `nz` voxels. The decision tells the kind of voxel apart:
 *   - voxels on a face of the launched box keep a fixed temperature,
 *     except on the top face (z at its last value), which is insulated,
 *   - interior voxels take the 7-point Laplacian step.
 * Uses get_work_dim() in a condition (the kernel also works in 2-D, where
 * there is no z face), and get_global_offset / get_global_size for the
 * box. Nested ifs split the boundary leaf.
 * Expected: 3 leaves, all non-empty in 3-D (in 2-D there is no top face,
 * so the insulated leaf gets no items). Validate with
 *   nplus1gen samples/volume3d.cl --validate --global 24,20,12 \
 *       --offset 2,3,1 --arg nx=26 --arg ny=23 --arg nz=13 --arg alpha=0.1
 * (the buffers hold (2+24)*(3+20)*(1+12) voxels), or in 2-D with
 *   nplus1gen samples/volume3d.cl --validate --global 60,40 --offset 4,4 \
 *       --arg nx=64 --arg ny=44 --arg nz=1 --arg alpha=0.2
 */
static int on_face(int v, int lo, int n)
{
    return v == lo || v == lo + n - 1;
}

__kernel void diffuse(__global const float *t, __global float *t_next,
                      const int nx, const int ny, const int nz, const float alpha)
{
    const int x = get_global_id(0), y = get_global_id(1);
    const int z = get_work_dim() > 2 ? (int)get_global_id(2) : 0;
    const int ox = get_global_offset(0), oy = get_global_offset(1);
    const int oz = get_work_dim() > 2 ? (int)get_global_offset(2) : 0;
    const int sx = get_global_size(0), sy = get_global_size(1);
    const int sz = get_work_dim() > 2 ? (int)get_global_size(2) : 1;
    const int i = (z * ny + y) * nx + x;

    if (on_face(x, ox, sx) || on_face(y, oy, sy) ||
        (get_work_dim() > 2 && on_face(z, oz, sz))) {
        if (get_work_dim() > 2 && z == oz + sz - 1 && !on_face(x, ox, sx) &&
            !on_face(y, oy, sy)) {
            t_next[i] = t[i - nx * ny];      /* insulated top: copy the voxel below */
        } else {
            t_next[i] = t[i];                /* fixed temperature */
        }
    } else {
        /* in 2-D there is no z neighbour: count the voxel itself twice */
        const float tz = get_work_dim() > 2 ? t[i - nx * ny] + t[i + nx * ny] : 2.0f * t[i];
        const float lap = t[i - 1] + t[i + 1] + t[i - nx] + t[i + nx] + tz - 6.0f * t[i];
        t_next[i] = t[i] + alpha * lap;
    }
    (void)nz;
}
