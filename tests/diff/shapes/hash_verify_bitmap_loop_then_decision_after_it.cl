// RUN: env NPLUS1_SPLIT=auto nplus1gen %s --validate --global 4096 --arg n=4000 \
// RUN: --arg salt=range:0:1000000 --arg bitmap=size:64 --arg bitmap=range:0:4294967295 \
// RUN: --arg table=size:256 --arg table=range:0:4294967295 --arg ncand=24 --report
// RUN: nplus1gen %s --validate --global 4096 --arg n=4000 --arg salt=range:0:1000000 \
// RUN: --arg bitmap=size:64 --arg bitmap=range:0:4294967295 --arg table=size:256 \
// RUN: --arg table=range:0:4294967295 --arg ncand=24 --split always --report
// EXPECT: match
// OUTPUT: regroup point: line 64, if \(bit\)
// OUTPUT: regroup point: line 71, if \(probes > 6\)
// OUTPUT: state machine \(tile\): regrouped round by round
/*
 * Shape of: John the Ripper (openwall/john), run/opencl/md5_kernel.cl: each work-item
 * hashes its candidates in a loop, then cmp() tests the hash against a bitmap
 * (`tmp &= (bitmaps[...] >> (bitmap_index & 31)) & 1U`) and only on a bitmap hit runs
 * cmp_final(), the costly lookup in the hash table; the hash lives in a private array
 * `uint hash[4]` passed to the compare helper by pointer. Here, after the loop, a
 * decision on whether any candidate matched runs a costly stretch (a second hash of
 * many rounds) or a cheap store: a decision after the loop. Each item writes only its
 * own result (no atomics).
 */
static uint rotl32(uint x, uint r)
{
    return (x << r) | (x >> (32u - r));
}

static void md_like(uint key, uint salt, uint *hash)
{
    uint a = 0x67452301u ^ key, b = 0xefcdab89u, c = 0x98badcfeu ^ salt, d = 0x10325476u;
    for (int r = 0; r < 16; r++) {
        a = rotl32(a + (b ^ c ^ d) + key + (uint)r * 0x5a827999u, 7u) + b;
        d = rotl32(d + (a & b) + salt, 12u) + a;
        c = rotl32(c + (d | ~a) + 0x6ed9eba1u, 17u) + d;
        b = rotl32(b + (c ^ a) + key, 22u) + c;
    }
    hash[0] = a;
    hash[1] = b;
    hash[2] = c;
    hash[3] = d;
}

static int cmp_final(const uint *hash, __global const uint *table)
{
    for (int k = 0; k < 256; k++)
        if (table[k] == (hash[0] ^ hash[2]))
            return k;
    return -1;
}

__kernel void verify(__global const uint *salt, __global const uint *bitmap,
                     __global const uint *table, __global int *found, __global uint *proof,
                     const int ncand, const int n)
{
    const int gid = get_global_id(0);
    if (gid >= n)
        return;
    const uint s = salt[gid];
    uint hash[4];
    int hit = -1;
    int probes = 0;
    for (int c = 0; c < ncand; c++) {
        md_like((uint)(gid * ncand + c), s, hash);
        const uint bi = hash[0] & 2047u;
        const uint bit = (bitmap[bi >> 5] >> (bi & 31u)) & 1u;
        if (bit) {
            probes++;
            const int k = cmp_final(hash, table);
            if (k >= 0 && hit < 0)
                hit = c;
        }
    }
    if (probes > 6) {
        uint x = hash[1] ^ s;
        for (int r = 0; r < 512; r++)
            x = rotl32(x * 0x9e3779b1u + (uint)r, 5u) ^ hash[r & 3];
        proof[gid] = x;
    } else {
        proof[gid] = hash[3];
    }
    found[gid] = hit * 64 + probes;
}
