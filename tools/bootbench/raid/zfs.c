// SPDX-License-Identifier: MIT
/*
 * zfs.c - OpenZFS pools for `bootbench raid` (see zfs.h). zpool does the
 * writing, through the consent gate; a label's pool name is read here
 * directly (the XDR nvlist at 16 KiB into each of the four labels), so the
 * cleanup and the refusal of a foreign pool need no zdb.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/fs.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "lib/util.h"
#include "raid/zfs.h"
#include "safety/consent.h"
#include "safety/writable.h"

const struct zfs_topology zfs_topologies[] = {
	{ "stripe", 0, 0, 1, "ZFS: one vdev per disk, striped (no redundancy)" },
	{ "mirror", 0, 1, 2, "ZFS: mirror vdevs of two disks, striped" },
	{ "raidz1", 1, 0, 2, "ZFS: one RAIDz1 vdev (single parity)" },
	{ "raidz2", 2, 0, 3, "ZFS: one RAIDz2 vdev (double parity)" },
	{ "raidz3", 3, 0, 4, "ZFS: one RAIDz3 vdev (triple parity)" },
};
const unsigned zfs_topology_count = sizeof(zfs_topologies) / sizeof(zfs_topologies[0]);

const struct zfs_topology *zfs_topology_find(const char *name)
{
	unsigned i;

	for (i = 0; i < zfs_topology_count; i++)
		if (!strcmp(zfs_topologies[i].name, name))
			return &zfs_topologies[i];
	return NULL;
}

int zfs_width_fits(const struct zfs_topology *t, unsigned width, char *why, size_t len)
{
	if (width < t->min_width) {
		snprintf(why, len, "%s needs at least %u disks", t->name, t->min_width);
		return 0;
	}
	if (t->mirror && width % 2) {
		snprintf(why, len, "mirror vdevs of two need an even number of disks");
		return 0;
	}
	why[0] = 0;
	return 1;
}

double zfs_capacity(const struct zfs_topology *t, unsigned width)
{
	if (t->mirror)
		return width / 2.0;
	return (double)(width - t->parity);
}

/* ---- the module ---- */

static int secure_boot_lockdown(char *mode, size_t len)
{
	char buf[128] = "", *open_br, *close_br;

	/* "none [integrity] confidentiality": the bracketed word is in force */
	if (read_attr("/sys/kernel/security/lockdown", buf, sizeof(buf)))
		return 0;
	open_br = strchr(buf, '[');
	close_br = open_br ? strchr(open_br, ']') : NULL;
	if (!open_br || !close_br)
		return 0;
	snprintf(mode, len, "%.*s", (int)(close_br - open_br - 1), open_br + 1);
	return strcmp(mode, "none") != 0;
}

/* Whether the image's module index knows zfs.ko: the ZFS part was loaded. */
static int zfs_module_present(void)
{
	struct utsname u;
	char path[300], line[512];
	FILE *f;
	int found = 0;

	if (uname(&u))
		return 0;
	snprintf(path, sizeof(path), "/lib/modules/%s/modules.dep", u.release);
	f = fopen(path, "re");
	while (f && !found && fgets(line, sizeof(line), f))
		found = strstr(line, "/zfs.ko:") != NULL;
	if (f)
		fclose(f);
	return found;
}

int zfs_load(void)
{
	char *argv[] = { "modprobe", "zfs", NULL }, out[512] = "", mode[32];
	struct stat st;
	int rc;

	if (!stat("/sys/module/zfs", &st))
		return 0;
	if (!zfs_module_present())
		return set_err("ZFS is not in this image: its part (zfs.img) was not loaded by the boot loader");
	if (secure_boot_lockdown(mode, sizeof(mode)))
		return set_err("ZFS cannot be loaded: Secure Boot is on (kernel lockdown: %s), and Debian's kernel then "
			       "loads only modules Debian signed; bootbench builds ZFS's from Debian's zfs-dkms source, "
			       "unsigned. Turn Secure Boot off in the firmware setup to compare ZFS pools", mode);
	rc = spawn(argv, NULL, 1, out, sizeof(out));	/* consent: loads a module, writes no device */
	if (rc)
		return set_err("ZFS cannot be loaded: modprobe zfs exited with status %d: %s", rc,
			       out[0] ? out : "no message");
	return 0;
}

void zfs_version(char *buf, size_t len)
{
	buf[0] = 0;
	read_attr("/sys/module/zfs/version", buf, len);
}

int zfs_direct_io(void)
{
	char v[64];
	unsigned major = 0, minor = 0;

	zfs_version(v, sizeof(v));
	if (sscanf(v, "%u.%u", &major, &minor) != 2)
		return 0;
	return major > 2 || (major == 2 && minor >= 3);
}

