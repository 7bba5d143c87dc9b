/*
 * --profile-html (tests/profile/html.sh): text the page must escape,
 * <script>document.title = "not escaped"</script> & 'quotes' <b>bold?</b>,
 * and a decision and a loop whose efficiencies the page shows beside
 * their lines.
 */
__kernel void escapes(__global const float *x, __global float *y)
{
    int i = get_global_id(0);
    float a = x[i];
    if (i % 2 == 0 && a < 2.0f)      /* "<" and "&&" */
        a = a * 0.5f + 1.0f;
    else
        a = a * 0.25f - 1.0f;
    for (int t = 0; t < (i & 7); t++)
        a = a * a + 0.5f;
    y[i] = a;
}

/* Paths in runs of 64 items: no group of 32 mixes them. */
__kernel void runs(__global const float *x, __global float *y)
{
    int i = get_global_id(0);
    if ((i >> 6) & 1)
        y[i] = x[i] * 2.0f;
    else
        y[i] = x[i] + 2.0f;
}
