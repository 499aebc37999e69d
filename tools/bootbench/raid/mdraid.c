// SPDX-License-Identifier: MIT
/*
 * mdraid.c - the RAID levels of the comparison and the mdadm steps around
 * them. mdadm does the creating, stopping and wiping, as an admin would by
 * hand; we read the superblock ourselves (v1.2: 4 KiB into the device,
 * magic a92b4efc, set name at byte 32) to know which arrays are ours.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/util.h"
#include "raid/mdraid.h"
#include "safety/consent.h"
#include "sys/mounts.h"

const struct raid_level raid_levels[] = {
	{ "linear", NULL, "linear", NULL, "linear", 2, 0, "disks end to end, no striping" },
	{ "raid0", "0", "0", NULL, "raid0", 2, 0, "striping, no redundancy" },
	{ "raid1", "1", "1", NULL, "raid1", 2, 1, "a mirror on every disk" },
	{ "raid5", "5", "5", NULL, "raid456", 3, 1, "striping with one parity block (left-symmetric)" },
	{ "raid6", "6", "6", NULL, "raid456", 4, 1, "striping with two parity blocks (P+Q)" },
	{ "raid10-n2", "10", "10", "n2", "raid10", 2, 1, "two copies, near layout (mdadm's default)" },
	{ "raid10-f2", NULL, "10", "f2", "raid10", 2, 1, "two copies, far layout (reads stripe like raid0)" },
	{ "raid10-o2", NULL, "10", "o2", "raid10", 2, 1, "two copies, offset layout" },
};

const unsigned raid_level_count = ARRAY_SIZE(raid_levels);

const struct raid_level *raid_level_find(const char *name)
{
	const char *bare = strncmp(name, "raid", 4) ? name : name + 4;
	unsigned i;

	for (i = 0; i < raid_level_count; i++) {
		const struct raid_level *l = &raid_levels[i];
		const char *lbare = strncmp(l->name, "raid", 4) ? l->name : l->name + 4;

		if (!strcmp(bare, lbare) || (l->alias && !strcmp(bare, l->alias)))
			return l;
	}
	return NULL;
}

double raid_capacity(const struct raid_level *l, unsigned ndisks)
{
	if (!strcmp(l->md_level, "1"))
		return 1;
	if (!strcmp(l->md_level, "5"))
		return ndisks - 1;
	if (!strcmp(l->md_level, "6"))
		return ndisks - 2;
	if (!strcmp(l->md_level, "10"))
		return ndisks / 2.0;
	return ndisks;
}

static const char *base_name(const char *dev)
{
	const char *s = strrchr(dev, '/');

	return s ? s + 1 : dev;
}

/* The md device holding a member, from sysfs: "md127", or "" when none. */
static void md_holder(const char *member, char *md, size_t len)
{
	char path[256];
	struct dirent *e;
	DIR *d;

	md[0] = 0;
	snprintf(path, sizeof(path), "/sys/class/block/%s/holders", base_name(member));
	d = opendir(path);
	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, "md", 2)) {
			snprintf(md, len, "%.31s", e->d_name);
			break;
		}
	if (d)
		closedir(d);
}

/* /dev/mdN exists even where no device manager made it. */
static void md_node(const char *md, char *dev, size_t len)
{
	char path[300], num[32];
	unsigned maj, min;
	struct stat st;

	snprintf(dev, len, "/dev/%s", md);
	if (!stat(dev, &st))
		return;
	snprintf(path, sizeof(path), "/sys/block/%s/dev", md);
	if (!read_attr(path, num, sizeof(num)) && sscanf(num, "%u:%u", &maj, &min) == 2)
		mknod(dev, S_IFBLK | 0660, makedev(maj, min));
}

static void append_arg(char *buf, size_t len, const char *arg)
{
	size_t used = strlen(buf);

	snprintf(buf + used, len - used, "%s%s", used ? " " : "", arg);
}

