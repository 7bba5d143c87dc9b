// A hash-like kernel: a helper copies into the caller's private arrays
// through unqualified (in OpenCL 1.2: __private) pointers, and a macro stores
// into a private W[16] through a temporary pointer. Those are writes of the
// caller's private memory, not of global memory: the copies go to the
// classifier's slice, no nplus1-side-effect, and the later condition that
// reads global memory is not ordered after a global store
// (nplus1-memory-order). Before issue 19 both rules refused this kernel, and
// a copy the classifier needed was left out of the slice.
static void memcpy_pp(void *restrict dst, const void *src, size_t n)
{
    char *d = dst;
    const char *s = src;
    while (n--)
        *d++ = *s++;
}

#define SET_W(W, k, v) do { uint *p_ = (W) + (k); *p_ = (v); } while (0)

__kernel void hash_rounds(__global const uint *key, __global const uint *salt,
                          __global uint *digest, __global uint *rounds)
{
    const int i = get_global_id(0);
    uint block[4] = {key[i], key[i] ^ 0x5bd1e995u, key[i] * 3u, key[i] + 7u};
    uint w4[4];
    memcpy_pp(w4, block, sizeof w4);
    uint W[16];
    for (int k = 0; k < 16; k++)
        SET_W(W, k, w4[k & 3] + (uint)k);
    if ((W[5] & 3u) == 0u)
        rounds[i] = W[0] + W[15];
    else if ((W[5] & 3u) == 1u && salt[i] > 100u)
        rounds[i] = W[1] ^ salt[i];
    else
        rounds[i] = w4[2] - W[7];
    digest[i] = W[3] ^ w4[1];
}
