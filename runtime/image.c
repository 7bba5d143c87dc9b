/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image.c - image and sampler arguments for validation: the declared kind
 * from the type's spelling, the default size from the launch, the pixel
 * layout of a channel order and type, creating and reading back.
 */
#include <string.h>

#include "image.h"

typedef enum image_kind {
    IMG_1D, IMG_1D_BUFFER, IMG_1D_ARRAY, IMG_2D, IMG_2D_ARRAY, IMG_3D, IMG_NONE
} image_kind;

/* From "__read_only image2d_array_t" and the like; longer names first. */
static image_kind kind_of(const char *type)
{
    static const struct { const char *name; image_kind k; } names[] = {
        {"image1d_buffer_t", IMG_1D_BUFFER}, {"image1d_array_t", IMG_1D_ARRAY},
        {"image2d_array_t", IMG_2D_ARRAY},   {"image1d_t", IMG_1D},
        {"image2d_t", IMG_2D},               {"image3d_t", IMG_3D}};
    for (size_t i = 0; type && i < sizeof names / sizeof *names; i++)
        if (strstr(type, names[i].name))
            return names[i].k;
    return IMG_NONE;
}

static unsigned dims_of(image_kind k)
{
    return k == IMG_1D || k == IMG_1D_BUFFER ? 1 : k == IMG_3D || k == IMG_2D_ARRAY ? 3 : 2;
}

static unsigned channels_of(cl_channel_order o)
{
    switch (o) {
    case CL_R: case CL_A: case CL_INTENSITY: case CL_LUMINANCE: case CL_Rx: return 1;
    case CL_RG: case CL_RA: case CL_RGx: return 2;
    case CL_RGBA: case CL_BGRA: case CL_ARGB: return 4;
    default: return 0;
    }
}

/* The host element of one channel, or -1 for packed and unknown types. */
static int elem_of(cl_channel_type t)
{
    switch (t) {
    case CL_SNORM_INT8: case CL_SIGNED_INT8: return NPLUS1RT_I8;
    case CL_UNORM_INT8: case CL_UNSIGNED_INT8: return NPLUS1RT_U8;
    case CL_SNORM_INT16: case CL_SIGNED_INT16: return NPLUS1RT_I16;
    case CL_UNORM_INT16: case CL_UNSIGNED_INT16: return NPLUS1RT_U16;
    case CL_SIGNED_INT32: return NPLUS1RT_I32;
    case CL_UNSIGNED_INT32: return NPLUS1RT_U32;
    case CL_HALF_FLOAT: return NPLUS1RT_F16;
    case CL_FLOAT: return NPLUS1RT_F32;
    default: return -1;
    }
}

static size_t extent(const nplus1rt_validate_opts *o, unsigned d)
{
    return d < o->work_dim ? o->global_offset[d] + o->global_size[d] : 1;
}

int nplus1rt_image_resolve(const nplus1rt_arg *a, const nplus1rt_image_spec *given,
                           const nplus1rt_validate_opts *o, nplus1rt_image_spec *out,
                           size_t *bytes, nplus1rt_elem *elem, unsigned *channels)
{
    image_kind k = kind_of(a->type);
    if (k == IMG_NONE)
        return -1;
    memset(out, 0, sizeof *out);
    if (given)
        *out = *given;
    out->order = out->order ? out->order : CL_RGBA;
    out->type = out->type ? out->type : CL_FLOAT;
    unsigned n = dims_of(k), ch = channels_of(out->order);
    int e = elem_of(out->type);
    if (!ch || e < 0)
        return -1;
    size_t pixels = 1;
    for (unsigned d = 0; d < 3; d++) {
        if (d >= n)
            out->size[d] = 1;
        else if (!out->size[d])
            out->size[d] = extent(o, d);
        pixels *= out->size[d];
    }
    *elem = (nplus1rt_elem)e;
    *channels = ch;
    *bytes = pixels * ch * nplus1rt_elem_size(*elem);
    return 0;
}

cl_int nplus1rt_image_create(cl_context ctx, const nplus1rt_arg *a, const nplus1rt_image_spec *s,
                             const void *host, cl_mem *img, cl_mem *buf)
{
    static const cl_mem_object_type types[] = {
        CL_MEM_OBJECT_IMAGE1D,       CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE1D_ARRAY,
        CL_MEM_OBJECT_IMAGE2D,       CL_MEM_OBJECT_IMAGE2D_ARRAY,  CL_MEM_OBJECT_IMAGE3D};
    image_kind k = kind_of(a->type);
    cl_image_format fmt = {s->order, s->type};
    cl_image_desc d;
    memset(&d, 0, sizeof d);
    d.image_type = types[k];
    d.image_width = s->size[0];
    if (k == IMG_1D_ARRAY)
        d.image_array_size = s->size[1];
    else
        d.image_height = k == IMG_1D || k == IMG_1D_BUFFER ? 0 : s->size[1];
    if (k == IMG_2D_ARRAY)
        d.image_array_size = s->size[2];
    else if (k == IMG_3D)
        d.image_depth = s->size[2];
    cl_int err = CL_SUCCESS;
    *buf = NULL;
    if (k == IMG_1D_BUFFER) {
        size_t bytes = s->size[0] * channels_of(s->order) *
                       nplus1rt_elem_size((nplus1rt_elem)elem_of(s->type));
        *buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, (void *)host,
                              &err);
        if (err != CL_SUCCESS)
            return err;
        d.buffer = *buf;
        *img = clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &d, NULL, &err);
    } else {
        *img = clCreateImage(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &fmt, &d,
                             (void *)host, &err);
    }
    if (err != CL_SUCCESS) {
        if (*buf)
            clReleaseMemObject(*buf);
        *buf = *img = NULL;
    }
    return err;
}

cl_int nplus1rt_image_read(cl_command_queue q, const nplus1rt_arg *a,
                           const nplus1rt_image_spec *s, cl_mem img, cl_mem buf, void *dst)
{
    if (kind_of(a->type) == IMG_1D_BUFFER) {
        size_t bytes = s->size[0] * channels_of(s->order) *
                       nplus1rt_elem_size((nplus1rt_elem)elem_of(s->type));
        return clEnqueueReadBuffer(q, buf, CL_TRUE, 0, bytes, dst, 0, NULL, NULL);
    }
    const size_t origin[3] = {0, 0, 0};
    return clEnqueueReadImage(q, img, CL_TRUE, origin, s->size, 0, 0, dst, 0, NULL, NULL);
}

cl_sampler nplus1rt_sampler_create(cl_context ctx, const nplus1rt_sampler_spec *s, cl_int *err)
{
    if (s && s->given)
        return clCreateSampler(ctx, s->normalized, s->addressing, s->filter, err);
    return clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, err);
}
