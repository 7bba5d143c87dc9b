/* A verify loop with no guard (the launch is the item count): its only decisions sit in
 * the loop, a switch on the candidate's class and a break on a match. Under --split auto
 * the loop kernel is the tile candidate beside the original. */
__kernel void loop_only_verify_switch(__global const uint *target, __global const uchar *cls,
                                      __global int *found, const int ncand)
{
    const uint i = get_global_id(0);
    uint h = target[i] * 2654435761u;
    int hit = -1, c = 0;
    while (c < ncand) {
        const uint k = (h >> 3) & 255u;
        switch (cls[k]) {
        case 0:
            h = h * 1103515245u + 12345u;
            break;
        case 1:
            for (int r = 0; r < 8; r++)
                h = (h ^ (h >> 13)) * 0x5bd1e995u;
            break;
        default:
            h ^= (uint)c * 0x9e3779b9u;
            if ((h & 63u) == 0u)
                hit = c;
            break;
        }
        if (hit >= 0)
            break;
        c++;
    }
    found[i] = hit * 1000 + c;
}
