/* A -D whose value names macros of the file (-DSCALE(v)=BIAS(v)*GAIN), which the file
 * #undefs and #defines again after the kernel. The generated kernels follow the whole text:
 * they must expand GAIN and BIAS as the kernel saw them, not as lines 17-20 leave them (a
 * wrong result before: the restore followed a -D's name but not the macros its value
 * names; tool/analyze/macro_restore.c, command_line_value). */
#define GAIN 2.0f
#define BIAS(x) ((x) + 0.5f)
__kernel void scale_by(__global float *a)
{
    int i = get_global_id(0);
    if (a[i] > 0.0f)
        a[i] = SCALE(a[i]);
    else
        a[i] = a[i] - SCALE(1.0f);
}
#undef GAIN
#define GAIN 3.0f
#undef BIAS
#define BIAS(x) ((x) - 0.5f)
