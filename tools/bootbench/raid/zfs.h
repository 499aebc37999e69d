/* SPDX-License-Identifier: MIT */
/*
 * zfs.h - OpenZFS pools as `bootbench raid` compares them beside md levels:
 * the topologies (one table), loading the module (refused under Secure
 * Boot, and said why), creating a pool over the run's members with zpool,
 * destroying it and clearing its labels, reading the pool name in a ZFS
 * label, and finding what a killed run left. Pools of ours are named
 * ZFS_NAME_PREFIX...; nothing else is ever destroyed or cleared.
 */
#ifndef BB_ZFS_H
#define BB_ZFS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define ZFS_NAME_PREFIX "bootbench-"
#define ZFS_MAX_WIDTHS 8
#define ZFS_MOUNT_ROOT "/run/bootbench/zfs"

struct zfs_topology {
	const char *name;	/* as --zfs names it: raidz2 */
	unsigned parity;	/* raidz parity disks; 0 for stripe and mirror */
	int mirror;		/* mirror vdevs of two disks each */
	unsigned min_width;
	const char *what;
};

extern const struct zfs_topology zfs_topologies[];
extern const unsigned zfs_topology_count;

const struct zfs_topology *zfs_topology_find(const char *name);
/* Whether T can be made of WIDTH disks; if not, WHY says so in a few words. */
int zfs_width_fits(const struct zfs_topology *t, unsigned width, char *why, size_t len);
/* Usable capacity in disks' worth: 4 of 6 for raidz2 over 6. */
double zfs_capacity(const struct zfs_topology *t, unsigned width);

/*
 * Loads the zfs module if it is not loaded. -1 with one line in bb_err
 * that says why it cannot be: Secure Boot's lockdown refusing modules that
 * Debian did not sign, or an image without the ZFS part.
 */
int zfs_load(void);
/* The loaded module's version ("2.1.11-1+deb12u1"), "" when none. */
void zfs_version(char *buf, size_t len);
/* Whether that version reads and writes O_DIRECT past the ARC (2.3 and later). */
int zfs_direct_io(void);

struct zfs_settings {
	unsigned ashift;	/* log2 of the sector size the pool writes */
	uint64_t recordsize;
};

struct zfs_pool {
	char name[64];		/* bootbench-raidz2-6 */
	char mountpoint[128];
	char cmdline[1024];	/* the zpool command, for the report */
	uint64_t arc_max;	/* the ARC's cap while it was measured (bytes), 0 unknown */
};

/* The name of a pool of T over WIDTH disks: bootbench-raidz2-6. */
void zfs_pool_name(const struct zfs_topology *t, unsigned width, char *buf, size_t len);
/*
 * Creates a pool of ours of topology T over the first WIDTH of MEMBERS
 * (partitions, each through the consent gate), compression off, its
 * dataset mounted under ZFS_MOUNT_ROOT. Fills *p; on failure bb_err says
 * what zpool said.
 */
int zfs_create(const struct zfs_topology *t, unsigned width, char *const *members, const struct zfs_settings *s,
	       struct zfs_pool *p);
/* Caps the ARC at BYTES (zfs_arc_max) and returns the cap the ARC reports. */
uint64_t zfs_cap_arc(uint64_t bytes);
/* Destroys the pool and clears the ZFS labels on its members. */
int zfs_destroy(const struct zfs_pool *p, char *const *members, unsigned width);

/*
 * The pool named in a ZFS label on DEV (any of the four): 1 and *name, 0
 * when DEV has no label, -1 when DEV cannot be read.
 */
int zfs_label_pool(const char *dev, char *name, size_t len);
/* The same for an nvlist as a label packs it (XDR), for the unit test. */
int zfs_nvlist_string(const unsigned char *buf, size_t len, const char *key, char *out, size_t outlen);
int zfs_is_ours(const char *pool);

/*
 * A pool not of ours on DISK or one of its partitions: 1 with its name
 * and the device, 0 when none (a label of ours is the cleanup's).
 */
int zfs_foreign_pool(const char *disk, char *pool, size_t len, char *dev, size_t devlen);
/*
 * What a killed run left on the named DISKS: an imported pool of ours
 * whose devices were all named is destroyed (one with another device is
 * left alone, and said so), and labels of ours on the disks' partitions
 * are cleared. Each step is logged to LOG. Returns the number of things
 * cleaned, or -1 when one could not be (bb_err says which).
 */
int zfs_cleanup_ours(char *const *disks, unsigned n, FILE *log);

#endif
