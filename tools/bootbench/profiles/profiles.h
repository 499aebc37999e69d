/* SPDX-License-Identifier: MIT */
/*
 * profiles.h - the field's methods as profiles: fio job files built into the
 * binary from rootfs/usr/share/bootbench/profiles (the image also ships them
 * there to read and copy; $BOOTBENCH_PROFILES=DIR reads DIR/NAME.fio
 * instead), each with a summary table of its own. The registry is one table.
 */
#ifndef BB_PROFILES_H
#define BB_PROFILES_H

#include <stdio.h>

#include "job/result.h"

struct profile {
	const char *name;
	const char *summary;
	int writes;			/* needs consent naming each target */
	void (*table)(FILE *f, const struct run_result *r);
};

extern const struct profile profiles[];
extern const unsigned profile_count;

/* Generated from the job files (scripts/embed-profiles.sh); ends with a NULL name. */
struct builtin_profile {
	const char *name;
	const char *text;
};
extern const struct builtin_profile builtin_profiles[];

struct jobset;

const struct profile *profile_find(const char *name);
/* Where a profile's job file comes from: "$BOOTBENCH_PROFILES/NAME.fio" or "built in". */
const char *profile_source(const struct profile *p);
/* The job file's text (malloc'd), or NULL with bb_err. */
char *profile_text(const struct profile *p);
/* Adds the profile's jobs to a job set, as a job file named on the command line would. */
int profile_load(struct jobset *js, const struct profile *p);
/* A job set of ARGS (run's options: --destroy, --output, ...) and the
 * profile's jobs, through jobset_finish; -1 with bb_err. ${TARGET} in the
 * job file is read from the environment. */
int profile_jobset(struct jobset *js, const struct profile *p, int argc, char **argv);
/* One block size of YABS's table: MB/s and IOPS, read [0] and write [1]. */
struct yabs_column {
	char size[16];
	double mbs[2], iops[2];
};
/* YABS's own layout (column pairs of block sizes, rows Read / Write / Total), for yabs and compare. */
void yabs_layout(FILE *f, const struct yabs_column *c, unsigned n);

/* Prints the job file (profile --show). */
int profile_show(FILE *f, const struct profile *p);

#endif
