// run.py --loops (loopgen.py), reduced: the loop kernel (--strategy tile) gave
// items whose loop test is false at entry, or turns false early, the state of
// another item (a = 0 items iterate 21 times, a = 5 items none) on POCL, under
// its loopvec and cbs work-group methods, with --wg 2 or more. Cause: the round
// loop and the refill loop began at the same point and were merged into one
// loop whose barrier only refilling lanes reached; fixed by starting each round
// with a barrier (docs/design.md, "Loops").
// RUN: nplus1gen %s --validate --global 64 --arg n=64 --arg data=choice:0,5 --seed 5 --strategy tile --split always --wg 2
// EXPECT: match
__kernel void k6(__global const int *data, __global int *out_i, const uint n)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    int a = data[i] % 396;
    int steps = 0;
    while (steps < 21 && a != 0) {
        if (a < -11) {
            a = a / 2 - 9;
        } else {
            a = (a * 5 + 56) % 4093;
        }
        steps++;
    }
    out_i[i] = a + steps;
}
