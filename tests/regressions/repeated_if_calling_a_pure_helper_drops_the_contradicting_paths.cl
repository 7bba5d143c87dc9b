// RUN: nplus1gen %s --validate --global 4096 --arg kind=choice:0,2,4,6 --arg f=range:0:1 \
// RUN: --split always --report --require-all-leaves
// EXPECT: match all-leaves
// OUTPUT: kernel cell_update: can be split: 8 leaves, 4 leaf kernels
// OUTPUT: leaf 2 dropped: impossible path \(is_moving\(type\) true on line 48, false on line 54,
// OUTPUT: kernel through_pointer: can be split: 4 leaves, 4 leaf kernels
/*
 * Shape of: an LBM step's cell-type tests (blackwut/LBMCL, kernels.cl, compute): a cell
 * type read once from a map, then `if (is_moving(type))` written three times around
 * the collision, each a call to a one-line helper that tests a bit of its argument. The
 * repeated-condition rule of impossible paths (tool/plan/paths.c) took any call of a
 * helper with a body for one that may read memory another item writes, so none of the
 * repeats was decided by the first: of LBMCL's 48 leaves 36 were paths that test
 * is_moving() true and then false, each with a leaf kernel, and --validate asked for
 * inputs to reach them ("give inputs that reach them, e.g. --arg map=choice:..."),
 * which no input can. A helper is now looked into: one that names only its parameters
 * and locals (and loads, stores and calls nothing with an effect, which the condition's
 * effects already say) gives the outcome it gave. Here 8 paths, 4 can run.
 * `through_pointer` reads its argument through a pointer to a private copy that the
 * kernel loads again between the two tests (a read through a parameter): its paths stay.
 */
#define MOVING 2
#define WALL 4

static int is_moving(const int t)
{
    return (t & MOVING) != 0;
}

static int is_wall(const int t)
{
    return (t & WALL) != 0;
}

static int bit_set(const int *t)
{
    return (*t & MOVING) != 0;
}

__kernel void cell_update(__global const int *kind, __global const float *f,
                          __global float *out, __global float *vel)
{
    const int i = get_global_id(0);
    const int type = kind[i];
    float rho = f[i];
    float u = 0.0f;

    if (is_moving(type))
        rho = rho * 0.5f + 0.25f;

    for (int r = 0; r < 20; r++)
        rho = rho * 0.99f + 0.01f * sin(rho);

    if (is_moving(type)) {
        u = 0.1f;
    } else {
        for (int r = 0; r < 20; r++)
            u = u * 0.9f + rho * cos(u);
    }

    if (is_wall(type))
        vel[i] = u;
    out[i] = rho + u;
}

__kernel void through_pointer(__global const int *kind, __global const float *f,
                              __global float *out, __global float *vel)
{
    const int i = get_global_id(0);
    int type = kind[i];
    float rho = f[i];
    if (bit_set(&type)) {
        rho = rho * 0.5f;
        type = kind[i ^ 1];
    } else {
        type = kind[i ^ 2];
    }
    if (bit_set(&type)) {
        for (int r = 0; r < 20; r++)
            rho = rho * 0.99f + 0.01f * sin(rho);
    } else {
        vel[i] = rho;
    }
    out[i] = rho;
}
