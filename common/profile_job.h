/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_job.h - what a profile job carries besides the sources
 * (docs/cli.md, "Profile jobs"): each kernel's tree with its cost model as
 * text (profile.tree), the recording's layout, and the recording read
 * back. Plain C: nplus1gen writes these, nplus1gen-validate reads them.
 */
#ifndef NPLUS1_PROFILE_JOB_H
#define NPLUS1_PROFILE_JOB_H

#include <stdio.h>

#include "profile_report.h"
#include "util.h"

#define PROFILE_UNIT_ITEMS 4096u  /* items sampled together: whole tiles, whole groups */
#define PROFILE_FIRST_SLOT 64u    /* bytes per item on the first run: 60 tokens */

/* Appends kernel `name`'s tree to sb (the profile.tree format). */
void profile_tree_write(strbuf *sb, const char *name, const ptree *t);

/* Appends the "set" line of the kernel written last (profile_report.h's profile_set). */
void profile_set_write(strbuf *sb, const profile_set *ps);

/*
 * Reads every kernel of a profile.tree file into *ks (malloc'd, *nks of
 * them). Returns 0, or -1 after a message naming the file and the line.
 */
int profile_tree_read(const char *path, profile_kernel_tree **ks, unsigned *nks);
void profile_kernel_trees_free(profile_kernel_tree *ks, unsigned nks);

/*
 * The layout for `items` items of `slot` bytes within `memory` bytes.
 * Returns 0, or -1 after the "too little memory for the recording" message.
 */
int profile_plan_layout(unsigned long long items, unsigned long long memory, unsigned slot,
                        profile_layout *lay);

/* The recording's size in bytes. */
unsigned long long profile_record_bytes(const profile_layout *lay);

/*
 * Takes the recording `data` (len bytes, malloc'd; r owns it from here):
 * the real items' traces, their ids and the longest path. Returns 0, or
 * -1 when len is not the layout's size (data freed).
 */
int profile_take_record(profile_result *r, unsigned char *data, size_t len,
                        const profile_layout *lay, unsigned long long items);

#endif
