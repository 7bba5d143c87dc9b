// RUN: nplus1gen %s --validate --global 4096 --arg spot=range:0:2 --arg barrier=1.5 --arg strike=0.5 --strategy atomic,aggregated,ordered,chunked,tile --dispatch auto,fused,host
// EXPECT: match all-leaves
/*
 * params_named_like_builtins.cl - regression (issue 16, item 7): an options
 * kernel whose parameters are named like the builtins the generated kernels
 * call ('barrier', 'atomic_inc', 'get_local_id', ...) and like the locals of
 * the generated code ('lid', 'sum', 'total', 'w', 'x', 'r', 'first', ...).
 *
 * The generated kernels take the user's parameters, so 'barrier(...)' there
 * called the float parameter ("called object type 'float' is not a
 * function", exit 3). They now call file-scope nplus1_* wrappers of the
 * builtins, and every local they declare starts with nplus1_.
 */
__kernel void price(__global const float *spot, __global float *payoff, const float barrier,
                    const float strike, const int lid, const int sum, const int total,
                    const int w, const int x, const int r, const int first, const int next,
                    const int atomic_inc, const int atomic_add, const int get_local_id,
                    const int get_group_id, const int get_num_groups, const int min,
                    const int popcount, const int l, const int b, const int e, const int m,
                    const int per, const int c, const int base, const int pack, const int rel,
                    const int mine, const int v, const int off, const int p, const int pad,
                    const int taken, const int leaf, const int slot, const int lane,
                    const int lc, const int mix, const int i, const int d, const int run)
{
    const int g = get_global_id(0);
    const int bias = lid + sum + total + w + x + r + first + next + atomic_inc + atomic_add +
                     get_local_id + get_group_id + get_num_groups + min + popcount + l + b + e +
                     m + per + c + base + pack + rel + mine + v + off + p + pad + taken + leaf +
                     slot + lane + lc + mix + i + d + run;
    const float s = spot[g];
    if (s >= barrier)
        payoff[g] = 0.0f; /* knocked out */
    else if (s > strike)
        payoff[g] = s - strike + 0.001f * bias;
    else
        payoff[g] = -0.001f * bias;
}
