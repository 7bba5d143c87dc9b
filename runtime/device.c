/* SPDX-License-Identifier: Apache-2.0 */
/*
 * device.c - device selection, context and queue, status names.
 *
 * The module owns: the list of every (platform, device) pair the ICD loader
 * reports, the NPLUS1_PLATFORM / NPLUS1_DEVICE selection over that list, the
 * "what was seen" message when nothing matches, opening a context and an
 * in-order queue on the chosen device, and nplus1_strerror.
 *
 * Selection rules (nplus1rt.h states the contract):
 *   - NPLUS1_PLATFORM: a decimal platform index, or a case-insensitive
 *     substring of the platform's name or vendor ("pocl" matches POCL's
 *     vendor "The pocl project").
 *   - NPLUS1_DEVICE: a decimal index counted over the devices of the
 *     platforms NPLUS1_PLATFORM lets through (so, within one platform when
 *     it names one), or a case-insensitive substring of the device's name.
 *     The first device that matches wins.
 *   - Without NPLUS1_DEVICE, among the devices let through: the first GPU,
 *     else the first device of a POCL platform, else the first device.
 * An empty variable counts as unset.
 */
#ifndef CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateCommandQueue */
#endif
#include "nplus1rt.h"

#include <CL/cl_ext.h> /* CL_PLATFORM_NOT_FOUND_KHR */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POCL_PLATFORM_NAME "Portable Computing Language"

/* One device as the loader reports it, with where it sits in the lists. */
typedef struct candidate {
    nplus1rt_device info;
    char platform_vendor[256];
    unsigned platform_index;
    unsigned device_index;   /* within its platform */
} candidate;

typedef struct candidate_list {
    candidate *items;
    size_t count;
    unsigned nplatforms;
} candidate_list;

/* The two selection variables; NULL when unset or empty. */
typedef struct selection {
    const char *platform;
    const char *device;
} selection;

/* ---- small string helpers --------------------------------------------- */

static int is_index(const char *s)
{
    if (*s == '\0')
        return 0;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}

static int contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] &&
               tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return 1;
    }
    return n == 0;
}

static const char *env_or_null(const char *name)
{
    const char *v = getenv(name);
    return (v && *v) ? v : NULL;
}

/* Appends to buf without overflowing; a full buffer stays NUL-terminated. */
static void append(char *buf, size_t len, const char *fmt, ...)
{
    if (!buf || len == 0)
        return;
    size_t used = strlen(buf);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

/* ---- enumeration ------------------------------------------------------- */

static void platform_string(cl_platform_id p, cl_platform_info what, char *out, size_t len)
{
    out[0] = '\0';
    if (clGetPlatformInfo(p, what, len, out, NULL) != CL_SUCCESS)
        out[0] = '\0';
    out[len - 1] = '\0';
}

static void fill_device(candidate *c, cl_device_id d)
{
    c->info.device = d;
    c->info.device_name[0] = '\0';
    if (clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof c->info.device_name,
                        c->info.device_name, NULL) != CL_SUCCESS)
        c->info.device_name[0] = '\0';
    c->info.device_name[sizeof c->info.device_name - 1] = '\0';
    if (clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof c->info.type, &c->info.type, NULL)
        != CL_SUCCESS)
        c->info.type = 0;
}

/* The devices of one platform; a platform without devices gives none. */
static cl_int list_platform_devices(cl_platform_id p, cl_device_id **devs, cl_uint *n)
{
    *devs = NULL;
    *n = 0;
    cl_int err = clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, NULL, n);
    if (err == CL_DEVICE_NOT_FOUND || (err == CL_SUCCESS && *n == 0)) {
        *n = 0;
        return CL_SUCCESS;
    }
    if (err != CL_SUCCESS)
        return err;
    *devs = malloc(*n * sizeof **devs);
    if (!*devs)
        return NPLUS1_ERR_OOM;
    err = clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, *n, *devs, NULL);
    if (err != CL_SUCCESS) {
        free(*devs);
        *devs = NULL;
        *n = 0;
    }
    return err;
}

