/* SPDX-License-Identifier: MIT */
/*
 * inventory.h - many machines' inventory.json (sys/inventory.h) read back
 * and set side by side for `bootbench compare --inventory`: machines are
 * grouped by system model, each machine's parts are put as facts ("slot
 * DIMM_A1" = "16GiB DDR4 3200 MT/s ... M393A2K43DB3-CWE"), and a machine
 * whose fact is not its group's majority's is named with what differs.
 */
#ifndef BB_RESULTS_INVENTORY_H
#define BB_RESULTS_INVENTORY_H

#include <stdio.h>

#include <jansson.h>

struct inv_fact {
	char part[160];		/* "bios", "slot P1-DIMMA1", "pci 0000:3b:00.0", "disk MODEL (SIZE)" */
	char value[320];	/* what this machine has there; "absent" when it has nothing */
};

/* A DIMM configured below the speed it is rated for (SMBIOS type 17's
 * Configured Memory Speed under its Speed). */
struct inv_slow_dimm {
	char slot[200];		/* as its fact's part: "slot P1-DIMMA1 P0_Node0_Channel0_Dimm0" */
	unsigned running, rated;	/* MT/s */
};

struct inv_machine {
	char machine[128], model[200], taken[32], file[512];
	struct inv_fact *facts;
	unsigned nfacts;
	struct inv_slow_dimm *slow;	/* its DIMMs running below their rated speed */
	unsigned nslow, ndimms;		/* ndimms: the slots filled */
};

/* One part on which a machine is not its group's majority. */
struct inv_diff {
	const struct inv_machine *m;
	const char *part, *value, *majority;	/* majority NULL: the group has none on this part */
};

struct inv_group {
	char model[200];
	struct inv_machine **m;		/* by machine name */
	unsigned n;
	struct inv_diff *diffs;		/* by machine, then part */
	unsigned ndiffs;
	unsigned split;			/* parts with no majority (a group of two that differ) */
};

struct inv_set {
	struct inv_machine *m;
	unsigned n, cap;
	unsigned files, bad;	/* inventory.json files read; files refused (each said on ERRS) */
	unsigned repeats;	/* older inventories of a machine read again (the newest counts) */
};

/*
 * Adds every inventory.json under PATH (a file, or a folder searched
 * recursively, no link followed) to SET; a machine seen twice keeps its
 * newest. A file that is not an inventory (or a newer format) is said on
 * ERRS and counted in set->bad. -1 with bb_err when PATH cannot be read.
 */
int inv_load_path(struct inv_set *set, const char *path, FILE *errs);
/* Whether J is an inventory.json (results/load.c knows it, and reads past it). */
int inv_is_inventory(json_t *j);
/*
 * M's DIMMs that run below their rated speed in a line, into BUF: "all 4
 * DIMMs at 2400 MT/s, rated 3200 MT/s", or each named ("slot P1-DIMMA1 at
 * 2400 MT/s, rated 3200 MT/s; ...") when not all alike. Machines whose
 * lines are the same run alike. "" when none does.
 */
const char *inv_slow_summary(const struct inv_machine *m, char *buf, size_t len);
/* The groups by system model, each compared; free with inv_groups_free. */
struct inv_group *inv_groups(const struct inv_set *set, unsigned *ng);
void inv_groups_free(struct inv_group *g, unsigned ng);
void inv_free(struct inv_set *set);

#endif
