// RUN: nplus1gen %s --validate --global 4096 --arg clip=0.8 --split always
// EXPECT: match
// The generated kernels follow the whole original text, after its `#undef SCALE3`: they
// get SCALE3 and SCALE12 back as they were at the kernel (macro_restore.h), which once
// failed with "use of undeclared identifier 'SCALE3'" (exit 3). Found in session 9's
// public-kernel trial.
/*
 * Shape of: darktable (darktable-org/darktable), data/kernels/basic.cl,
 * highlights_1f_lch_bayer: two constants are #defined just before the kernel, used in
 * its `if (clipped)` arm, and #undef'd right after the kernel. Our own kernel, written in
 * that shape.
 */
#define SCALE3 1.7320508f
#define SCALE12 3.4641016f
__kernel void clip_lch(__global const float *in, __global float *out, const float clip)
{
    const int x = get_global_id(0);
    float v = in[x];
    float p = v;
    if (v > clip) {
        float c = SCALE3 * (v - clip);
        p = clip + c / SCALE12;
    }
    out[x] = p;
}
#undef SCALE3
#undef SCALE12