static cl_int add_platform(candidate_list *list, cl_platform_id p, unsigned pindex)
{
    cl_device_id *devs;
    cl_uint n;
    cl_int err = list_platform_devices(p, &devs, &n);
    if (err != CL_SUCCESS || n == 0)
        return err;
    candidate *grown = realloc(list->items, (list->count + n) * sizeof *grown);
    if (!grown) {
        free(devs);
        return NPLUS1_ERR_OOM;
    }
    list->items = grown;
    for (cl_uint i = 0; i < n; i++) {
        candidate *c = &list->items[list->count++];
        memset(c, 0, sizeof *c);
        c->info.platform = p;
        platform_string(p, CL_PLATFORM_NAME, c->info.platform_name, sizeof c->info.platform_name);
        platform_string(p, CL_PLATFORM_VENDOR, c->platform_vendor, sizeof c->platform_vendor);
        c->platform_index = pindex;
        c->device_index = i;
        fill_device(c, devs[i]);
    }
    free(devs);
    return CL_SUCCESS;
}

static cl_int list_platforms(cl_platform_id **out, cl_uint *n)
{
    *out = NULL;
    *n = 0;
    cl_int err = clGetPlatformIDs(0, NULL, n);
    if (err == CL_PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS && *n == 0)) {
        *n = 0;
        return CL_SUCCESS;
    }
    if (err != CL_SUCCESS)
        return err;
    *out = malloc(*n * sizeof **out);
    if (!*out)
        return NPLUS1_ERR_OOM;
    err = clGetPlatformIDs(*n, *out, NULL);
    if (err != CL_SUCCESS) {
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return err;
}

static cl_int enumerate(candidate_list *list)
{
    cl_platform_id *platforms;
    cl_uint n;
    memset(list, 0, sizeof *list);
    cl_int err = list_platforms(&platforms, &n);
    if (err != CL_SUCCESS)
        return err;
    list->nplatforms = n;
    for (cl_uint i = 0; i < n && err == CL_SUCCESS; i++)
        err = add_platform(list, platforms[i], i);
    free(platforms);
    return err;
}

/* ---- selection --------------------------------------------------------- */

static int platform_matches(const candidate *c, const char *want)
{
    if (!want)
        return 1;
    if (is_index(want))
        return strtoul(want, NULL, 10) == c->platform_index;
    return contains_nocase(c->info.platform_name, want) ||
           contains_nocase(c->platform_vendor, want);
}

/* Index or name match; position counts devices the platform filter passed. */
static int device_matches(const candidate *c, const char *want, unsigned position)
{
    if (!want)
        return 1;
    if (is_index(want))
        return strtoul(want, NULL, 10) == position;
    return contains_nocase(c->info.device_name, want);
}

typedef int (*preference)(const candidate *c);

static int is_gpu(const candidate *c) { return (c->info.type & CL_DEVICE_TYPE_GPU) != 0; }
static int is_pocl(const candidate *c) { return strstr(c->info.platform_name, POCL_PLATFORM_NAME) != NULL; }
static int is_any(const candidate *c) { (void)c; return 1; }

/* The first candidate that passes the selection and the preference. */
static const candidate *first_match(const candidate_list *list, const selection *sel,
                                    preference pref)
{
    unsigned position = 0;
    for (size_t i = 0; i < list->count; i++) {
        const candidate *c = &list->items[i];
        if (!platform_matches(c, sel->platform))
            continue;
        if (device_matches(c, sel->device, position++) && pref(c))
            return c;
    }
    return NULL;
}

static const candidate *choose(const candidate_list *list, const selection *sel)
{
    if (sel->device)
        return first_match(list, sel, is_any);
    static const preference order[] = { is_gpu, is_pocl, is_any };
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        const candidate *c = first_match(list, sel, order[i]);
        if (c)
            return c;
    }
    return NULL;
}