/* ---- pools ---- */

void zfs_pool_name(const struct zfs_topology *t, unsigned width, char *buf, size_t len)
{
	snprintf(buf, len, ZFS_NAME_PREFIX "%s-%u", t->name, width);
}

int zfs_is_ours(const char *pool)
{
	return !strncmp(pool, ZFS_NAME_PREFIX, strlen(ZFS_NAME_PREFIX));
}

static void add_arg(char **argv, unsigned *argc, char *cmdline, size_t len, const char *arg)
{
	size_t used = strlen(cmdline);

	argv[(*argc)++] = (char *)arg;
	snprintf(cmdline + used, len - used, "%s%s", used ? " " : "", arg);
}

int zfs_create(const struct zfs_topology *t, unsigned width, char *const *members, const struct zfs_settings *s,
	       struct zfs_pool *p)
{
	char ashift[32], recordsize[48], mnt[160], out[1024], *argv[64 + 2 * 32];
	unsigned argc = 0, i;
	int rc;

	memset(p, 0, sizeof(*p));
	zfs_pool_name(t, width, p->name, sizeof(p->name));
	snprintf(p->mountpoint, sizeof(p->mountpoint), ZFS_MOUNT_ROOT "/%s", p->name);
	snprintf(ashift, sizeof(ashift), "ashift=%u", s->ashift);
	snprintf(recordsize, sizeof(recordsize), "recordsize=%llu", (unsigned long long)s->recordsize);
	snprintf(mnt, sizeof(mnt), "mountpoint=%s", p->mountpoint);
	mkdir("/run/bootbench", 0755);
	mkdir(ZFS_MOUNT_ROOT, 0755);
	/* -f: the members were wiped by this run; cachefile=none: no state in /etc */
	const char *fixed[] = { "zpool", "create", "-f", "-o", ashift, "-o", "cachefile=none", "-O",
				"compression=off", "-O", recordsize, "-O", "atime=off", "-O", mnt, p->name };
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		add_arg(argv, &argc, p->cmdline, sizeof(p->cmdline), fixed[i]);
	for (i = 0; i < width; i++) {
		if (t->mirror && i % 2 == 0)
			add_arg(argv, &argc, p->cmdline, sizeof(p->cmdline), "mirror");
		if (t->parity && i == 0)
			add_arg(argv, &argc, p->cmdline, sizeof(p->cmdline), t->name);
		add_arg(argv, &argc, p->cmdline, sizeof(p->cmdline), members[i]);
	}
	argv[argc] = NULL;
	/* Ctrl-C waits for zpool: a half-made pool would be harder to take down */
	rc = consent_spawn(members, width, argv, NULL, 1, out, sizeof(out));
	if (rc < 0)
		return -1;
	if (rc)
		return set_err("zpool create %s failed (exit status %d): %s", p->name, rc, out[0] ? out : "no message");
	/* the pool is made of consented disks: its dataset is where the comparison's jobs write */
	writable_allow_dir(p->mountpoint);
	return 0;
}

uint64_t zfs_cap_arc(uint64_t bytes)
{
	char value[32], line[256];
	unsigned long long c_max = 0;
	FILE *f;
	int fd;

	snprintf(value, sizeof(value), "%llu\n", (unsigned long long)bytes);
	fd = open("/sys/module/zfs/parameters/zfs_arc_max", O_WRONLY | O_CLOEXEC);	/* consent: a module parameter */
	if (fd >= 0) {
		if (write(fd, value, strlen(value)) < 0)
			note("raid: cannot cap the ZFS ARC at %s bytes: %s", value, strerror(errno));
		close(fd);
	}
	f = fopen("/proc/spl/kstat/zfs/arcstats", "re");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "c_max %*u %llu", &c_max) == 1)
			break;
	if (f)
		fclose(f);
	return c_max;
}

/* zpool labelclear on a device that no imported pool holds any more. */
static int labelclear(const char *dev)
{
	char *argv[] = { "zpool", "labelclear", "-f", (char *)dev, NULL };

	return consent_tool("clearing the ZFS label", dev, argv, NULL, 1);
}

/*
 * zpool destroy writes the labels of the pool's own devices, which ZFS holds
 * open: the gate's exclusive-open rule cannot apply, so its first rule is
 * checked here (every device named, or made by this run of named ones).
 */
