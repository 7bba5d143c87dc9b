// Rule nplus1-local-id: get_local_id, get_group_id, get_local_size,
// get_num_groups, get_enqueued_local_size (and get_local_linear_id), in the
// kernel or in a helper it calls: the leaf kernels re-form work-groups, so
// they would return other values. Each kernel here uses one of them.
// OpenCL C 2.0 for get_enqueued_local_size and get_local_linear_id.
// RUN: rm -rf %t
// RUN: not %nplus1gen %s --cl-std=CL2.0 -o %t 2>&1 | %FileCheck %s --match-full-lines
// RUN: %nplus1gen %s --cl-std=CL2.0 -o %t >/dev/null 2>&1; test $? -eq 1
// RUN: test ! -e %t

// CHECK:      {{.*}}local_id.cl:[[@LINE+11]]:9: error: kernel 'local_id' calls 'get_local_id' [nplus1-local-id]
// CHECK-NEXT: if (get_local_id(0) == 0)
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id.cl:[[@LINE+8]]:9: note: the leaf kernels re-form work-groups, so local ids, group ids and local sizes would differ from the original launch
// CHECK-NEXT: if (get_local_id(0) == 0)
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id.cl:[[@LINE+5]]:9: note: nplus1gen keeps a local id only in get_group_id(d) * get_local_size(d) + get_local_id(d) {{.*}}, or in a value nobody reads
// CHECK-NEXT: if (get_local_id(0) == 0)
// CHECK-NEXT: ^
__kernel void local_id(__global int *out)
{
    if (get_local_id(0) == 0)
        out[get_global_id(0)] = 1;
}

// CHECK-NEXT: {{.*}}local_id.cl:[[@LINE+11]]:22: error: kernel 'group_id' calls 'get_group_id' [nplus1-local-id]
// CHECK-NEXT: const size_t g = get_group_id(0);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id.cl:[[@LINE+8]]:22: note: {{.*}}
// CHECK-NEXT: const size_t g = get_group_id(0);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id.cl:[[@LINE+5]]:22: note: nplus1gen keeps a local id only in get_group_id(d) * get_local_size(d) + get_local_id(d) {{.*}}, or in a value nobody reads
// CHECK-NEXT: const size_t g = get_group_id(0);
// CHECK-NEXT: ^
__kernel void group_id(__global int *out)
{
    const size_t g = get_group_id(0);
    if (g > 2)
        out[g] = 1;
}

// CHECK-NEXT: {{.*}}local_id.cl:[[@LINE+12]]:13: error: kernel 'local_size' calls 'get_local_size' [nplus1-local-id]
// CHECK-NEXT: out[get_local_size(0)] = 1;
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id.cl:[[@LINE+9]]:13: note: {{.*}}
// CHECK-NEXT: out[get_local_size(0)] = 1;
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id.cl:[[@LINE+6]]:13: note: nplus1gen keeps a local id only in get_group_id(d) * get_local_size(d) + get_local_id(d) {{.*}}, or in a value nobody reads
// CHECK-NEXT: out[get_local_size(0)] = 1;
// CHECK-NEXT: ^
__kernel void local_size(__global int *out)
{
    if (out[0] > 3)
        out[get_local_size(0)] = 1;
}

// CHECK-NEXT: {{.*}}local_id.cl:[[@LINE+12]]:13: error: kernel 'num_groups' calls 'get_num_groups' [nplus1-local-id]
// CHECK-NEXT: out[get_num_groups(0)] = 1;
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id.cl:[[@LINE+9]]:13: note: {{.*}}
// CHECK-NEXT: out[get_num_groups(0)] = 1;
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id.cl:[[@LINE+6]]:13: note: nplus1gen keeps a local id only in get_group_id(d) * get_local_size(d) + get_local_id(d) {{.*}}, or in a value nobody reads
// CHECK-NEXT: out[get_num_groups(0)] = 1;
// CHECK-NEXT: ^
__kernel void num_groups(__global int *out)
{
    if (out[0] > 3)
        out[get_num_groups(0)] = 1;
}

// CHECK-NEXT: {{.*}}local_id.cl:[[@LINE+12]]:13: error: kernel 'enqueued' calls 'get_enqueued_local_size' [nplus1-local-id]
// CHECK-NEXT: out[get_enqueued_local_size(0)] = 1;
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id.cl:[[@LINE+9]]:13: note: {{.*}}
// CHECK-NEXT: out[get_enqueued_local_size(0)] = 1;
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id.cl:[[@LINE+6]]:13: note: nplus1gen keeps a local id only in get_group_id(d) * get_local_size(d) + get_local_id(d) {{.*}}, or in a value nobody reads
// CHECK-NEXT: out[get_enqueued_local_size(0)] = 1;
// CHECK-NEXT: ^
__kernel void enqueued(__global int *out)
{
    if (out[0] > 3)
        out[get_enqueued_local_size(0)] = 1;
}

// CHECK-NEXT: {{.*}}local_id.cl:[[@LINE+12]]:13: error: kernel 'local_linear' calls 'get_local_linear_id' [nplus1-local-id]
// CHECK-NEXT: out[get_local_linear_id()] = 1;
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id.cl:[[@LINE+9]]:13: note: {{.*}}
// CHECK-NEXT: out[get_local_linear_id()] = 1;
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id.cl:[[@LINE+6]]:13: note: nplus1gen keeps a local id only in get_group_id(d) * get_local_size(d) + get_local_id(d) {{.*}}, or in a value nobody reads
// CHECK-NEXT: out[get_local_linear_id()] = 1;
// CHECK-NEXT: ^
__kernel void local_linear(__global int *out)
{
    if (out[0] > 3)
        out[get_local_linear_id()] = 1;
}

// Through a helper: the error at the builtin, a note at the call.
// CHECK-NEXT: {{.*}}local_id.cl:[[@LINE+9]]:38: error: kernel 'via_helper' calls 'get_local_size' [nplus1-local-id]
// CHECK-NEXT: static size_t wg_size(void) { return get_local_size(0); }
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id.cl:[[@LINE+6]]:38: note: {{.*}}
// CHECK-NEXT: static size_t wg_size(void) { return get_local_size(0); }
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id.cl:[[@LINE+8]]:13: note: reached through this call to 'wg_size'
// CHECK-NEXT: out[wg_size()] = 1;
// CHECK-NEXT: ^
static size_t wg_size(void) { return get_local_size(0); }

__kernel void via_helper(__global int *out)
{
    if (out[0] > 3)
        out[wg_size()] = 1;
}
// CHECK-NEXT: nplus1gen: 7 errors; no files written
// CHECK-NOT:  {{.}}
