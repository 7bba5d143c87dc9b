// A char buffer, a uchar buffer and an int3 argument, for the --arg messages
// of validate_narrow_and_vector_args.test.
__kernel void narrow_args(__global const char *c, __global const uchar *u, __global int *out,
                          const int3 N)
{
    int i = get_global_id(0);
    if (c[i] < N.x)
        out[i] = u[i] + N.y;
    else
        out[i] = N.z;
}
