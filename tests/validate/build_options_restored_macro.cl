// A macro the generated text restores (its file #undefs it after the kernel) whose
// definition sits in an #ifndef group: under a -DGAIN at run time the original would use
// the build option's value and the restore the generated one, so _create refuses and names
// GAIN. BIAS, defined the same way and never changed, is left alone: a -DBIAS reaches the
// original and the set alike.
#ifndef GAIN
#define GAIN 2.0f
#endif
#ifndef BIAS
#define BIAS 0.25f
#endif
__kernel void gain(__global const float *in, __global float *out, const float lim)
{
    const int i = get_global_id(0);
    float v = in[i];
    if (v > lim)
        v = v * GAIN + BIAS;
    out[i] = v;
}
#undef GAIN
