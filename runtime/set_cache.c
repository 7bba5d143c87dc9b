/* SPDX-License-Identifier: Apache-2.0 */
/*
 * set_cache.c - the measured choice kept across processes (docs/driver.md,
 * "The choice cache"). Per device, generated program (a hash of its text,
 * its build options, the kernel's name, strategy and dispatch) and launch-size
 * class (choose.h's classes), the candidate the chooser kept. A new set
 * starts each stored class on its stored choice, rechecked every recheck
 * period like any choice, so a process's first launches pay no trials.
 *
 * The folder: NPLUS1_CACHE_DIR, else $XDG_CACHE_HOME/nplus1, else
 * $HOME/.cache/nplus1; NPLUS1_CACHE=0 turns the cache off. One file per
 * (device, program), choice-<hash>.txt, written to a temporary file in the
 * folder and renamed, so that concurrent processes never leave a torn file
 * (the last writer's classes win). An entry that does not parse, or that
 * names another device, program or kernel (a hash collision), is ignored
 * with a note on stderr, never trusted.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "set_internal.h"

#define CACHE_MAGIC "nplus1-choice-cache 1"

static unsigned long long fnv1a(unsigned long long h, const char *s)
{
    for (; s && *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ULL;
    }
    return h ^ 0xff; /* a separator: "ab"+"c" and "a"+"bc" differ */
}

