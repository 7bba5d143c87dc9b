/*
 * profile_map.h - --profile-map FILE.png: for a 2-D launch, the picture
 * of the first profiled kernel's recording (docs/cli.md, "--profile-map").
 */
#ifndef NPLUS1_PROFILE_MAP_H
#define NPLUS1_PROFILE_MAP_H

#include "profile_report.h"

/* The colours of the maps, RGB. */
#define MAP_UNRECORDED 0x000000u  /* an item the sample left out */
#define MAP_UNIFORM 0x2e7d32u     /* groups map: a group whose items took one path */
#define MAP_DIVERGED 0xc62828u    /* groups map: a group whose items took different paths */
#define MAP_OTHER_PATH 0x9e9e9eu  /* paths map: the 9th and later distinct paths */
#define MAP_PATHS 8

/* The paths map's colour of the n-th distinct path (0-based, in linear id order). */
unsigned profile_map_path_colour(unsigned n);

/*
 * Writes FILE.png (one pixel per item: the colour of its path) and
 * FILE.groups.png (one pixel per item: did its group of W diverge).
 * Returns 0, or 1 (not a 2-D launch) or 3 (cannot write) after a message.
 */
int profile_write_map(const profile_report *rep, const char *file);

#endif