static int destroy_pool(const char *name, char *const *devs, unsigned n)
{
	char *argv[] = { "zpool", "destroy", "-f", (char *)name, NULL }, out[512];
	struct stat st;
	unsigned i;
	int rc, tries;

	for (i = 0; i < n; i++)
		if (stat(devs[i], &st) || !S_ISBLK(st.st_mode) || !consent_named(st.st_rdev))
			return set_err("refusing to destroy pool %s: %s is not named in --destroy", name, devs[i]);
	for (tries = 0; tries < 10; tries++) {
		rc = spawn(argv, NULL, 1, out, sizeof(out));	/* consent: the pool's devices checked above */
		if (!rc)
			return 0;
		sleep_ns(500000000);
	}
	return set_err("cannot destroy pool %s (zpool exit status %d): %s", name, rc, out);
}

int zfs_destroy(const struct zfs_pool *p, char *const *members, unsigned width)
{
	unsigned i;
	int rc = 0;

	if (destroy_pool(p->name, members, width))
		return -1;
	for (i = 0; i < width; i++)
		if (labelclear(members[i]))
			rc = -1;
	rmdir(p->mountpoint);
	return rc;
}

/* ---- labels ---- */

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

#define DATA_TYPE_STRING 9

int zfs_nvlist_string(const unsigned char *buf, size_t len, const char *key, char *out, size_t outlen)
{
	size_t off = 4 + 8;	/* encoding header, then the list's version and flags */

	/* byte 0: NV_ENCODE_XDR (1) */
	if (len < off || buf[0] != 1)
		return 0;
	while (off + 8 <= len) {
		uint32_t encoded = be32(buf + off), decoded = be32(buf + off + 4), name_len, type, value_len;
		size_t p = off + 8, name_at;

		if (!encoded && !decoded)
			return 0;	/* the end of the list */
		if (encoded < 8 || encoded % 4 || off + encoded > len || p + 4 > len)
			return 0;
		name_len = be32(buf + p);
		name_at = p + 4;
		p = name_at + ((name_len + 3) & ~3u);
		if (p + 8 > off + encoded)
			return 0;
		type = be32(buf + p);
		p += 8;		/* type and element count */
		if (name_len == strlen(key) && !memcmp(buf + name_at, key, name_len)) {
			if (type != DATA_TYPE_STRING || p + 4 > off + encoded)
				return 0;
			value_len = be32(buf + p);
			if (p + 4 + value_len > off + encoded)
				return 0;
			snprintf(out, outlen, "%.*s", (int)value_len, (const char *)buf + p + 4);
			return 1;
		}
		off += encoded;
	}
	return 0;
}

#define LABEL_SIZE (256 * 1024)
#define NVLIST_OFFSET (16 * 1024)
#define NVLIST_SIZE (112 * 1024 - 40)

int zfs_label_pool(const char *dev, char *name, size_t len)
{
	unsigned long long size = 0;
	unsigned char *buf;
	uint64_t at[4];
	int fd, rc = 0, i;

	name[0] = 0;
	fd = open_uncached(dev);	/* ZFS writes its labels past the page cache */
	if (fd < 0)
		return -1;
	/* a device, or an image file (the unit test's) */
	if (ioctl(fd, BLKGETSIZE64, &size)) {
		struct stat st;

		size = !fstat(fd, &st) && S_ISREG(st.st_mode) ? (unsigned long long)st.st_size : 0;
	}
	if (size < 4 * LABEL_SIZE || posix_memalign((void **)&buf, 4096, 112 * 1024)) {
		close(fd);
		return size && size < 4 * LABEL_SIZE ? 0 : -1;
	}
	/* the labels' place: two at the head, two at the end, on 256 KiB bounds */
	size &= ~(uint64_t)(LABEL_SIZE - 1);
	at[0] = 0;
	at[1] = LABEL_SIZE;
	at[2] = size - 2 * LABEL_SIZE;
	at[3] = size - LABEL_SIZE;
	for (i = 0; i < 4 && rc != 1; i++) {
		if (pread(fd, buf, 112 * 1024, (off_t)(at[i] + NVLIST_OFFSET)) != 112 * 1024) {
			rc = -1;
			continue;
		}
		if (zfs_nvlist_string(buf, NVLIST_SIZE, "name", name, len))
			rc = 1;
	}
	free(buf);
	close(fd);
	return rc < 0 ? -1 : rc;
}

/*
 * DISK's partitions, then DISK, for fn(dev, ctx); stops at the first
 * nonzero. Partitions first: a partition that ends near the disk's end
 * puts its last labels where the disk's own would be, and it is the
 * partition that holds the pool.
 */
