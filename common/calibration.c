/* SPDX-License-Identifier: Apache-2.0 */
/* calibration.c - the stored calibration, found by the tool (calibration.h). */
#include "calibration.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static int folder(char *out, size_t n)
{
    const char *off = getenv("NPLUS1_CACHE");
    if (off && !strcmp(off, "0"))
        return 0;
    const char *own = getenv("NPLUS1_CALIBRATION_DIR"), *dir = getenv("NPLUS1_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int w = own && *own   ? snprintf(out, n, "%s", own)
            : dir && *dir ? snprintf(out, n, "%s", dir)
            : xdg && *xdg ? snprintf(out, n, "%s/nplus1", xdg)
            : home && *home ? snprintf(out, n, "%s/.cache/nplus1", home)
                            : -1;
    return w > 0 && (size_t)w < n;
}

static int is_calibration_name(const char *name)
{
    size_t n = strlen(name);
    return !strncmp(name, "calibration-", 12) && n > 16 && !strcmp(name + n - 4, ".txt");
}

/* Whether hay contains needle, ignoring case. */
static int contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return 1;
    }
    return n == 0;
}

/* A device hint that names one: not empty, not an index ("0", "1"). */
static int names_device(const char *d)
{
    return d && *d && strspn(d, "0123456789") != strlen(d);
}

/*
 * NPLUS1_CALIBRATION=FILE: that calibration whatever the device (a GPU's, copied to
 * the machine that generates or profiles for it). 1 when it is set.
 */
static int named_file(calibration_choice *out)
{
    const char *file = getenv("NPLUS1_CALIBRATION");
    if (!file || !*file)
        return 0;
    char *text = NULL;
    size_t len = 0;
    const char *why = "it cannot be read";
    if (read_file(file, &text, &len) == 0 && nplus1rt_calibration_parse(text, &out->cal, &why) == 0)
        snprintf(out->path, sizeof out->path, "%s", file);
    else {
        nplus1rt_calibration_defaults(&out->cal);
        snprintf(out->why, sizeof out->why, "NPLUS1_CALIBRATION=%.300s is ignored: %s", file,
                 why);
        fprintf(stderr, "nplus1gen: note: the calibration %s is ignored: %s\n", file, why);
    }
    free(text);
    return 1;
}

void calibration_find(const char *device, calibration_choice *out)
{
    memset(out, 0, sizeof *out);
    nplus1rt_calibration_defaults(&out->cal);
    if (named_file(out))
        return;
    char dir[256];
    if (!folder(dir, sizeof dir)) {
        snprintf(out->why, sizeof out->why, "the cache is off: NPLUS1_CACHE=0");
        return;
    }
    DIR *d = opendir(dir);
    unsigned found = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        if (!is_calibration_name(e->d_name) || strlen(e->d_name) > 200 || strlen(dir) > 250)
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *text = NULL;
        size_t len = 0;
        nplus1rt_calibration c;
        const char *why = "it cannot be read";
        if (read_file(path, &text, &len) != 0 || nplus1rt_calibration_parse(text, &c, &why) != 0) {
            fprintf(stderr, "nplus1gen: note: the calibration %s is ignored: %s\n", path, why);
            free(text);
            continue;
        }
        free(text);
        const char *bar = strchr(c.device, '|'); /* "vendor | name | ...": match the name */
        if (names_device(device) && !contains_nocase(bar ? bar : c.device, device))
            continue;
        if (++found == 1) {
            out->cal = c;
            snprintf(out->path, sizeof out->path, "%s", path);
        }
    }
    if (d)
        closedir(d);
    if (found == 1)
        return;
    nplus1rt_calibration_defaults(&out->cal);
    out->path[0] = '\0';
    if (!found)
        snprintf(out->why, sizeof out->why, "no calibration of %s%s%sin %s: nplus1gen "
                 "--calibrate measures one", names_device(device) ? "'" : "a device",
                 names_device(device) ? device : "", names_device(device) ? "' " : " ", dir);
    else
        snprintf(out->why, sizeof out->why, "%u calibrations in %s: --device NAME picks one",
                 found, dir);
}

void calibration_describe(const calibration_choice *c, char *buf, size_t n)
{
    const char *bar = strchr(c->cal.device, '|');
    int w = c->path[0] ? snprintf(buf, n, "calibration: %s (%.*s)", c->path,
                                  bar ? (int)strcspn(bar + 2, "|") - 1 : 64, bar ? bar + 2
                                                                              : c->cal.device)
                       : snprintf(buf, n, "calibration: defaults (%s)", c->why);
    if (w > 0 && (size_t)w < n)
        snprintf(buf + w, n - (size_t)w, "; a regrouping round costs %.0f plus %.1f a context "
                 "word (FMA-equivalents per item)", c->cal.round, c->cal.word);
}
