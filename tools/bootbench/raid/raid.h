/* SPDX-License-Identifier: MIT */
/*
 * raid.h - the state of one `bootbench raid` run (cmd/raid.c), shared by
 * its parts: members.c (the steps that write: partitions, filesystems,
 * teardown, each through the consent gate), figures.c (the baseline, the
 * ratios and the tables) and output.c (raid.json and the saved files).
 */
#ifndef BB_RAID_H
#define BB_RAID_H

#include <stdint.h>
#include <stdio.h>

#include "lib/json.h"
#include "profiles/profiles.h"
#include "raid/collect.h"
#include "raid/mdraid.h"
#include "raid/zfs.h"

#define MAX_LEVELS 16
#define MAX_RESULTS (MAX_LEVELS + 5 * ZFS_MAX_WIDTHS)
#define OUTLIER 0.10		/* a disk this far off the median of its siblings is named */
#define RUNDIR "/run/bootbench"
#define MOUNTPOINT RUNDIR "/raid-mnt"

/* One row group of the table: an md level or a ZFS topology at one width. */
struct level_result {
	const struct raid_level *l;	/* md, or NULL for a ZFS pool */
	const struct zfs_topology *z;
	unsigned width;			/* disks in the pool */
	char name[32];			/* raid6, zfs-raidz2/6 */
	struct md_array a;
	struct zfs_pool pool;
	struct cells cells;
	int status;		/* of the profile run, or EXIT_FAIL when the array failed */
	double resync_s;	/* -1: skipped with --assume-clean or not needed */
	char error[512];
};

struct raid {
	char *disks[MD_MAX_DISKS];	/* /dev/vdb */
	char members[MD_MAX_DISKS][80];	/* /dev/vdb, or /dev/vdb1 with --partition */
	char *member[MD_MAX_DISKS];
	unsigned n;
	uint64_t member_size;
	const struct profile *profile;
	const struct raid_level *levels[MAX_LEVELS];
	unsigned nlevels;
	const char *fs, *chunk, *outdir, *progress_arg;
	uint64_t part_bytes;
	int resync, progress_fd;
	unsigned stage, stages;
	struct cells base[MD_MAX_DISKS], median;
	struct level_result res[MAX_RESULTS];
	unsigned nres;
	struct md_array *live;		/* the array up now: torn down on any exit */
	int mounted, partitioned;
	/* ZFS: the topologies and widths, the settings, the pool up now */
	const struct zfs_topology *zfs[8];
	unsigned nzfs, widths[ZFS_MAX_WIDTHS], nwidths;
	struct zfs_settings zs;
	uint64_t arc_max;		/* the cap asked for; the ARC's own in each result */
	char zfs_version[64];
	char zmembers[MD_MAX_DISKS][80];	/* the pools' devices: partitions */
	char *zmember[MD_MAX_DISKS];
	struct zfs_pool *live_pool;
	unsigned live_width;
};

/* the one comparison this process runs: its disks, levels, results and what is up now */
extern struct raid raid_ctx;


/* members.c */
void raid_first_partition(const char *disk, char *out, size_t len);
int raid_wipe(const char *dev);
int raid_wait_for_node(const char *dev);
int raid_prepare_members(void);
int raid_prepare_target(const char *dev, char *target, size_t len, uint64_t *size_max);
int raid_release_target(const char *dev);
int raid_teardown_array(void);
int raid_teardown_members(void);
int raid_prepare_zfs_members(void);
/* Partition tables of ours (every partition named bootbench-...) on the named disks: removed. */
int cleanup_partition_tables(FILE *log);
/* figures.c */
/* A cell relative to the baseline cell (bandwidth), 0 when either is missing. */
double raid_ratio(const struct cell *c, const struct cell *base);
void raid_baseline_median(void);
unsigned raid_print_outliers(FILE *f, struct json *j);
void raid_print_table(FILE *f);
void raid_print_failures(FILE *f);
void raid_print_setup(FILE *f);
void raid_print_verdict(FILE *f, struct json *j);
/* output.c */
void raid_save(const char *name, int status, int as_json);

#endif