static const char *type_name(cl_device_type t)
{
    if (t & CL_DEVICE_TYPE_GPU) return "GPU";
    if (t & CL_DEVICE_TYPE_CPU) return "CPU";
    if (t & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
    return "other";
}

static const char *shown(const char *value)
{
    return value ? value : "(unset)";
}

/*
 * "no OpenCL device matches NPLUS1_PLATFORM=... NPLUS1_DEVICE=...; seen:
 * platform 0 "X" (vendor "V"): device 0 "Y" (CPU), device 1 ...; platform 1 ..."
 */
static void describe_failure(const candidate_list *list, const selection *sel,
                             char *errbuf, size_t errlen)
{
    if (!errbuf || errlen == 0)
        return;
    errbuf[0] = '\0';
    if (list->count == 0) {
        append(errbuf, errlen, "no OpenCL device found (%u platform%s, no devices); "
               "is an ICD installed under /etc/OpenCL/vendors?",
               list->nplatforms, list->nplatforms == 1 ? "" : "s");
        return;
    }
    append(errbuf, errlen, "no OpenCL device matches NPLUS1_PLATFORM=%s NPLUS1_DEVICE=%s; seen:",
           shown(sel->platform), shown(sel->device));
    for (size_t i = 0; i < list->count; i++) {
        const candidate *c = &list->items[i];
        if (i == 0 || c->platform_index != list->items[i - 1].platform_index)
            append(errbuf, errlen, "%s platform %u \"%s\" (vendor \"%s\"):", i ? ";" : "",
                   c->platform_index, c->info.platform_name, c->platform_vendor);
        else
            append(errbuf, errlen, ",");
        append(errbuf, errlen, " device %u \"%s\" (%s)", c->device_index,
               c->info.device_name, type_name(c->info.type));
    }
}

cl_int nplus1rt_pick_device(nplus1rt_device *out, char *errbuf, size_t errlen)
{
    if (errbuf && errlen)
        errbuf[0] = '\0';
    if (!out)
        return CL_INVALID_VALUE;
    selection sel = { env_or_null("NPLUS1_PLATFORM"), env_or_null("NPLUS1_DEVICE") };
    candidate_list list;
    cl_int err = enumerate(&list);
    if (err != CL_SUCCESS) {
        if (errbuf && errlen)
            snprintf(errbuf, errlen, "listing OpenCL devices failed: %s", nplus1_strerror(err));
        free(list.items);
        return err;
    }
    const candidate *c = choose(&list, &sel);
    if (c)
        *out = c->info;
    else
        describe_failure(&list, &sel, errbuf, errlen);
    free(list.items);
    return c ? CL_SUCCESS : NPLUS1_ERR_NO_DEVICE;
}

/* ---- context and queue ------------------------------------------------- */

cl_int nplus1rt_open(const nplus1rt_device *dev, int profiling,
                     cl_context *ctx, cl_command_queue *queue)
{
    if (!dev || !ctx || !queue)
        return CL_INVALID_VALUE;
    *ctx = NULL;
    *queue = NULL;
    cl_context_properties props[] = {
        CL_CONTEXT_PLATFORM, (cl_context_properties)dev->platform, 0
    };
    cl_int err = CL_SUCCESS;
    cl_context c = clCreateContext(props, 1, &dev->device, NULL, NULL, &err);
    if (!c)
        return err != CL_SUCCESS ? err : CL_OUT_OF_HOST_MEMORY;
    cl_command_queue_properties qprops = profiling ? CL_QUEUE_PROFILING_ENABLE : 0;
    cl_command_queue q = clCreateCommandQueue(c, dev->device, qprops, &err);
    if (!q) {
        clReleaseContext(c);
        return err != CL_SUCCESS ? err : CL_OUT_OF_HOST_MEMORY;
    }
    *ctx = c;
    *queue = q;
    return CL_SUCCESS;
}

/* ---- status names ------------------------------------------------------ */

#define NAME(code) case code: return #code

static const char *opencl_status_name(cl_int err)
{
    switch (err) {
    NAME(CL_SUCCESS);
    NAME(CL_DEVICE_NOT_FOUND);
    NAME(CL_DEVICE_NOT_AVAILABLE);
    NAME(CL_COMPILER_NOT_AVAILABLE);
    NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE);
    NAME(CL_OUT_OF_RESOURCES);
    NAME(CL_OUT_OF_HOST_MEMORY);
    NAME(CL_PROFILING_INFO_NOT_AVAILABLE);
    NAME(CL_MEM_COPY_OVERLAP);
    NAME(CL_IMAGE_FORMAT_MISMATCH);
    NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED);
    NAME(CL_BUILD_PROGRAM_FAILURE);
    NAME(CL_MAP_FAILURE);
    NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET);
    NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    NAME(CL_COMPILE_PROGRAM_FAILURE);
    NAME(CL_LINKER_NOT_AVAILABLE);
    NAME(CL_LINK_PROGRAM_FAILURE);
    NAME(CL_DEVICE_PARTITION_FAILED);
    NAME(CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
    NAME(CL_INVALID_VALUE);
    NAME(CL_INVALID_DEVICE_TYPE);
    NAME(CL_INVALID_PLATFORM);
    NAME(CL_INVALID_DEVICE);
    NAME(CL_INVALID_CONTEXT);
    NAME(CL_INVALID_QUEUE_PROPERTIES);
    NAME(CL_INVALID_COMMAND_QUEUE);
    NAME(CL_INVALID_HOST_PTR);
    NAME(CL_INVALID_MEM_OBJECT);
    NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    NAME(CL_INVALID_IMAGE_SIZE);
    NAME(CL_INVALID_SAMPLER);
    NAME(CL_INVALID_BINARY);
    NAME(CL_INVALID_BUILD_OPTIONS);
    NAME(CL_INVALID_PROGRAM);
    NAME(CL_INVALID_PROGRAM_EXECUTABLE);
    NAME(CL_INVALID_KERNEL_NAME);
    NAME(CL_INVALID_KERNEL_DEFINITION);
    NAME(CL_INVALID_KERNEL);
    NAME(CL_INVALID_ARG_INDEX);
    NAME(CL_INVALID_ARG_VALUE);
    NAME(CL_INVALID_ARG_SIZE);
    NAME(CL_INVALID_KERNEL_ARGS);
    NAME(CL_INVALID_WORK_DIMENSION);
    NAME(CL_INVALID_WORK_GROUP_SIZE);
    NAME(CL_INVALID_WORK_ITEM_SIZE);
    NAME(CL_INVALID_GLOBAL_OFFSET);
    NAME(CL_INVALID_EVENT_WAIT_LIST);
    NAME(CL_INVALID_EVENT);
    NAME(CL_INVALID_OPERATION);
    NAME(CL_INVALID_GL_OBJECT);
    NAME(CL_INVALID_BUFFER_SIZE);
    NAME(CL_INVALID_MIP_LEVEL);
    NAME(CL_INVALID_GLOBAL_WORK_SIZE);
    NAME(CL_INVALID_PROPERTY);
    NAME(CL_INVALID_IMAGE_DESCRIPTOR);
    NAME(CL_INVALID_COMPILER_OPTIONS);
    NAME(CL_INVALID_LINKER_OPTIONS);
    NAME(CL_INVALID_DEVICE_PARTITION_COUNT);
    NAME(CL_PLATFORM_NOT_FOUND_KHR);
    default: return NULL;
    }
}

static const char *nplus1_status_name(cl_int err)
{
    switch (err) {
    NAME(NPLUS1_ERR_NO_DEVICE);
    NAME(NPLUS1_ERR_BUILD);
    NAME(NPLUS1_ERR_OOM);
    NAME(NPLUS1_ERR_BAD_LAUNCH);
    NAME(NPLUS1_ERR_FORMAT);
    NAME(NPLUS1_ERR_MACRO);
    default: return NULL;
    }
}

#undef NAME

const char *nplus1_strerror(cl_int err)
{
    const char *name = opencl_status_name(err);
    if (!name)
        name = nplus1_status_name(err);
    return name ? name : "CL_UNKNOWN_ERROR";
}
