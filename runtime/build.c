/* SPDX-License-Identifier: Apache-2.0 */
/*
 * build.c - program builds and the in-process program cache.
 *
 * The module owns: building an OpenCL C source for one device, the build
 * log of a failed build, and a process-wide cache of built programs keyed
 * by (context, device, options, source).
 *
 * The cache holds one reference to each program; every hit retains the
 * program once more for the caller. Because a program retains its context,
 * a cached context stays alive until nplus1rt_cache_clear, so a context
 * address in a key can never be reused by a different context.
 *
 * Keys: the context and device handles plus a 64-bit FNV-1a hash of the
 * options and the source; a hit also compares both strings in full. A
 * (vanishingly rare) hash collision is built uncached rather than evicting.
 * Failed builds are not cached. The cache mutex is not held while a build
 * runs: two threads may build the same program at once, and the second to
 * finish drops its copy and takes the cached one.
 */
#define HASH_NONFATAL_OOM 1
#define uthash_nonfatal_oom(entry) ((entry)->add_failed = 1)
#include <uthash.h>

#include "nplus1rt.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a cached program is found by; memset to zero before filling. */
typedef struct cache_key {
    cl_context ctx;
    cl_device_id dev;
    uint64_t text_hash;    /* FNV-1a of options, a NUL, source */
} cache_key;

typedef struct cache_entry {
    cache_key key;
    char *text;            /* one allocation: options '\0' source '\0' */
    size_t options_len;
    cl_program program;
    int add_failed;        /* set by uthash when HASH_ADD ran out of memory */
    UT_hash_handle hh;
} cache_entry;

static cache_entry *cache;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- keys -------------------------------------------------------------- */

#define FNV_OFFSET 14695981039346656037ULL
#define FNV_PRIME 1099511628211ULL

static uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= FNV_PRIME;
    }
    return h;
}

static cache_key make_key(cl_context ctx, cl_device_id dev,
                          const char *options, const char *source)
{
    cache_key k;
    memset(&k, 0, sizeof k);
    k.ctx = ctx;
    k.dev = dev;
    k.text_hash = fnv1a(FNV_OFFSET, options, strlen(options) + 1); /* NUL separates */
    k.text_hash = fnv1a(k.text_hash, source, strlen(source));
    return k;
}

static int same_text(const cache_entry *e, const char *options, const char *source)
{
    return strcmp(e->text, options) == 0 &&
           strcmp(e->text + e->options_len + 1, source) == 0;
}

/* ---- the cache (callers hold cache_lock) ------------------------------- */

static cache_entry *find_locked(const cache_key *k)
{
    cache_entry *e = NULL;
    HASH_FIND(hh, cache, k, sizeof *k, e);
    return e;
}

static cache_entry *entry_new(const cache_key *k, const char *options,
                              const char *source, cl_program program)
{
    size_t olen = strlen(options), slen = strlen(source);
    cache_entry *e = calloc(1, sizeof *e);
    char *text = malloc(olen + slen + 2);
    if (!e || !text) {
        free(e);
        free(text);
        return NULL;
    }
    memcpy(text, options, olen + 1);
    memcpy(text + olen + 1, source, slen + 1);
    e->key = *k;
    e->text = text;
    e->options_len = olen;
    e->program = program;
    return e;
}

static void entry_free(cache_entry *e)
{
    free(e->text);
    free(e);
}

/* Adds program under k; on OOM returns NPLUS1_ERR_OOM and keeps nothing. */
static cl_int add_locked(const cache_key *k, const char *options,
                         const char *source, cl_program program)
{
    cache_entry *e = entry_new(k, options, source, program);
    if (!e)
        return NPLUS1_ERR_OOM;
    HASH_ADD(hh, cache, key, sizeof e->key, e);
    if (e->add_failed) {
        entry_free(e);
        return NPLUS1_ERR_OOM;
    }
    return CL_SUCCESS;
}

/*
 * The cached program for (k, options, source), retained for the caller;
 * NULL when absent. *collision is set when k is taken by other text.
 */
