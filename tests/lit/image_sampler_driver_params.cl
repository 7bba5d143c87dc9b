// Images and samplers as kernel arguments: the driver takes an image as a cl_mem
// and a sampler as a cl_sampler; the args table marks them NPLUS1RT_ARG_IMAGE and
// NPLUS1RT_ARG_SAMPLER (a written image is writable); the manifest gives each
// image's access qualifier.
// RUN: rm -rf %t && %nplus1gen %s -o %t -q
// RUN: %strip %t/image_sampler_driver_params_nplus1.h | %FileCheck %s --check-prefix=HDR --match-full-lines
// RUN: %strip %t/image_sampler_driver_params_nplus1.c | %FileCheck %s --check-prefix=ARGS --match-full-lines
// RUN: %FileCheck %s --check-prefix=JSON --input-file %t/image_sampler_driver_params.nplus1.json
// HDR:                                const size_t *local_size,
// HDR-NEXT:                           cl_mem src,
// HDR-NEXT:                           cl_sampler smp,
// HDR-NEXT:                           cl_mem dst);
// ARGS:      static const nplus1rt_arg nplus1_filter_args[] = {
// ARGS-NEXT:     {"src", "__read_only image2d_t", NPLUS1RT_ARG_IMAGE, 0, 0, NPLUS1RT_F32, 4, 8},
// ARGS-NEXT:     {"smp", "sampler_t", NPLUS1RT_ARG_SAMPLER, 0, 0, NPLUS1RT_U8, 1, 8},
// ARGS-NEXT:     {"dst", "__write_only image2d_t", NPLUS1RT_ARG_IMAGE, 1, 0, NPLUS1RT_F32, 4, 8},
// JSON: {"name": "src", "type": "__read_only image2d_t", "address_space": "global", "access": "read_only", "host_type": "cl_mem"},
// JSON: {"name": "smp", "type": "sampler_t", "address_space": "private", "access": "value", "host_type": "cl_sampler"},
// JSON: {"name": "dst", "type": "__write_only image2d_t", "address_space": "global", "access": "write_only", "host_type": "cl_mem"}
__kernel void filter(read_only image2d_t src, sampler_t smp, write_only image2d_t dst)
{
    const int2 p = (int2)(get_global_id(0), get_global_id(1));
    const float4 c = read_imagef(src, smp, p);
    if (c.x < 0.5f)
        write_imagef(dst, p, c * 2.0f);
    else
        write_imagef(dst, p, c);
}
