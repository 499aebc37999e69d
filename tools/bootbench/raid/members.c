// SPDX-License-Identifier: MIT
/*
 * members.c - the steps of `bootbench raid` that write: old signatures off
 * the named disks, the head partition of --partition, a filesystem on the
 * array with --fs, and the teardown. Every one goes through the consent
 * gate (safety/consent.h); partitions this run wrote on a named disk and
 * the arrays it made are consented by the run itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/fs.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "job/worker.h"
#include "lib/json.h"
#include "lib/util.h"
#include "raid/raid.h"
#include "safety/consent.h"
#include "sys/sysinfo.h"

/* the one comparison this process runs (raid.h) */
struct raid raid_ctx;

void raid_first_partition(const char *disk, char *out, size_t len)
{
	size_t n = strlen(disk);

	snprintf(out, len, "%s%s1", disk, n && disk[n - 1] >= '0' && disk[n - 1] <= '9' ? "p" : "");
}

int raid_wipe(const char *dev)
{
	char *argv[] = { "wipefs", "-a", "-q", (char *)dev, NULL };

	return consent_tool("wiping signatures", dev, argv, NULL, 1);
}

int raid_wait_for_node(const char *dev)
{
	struct stat st;
	int i;

	for (i = 0; i < 100; i++) {
		if (!stat(dev, &st) && S_ISBLK(st.st_mode))
			return 0;
		sleep_ns(100000000);
	}
	return set_err("%s did not appear", dev);
}

/* One GPT partition at 1 MiB on DISK, of BYTES (0: the rest of the disk), wiped. */
static int partition(const char *disk, uint64_t bytes, const char *name, char *part, size_t len)
{
	char *argv[] = { "sfdisk", "--quiet", "--wipe", "always", "--wipe-partitions", "always", (char *)disk, NULL };
	char script[256], size[48] = "";

	if (bytes)
		snprintf(size, sizeof(size), " size=%llu,", (unsigned long long)(bytes / 512));
	snprintf(script, sizeof(script), "label: gpt\nstart=2048,%s name=%s\n", size, name);
	raid_ctx.partitioned = 1;
	if (raid_wipe(disk) || consent_tool("partitioning", disk, argv, script, 0))
		return -1;
	raid_first_partition(disk, part, len);
	/* the partition this run wrote on a named disk is the run's to write */
	if (raid_wait_for_node(part))
		return -1;
	consent_allow_partitions_of(disk);
	return raid_wipe(part);
}

/* Whole disks: old signatures off. --partition: one GPT partition at 1 MiB. */
int raid_prepare_members(void)
{
	unsigned i;

	for (i = 0; i < raid_ctx.n; i++) {
		if (!raid_ctx.part_bytes) {
			snprintf(raid_ctx.members[i], sizeof(raid_ctx.members[i]), "%s", raid_ctx.disks[i]);
			if (raid_wipe(raid_ctx.disks[i]))
				return -1;
		} else if (partition(raid_ctx.disks[i], raid_ctx.part_bytes, "bootbench-raid", raid_ctx.members[i], sizeof(raid_ctx.members[i]))) {
			return -1;
		}
		raid_ctx.member[i] = raid_ctx.members[i];
	}
	return 0;
}

/*
 * The pools' devices: the head partitions of --partition, or one partition
 * over each whole disk from 1 MiB, as zpool itself lays out a whole disk.
 * (Given a whole disk, zpool waits for udev to announce the partition it
 * made, and the image runs no udev.)
 */
int raid_prepare_zfs_members(void)
{
	unsigned i;

	for (i = 0; i < raid_ctx.n; i++) {
		if (raid_ctx.part_bytes)
			memcpy(raid_ctx.zmembers[i], raid_ctx.members[i], sizeof(raid_ctx.zmembers[i]));	/* the same size */
		else if (partition(raid_ctx.disks[i], 0, "bootbench-zfs", raid_ctx.zmembers[i], sizeof(raid_ctx.zmembers[i])))
			return -1;
		raid_ctx.zmember[i] = raid_ctx.zmembers[i];
	}
	return 0;
}

/* The device or file a run measures: DEV itself, or a file on a new filesystem on it. */
int raid_prepare_target(const char *dev, char *target, size_t len, uint64_t *size_max)
{
	char *ext4[] = { "mkfs.ext4", "-F", "-q", "-E", "lazy_itable_init=0,lazy_journal_init=0", (char *)dev, NULL };
	char *xfs[] = { "mkfs.xfs", "-f", "-q", (char *)dev, NULL };
	char *modprobe[] = { "modprobe", "-q", (char *)raid_ctx.fs, NULL };
	struct statvfs vfs;
	int rc;

	if (raid_ctx.live_pool) {
		/* ZFS mounted the pool's dataset itself */
		snprintf(target, len, "%s/bootbench-raid.dat", raid_ctx.live_pool->mountpoint);
		if (statvfs(raid_ctx.live_pool->mountpoint, &vfs))
			return set_err("cannot read the free space of %s: %s", raid_ctx.live_pool->mountpoint, strerror(errno));
		*size_max = (uint64_t)(vfs.f_bavail * (double)vfs.f_frsize * 0.8) & ~((1ull << 20) - 1);
		return 0;
	}
	if (!raid_ctx.fs) {
		unsigned long long bytes = 0;
		int fd = open(dev, O_RDONLY | O_CLOEXEC);

		/* a profile written for big disks covers what this device has */
		if (fd < 0 || ioctl(fd, BLKGETSIZE64, &bytes)) {
			if (fd >= 0)
				close(fd);
			return set_err("cannot read the size of %s: %s", dev, strerror(errno));
		}
		close(fd);
		snprintf(target, len, "%s", dev);
		*size_max = bytes;
		return 0;
	}
	if (consent_tool("mkfs", dev, !strcmp(raid_ctx.fs, "ext4") ? ext4 : xfs, NULL, 0))
		return -1;
	mkdir(RUNDIR, 0755);
	mkdir(MOUNTPOINT, 0755);
	rc = consent_mount(dev, MOUNTPOINT, raid_ctx.fs, 0);
	if (rc && errno == ENODEV) {
		/* the filesystem is a module not loaded yet */
		spawn(modprobe, NULL, 0, NULL, 0);	/* consent: loads a module, writes no device */
		rc = consent_mount(dev, MOUNTPOINT, raid_ctx.fs, 0);
	}
	if (rc && errno == EPERM)
		return -1;
	if (rc)
		return set_err("cannot mount %s (%s) on %s: %s", dev, raid_ctx.fs, MOUNTPOINT, strerror(errno));
	raid_ctx.mounted = 1;
	snprintf(target, len, MOUNTPOINT "/bootbench-raid.dat");
	if (statvfs(MOUNTPOINT, &vfs))
		return set_err("cannot read the free space of %s: %s", MOUNTPOINT, strerror(errno));
	/* the file takes most of the filesystem, leaving room for its metadata */
	*size_max = (uint64_t)(vfs.f_bavail * (double)vfs.f_frsize * 0.8) & ~((1ull << 20) - 1);
	return 0;
}

