/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_map.h - --profile-map FILE.png and the maps of --profile-html:
 * pictures of one profiled kernel's recording (docs/cli.md,
 * "--profile-map"), each with a title, a legend and a scale.
 */
#ifndef NPLUS1_PROFILE_MAP_H
#define NPLUS1_PROFILE_MAP_H

#include <stddef.h>

#include "profile_report.h"

/* The colours of the maps, RGB. */
#define MAP_UNRECORDED 0x000000u  /* a cell whose items the sample left out */
#define MAP_UNIFORM 0x2e7d32u     /* groups map: efficiency 1 (the top of the scale) */
#define MAP_HALF 0xf9a825u        /* groups map: efficiency 0.5 */
#define MAP_DIVERGED 0xc62828u    /* groups map: efficiency 0 (the bottom of the scale) */
#define MAP_OTHER_PATH 0x9e9e9eu  /* paths map: the 9th and later distinct paths */
#define MAP_PATHS 8

/* Up to this many items a launch's map has a cell per item; past it a cell per
 * SIMD group (or per run of groups, to stay within this many cells). */
#define MAP_MAX_CELLS (1u << 20)

/* The paths map's colour of the n-th distinct path (0-based, in linear id order). */
unsigned profile_map_path_colour(unsigned n);

/* The groups map's colour of a SIMT efficiency (0..1): red, amber at 0.5, green at 1. */
unsigned profile_map_efficiency_colour(double e);

/*
 * What a path did, for the paths legend: per construct it reached, "if 20
 * then", "switch 50 entry 2", "for 41 x4" (iterations), "if 12 then x3 else
 * x1" (both ways in a loop); "no decision" when it reached none. Cut at cap
 * characters, with "...".
 */
void profile_map_describe_path(const ptree *t, const ptrace *path, char *out, size_t cap);

typedef struct profile_map_png {
    unsigned char *png;
    size_t len;
    unsigned w, h;
} profile_map_png;

/*
 * Kernel k's two pictures as PNG bytes: out[0] the path each item took,
 * out[1] the SIMT efficiency of each SIMD group. Each carries a tEXt chunk
 * "nplus1-map" = "x=X y=Y w=W h=H zoom=Z cols=C rows=R span=S": where the
 * map lies in the picture (the rest is title and legend), its cells and
 * the linear ids per cell. Returns 0, or -1 (built without libpng).
 */
int profile_map_render(const profile_report *rep, unsigned k, profile_map_png out[2]);
void profile_map_png_free(profile_map_png out[2]);

/*
 * Writes FILE.png (the paths map) and FILE.groups.png (the groups map) of
 * the first kernel. Returns 0, or 3 (cannot write) after a message.
 */
int profile_write_map(const profile_report *rep, const char *file);

#endif