static cl_program lookup(const cache_key *k, const char *options,
                         const char *source, int *collision)
{
    pthread_mutex_lock(&cache_lock);
    cache_entry *e = find_locked(k);
    cl_program p = NULL;
    *collision = e && !same_text(e, options, source);
    if (e && !*collision && clRetainProgram(e->program) == CL_SUCCESS)
        p = e->program;
    pthread_mutex_unlock(&cache_lock);
    return p;
}

/*
 * Caches built (which holds the caller's reference). Returns the program
 * the caller should use, retained for it: built itself, or the copy another
 * thread cached first (built is then released). NULL with NPLUS1_ERR_OOM
 * when the cache cannot grow.
 */
static cl_program publish(const cache_key *k, const char *options,
                          const char *source, cl_program built, cl_int *err)
{
    pthread_mutex_lock(&cache_lock);
    cache_entry *e = find_locked(k);
    cl_program result = built;
    *err = CL_SUCCESS;
    if (e && same_text(e, options, source) && clRetainProgram(e->program) == CL_SUCCESS) {
        result = e->program;                          /* another thread won */
    } else if (!e && clRetainProgram(built) == CL_SUCCESS) { /* the cache's reference */
        *err = add_locked(k, options, source, built);
        if (*err != CL_SUCCESS)
            clReleaseProgram(built);
    } /* else a collision (or a failed retain): built stays uncached */
    pthread_mutex_unlock(&cache_lock);
    if (result == built && *err == CL_SUCCESS)
        return built;
    clReleaseProgram(built);
    return result == built ? NULL : result;
}

void nplus1rt_cache_clear(void)
{
    pthread_mutex_lock(&cache_lock);
    cache_entry *e, *tmp;
    HASH_ITER(hh, cache, e, tmp) {
        HASH_DEL(cache, e);
        clReleaseProgram(e->program);
        entry_free(e);
    }
    pthread_mutex_unlock(&cache_lock);
}

/* ---- building ---------------------------------------------------------- */

static char *dup_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* The build log, malloc'd; when the log is empty, a line naming status. */
static char *fetch_log(cl_program p, cl_device_id dev, cl_int status)
{
    size_t size = 0;
    char *log = NULL;
    if (clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) == CL_SUCCESS &&
        size > 1 && (log = malloc(size + 1)) != NULL) {
        if (clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, size, log, NULL) != CL_SUCCESS)
            log[0] = '\0';
        log[size] = '\0';
        if (log[0] != '\0')
            return log;
    }
    free(log);
    char line[128];
    snprintf(line, sizeof line, "clBuildProgram failed with %s and left no build log",
             nplus1_strerror(status));
    return dup_string(line);
}

/* Builds without the cache; the result holds one reference. */
static cl_program build_uncached(cl_context ctx, cl_device_id dev, const char *source,
                                 const char *options, char **log, cl_int *err)
{
    cl_program p = clCreateProgramWithSource(ctx, 1, &source, NULL, err);
    if (!p)
        return NULL;
    *err = clBuildProgram(p, 1, &dev, options, NULL, NULL);
    if (*err == CL_SUCCESS)
        return p;
    if (log)
        *log = fetch_log(p, dev, *err);
    if (*err == CL_BUILD_PROGRAM_FAILURE)
        *err = NPLUS1_ERR_BUILD;
    clReleaseProgram(p);
    return NULL;
}

cl_program nplus1rt_build(cl_context ctx, cl_device_id dev, const char *source,
                          const char *options, char **log, cl_int *err)
{
    cl_int local_err;
    if (!err)
        err = &local_err;
    if (log)
        *log = NULL;
    if (!ctx || !dev || !source) {
        *err = CL_INVALID_VALUE;
        return NULL;
    }
    if (!options)
        options = "";
    cache_key k = make_key(ctx, dev, options, source);
    int collision;
    cl_program p = lookup(&k, options, source, &collision);
    if (p) {
        *err = CL_SUCCESS;
        return p;
    }
    p = build_uncached(ctx, dev, source, options, log, err);
    if (!p || collision)
        return p;
    return publish(&k, options, source, p, err);
}
