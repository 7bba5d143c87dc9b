/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image.h - the runtime's own image helpers for validation (not installed):
 * create an image argument of its declared kind from host bytes, read it
 * back. nplus1rt_image_resolve (nplus1rt.h) gives the size and format.
 */
#ifndef NPLUS1RT_IMAGE_H
#define NPLUS1RT_IMAGE_H

#include "nplus1rt.h"

/* A new image of a's kind and s's size and format holding host (bytes of s);
 * an image1d_buffer also gets its buffer in *buf (release both). */
cl_int nplus1rt_image_create(cl_context ctx, const nplus1rt_arg *a, const nplus1rt_image_spec *s,
                             const void *host, cl_mem *img, cl_mem *buf);

/* Reads the whole image (or its buffer) into dst, blocking. */
cl_int nplus1rt_image_read(cl_command_queue q, const nplus1rt_arg *a,
                           const nplus1rt_image_spec *s, cl_mem img, cl_mem buf, void *dst);

/* A sampler of s's properties (the defaults when s is NULL or not given). */
cl_sampler nplus1rt_sampler_create(cl_context ctx, const nplus1rt_sampler_spec *s, cl_int *err);

#endif