/* The device, one line: vendor, name, driver and OpenCL version. */
static void device_line(cl_device_id dev, char *out, size_t n)
{
    char vendor[128] = "", name[256] = "", driver[128] = "", version[128] = "";
    clGetDeviceInfo(dev, CL_DEVICE_VENDOR, sizeof vendor, vendor, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    clGetDeviceInfo(dev, CL_DRIVER_VERSION, sizeof driver, driver, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_VERSION, sizeof version, version, NULL);
    snprintf(out, n, "%s | %s | %s | %s", vendor, name, driver, version);
    for (char *p = out; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
}

/* The cache's folder into out; 0 when the cache is off or there is no folder. */
static int cache_dir(char *out, size_t n)
{
    const char *off = getenv("NPLUS1_CACHE");
    if (off && !strcmp(off, "0"))
        return 0;
    const char *dir = getenv("NPLUS1_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    int w = dir && *dir   ? snprintf(out, n, "%s", dir)
            : xdg && *xdg ? snprintf(out, n, "%s/nplus1", xdg)
            : home && *home ? snprintf(out, n, "%s/.cache/nplus1", home)
                          : -1;
    return w > 0 && (size_t)w < n;
}

void set_cache_key(nplus1rt_set *s, const char *build_options)
{
    s->cache_on = 0;
    char dir[900];
    if (s->split != NPLUS1RT_SPLIT_MEASURED || !cache_dir(dir, sizeof dir))
        return;
    device_line(s->dev, s->cache_device, sizeof s->cache_device);
    unsigned long long h = 14695981039346656037ULL;
    h = fnv1a(h, s->desc->source);
    h = fnv1a(h, build_options);
    h = fnv1a(h, s->desc->kernel);
    char shape[64];
    snprintf(shape, sizeof shape, "%d/%d", (int)s->desc->strategy, (int)s->dispatch);
    h = fnv1a(h, shape);
    s->cache_program = h;
    h = fnv1a(h, s->cache_device);
    snprintf(s->cache_path, sizeof s->cache_path, "%s/choice-%016llx.txt", dir, h);
    s->cache_on = 1;
}

void set_cache_note(const nplus1rt_set *s, const char *why)
{
    fprintf(stderr, "nplus1rt: note: the choice cache entry %s is ignored: %s\n", s->cache_path,
            why);
}

/* Reads the entry's header lines; 0 when they are this set's. */
static int read_header(const nplus1rt_set *s, FILE *f)
{
    char line[1024], want[1024];
    if (fgets(line, sizeof line, f))
        line[strcspn(line, "\n")] = '\0';
    else
        line[0] = '\0';
    if (strcmp(line, CACHE_MAGIC)) {
        set_cache_note(s, "it is not a choice cache file of this runtime");
        return -1;
    }
    snprintf(want, sizeof want, "device %s\n", s->cache_device);
    if (!fgets(line, sizeof line, f) || strcmp(line, want)) {
        set_cache_note(s, "it was written for another device");
        return -1;
    }
    snprintf(want, sizeof want, "program %016llx %s\n", s->cache_program, s->desc->kernel);
    if (!fgets(line, sizeof line, f) || strcmp(line, want)) {
        set_cache_note(s, "it was written for another generated program or kernel");
        return -1;
    }
    return 0;
}

void set_cache_read(nplus1rt_set *s)
{
    memset(s->cache_name, 0, sizeof s->cache_name);
    FILE *f = s->cache_on ? fopen(s->cache_path, "r") : NULL;
    if (!f)
        return; /* off, or nothing stored yet */
    if (read_header(s, f) == 0) {
        char line[256], name[sizeof s->cache_name[0]];
        unsigned cls;
        while (fgets(line, sizeof line, f)) {
            if (sscanf(line, "class %u %15s", &cls, name) != 2 || cls >= CHOOSER_CLASSES) {
                set_cache_note(s, "a line names no size class and candidate");
                memset(s->cache_name, 0, sizeof s->cache_name);
                break;
            }
            memcpy(s->cache_name[cls], name, sizeof name);
        }
    }
    fclose(f);
}

/* Creates dir and its parents (mode 0700 for the cache's own folder). */
static int make_dirs(char *dir)
{
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        int bad = mkdir(dir, 0755) != 0 && errno != EEXIST;
        *p = '/';
        if (bad)
            return -1;
    }
    return mkdir(dir, 0700) != 0 && errno != EEXIST ? -1 : 0;
}

void set_cache_write(nplus1rt_set *s, unsigned cls, const char *name)
{
    if (!s->cache_on || cls >= CHOOSER_CLASSES || !strcmp(s->cache_name[cls], name))
        return;
    snprintf(s->cache_name[cls], sizeof s->cache_name[cls], "%s", name);
    char dir[sizeof s->cache_path], tmp[sizeof s->cache_path + 32];
    snprintf(dir, sizeof dir, "%s", s->cache_path);
    *strrchr(dir, '/') = '\0';
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", s->cache_path, (long)getpid());
    if (make_dirs(dir) != 0)
        return; /* no cache where the folder cannot be made: the choice still runs */
    FILE *f = fopen(tmp, "w");
    if (!f)
        return;
    fprintf(f, CACHE_MAGIC "\ndevice %s\nprogram %016llx %s\n", s->cache_device,
            s->cache_program, s->desc->kernel);
    for (unsigned k = 0; k < CHOOSER_CLASSES; k++)
        if (s->cache_name[k][0])
            fprintf(f, "class %u %s\n", k, s->cache_name[k]);
    if (fclose(f) != 0 || rename(tmp, s->cache_path) != 0)
        remove(tmp);
}

int set_cache_enabled(void)
{
    char dir[900];
    return cache_dir(dir, sizeof dir);
}

void set_cache_device_line(cl_device_id dev, char *out, size_t n)
{
    device_line(dev, out, n);
}

int set_cache_folder(char *out, size_t n)
{
    return cache_dir(out, n);
}

int nplus1rt_cache_folder(char *out, size_t n)
{
    return out && n ? cache_dir(out, n) : 0;
}

int nplus1rt_private_cache_open(char *dir, size_t n)
{
    const char *off = getenv("NPLUS1_CACHE"), *tmp = getenv("TMPDIR");
    if (!dir || !n)
        return 0;
    dir[0] = '\0';
    if (off && !strcmp(off, "0"))
        return 0;
    /* the device's calibration is the user's (calibrate.c): read where it lies */
    char user[1024];
    if (!getenv("NPLUS1_CALIBRATION_DIR") && cache_dir(user, sizeof user))
        setenv("NPLUS1_CALIBRATION_DIR", user, 1);
    int w = snprintf(dir, n, "%s/nplus1-choice-XXXXXX",
                     tmp && *tmp && strlen(tmp) < 32 ? tmp : "/tmp");
    if (w > 0 && (size_t)w < n && mkdtemp(dir)) {
        setenv("NPLUS1_CACHE_DIR", dir, 1);
        return 1;
    }
    dir[0] = '\0';
    setenv("NPLUS1_CACHE", "0", 1); /* no folder: no cache rather than the user's */
    return 0;
}

void nplus1rt_private_cache_remove(const char *dir)
{
    DIR *d = dir && *dir ? opendir(dir) : NULL;
    if (!d)
        return;
    char path[1300];
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        int w = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (e->d_name[0] != '.' && w > 0 && (size_t)w < sizeof path)
            remove(path);
    }
    closedir(d);
    rmdir(dir);
}

int set_cache_make_dirs(char *dir)
{
    return make_dirs(dir);
}