int raid_release_target(const char *dev)
{
	if (raid_ctx.live_pool)
		return 0;	/* the file goes with the pool */
	if (raid_ctx.mounted) {
		if (unmount_patiently(MOUNTPOINT))
			return set_err("cannot unmount %s: %s", MOUNTPOINT, strerror(errno));
		raid_ctx.mounted = 0;
	}
	/* the filesystem's signature goes, so no later array or disk shows it */
	return raid_ctx.fs ? raid_wipe(dev) : 0;
}

/* Takes the live array down; anything that fails here is a loud error. */
int raid_teardown_array(void)
{
	struct md_array *a = raid_ctx.live;
	struct zfs_pool *p = raid_ctx.live_pool;

	if (p) {
		raid_ctx.live_pool = NULL;
		if (zfs_destroy(p, raid_ctx.zmember, raid_ctx.live_width))
			return -1;
		printf("%s destroyed, labels cleared\n", p->name);
		return 0;
	}
	if (!a)
		return 0;
	raid_ctx.live = NULL;
	if (raid_ctx.mounted && raid_release_target(a->dev))
		return -1;
	if (md_destroy(a, raid_ctx.member, raid_ctx.n))
		return -1;
	printf("%s stopped, superblocks zeroed\n", a->name);
	return 0;
}

/*
 * Whether DISK carries a GPT of ours: every partition named bootbench-...
 * (as partition() names them), so a killed run's table is recognised.
 */
static int gpt_is_ours(const char *disk)
{
	unsigned char *buf = NULL;
	unsigned i, count, size, ssz = 512, found = 0;
	uint64_t entries_lba;
	int fd = open(disk, O_RDONLY | O_CLOEXEC), ours = 1;

	if (fd < 0)
		return 0;
	ioctl(fd, BLKSSZGET, &ssz);
	buf = malloc(ssz > 16384 ? ssz : 16384);
	if (!buf || pread(fd, buf, ssz, ssz) != (ssize_t)ssz || memcmp(buf, "EFI PART", 8)) {
		free(buf);
		close(fd);
		return 0;
	}
	memcpy(&entries_lba, buf + 72, 8);
	memcpy(&count, buf + 80, 4);
	memcpy(&size, buf + 84, 4);
	if (size < 128 || size > 16384 || count > 256)
		count = 0;
	for (i = 0; i < count && ours; i++) {
		static const unsigned char zero[16];
		char name[37];
		unsigned k;

		if (pread(fd, buf, size, (off_t)(entries_lba * ssz + (uint64_t)i * size)) != (ssize_t)size)
			break;
		if (!memcmp(buf, zero, 16))
			continue;	/* an unused entry */
		/* the name: UTF-16LE at offset 56, 36 units */
		for (k = 0; k < 36 && (buf[56 + 2 * k] || buf[57 + 2 * k]); k++)
			name[k] = buf[57 + 2 * k] ? '?' : (char)buf[56 + 2 * k];
		name[k] = 0;
		ours = !strncmp(name, "bootbench-", 10);
		found++;
	}
	free(buf);
	close(fd);
	return ours && found;
}

int cleanup_partition_tables(FILE *log)
{
	char part[300];
	unsigned i;
	int cleaned = 0;

	for (i = 0; i < raid_ctx.n; i++) {
		if (!gpt_is_ours(raid_ctx.disks[i]))
			continue;
		raid_first_partition(raid_ctx.disks[i], part, sizeof(part));
		if (!access(part, F_OK) && raid_wipe(part))
			return -1;
		if (raid_wipe(raid_ctx.disks[i]))
			return -1;
		fprintf(log, "cleanup: removed the partition table of an earlier run on %s\n", raid_ctx.disks[i]);
		cleaned++;
	}
	return cleaned;
}

int raid_teardown_members(void)
{
	unsigned i;
	int rc = 0;

	if (!raid_ctx.partitioned)
		return 0;
	for (i = 0; i < raid_ctx.n; i++) {
		if (raid_ctx.zmember[i] && strcmp(raid_ctx.zmember[i], raid_ctx.members[i]) && raid_wipe(raid_ctx.zmember[i]))
			rc = -1;
		if (raid_wipe(raid_ctx.members[i]) || raid_wipe(raid_ctx.disks[i]))
			rc = -1;
	}
	if (!rc)
		printf("partition tables of this run removed\n");
	return rc;
}

