// RUN: nplus1gen %s --validate --global 4096 --strategy aggregated --split always
// EXPECT: refused nplus1-memory-order
/*
 * global_array_param_store_before_condition.cl - regression (issue 26, item
 * 7): `put(__global int p[4], ...)` stores to the caller's buffer, and the
 * condition reads it back. libclang 14 shows the parameter with its array
 * type, and the store was taken for a write of a private array: the kernel
 * split, and the classifier read a[i] before put wrote it (validation
 * FAILED). Two items, a[i] = 0 and out[i] = 5 for both: the original stores
 * 5 and takes the first branch; the classifier read 0 and put both in the
 * second. The store is memory now, and the kernel is refused.
 */
static void put(__global int p[4], int v)
{
    p[0] = v;
}

__kernel void put_then_decide(__global int *a, __global int *out)
{
    const int i = get_global_id(0);
    put(&a[i], out[i]);
    if (a[i] > 3)
        out[i] = 1;
    else
        out[i] = 2;
}
