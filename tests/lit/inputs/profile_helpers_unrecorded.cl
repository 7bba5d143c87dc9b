/* Helpers holding decisions that the profile leaves as written (a note says which):
 * one called in a loop's condition, one on one side of ?:. The helper called plainly
 * is recorded; one defined after the kernel (a prototype before it) too. */
int step(int *s)
{
    if (*s > 0) {
        (*s)--;
        return 1;
    }
    return 0;
}

float later(float x);

float clampit(float x)
{
    if (x > 4.0f)
        return 4.0f;
    return x;
}

__kernel void notes(__global const int *in, __global float *out)
{
    int i = get_global_id(0);
    int s = in[i] % 5;
    int n = 0;
    while (step(&s))
        n++;
    float a = in[i] > 3 ? clampit((float)in[i]) : 0.0f;
    out[i] = a + clampit((float)n) + later((float)i);
}

float later(float x)
{
    if (x > 100.0f)
        return x * 0.5f;
    return x;
}
