// Dose accumulation over a voxel grid: a masked voxel writes zeros and
// returns, so its store never runs before the conditions after the guard
// (nplus1-memory-order is path-sensitive). Each voxel's record is updated
// field by field: the store to 'dose' does not feed the condition that
// reads 'material' of the same record (field-sensitive).
typedef struct voxel {
    float dose;
    float density;
    int material;
    int hits;
} voxel;

__kernel void accumulate(__global const int *mask, __global voxel *grid,
                         __global const float *energy, __global float *out)
{
    const int i = get_global_id(0);
    if ((mask[i] & 7) == 0) {
        grid[i].dose = 0.0f;
        out[i] = 0.0f;
        return;
    }
    grid[i].dose = energy[i] * 0.5f;
    const int m = grid[i].material & 3;
    if (m == 0) { /* water */
        out[i] = energy[i] * 1.0f;
    } else if (m == 1) { /* bone */
        out[i] = energy[i] * 1.8f + grid[i].density;
    } else { /* air and the rest */
        out[i] = energy[i] * 0.001f;
    }
}
