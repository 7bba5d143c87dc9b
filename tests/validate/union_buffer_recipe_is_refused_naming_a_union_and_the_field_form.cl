// RUN: nplus1gen %s --validate --global 256 --arg links=range:0:255
// EXPECT: exit 2
// OUTPUT: --arg 'links=range:0:255': a union buffer takes its contents from file:PATH, or one field of every element from NAME.FIELD=VALUE or a recipe \(links\.FIELD=range:LO:HI\)
// OUTPUT-NOT: struct buffer
/*
 * A recipe on a buffer of unions (a graph's edge list stored as `union { int i; float f; }`
 * pairs, target then weight, as generated graph kernels write it) is a usage error. It
 * said "a struct buffer takes its contents from file:PATH": the buffer is a union, and
 * a recipe per field (`--arg links.i=range:0:255`) fills it too, which the message did
 * not say.
 */
union word {
    int i;
    float f;
};

__kernel void relax(__global const union word *links, __global const int *start,
                    __global int *best)
{
    const int v = get_global_id(0);
    const int to = links[2 * v].i;
    if (to >= 0 && start[v] < 1000) {
        int d = start[v];
        for (int r = 0; r < 30; r++)
            d = (d * 7 + links[2 * v + 1].i) & 1023;
        best[v] = d;
    } else {
        best[v] = -1;
    }
}
