// RUN: nplus1gen %s --validate --global 4096 --arg cfg=size:1 --arg cfg=fill:0 \
// RUN: --arg in=range:0:1 --arg salt=size:4 --arg salt.version=choice:1,2 --arg salt.rounds=50 --split always --report
// EXPECT: match
// OUTPUT: kernel twice: can be split: 4 leaves, 2 leaf kernels
// OUTPUT: leaf 1 dropped: impossible path \(version == 1 true on line 41, false on line 46, nothing between writes what it reads\)
// OUTPUT: leaf 2 dropped: impossible path \(version == 1 false on line 41, true on line 46,
// OUTPUT: kernel written_between: can be split: 4 leaves, 3 leaf kernels
// OUTPUT: kernel reads_memory: can be split: 4 leaves, 4 leaf kernels
// OUTPUT: kernel address_taken: can be split: 4 leaves, 4 leaf kernels
// OUTPUT: kernel other_spacing: can be split: 4 leaves, 2 leaf kernels
// OUTPUT: kernel constant_field: can be split: 4 leaves, 2 leaf kernels
// OUTPUT: leaf 1 dropped: impossible path \(salt\[i & 3\]\.version == 1 true on line 149, false on line 154,
/*
 * Shape of: John the Ripper (openwall/john), run/opencl/keepass_kernel.cl, keepass_final:
 * `if (salt->version == 1) { ... } else { ... }` picks the random seed's length, then a
 * second `if (salt->version == 1) { ... }` on the same value picks the decryption, so the
 * condition tree's paths that take the first true and the second false (or the other way)
 * can get no item: of its 20 leaves 10 were such paths, each with a leaf kernel of its
 * own. A repeated if condition of the same text is now decided by the first when it reads
 * only private integer scalars (no address taken, no load, no call with an effect) that
 * nothing on the path writes in between (tool/plan/paths.c): `twice` keeps 2 leaf kernels.
 * The others keep the paths a write may change: a write of the scalar in the first if's
 * then branch (`written_between`: only its else path is dropped), a
 * condition that loads memory, which another item may change between the two reads
 * (`reads_memory`), a scalar whose address is taken (`address_taken`). `other_spacing`
 * writes the second condition with longer runs of spaces and a line break: the same
 * text (a space where the first has none would not be). `constant_field` reads a field
 * through a __constant pointer, as keepass_final does when John builds it with
 * MAYBE_CONSTANT = __constant (no work-item can write __constant memory): 2 kernels.
 */
static void bump(int *v)
{
    *v += 1;
}

__kernel void twice(__constant int *cfg, __global const float *in, __global float *out)
{
    const int i = get_global_id(0);
    const int version = cfg[0] + (int)(in[i] > 0.5f);
    float x = in[i];
    if (version == 1) {
        x = x * 2.0f;
    } else {
        x = x + 1.0f;
    }
    if (version == 1) {
        for (int r = 0; r < 50; r++)
            x = x * 0.9f + sin(x);
    } else {
        for (int r = 0; r < 60; r++)
            x = x * 0.8f + cos(x);
    }
    out[i] = x;
}

__kernel void written_between(__constant int *cfg, __global const float *in,
                              __global float *out)
{
    const int i = get_global_id(0);
    int version = cfg[0] + (int)(in[i] > 0.5f);
    float x = in[i];
    if (version == 1) {
        x = x * 2.0f;
        version = 2 - (int)(in[i] > 0.75f);
    } else {
        x = x + 1.0f;
    }
    if (version == 1) {
        for (int r = 0; r < 50; r++)
            x = x * 0.9f + sin(x);
    } else {
        for (int r = 0; r < 60; r++)
            x = x * 0.8f + cos(x);
    }
    out[i] = x;
}

__kernel void reads_memory(__constant int *cfg, __global const float *in, __global float *out)
{
    const int i = get_global_id(0);
    float x = in[i];
    if (in[i] > 0.5f) {
        x = x * 2.0f;
    } else {
        x = x + 1.0f;
    }
    if (in[i] > 0.5f) {
        for (int r = 0; r < 50; r++)
            x = x * 0.9f + sin(x);
    } else {
        for (int r = 0; r < 60; r++)
            x = x * 0.8f + cos(x);
    }
    out[i] = x + (float)cfg[0];
}

__kernel void address_taken(__constant int *cfg, __global const float *in, __global float *out)
{
    const int i = get_global_id(0);
    int version = cfg[0] + (int)(in[i] > 0.5f);
    float x = in[i];
    if (version == 1) {
        x = x * 2.0f;
        bump(&version);
    } else {
        x = x + 1.0f;
    }
    if (version == 1) {
        for (int r = 0; r < 50; r++)
            x = x * 0.9f + sin(x);
    } else {
        for (int r = 0; r < 60; r++)
            x = x * 0.8f + cos(x);
    }
    out[i] = x;
}

__kernel void other_spacing(__constant int *cfg, __global const float *in, __global float *out)
{
    const int i = get_global_id(0);
    const int version = cfg[0] + (int)(in[i] > 0.5f);
    float x = in[i];
    if (version == 1 && i >= 0) {
        x = x * 2.0f;
    } else {
        x = x + 1.0f;
    }
    if (version  ==  1 &&
        i >= 0) {
        for (int r = 0; r < 50; r++)
            x = x * 0.9f + sin(x);
    } else {
        for (int r = 0; r < 60; r++)
            x = x * 0.8f + cos(x);
    }
    out[i] = x;
}

typedef struct salt_t {
    int version;
    int rounds;
} salt_t;

__kernel void constant_field(__constant salt_t *salt, __global const float *in,
                             __global float *out)
{
    const int i = get_global_id(0);
    float x = in[i];
    if (salt[i & 3].version == 1) {
        x = x * 2.0f;
    } else {
        x = x + 1.0f;
    }
    if (salt[i & 3].version == 1) {
        for (int r = 0; r < salt[i & 3].rounds; r++)
            x = x * 0.9f + sin(x);
    } else {
        for (int r = 0; r < 60; r++)
            x = x * 0.8f + cos(x);
    }
    out[i] = x;
}
