// RUN: nplus1gen %s --validate --global 4096 --arg lim=0.5 --split always
// RUN: nplus1gen %s --validate --global 4096 --arg lim=0.5 --strategy tile
// EXPECT: match all-leaves
// The generated kernels follow the whole original text. soften uses a function-like
// macro written over two lines (SOFT, #undef'd after the kernel) that names another
// (GAIN, #defined again after soften with another value, which harden uses): soften's
// generated text gets both back as they were at soften, harden's sees GAIN as the text
// leaves it. A macro nobody changes (BIAS) is left alone.
#define BIAS 0.25f
#define GAIN 2.0f
#define SOFT(v, l) ((l) + GAIN * \
                    ((v) - (l)) * 0.5f)
__kernel void soften(__global const float *in, __global float *out, const float lim)
{
    const int i = get_global_id(0);
    float v = in[i];
    if (v > lim)
        v = SOFT(v, lim) + BIAS;
    out[i] = v;
}
#undef SOFT
#undef GAIN
#define GAIN 3.0f
__kernel void harden(__global const float *in, __global float *out, const float lim)
{
    const int i = get_global_id(0);
    float v = in[i];
    if (v < lim)
        v = v * GAIN - BIAS;
    out[i] = v;
}