int md_create(const struct raid_level *l, char *const *members, unsigned n, const char *chunk,
	      int assume_clean, struct md_array *a)
{
	char *argv[64 + MD_MAX_DISKS], opt[6][96], out[1024], md[32] = "";
	char *modprobe[] = { "modprobe", "-q", (char *)l->module, NULL };
	unsigned argc = 0, i;
	struct stat st;
	int rc, tries;

	memset(a, 0, sizeof(*a));
	snprintf(a->name, sizeof(a->name), MD_NAME_PREFIX "%s", l->name);
	/* built in, or loaded on demand: either way a failure here says nothing */
	spawn(modprobe, NULL, 0, NULL, 0);	/* consent: loads a module, writes no device */
	setenv("MDADM_NO_UDEV", "1", 1);
	snprintf(opt[0], sizeof(opt[0]), "/dev/md/%s", a->name);
	snprintf(opt[1], sizeof(opt[1]), "--name=%s", a->name);
	snprintf(opt[2], sizeof(opt[2]), "--level=%s", l->md_level);
	snprintf(opt[3], sizeof(opt[3]), "--raid-devices=%u", n);
	argv[argc++] = "mdadm";
	argv[argc++] = "--create";
	argv[argc++] = opt[0];
	argv[argc++] = opt[1];
	argv[argc++] = "--metadata=1.2";
	argv[argc++] = opt[2];
	argv[argc++] = opt[3];
	if (l->layout) {
		snprintf(opt[4], sizeof(opt[4]), "--layout=%s", l->layout);
		argv[argc++] = opt[4];
	}
	if (chunk && strcmp(l->md_level, "1") && strcmp(l->md_level, "linear")) {
		snprintf(opt[5], sizeof(opt[5]), "--chunk=%s", chunk);
		argv[argc++] = opt[5];
	}
	if (l->redundant) {
		/* a write-intent bitmap costs writes; the published runs had none */
		argv[argc++] = "--bitmap=none";
		if (assume_clean)
			argv[argc++] = "--assume-clean";
	}
	argv[argc++] = "--run";
	argv[argc++] = "--quiet";
	for (i = 0; i < n; i++)
		argv[argc++] = members[i];
	argv[argc] = NULL;
	for (i = 0; i < argc; i++)
		append_arg(a->cmdline, sizeof(a->cmdline), argv[i]);
	rc = consent_spawn(members, n, argv, NULL, 0, out, sizeof(out));
	if (rc < 0)
		return -1;
	if (rc)
		return set_err("%s: mdadm --create failed (exit status %d): %s", a->name, rc,
			       out[0] ? out : "no message");
	for (tries = 0; tries < 50 && !md[0]; tries++) {
		md_holder(members[0], md, sizeof(md));
		if (!md[0])
			sleep_ns(100000000);
	}
	if (!md[0])
		return set_err("%s: mdadm created it, but no md device holds %s", a->name, members[0]);
	md_node(md, a->dev, sizeof(a->dev));
	/* made of consented members: the run may write it (mkfs, the profile) */
	if (!stat(a->dev, &st) && S_ISBLK(st.st_mode))
		consent_allow_dev(st.st_rdev);
	return 0;
}

double md_wait_resync(const struct md_array *a, volatile int *stop)
{
	char path[256], action[32];
	uint64_t start = now_ns();

	snprintf(path, sizeof(path), "/sys/block/%s/md/sync_action", base_name(a->dev));
	while (!*stop) {
		if (read_attr(path, action, sizeof(action)) || !strcmp(action, "idle"))
			return (now_ns() - start) / 1e9;
		sleep_ns(500000000);
	}
	return -1;
}

/* mdadm --stop, retried: something may hold the device for a moment. */
static int md_stop(const char *dev)
{
	char *argv[] = { "mdadm", "--stop", (char *)dev, NULL }, out[512];
	int tries, rc = 0;

	for (tries = 0; tries < 20; tries++) {
		rc = consent_spawn(argv + 2, 1, argv, NULL, 1, out, sizeof(out));
		if (!rc)
			return 0;
		if (rc < 0)
			snprintf(out, sizeof(out), "%s", bb_err);
		sleep_ns(250000000);
	}
	return set_err("cannot stop %s (mdadm exit status %d): %s", dev, rc, out);
}

static int md_zero(const char *member)
{
	char *argv[] = { "mdadm", "--zero-superblock", (char *)member, NULL };

	return consent_tool("zeroing the md superblock", member, argv, NULL, 1);
}

/* /dev/md/NAME links mdadm made for arrays that are gone. */
static void forget_stale_names(void)
{
	char link[300], target[300], sys[400];
	struct dirent *e;
	DIR *d = opendir("/dev/md");
	struct stat st;
	ssize_t n;

	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, MD_NAME_PREFIX, strlen(MD_NAME_PREFIX)))
			continue;
		snprintf(link, sizeof(link), "/dev/md/%s", e->d_name);
		n = readlink(link, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = 0;
		snprintf(sys, sizeof(sys), "/sys/block/%s/md/array_state", base_name(target));
		if (stat(sys, &st))
			unlink(link);
	}
	if (d)
		closedir(d);
}

int md_destroy(const struct md_array *a, char *const *members, unsigned n)
{
	unsigned i;
	int rc = 0;

	if (a->dev[0] && md_stop(a->dev))
		return -1;
	forget_stale_names();
	for (i = 0; i < n; i++)
		if (md_zero(members[i]))
			rc = -1;
	return rc;
}

int md_superblock_name(const char *dev, char *name, size_t len)
{
	unsigned char *sb;
	int fd, rc = 0;

	name[0] = 0;
	fd = open_uncached(dev);	/* md writes its superblock past the page cache */
	if (fd < 0)
		return -1;
	if (posix_memalign((void **)&sb, 4096, 4096)) {
		close(fd);
		return -1;
	}
	if (pread(fd, sb, 4096, 4096) != 4096) {
		rc = -1;
	} else if (sb[0] == 0xfc && sb[1] == 0x4e && sb[2] == 0x2b && sb[3] == 0xa9 && sb[4] == 1) {
		snprintf(name, len, "%.32s", (const char *)sb + 32);
		rc = 1;
	}
	free(sb);
	close(fd);
	return rc;
}

