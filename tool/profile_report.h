/*
 * profile_report.h - what --profile measured, replayed and printed: the
 * kernel's SIMT efficiency, per decision and loop where work is lost, the
 * predictions after regrouping (the text report, --profile-json).
 */
#ifndef NPLUS1_PROFILE_REPORT_H
#define NPLUS1_PROFILE_REPORT_H

#include "profile_build.h"
#include "profile_cmd.h"

/* One kernel's run: what the runner said and the recording. */
typedef struct profile_result {
    char device[256];
    size_t compared, mismatches;  /* instrumented vs original, writable buffers */
    unsigned tile;                /* items per tile the runtime would use on the device */
    unsigned char *record;
    ptrace *traces;               /* the recorded items, by linear id */
    unsigned long long *ids;
    size_t n;
    unsigned longest;             /* the longest path, in tokens */
} profile_result;

void profile_result_free(profile_result *r);

typedef struct profile_report {
    const char *input;
    const validate_options *vo;
    const profile_options *o;
    const profile_layout *lay;
    unsigned long long items;
    const profile_kernel *pks;
    unsigned npks;
    profile_result *res;
} profile_report;

/* Replays, prints, writes --profile-json and --profile-map; 0, 1 or 3 like profile_command. */
int profile_report_all(const profile_report *rep);

#endif
