// A switch that covers every value of `iv & 7`, each case holding an if: at
// commit 9bf24de the classifier was inlined into the counting kernel (which
// has barriers) and POCL 3.1 crashed in the compiled kernel (SIGSEGV in
// c1__nplus1_count; a standalone OpenCL kernel of the same shape crashes too).
// The counting pass no longer takes that shape; this keeps it so.
// RUN: nplus1gen %s --validate -q --global 1024 --strategy ordered --split always
// EXPECT: match
__kernel void c1(__global const int *ia, __global float *out)
{
    int gid = get_global_id(0);
    int iv = ia[gid];
    switch (iv & 7) {
    case 0: break;
    case 1: break;
    case 2: break;
    case 3: break;
    case 4: break;
    case 5: break;
    case 6: break;
    case 7: break;
    }
    if (iv > 512) {
    }
    out[gid] = out[gid] * 0.5f + 1.0f;
}
