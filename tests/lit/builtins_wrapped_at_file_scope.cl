// The generated kernels take the user's parameters, so they call the builtins through
// file-scope wrappers (a parameter 'barrier' or 'get_local_id' cannot hide those), and
// every local they declare starts with nplus1_.
// RUN: rm -rf %t && mkdir %t
// RUN: %nplus1gen %s -o %t -q --strategy ordered
// RUN: %strip %t/builtins_wrapped_at_file_scope.nplus1.cl > %t/set.cl
// RUN: %FileCheck %s --input-file %t/set.cl

// CHECK:      static inline uint nplus1_local_id(void) { return (uint)get_local_id(0); }
// CHECK:      static inline void nplus1_barrier(void) { barrier(CLK_LOCAL_MEM_FENCE); }
// CHECK-LABEL: void k__nplus1_count(
// CHECK:          const uint nplus1_lid = nplus1_local_id();
// CHECK:          nplus1_barrier();
// CHECK-LABEL: void k__nplus1_scan(
// CHECK:          const uint nplus1_lid = nplus1_local_id();
// CHECK:          uint nplus1_sum = 0;
// CHECK:          const uint nplus1_total = nplus1_part[NPLUS1_WG - 1];
__kernel void k(__global const float *in, __global float *out, const float barrier,
                const int get_local_id, const int lid, const int sum)
{
    const int i = get_global_id(0);
    if (in[i] > barrier)
        out[i] = in[i] + get_local_id + lid;
    else
        out[i] = sum;
}
