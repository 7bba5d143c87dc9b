/*
 * A prologue that stores, then reads its own store back: the condition loads
 * scratch[i], which the item wrote just before. The classifier would run
 * before any store (every strategy but tile with contexts refuses it
 * [nplus1-memory-order]); under --strategy tile the classify phase runs the
 * prologue, store included, once per item, then the condition.
 */
__kernel void readback(__global const float *in, __global float *scratch, __global float *out)
{
    const int i = get_global_id(0);
    scratch[i] = in[i] * 4.0f - 2.0f;
    const float v = scratch[i];
    if (v > 1.0f) {
        float acc = v;
        for (int k = 0; k < 24; k++)
            acc = sqrt(acc * acc + 1.0f) - 0.5f;
        out[i] = acc;
    } else if (v < -1.0f) {
        out[i] = -v * 0.5f;
    } else {
        float acc = 0.0f;
        for (int k = 0; k < 12; k++)
            acc += exp(-v * (float)k);
        out[i] = acc;
        scratch[i] = acc * 0.25f;
    }
}
