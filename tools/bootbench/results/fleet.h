/* SPDX-License-Identifier: MIT */
/*
 * fleet.h - the figures of many machines (results/load.h) grouped for
 * `bootbench compare`: which disks are alike, their median, and which
 * ones stray (an OUTLIER: more than 3 scaled MADs and 10% from it).
 */
#ifndef BB_FLEET_H
#define BB_FLEET_H

#include <stddef.h>

#include "results/load.h"

/* What makes disks alike: model, firmware and capacity; model and capacity; or the machine. */
enum fleet_by { FLEET_BY_FIRMWARE, FLEET_BY_MODEL, FLEET_BY_MACHINE };

struct fleet_member {
	const struct rs_figure *f;
	double dev;		/* relative to the group's median */
	int outlier;		/* -1 slow, +1 fast, 0 not */
};

struct fleet_group {
	char key[512];
	struct fleet_member *m;
	unsigned n;
	double median, mad, median_bw;
	int compared;
};

/* The groups of TEST's figures, each summed up and its members sorted by machine and slot; free with fleet_free. */
struct fleet_group *fleet_groups(const struct rs_set *s, const char *test, enum fleet_by by, unsigned *ng);
void fleet_free(struct fleet_group *g, unsigned n);
/* The tests in the order their first figure came (the caller frees the array, not the names). */
const char **fleet_tests(const struct rs_set *s, unsigned *nt);
/* "machine M, disk S, slot P": how a figure's disk is named to a person. */
const char *fleet_who(const struct rs_figure *f, char *buf, size_t len);
/*
 * dbcommit's verdict per disk: its log job's sync p50 over 10x its page
 * job's write p50 (profiles.c's rule). Returns the number of fsync-bound
 * disks; each is listed through EACH (NULL: only counted).
 */
unsigned fleet_fsync_bound(const struct rs_set *s, void (*each)(const struct rs_figure *log, double ratio, void *arg),
			   void *arg);
/* The levels' cells of TEST and LEVEL: how many runs, their median ratio and p99. */
unsigned fleet_level_median(const struct rs_set *s, const char *test, const char *level, double *vs, double *p99);
/* Names in the order they first come: the tests of raid.json cells, or the levels (LEVELS). */
unsigned fleet_firsts(const struct rs_set *s, int levels, const char **out, unsigned max);

#endif
