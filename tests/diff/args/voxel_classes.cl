/*
 * A 3-D image classifier: each voxel of a volume is empty, a surface or
 * inside; inside voxels sum a column of the volume.
 */
__kernel void classify_voxels(read_only image3d_t vol, __global int *label,
                              __global float *value, const float iso)
{
    const sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
    const int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    const int nx = get_image_width(vol), ny = get_image_height(vol);
    const int i = (z * ny + y) * nx + x;
    const float4 v = read_imagef(vol, smp, (int4)(x, y, z, 0));
    if (v.x < iso) {
        label[i] = 0;
        value[i] = v.x;
    } else if (v.y < iso) {
        label[i] = 1;
        value[i] = v.x + v.y;
    } else {
        float s = 0.0f;
        for (int k = 0; k < 4; k++)
            s += read_imagef(vol, smp, (int4)(x, y, z + k, 0)).w;
        label[i] = 2;
        value[i] = s;
    }
}
