/* A -D whose value names another -D (-DSCALE=GAIN -DGAIN=2.0f), which the file #undefs and
 * #defines again after the kernel: the generated kernels must see GAIN as the build gives
 * it (a wrong result before: only -Ds expanded in the file's text were recorded, so GAIN,
 * reached through SCALE's value, was not restored; tool/analyze/macro_restore.c). */
__kernel void scale_by(__global float *a)
{
    int i = get_global_id(0);
    if (a[i] > 0.0f)
        a[i] = SCALE * a[i];
    else
        a[i] = a[i] - SCALE;
}
#undef GAIN
#define GAIN 3.0f
