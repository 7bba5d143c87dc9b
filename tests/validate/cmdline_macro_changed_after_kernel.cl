/* A macro of the command line (-DSCALE at generation, or at the build) that the file
 * #undefs and #defines again after the kernel that uses it, and a helper that uses it
 * too. The generated kernels follow the whole text: they must see SCALE as the -D gives
 * it, not line 20's 3.0f (a wrong result before: the generated file took the file's
 * definition; tool/analyze/macro_restore.c, from_command_line). */
static float scaled(float v)
{
    return SCALE * v + 1.0f;
}

__kernel void scale_pos(__global float *a)
{
    int i = get_global_id(0);
    if (a[i] > 0.0f)
        a[i] = SCALE * a[i];
    else
        a[i] = scaled(a[i]);
}
#undef SCALE
#define SCALE 3.0f
