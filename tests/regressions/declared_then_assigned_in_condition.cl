// RUN: nplus1gen %s -k int_assigned --validate --global 4096 --arg in=range:0:100
// RUN: nplus1gen %s -k float_assigned --validate --global 4096 --arg in=range:0:1 --strategy ordered
// EXPECT: match all-leaves
/*
 * declared_then_assigned_in_condition.cl - regression (issue 16, item 2):
 * a variable declared on its own line, without a value, and assigned inside
 * the condition that reads it, the pattern docs/legality.md calls legal.
 *
 * The slice held only what the conditions read, so the classifier assigned
 * 'v' and 't2' without declaring them ("use of undeclared identifier", exit
 * 3). The classifier now declares every variable the conditions and the
 * slice write.
 */
__kernel void int_assigned(__global const int *in, __global int *out)
{
    const int i = get_global_id(0);
    int v;
    if ((v = in[i] % 8) > 3)
        out[i] = v * 2;
    else
        out[i] = -v;
}

__kernel void float_assigned(__global const float *in, __global float *out)
{
    const int i = get_global_id(0);
    float t2;
    if ((t2 = in[i] * 3.0f) > 1.5f)
        out[i] = t2 * 2.0f;
    else
        out[i] = -t2;
}
