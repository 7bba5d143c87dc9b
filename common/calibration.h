/* SPDX-License-Identifier: Apache-2.0 */
/*
 * calibration.h - the device's cost model as the tool reads it, without a
 * device: the calibration files nplus1rt_calibrate (runtime/calibrate.c)
 * stored in the choice cache's folder (NPLUS1_CACHE_DIR, else
 * $XDG_CACHE_HOME/nplus1, else ~/.cache/nplus1; none with NPLUS1_CACHE=0).
 * The static rule of the plan stage (tool/plan/context.h) and the profile's
 * predictions take their constants from it; --report says which.
 */
#ifndef NPLUS1_CALIBRATION_H
#define NPLUS1_CALIBRATION_H

#include <stddef.h>

#include "nplus1rt_format.h"

typedef struct calibration_choice {
    nplus1rt_calibration cal;  /* the file's figures, else nplus1rt_calibration_defaults */
    char path[1024];           /* the file, "" for the defaults */
    char why[480];             /* defaults: why (a phrase: none stored, several, ...) */
} calibration_choice;

/*
 * NPLUS1_CALIBRATION=FILE names the file whatever the device (one that does not
 * parse: the defaults, with a note). Else the calibration of the device whose name contains device (case-insensitive;
 * NULL or "" or an index: any): the only file of the folder that matches. With
 * none, or several, the defaults, and why says so. A file that does not parse
 * is passed over with a note on stderr.
 */
void calibration_find(const char *device, calibration_choice *out);

/* "calibration: FILE (DEVICE)" or "calibration: defaults (WHY)", then the constants. */
void calibration_describe(const calibration_choice *c, char *buf, size_t n);

#endif
