// Issue 18 review: a context that was wrong (carried a dangling pointer, left a
// vstore'd array behind) or did not compile under --strategy tile. Now correct.
typedef struct { int *p; int n; } S;
__kernel void k(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    int arr[2];
    arr[0] = in[i]; arr[1] = in[i] * 2;
    S s;
    s.p = arr;
    s.n = in[i] & 1;
    if (s.n) {
        out[i] = s.p[0] + 1;
    } else {
        out[i] = s.p[1] - 1;
    }
}
