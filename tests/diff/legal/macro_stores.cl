// Stores written by a statement-like macro: `unpackv(...)` expands to an
// assignment to a field of a global struct. libclang 14 gives no operator
// text inside a macro expansion, so the store was not seen and every leaf
// was "nothing observable" (nplus1-no-decision); the operator now follows
// from the expression's type (an lvalue on the left is an assignment).
typedef struct rec {
    float v[4];
    int n;
} rec;

#define unpackv(arr, var, gid, idx, val) (arr)[(gid)].var[(idx)] = val;
#define STORE_N(arr, gid, val) (arr)[(gid)].n = val;
#define BUMP(x) (x)++

__kernel void unpack(__global const float *in, __global rec *out)
{
    const int i = get_global_id(0);
    int hits = 0;
    if (in[i] > 0.5f) {
        unpackv(out, v, i, 0, in[i])
        BUMP(hits);
    } else if (in[i] > 0.0f) {
        unpackv(out, v, i, 1, -in[i])
    } else {
        STORE_N(out, i, 7)
    }
    unpackv(out, v, i, 3, (float)hits)
}
