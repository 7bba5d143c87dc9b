// RUN: nplus1gen %s --validate --global 4096 --strategy aggregated,atomic --split always
// EXPECT: match all-leaves
/*
 * private_copies_through_array_params.cl - regression (issue 26, item 7): the
 * shape of John the Ripper's keepass_final (opencl_misc.h's memcpy_pp,
 * opencl_sha2_ctx.h's SHA256_Update, opencl_twofish.h's Twofish_decrypt),
 * which was refused with nplus1-side-effect although every store it makes
 * before its conditions is to the item's private buffers:
 *
 *  - memcpy_pp(ctx->buffer + left, ...): an array field of the struct a
 *    private pointer parameter points to, decayed to a pointer;
 *  - Twofish_decrypt(..., Byte p[16]) storing through `(p + 4)[0]` in a
 *    macro: a parameter written as an array is a pointer, and libclang 14
 *    shows it (and `p + 4`) with the array type it was written with;
 *  - a union member array (x.block) that a local pointer is set to.
 *
 * The stores write the caller's private ctx, block and out; the classifier
 * runs them again in its slice, on its own copies. Refused twice, now split.
 */
typedef unsigned char Byte;

typedef struct {
    uint total;
    uint state[2];
    Byte buffer[16];
} hash_ctx;

static void memcpy_pp(__private void *restrict dst, __private const void *restrict src, uint count)
{
    __private const char *s = src;
    __private char *d = dst;
    while (count--)
        *d++ = *s++;
}

static void ctx_update(__private hash_ctx *ctx, __private const Byte *input, uint ilen)
{
    uint left = ctx->total & 7u;
    ctx->total += ilen;
    if (ilen > 8u)
        ilen = 8u;
    memcpy_pp(ctx->buffer + left, input, ilen);
    for (uint k = 0; k < 16u; k++)
        ctx->state[k & 1u] = ctx->state[k & 1u] * 31u + ctx->buffer[k];
}

#define PUT32(v, p)                        \
    (p)[0] = (Byte)(((v)) & 0xff);         \
    (p)[1] = (Byte)(((v) >> 8) & 0xff);    \
    (p)[2] = (Byte)(((v) >> 16) & 0xff);   \
    (p)[3] = (Byte)(((v) >> 24) & 0xff)

static void block_decrypt(__private const hash_ctx *key, __private Byte c[16], __private Byte p[16])
{
    uint a = (uint)c[0] ^ key->state[0], b = (uint)c[5] ^ key->state[1];
    PUT32(a, p);
    PUT32(b, p + 4);
    PUT32(a ^ b, p + 8);
    PUT32(a + b, p + 12);
}

static int block_check(__private const hash_ctx *key, __private Byte *in)
{
    union {
        Byte block[16];
        uint w[4];
    } x;
    __private Byte *block;
    block = x.block;
    block_decrypt(key, in, block);
    return (int)(x.w[1] & 15u) - (int)(block[15] & 7u);
}

__kernel void keepass_like(__global const uchar *seed, __global int *cracked)
{
    const int i = get_global_id(0);
    hash_ctx ctx;
    Byte content[16];
    ctx.total = 0;
    ctx.state[0] = 7u;
    ctx.state[1] = 11u;
    for (int k = 0; k < 16; k++) {
        ctx.buffer[k] = 0;
        content[k] = seed[(i * 16 + k) % 4096];
    }
    ctx_update(&ctx, content, 5u + (uint)(i & 7));
    const int datasize = block_check(&ctx, content);
    if (datasize < 0)
        cracked[i] = 0;
    else if ((ctx.state[0] & 3u) == 1u)
        cracked[i] = datasize + 1;
    else
        cracked[i] = -datasize;
}
