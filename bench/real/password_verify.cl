/*
 * password_verify.cl - a keyspace search with a verify loop and an early
 * break.
 *
 * Models the candidate loops of OpenCL password-recovery kernels (the
 * hashcat/John-style "each work-item tries a slice of the keyspace"
 * shape): each work-item owns one salted target and tries `ncand`
 * consecutive candidates. A cheap hash of the candidate is compared on its
 * first bits with the target's (most candidates stop there); on a prefix
 * hit the expensive key stretch (many rounds) runs and, when the stretched
 * digest matches, the item records the candidate and breaks out.
 * bench/real/gen_inputs.py plants a match in part of the items with the
 * same functions.
 *
 * Today: the affine guard is the only top-level decision; the prefix test,
 * the full verify and the break sit inside the candidate loop.
 */
#define CHEAP_ROUNDS 8
#define STRETCH_ROUNDS 64

static uint arx(uint x, uint k, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        x += k;
        x ^= rotate(x, 7u);
        x *= 0x9e3779b1u;
        k = rotate(k, 5u) + 0x7f4a7c15u;
    }
    return x ^ (x >> 16);
}

__kernel void verify_slice(__global const uint *salt, __global const uint *target,
                           __global const uint *digest, __global int *found,
                           const uint first, const int ncand, const uint prefix_mask,
                           const uint n)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    const uint st = salt[i], tg = target[i] & prefix_mask;
    int hit = -1;
    for (int c = 0; c < ncand; c++) {
        const uint key = first + i * (uint)ncand + (uint)c;
        const uint h = arx(key, st, CHEAP_ROUNDS);
        if ((h & prefix_mask) == tg) {
            if (arx(h, st ^ 0xa5a5a5a5u, STRETCH_ROUNDS) == digest[i]) {
                hit = c;
                break;
            }
        }
    }
    found[i] = hit;
}
