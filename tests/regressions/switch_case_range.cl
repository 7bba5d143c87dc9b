// RUN: nplus1gen %s --validate --global 8192
// EXPECT: match all-leaves
/*
 * switch_case_range.cl - regression: GNU case ranges (`case 1 ... 3:`).
 *
 * nplus1gen used to read only the first value of a case range, so the
 * classifier sent items with the other values (2 and 3 here) to the
 * default leaf and the diff failed. Every value of the range now belongs
 * to the range's leaf: 4 leaves, all non-empty.
 */
__kernel void grade(__global const int *score, __global int *grade)
{
    const int i = get_global_id(0);
    const int s = score[i] / 100;      /* 0..10 */
    switch (s) {
    case 0 ... 3:
        grade[i] = 'F';
        break;
    case 4 ... 6:
        grade[i] = 'C' + (6 - s);
        break;
    case 7:
    case 8 ... 9:
        grade[i] = 'A' + (9 - s);
        break;
    default:
        grade[i] = 'S';
    }
}
