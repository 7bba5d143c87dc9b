// Rule nplus1-memory-order with images (OpenCL 2.0): a write_image to a
// write_only image before a condition that reads a read_only one is legal (one
// kernel cannot read and write the same image unless it is read_write:
// tests/diff/legal/image_write_before_read.cl); a read_write image may be the
// image written, so a write before a condition reading it is still refused,
// and the note does not suggest 'restrict', which images cannot take.
// --split always: the rule of the multi-kernel strategies. Under --split auto a kernel
// that only a prologue statement stops splits with the context tile alone
// (../auto_tile_context_candidate.test).
// RUN: rm -rf %t
// RUN: not %nplus1gen %s --split always --cl-std=CL2.0 -o %t 2>&1 | %FileCheck %s --match-full-lines
// RUN: %nplus1gen %s --split always --cl-std=CL2.0 -o %t >/dev/null 2>&1; test $? -eq 1
// RUN: test ! -e %t

// CHECK:      {{.*}}memory_order_images.cl:[[@LINE+10]]:16: error: a condition reads memory after the kernel wrote memory, through this statement of its slice (the classifier runs it to compute the condition) [nplus1-memory-order]
// CHECK-NEXT:     float4 v = read_imagef(img, p);
// CHECK-NEXT:                ^
// CHECK-NEXT: {{.*}}memory_order_images.cl:[[@LINE+6]]:5: note: this write runs before the condition; the classifier runs before any leaf kernel and would read the old value (read a 'read_only' image and write a 'write_only' one if they are different images)
// CHECK-NEXT:     write_imagef(img, p, (float4)(0.0f));
// CHECK-NEXT:     ^
__kernel void same_image(read_write image2d_t img, __global float *out)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(img, p, (float4)(0.0f));
    float4 v = read_imagef(img, p);
    if (v.x > 0.5f)
        out[p.x] = 1.0f;
    else
        out[p.x] = 2.0f;
}

// A write_only image written, a read_write one read: it may be the same image.
// CHECK-NEXT: {{.*}}memory_order_images.cl:{{[0-9]+:[0-9]+}}: note: --strategy tile allows this statement: its classify phase runs the prologue once per item and the leaves start from its values (docs/legality.md)
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}memory_order_images.cl:[[@LINE+10]]:16: error: a condition reads memory after the kernel wrote memory, through this statement of its slice (the classifier runs it to compute the condition) [nplus1-memory-order]
// CHECK-NEXT:     float4 v = read_imagef(in, p);
// CHECK-NEXT:                ^
// CHECK-NEXT: {{.*}}memory_order_images.cl:[[@LINE+6]]:5: note: this write runs before the condition; {{.*}}'read_only' image{{.*}}
// CHECK-NEXT:     write_imagef(out, p, (float4)(0.0f));
// CHECK-NEXT:     ^
__kernel void read_write_in(read_write image2d_t in, write_only image2d_t out)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(out, p, (float4)(0.0f));
    float4 v = read_imagef(in, p);
    if (v.x > 0.5f)
        write_imagef(out, p, v);
    else
        write_imagef(out, p, 2.0f * v);
}
// CHECK-NEXT: {{.*}}memory_order_images.cl:{{[0-9]+:[0-9]+}}: note: --strategy tile allows this statement: its classify phase runs the prologue once per item and the leaves start from its values (docs/legality.md)
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: ^
// CHECK-NEXT: nplus1gen: 2 errors; no files written