/* The set name without the "host:" mdadm puts before it. */
static const char *bare_name(const char *sb_name)
{
	const char *colon = strchr(sb_name, ':');

	return colon ? colon + 1 : sb_name;
}

static int is_ours(const char *sb_name)
{
	return !strncmp(bare_name(sb_name), MD_NAME_PREFIX, strlen(MD_NAME_PREFIX));
}

struct unmount_walk {
	const char *dev;
	FILE *log;
	int n;
};

static int unmount_one(const char *src, const char *mnt, void *ctx)
{
	struct unmount_walk *w = ctx;

	if (strcmp(src, w->dev))
		return 0;
	if (unmount_patiently(mnt))
		return set_err("cannot unmount %s from %s: %s", w->dev, mnt, strerror(errno));
	fprintf(w->log, "cleanup: unmounted %s from %s\n", w->dev, mnt);
	w->n++;
	return 0;
}

/* Unmounts whatever is mounted from DEV (a filesystem an earlier run made). */
static int unmount_from(const char *dev, FILE *log)
{
	struct unmount_walk w = { dev, log, 0 };

	return mounts_each(unmount_one, &w) < 0 ? -1 : w.n;
}

static int member_named(const char *dev)
{
	struct stat st;

	return !stat(dev, &st) && S_ISBLK(st.st_mode) && consent_named(st.st_rdev);
}

/* Running arrays of ours on named disks: unmounted, stopped, superblocks zeroed. */
static int cleanup_running(FILE *log)
{
	struct stat st;
	char members[MD_MAX_DISKS][300], path[300], dev[300], name[64], ours_name[64];
	struct dirent *e, *s;
	DIR *d = opendir("/sys/block"), *sd;
	int cleaned = 0;

	while (d && (e = readdir(d))) {
		unsigned n = 0, i;
		int ours = 0;

		if (strncmp(e->d_name, "md", 2))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/slaves", e->d_name);
		sd = opendir(path);
		while (sd && (s = readdir(sd)))
			if (s->d_name[0] != '.' && n < MD_MAX_DISKS) {
				snprintf(members[n], sizeof(members[n]), "/dev/%s", s->d_name);
				if (md_superblock_name(members[n], name, sizeof(name)) == 1 && is_ours(name)) {
					snprintf(ours_name, sizeof(ours_name), "%s", bare_name(name));
					ours = 1;
				}
				n++;
			}
		if (sd)
			closedir(sd);
		if (!ours)
			continue;
		md_node(e->d_name, dev, sizeof(dev));
		/* an array of ours is stopped only when every member was named (--destroy) */
		for (i = 0; i < n && member_named(members[i]); i++)
			;
		if (i < n) {
			fprintf(log, "cleanup: left %s (%s) alone: its member %s is not named in --destroy\n", dev,
				ours_name, members[i]);
			continue;
		}
		if (!stat(dev, &st) && S_ISBLK(st.st_mode))
			consent_allow_dev(st.st_rdev);
		if (unmount_from(dev, log) < 0 || md_stop(dev))
			goto out_fail;
		fprintf(log, "cleanup: stopped %s (%s), left by an earlier run\n", dev, ours_name);
		cleaned++;
		for (i = 0; i < n; i++) {
			if (md_zero(members[i]))
				goto out_fail;
			fprintf(log, "cleanup: zeroed the md superblock on %s\n", members[i]);
		}
	}
	if (d)
		closedir(d);
	return cleaned;
out_fail:
	closedir(d);
	return -1;
}

/* A stopped array's superblock of ours on DEV: zeroed. */
static int cleanup_device(const char *dev, FILE *log)
{
	char name[64], md[32];

	md_holder(dev, md, sizeof(md));
	if (md[0] || !member_named(dev) || md_superblock_name(dev, name, sizeof(name)) != 1 || !is_ours(name))
		return 0;
	if (md_zero(dev))
		return -1;
	fprintf(log, "cleanup: zeroed the md superblock of %s on %s, left by an earlier run\n", bare_name(name), dev);
	return 1;
}

int md_cleanup_ours(char *const *disks, unsigned n, FILE *log)
{
	int cleaned = cleanup_running(log), rc;
	unsigned i;

	if (cleaned < 0)
		return -1;
	forget_stale_names();
	for (i = 0; i < n; i++) {
		const char *disk = base_name(disks[i]);
		char path[300], dev[300];
		struct dirent *e;
		DIR *d;

		if ((rc = cleanup_device(disks[i], log)) < 0)
			return -1;
		cleaned += rc;
		snprintf(path, sizeof(path), "/sys/block/%s", disk);
		d = opendir(path);
		while (d && (e = readdir(d))) {
			if (strncmp(e->d_name, disk, strlen(disk)))
				continue;
			snprintf(dev, sizeof(dev), "/dev/%s", e->d_name);
			if ((rc = cleanup_device(dev, log)) < 0) {
				closedir(d);
				return -1;
			}
			cleaned += rc;
		}
		if (d)
			closedir(d);
	}
	return cleaned;
}
