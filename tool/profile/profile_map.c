/*
 * profile_map.c - the pictures of --profile-map (profile_map.h), written
 * with libpng. Items with the same path (every token equal) share a
 * colour; a group diverged exactly when its items' paths are not all
 * equal (lock-step lanes with equal paths never split).
 */
#include "profile_map.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#ifdef NPLUS1_HAVE_PNG
#include <png.h>
#endif

static const unsigned palette[MAP_PATHS] = {0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728,
                                            0x9467bd, 0x8c564b, 0xe377c2, 0xbcbd22};

unsigned profile_map_path_colour(unsigned n)
{
    return n < MAP_PATHS ? palette[n] : MAP_OTHER_PATH;
}

static int same_path(const ptrace *a, const ptrace *b)
{
    return a->n == b->n && !memcmp(a->tok, b->tok, a->n);
}

/* Per recorded item: the index of its path among the distinct ones seen first. */
static void path_colours(const profile_result *r, unsigned *rgb)
{
    const ptrace *seen[MAP_PATHS];
    unsigned nseen = 0;
    for (size_t i = 0; i < r->n; i++) {
        unsigned k = 0;
        while (k < nseen && !same_path(seen[k], &r->traces[i]))
            k++;
        if (k == nseen && nseen < MAP_PATHS)
            seen[nseen++] = &r->traces[i];
        rgb[i] = profile_map_path_colour(k);
    }
}

/* Per recorded item: did its group (width consecutive recorded items) take different paths? */
static void group_colours(const profile_result *r, unsigned width, unsigned *rgb)
{
    for (size_t g = 0; g < r->n; g += width) {
        size_t end = g + width < r->n ? g + width : r->n;
        int diverged = 0;
        for (size_t i = g + 1; i < end && !diverged; i++)
            diverged = !same_path(&r->traces[g], &r->traces[i]);
        for (size_t i = g; i < end; i++)
            rgb[i] = diverged ? MAP_DIVERGED : MAP_UNIFORM;
    }
}

#ifdef NPLUS1_HAVE_PNG
static int write_png(const char *path, unsigned w, unsigned h, const unsigned char *pixels)
{
    FILE *f = fopen(path, "wb");
    png_structp png = f ? png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL) : NULL;
    png_infop info = png ? png_create_info_struct(png) : NULL;
    int ok = info != NULL;
    if (ok && setjmp(png_jmpbuf(png)))
        ok = 0;
    else if (ok) {
        png_init_io(png, f);
        png_set_IHDR(png, info, w, h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
        png_write_info(png, info);
        for (unsigned y = 0; y < h; y++)
            png_write_row(png, (png_const_bytep)(pixels + (size_t)y * w * 3));
        png_write_end(png, NULL);
    }
    if (png)
        png_destroy_write_struct(&png, info ? &info : NULL);
    if (f)
        ok &= fclose(f) == 0;
    if (!ok)
        fprintf(stderr, "nplus1gen: error: cannot write '%s'\n", path);
    return ok ? 0 : 3;
}
#else
static int write_png(const char *path, unsigned w, unsigned h, const unsigned char *pixels)
{
    (void)w;
    (void)h;
    (void)pixels;
    fprintf(stderr, "nplus1gen: error: cannot write '%s': this nplus1gen was built without "
                    "libpng (install libpng-dev and build again)\n", path);
    return 3;
}
#endif

/* One picture: each recorded item's colour at its place, the others black. */
static int picture(const profile_report *rep, const char *path, const unsigned *rgb)
{
    const profile_result *r = &rep->res[0];
    unsigned w = (unsigned)rep->global[0], h = (unsigned)rep->global[1];
    unsigned char *px = xcalloc((size_t)w * h * 3, 1);
    for (size_t i = 0; i < r->n; i++) {
        unsigned char *p = px + r->ids[i] * 3;
        p[0] = (unsigned char)(rgb[i] >> 16);
        p[1] = (unsigned char)(rgb[i] >> 8);
        p[2] = (unsigned char)rgb[i];
    }
    int rc = write_png(path, w, h, px);
    free(px);
    return rc;
}

static char *groups_path(const char *file)
{
    size_t n = strlen(file);
    if (n > 4 && !strcmp(file + n - 4, ".png"))
        n -= 4;
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "%.*s.groups.png", (int)n, file);
    return sb_steal(&sb);
}

int profile_write_map(const profile_report *rep, const char *file)
{
    if (rep->dim != 2 || !rep->nks) {
        fprintf(stderr, "nplus1gen: error: --profile-map draws 2-D launches (give --global W,H)\n");
        return 1;
    }
    const profile_result *r = &rep->res[0];
    unsigned *rgb = xcalloc(r->n ? r->n : 1, sizeof *rgb);
    path_colours(r, rgb);
    int rc = picture(rep, file, rgb);
    char *gpath = groups_path(file);
    if (rc == 0) {
        group_colours(r, rep->width, rgb);
        rc = picture(rep, gpath, rgb);
    }
    if (rc == 0)
        printf("wrote %s (each item's path) and %s (groups of %u that diverged, red)\n", file,
               gpath, rep->width);
    free(gpath);
    free(rgb);
    return rc;
}
