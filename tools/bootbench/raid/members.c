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

#include "raid.h"
#include "consent.h"
#include "json.h"
#include "sysinfo.h"
#include "util.h"
#include "worker.h"

void first_partition(const char *disk, char *out, size_t len)
{
	size_t n = strlen(disk);

	snprintf(out, len, "%s%s1", disk, n && disk[n - 1] >= '0' && disk[n - 1] <= '9' ? "p" : "");
}

/* A writing tool on DEV, through the consent gate. */
int run_tool(int keep_going_on_int, const char *what, const char *dev, char *const argv[],
		    const char *input)
{
	char out[1024], *devs[] = { (char *)dev };
	int rc = consent_spawn(devs, 1, argv, input, keep_going_on_int, out, sizeof(out));

	if (rc < 0)
		return -1;
	if (rc)
		return set_err("%s failed (%s exit status %d): %s", what, argv[0], rc, out[0] ? out : "no message");
	return 0;
}

int wipe(const char *dev)
{
	char *argv[] = { "wipefs", "-a", "-q", (char *)dev, NULL };

	return run_tool(1, "wiping signatures", dev, argv, NULL);
}

int wait_for_node(const char *dev)
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

/* Whole disks: old signatures off. --partition: one GPT partition at 1 MiB. */
int prepare_members(void)
{
	char script[256], part[64];
	unsigned i;

	snprintf(script, sizeof(script), "label: gpt\nstart=2048, size=%llu, name=bootbench-raid\n",
		 (unsigned long long)(R.part_bytes / 512));
	for (i = 0; i < R.n; i++) {
		if (!R.part_bytes) {
			snprintf(R.members[i], sizeof(R.members[i]), "%s", R.disks[i]);
			if (wipe(R.disks[i]))
				return -1;
		} else {
			char *argv[] = { "sfdisk", "--quiet", "--wipe", "always", "--wipe-partitions", "always",
					 R.disks[i], NULL };

			R.partitioned = 1;
			if (wipe(R.disks[i]) || run_tool(0, "partitioning", R.disks[i], argv, script))
				return -1;
			first_partition(R.disks[i], part, sizeof(part));
			/* the partition this run wrote on a named disk is the run's to write */
			if (wait_for_node(part))
				return -1;
			consent_allow_partitions_of(R.disks[i]);
			snprintf(R.members[i], sizeof(R.members[i]), "%s", part);
			if (wipe(part))
				return -1;
		}
		R.member[i] = R.members[i];
	}
	return 0;
}

/* The device or file a run measures: DEV itself, or a file on a new filesystem on it. */
int prepare_target(const char *dev, char *target, size_t len, uint64_t *size_max)
{
	char *ext4[] = { "mkfs.ext4", "-F", "-q", "-E", "lazy_itable_init=0,lazy_journal_init=0", (char *)dev, NULL };
	char *xfs[] = { "mkfs.xfs", "-f", "-q", (char *)dev, NULL };
	char *modprobe[] = { "modprobe", "-q", (char *)R.fs, NULL };
	struct statvfs vfs;
	int rc;

	if (!R.fs) {
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
	if (run_tool(0, "mkfs", dev, !strcmp(R.fs, "ext4") ? ext4 : xfs, NULL))
		return -1;
	mkdir(RUNDIR, 0755);
	mkdir(MOUNTPOINT, 0755);
	rc = consent_mount(dev, MOUNTPOINT, R.fs, 0);
	if (rc && errno == ENODEV) {
		/* the filesystem is a module not loaded yet */
		spawn(modprobe, NULL, 0, NULL, 0);	/* consent: loads a module, writes no device */
		rc = consent_mount(dev, MOUNTPOINT, R.fs, 0);
	}
	if (rc && errno == EPERM)
		return -1;
	if (rc)
		return set_err("cannot mount %s (%s) on %s: %s", dev, R.fs, MOUNTPOINT, strerror(errno));
	R.mounted = 1;
	snprintf(target, len, MOUNTPOINT "/bootbench-raid.dat");
	if (statvfs(MOUNTPOINT, &vfs))
		return set_err("cannot read the free space of %s: %s", MOUNTPOINT, strerror(errno));
	/* the file takes most of the filesystem, leaving room for its metadata */
	*size_max = (uint64_t)(vfs.f_bavail * (double)vfs.f_frsize * 0.8) & ~((1ull << 20) - 1);
	return 0;
}

int release_target(const char *dev)
{
	if (R.mounted) {
		if (unmount_patiently(MOUNTPOINT))
			return set_err("cannot unmount %s: %s", MOUNTPOINT, strerror(errno));
		R.mounted = 0;
	}
	/* the filesystem's signature goes, so no later array or disk shows it */
	return R.fs ? wipe(dev) : 0;
}

/* Takes the live array down; anything that fails here is a loud error. */
int teardown_array(void)
{
	struct md_array *a = R.live;

	if (!a)
		return 0;
	R.live = NULL;
	if (R.mounted && release_target(a->dev))
		return -1;
	if (md_destroy(a, R.member, R.n))
		return -1;
	printf("%s stopped, superblocks zeroed\n", a->name);
	return 0;
}

int teardown_members(void)
{
	unsigned i;
	int rc = 0;

	if (!R.partitioned)
		return 0;
	for (i = 0; i < R.n; i++)
		if (wipe(R.members[i]) || wipe(R.disks[i]))
			rc = -1;
	if (!rc)
		printf("partition tables of this run removed\n");
	return rc;
}

