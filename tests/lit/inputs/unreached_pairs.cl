/* The issue's shape: a leaf decided by a field of a struct buffer indexed by a
 * value loaded from another buffer, and one decided by a struct argument's field.
 * With default inputs (integer fields in [0, N)) neither is reached. */
typedef struct { int type; float radius; } Shape;
typedef struct { float scale; int limit; } Params;

__kernel void narrow(__global const int2 *pairs, __global const Shape *shapes,
                     __global float *out, int numCompoundPairs, Params p)
{
    int i = get_global_id(0);
    if (i >= numCompoundPairs)
        return;
    int a = pairs[i].x;
    __global const Shape *sa = &shapes[a];
    int shapeTypeA = sa->type;
    if (shapeTypeA == 4096) {
        out[i] = shapes[a].radius * p.scale;
    } else if (p.limit < 0) {
        out[i] = -1.0f;
    } else {
        out[i] = 0.0f;
    }
}
