// RUN: nplus1gen %s -k wide_labels --validate --global 4096 --arg in=choice:4294967297,1,-9223372036854775808,2
// RUN: nplus1gen %s -k unsigned_wide_labels --validate --global 4096 --arg in=choice:18446744073709551615,4294967295,3 --strategy tile
// EXPECT: match all-leaves
/*
 * switch_64bit_case_labels.cl - regression (issue 16, item 4): case labels
 * that need 64 bits beside small ones (0x100000001L and 0x1L).
 *
 * Each leaf replaced the switch's value by its case value as an int literal,
 * '(1)', which made the switch an int switch: its labels converted to int,
 * 0x100000001L became 1, and clang refused the leaf ("duplicate case value",
 * exit 3). A 64-bit switch now gets its value as a long literal, '(1L)'.
 */
__kernel void wide_labels(__global const long *in, __global int *out)
{
    const int i = get_global_id(0);
    switch (in[i]) {
    case 0x100000001L:
        out[i] = 7;
        break;
    case 0x1L:
        out[i] = 3;
        break;
    case -0x7fffffffffffffffL - 1:
        out[i] = 5;
        break;
    default:
        out[i] = (int)(in[i] & 0xff);
    }
}

__kernel void unsigned_wide_labels(__global const ulong *in, __global int *out)
{
    const int i = get_global_id(0);
    switch (in[i]) {
    case 0xffffffffffffffffUL:
        out[i] = 9;
        break;
    case 0xffffffffUL:
        out[i] = 4;
        break;
    default:
        out[i] = 1;
    }
}
