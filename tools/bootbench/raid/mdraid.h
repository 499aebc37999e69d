/* SPDX-License-Identifier: MIT */
/*
 * mdraid.h - Linux software RAID as `bootbench raid` uses it: the levels and
 * layouts it compares (one table), creating and stopping arrays with mdadm,
 * and finding what an earlier run left behind. Arrays of ours carry a name
 * that starts with MD_NAME_PREFIX in their v1.2 superblock; nothing else is
 * ever stopped or wiped by the cleanup.
 */
#ifndef BB_MDRAID_H
#define BB_MDRAID_H

#include <stddef.h>
#include <stdio.h>

#define MD_NAME_PREFIX "bootbench-"
#define MD_MAX_DISKS 32

struct raid_level {
	const char *name;	/* as reports and --levels name it: raid10-f2 */
	const char *alias;	/* also accepted: "10" for raid10-n2 */
	const char *md_level;	/* mdadm --level */
	const char *layout;	/* mdadm --layout, or NULL */
	const char *module;	/* the kernel module of the personality */
	unsigned min_disks;
	int redundant;		/* has a resync (mirrors or parity) */
	const char *what;
};

extern const struct raid_level raid_levels[];
extern const unsigned raid_level_count;

/* By name: "5", "raid5", "10", "raid10-f2", "10-o2", "linear". */
const struct raid_level *raid_level_find(const char *name);
/* Usable capacity in disks' worth: 3 of 4 for raid5 on 4 disks. */
double raid_capacity(const struct raid_level *l, unsigned ndisks);

struct md_array {
	char name[64];		/* bootbench-raid5 */
	char dev[64];		/* /dev/md127 */
	char cmdline[1024];	/* the mdadm command, for the report */
};

/*
 * Creates an array of ours over MEMBERS with mdadm; CHUNK (mdadm's form,
 * e.g. "512K") may be NULL for mdadm's default. ASSUME_CLEAN skips the
 * initial resync (redundant levels only). Fills *a; on failure bb_err says
 * what mdadm said.
 */
int md_create(const struct raid_level *l, char *const *members, unsigned n, const char *chunk,
	      int assume_clean, struct md_array *a);
/* Waits for a resync to end; returns the seconds it took, -1 if stopped. */
double md_wait_resync(const struct md_array *a, volatile int *stop);
/* Stops the array and zeroes the superblock on every member. */
int md_destroy(const struct md_array *a, char *const *members, unsigned n);

/*
 * The name in a v1.2 md superblock on DEV: 1 and *name when there is one,
 * 0 when there is none, -1 when DEV cannot be read.
 */
int md_superblock_name(const char *dev, char *name, size_t len);

/*
 * What a killed run left, on consented devices only (safety/consent.h):
 * a running array whose members carry a name of ours and were all named is
 * unmounted and stopped (one with another member is left alone, and said
 * so), and superblocks of ours on DISKS (and their partitions) are zeroed. Each step is logged to LOG. Returns the number of
 * things cleaned, or -1 when one could not be (bb_err says which).
 */
int md_cleanup_ours(char *const *disks, unsigned n, FILE *log);

#endif