static int each_part(const char *disk, int (*fn)(const char *dev, void *ctx), void *ctx)
{
	const char *base = strrchr(disk, '/') ? strrchr(disk, '/') + 1 : disk;
	char path[300], dev[300];
	struct dirent *e;
	DIR *d;
	int rc = 0;

	snprintf(path, sizeof(path), "/sys/block/%s", base);
	d = opendir(path);
	while (!rc && d && (e = readdir(d))) {
		if (strncmp(e->d_name, base, strlen(base)))
			continue;
		snprintf(dev, sizeof(dev), "/dev/%s", e->d_name);
		rc = fn(dev, ctx);
	}
	if (d)
		closedir(d);
	return rc ? rc : fn(disk, ctx);
}

struct foreign {
	char *pool, *dev;
	size_t len, devlen;
};

static int foreign_one(const char *dev, void *ctx)
{
	struct foreign *f = ctx;
	char name[256];

	if (zfs_label_pool(dev, name, sizeof(name)) != 1 || zfs_is_ours(name))
		return 0;
	snprintf(f->pool, f->len, "%s", name);
	snprintf(f->dev, f->devlen, "%s", dev);
	return 1;
}

int zfs_foreign_pool(const char *disk, char *pool, size_t len, char *dev, size_t devlen)
{
	struct foreign f = { pool, dev, len, devlen };

	return each_part(disk, foreign_one, &f);
}

/* ---- the cleanup ---- */

/* Imported pools of ours, with the /dev paths zpool status gives. */
static int cleanup_imported(FILE *log)
{
	char *list[] = { "zpool", "list", "-H", "-o", "name", NULL }, names[4096] = "", *name, *save = NULL;
	struct stat st;
	int cleaned = 0;

	if (stat("/sys/module/zfs", &st))
		return 0;	/* no module, no imported pool */
	if (spawn(list, NULL, 1, names, sizeof(names)))	/* consent: lists pools, writes nothing */
		return set_err("zpool list failed: %s", names);
	for (name = strtok_r(names, "\n", &save); name; name = strtok_r(NULL, "\n", &save)) {
		char *status[] = { "zpool", "status", "-P", "-L", name, NULL }, out[8192] = "", *line, *lsave = NULL;
		char devs[64][128], *dev[64];
		unsigned n = 0, i;

		if (!zfs_is_ours(name))
			continue;
		if (spawn(status, NULL, 1, out, sizeof(out)))	/* consent: reads the pool's state */
			return set_err("zpool status %s failed: %s", name, out);
		for (line = strtok_r(out, "\n", &lsave); line && n < 64; line = strtok_r(NULL, "\n", &lsave)) {
			while (isspace((unsigned char)*line))
				line++;
			if (strncmp(line, "/dev/", 5))
				continue;
			snprintf(devs[n], sizeof(devs[n]), "%.*s", (int)strcspn(line, " \t"), line);
			dev[n] = devs[n];
			n++;
		}
		for (i = 0; i < n; i++)
			if (stat(dev[i], &st) || !consent_named(st.st_rdev))
				break;
		if (!n || i < n) {
			fprintf(log, "cleanup: left pool %s alone: %s\n", name,
				n ? "one of its devices is not named in --destroy" : "zpool status names no device");
			continue;
		}
		if (destroy_pool(name, dev, n))
			return -1;
		fprintf(log, "cleanup: destroyed ZFS pool %s, left by an earlier run\n", name);
		cleaned++;
	}
	return cleaned;
}

struct cleanup_walk {
	FILE *log;
	int cleaned;
};

static int cleanup_label(const char *dev, void *ctx)
{
	struct cleanup_walk *w = ctx;
	char name[256];
	struct stat st;

	if (zfs_label_pool(dev, name, sizeof(name)) != 1 || !zfs_is_ours(name))
		return 0;
	if (stat(dev, &st) || !consent_named(st.st_rdev))
		return 0;
	/* zpool needs the module, even to clear a label */
	if (zfs_load())
		return set_err("a ZFS label of %s is on %s, and %s", name, dev, bb_err);
	if (labelclear(dev))
		return -1;
	fprintf(w->log, "cleanup: cleared the ZFS label of %s on %s, left by an earlier run\n", name, dev);
	w->cleaned++;
	return 0;
}

int zfs_cleanup_ours(char *const *disks, unsigned n, FILE *log)
{
	struct cleanup_walk w = { log, 0 };
	unsigned i;
	int rc = cleanup_imported(log);

	if (rc < 0)
		return -1;
	w.cleaned = rc;
	for (i = 0; i < n; i++)
		if (each_part(disks[i], cleanup_label, &w) < 0)
			return -1;
	return w.cleaned;
}
