// RUN: env NPLUS1_SPLIT=auto nplus1gen %s --validate --global 4096 --arg n=4000 \
// RUN: --arg pw=size:256000 --arg pw=range:0:256 --arg len=range:0:63 --report
// RUN: nplus1gen %s --validate --global 4096 --arg n=4000 --arg pw=size:256000 \
// RUN: --arg pw=range:0:256 --arg len=range:0:63 --split always --report
// EXPECT: match
// OUTPUT: ^    leaf 2 -> key_digest__nplus1_leaf2  lines 42-47  cost
/*
 * Shape of: John the Ripper (openwall/john), run/opencl/axcrypt_kernel.cl (and the
 * other kernels that build a key in a private union): `union { ulong u[8]; uchar c[64];
 * } key` is filled byte by byte from the password and then read as words by the
 * compression loop. Here the union holds uint w[16] / uchar c[64]; the loop runs over
 * the key's words, and the body decides on the word: a padding word (cheap), a word of
 * the password (mixed in a few rounds) or the word that holds the length (a long
 * finalisation). Each item writes its own digest.
 */
typedef union {
    uint w[16];
    uchar c[64];
} key_t;

__kernel void key_digest(__global const uchar *pw, __global const int *len,
                         __global uint *digest, const int n)
{
    const int gid = get_global_id(0);
    if (gid >= n)
        return;
    key_t key;
    const int l = len[gid] & 55;
    for (int b = 0; b < 64; b++)
        key.c[b] = b < l ? pw[gid * 64 + b] : (b == l ? (uchar)0x80 : (uchar)0);
    key.w[14] = (uint)l << 3;
    uint h = 0x811c9dc5u, g = 0x01000193u;
    for (int k = 0; k < 16; k++) {
        const uint w = key.w[k];
        if (w == 0u) {
            h = (h ^ (uint)k) * 0x01000193u;
        } else if (k != 14) {
            for (int r = 0; r < 4; r++) {
                h = (h ^ w) * 0x01000193u;
                g += h >> 7;
            }
        } else {
            for (int r = 0; r < 48; r++) {
                g = (g ^ h) * 0x9e3779b1u + w;
                h = (h << 5 | h >> 27) + g;
            }
        }
    }
    digest[gid] = h ^ g;
}
