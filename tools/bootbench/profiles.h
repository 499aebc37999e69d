/* SPDX-License-Identifier: MIT */
/*
 * profiles.h - the field's methods as profiles: fio job files shipped in the
 * image (/usr/share/bootbench/profiles/NAME.fio, or $BOOTBENCH_PROFILES),
 * each with a summary table of its own. The registry is one table.
 */
#ifndef BB_PROFILES_H
#define BB_PROFILES_H

#include <stdio.h>

#include "report.h"

struct profile {
	const char *name;
	const char *summary;
	int writes;			/* needs consent naming each target */
	void (*table)(FILE *f, const struct run_result *r);
};

extern const struct profile profiles[];
extern const unsigned profile_count;

const struct profile *profile_find(const char *name);
/* The job file of a profile, in a static buffer. */
const char *profile_path(const struct profile *p);

#endif
