// A `break` inside a braced case block leaves the switch; the condition tree
// must not let the path fall through into the next case. Here it did: items
// with key == 0 were classified into the next case's path (a return: an
// empty leaf), so they skipped the epilogue `iout[gid] += 1`.
// Found while writing the generator; fixed in d963579 (flatten_case follows
// the statements of a braced case body).
// RUN: nplus1gen %s --validate -q --global 1024 --split always
// EXPECT: match
__kernel void braced_break(__global const int *ia, __global int *iout)
{
    int gid = get_global_id(0);
    int key = ia[gid] & 3;
    switch (key) {
    case 0: {
        int t = key + 1;
        break;
    }
    case 1:
        return;
    default:
        iout[gid] = 7;
        break;
    }
    iout[gid] += 1;
}
