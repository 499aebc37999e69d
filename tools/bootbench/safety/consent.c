// SPDX-License-Identifier: MIT
/*
 * consent.c - the one gate for writes to block devices (rules in consent.h).
 * Consent is a list of device numbers, so a name cannot be swapped for
 * another between the check and the write: consent_open compares the device
 * it opened with the one it checked.
 */
#include "safety/consent.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/util.h"
#include "sys/contents.h"
#include "sys/disks.h"
#include "sys/mounts.h"

#define CONSENT_MAX 256

static dev_t allowed[CONSENT_MAX];
static unsigned nallowed;

void consent_reset(void)
{
	nallowed = 0;
}

void consent_allow_dev(dev_t rdev)
{
	if (consent_named(rdev) || nallowed == CONSENT_MAX)
		return;
	allowed[nallowed++] = rdev;
}

int consent_named(dev_t rdev)
{
	unsigned i;

	for (i = 0; i < nallowed; i++)
		if (allowed[i] == rdev)
			return 1;
	return 0;
}

/*
 * A boot's hook (bootbench.hook_before, hook_after) runs with the boot's
 * consent and no more: BOOTBENCH_CONSENT_LIMIT, set for it alone, lists
 * the devices bootbench.destroy named ("" for none), and a --destroy that
 * names another is refused, so a hook cannot give itself a disk.
 */
static int within_consent_limit(dev_t rdev)
{
	const char *limit = getenv("BOOTBENCH_CONSENT_LIMIT");
	char *copy, *save, *tok;
	int found = 0;

	if (!limit)
		return 1;
	copy = xstrdup(limit);
	for (tok = strtok_r(copy, ",", &save); tok && !found; tok = strtok_r(NULL, ",", &save)) {
		struct stat st;

		found = !stat(tok, &st) && S_ISBLK(st.st_mode) && st.st_rdev == rdev;
	}
	free(copy);
	return found;
}

int consent_allow(const char *list)
{
	char *copy, *save, *tok;
	int rc = 0;

	if (!list || !*list)
		return 0;
	copy = xstrdup(list);
	for (tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		struct stat st;

		if (stat(tok, &st) < 0 || !S_ISBLK(st.st_mode))
			rc = set_err("--destroy names %s, which is not a block device", tok);
		else if (!within_consent_limit(st.st_rdev))
			rc = set_err("--destroy names %s, which the boot's consent (bootbench.destroy: %s) does not: "
				     "a hook gets no consent it was not given", tok,
				     *getenv("BOOTBENCH_CONSENT_LIMIT") ? getenv("BOOTBENCH_CONSENT_LIMIT") : "none");
		else
			consent_allow_dev(st.st_rdev);
	}
	free(copy);
	return rc;
}

/* The kernel's name of a block device (sda, sda1, md127), "" if unknown. */
static void sysfs_name(dev_t rdev, char *name, size_t len)
{
	char link[128], target[512];
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
	n = readlink(link, target, sizeof(target) - 1);
	name[0] = 0;
	if (n > 0) {
		target[n] = 0;
		snprintf(name, len, "%s", strrchr(target, '/') + 1);
	}
}

void consent_allow_partitions_of(const char *disk)
{
	const char *name = strrchr(disk, '/') ? strrchr(disk, '/') + 1 : disk;
	char path[300], dev[300];
	struct dirent *e;
	struct stat st;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/block/%s", name);
	d = opendir(path);
	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, name, strlen(name)))
			continue;
		snprintf(dev, sizeof(dev), "/dev/%s", e->d_name);
		if (!stat(dev, &st) && S_ISBLK(st.st_mode))
			consent_allow_dev(st.st_rdev);
	}
	if (d)
		closedir(d);
}

static void add(char *buf, size_t len, size_t *used, const char *fmt, const char *a, const char *b)
{
	*used += snprintf(buf + *used, len > *used ? len - *used : 0, fmt, *used ? ", " : "", a, b);
}

/* Holders (md, dm) of the device, and of its partitions for a whole disk. */
static void holders(const char *name, char *buf, size_t len, size_t *used)
{
	char path[640];
	struct dirent *e, *p;
	DIR *d, *parts;

	snprintf(path, sizeof(path), "/sys/class/block/%s/holders", name);
	d = opendir(path);
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			add(buf, len, used, "%sheld by %s%s", e->d_name, "");
	if (d)
		closedir(d);
	snprintf(path, sizeof(path), "/sys/block/%s", name);
	parts = opendir(path);
	while (parts && (p = readdir(parts))) {
		if (strncmp(p->d_name, name, strlen(name)))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/%s/holders", name, p->d_name);
		d = opendir(path);
		while (d && (e = readdir(d)))
			if (e->d_name[0] != '.')
				add(buf, len, used, "%s%s held by %s", p->d_name, e->d_name);
		if (d)
			closedir(d);
	}
	if (parts)
		closedir(parts);
}

/*
 * Loop devices (issue 43 item 10). A loop device opens what is behind it as
 * a plain file, so it shows in no holders/ folder and takes no exclusive
 * claim: a disk under `losetup /dev/loop5 /dev/sdb`, or one holding the
 * file behind a loop device (its filesystem lazily unmounted, so not in the
 * mount table), looked unused, and was erased under loop5's user.
 */
struct loop_backing {
	char loop[64];		/* loop5 */
	char file[PATH_MAX];	/* the kernel's text of the backing's path, for messages */
	int known;		/* whether the numbers below were found */
	dev_t rdev;		/* the block device behind it; 0 for a regular file */
	dev_t fs;		/* the filesystem the backing file lives on */
	ino_t ino;
};

/*
 * What is behind loop device NAME; -1 when it has nothing (detached). The
 * kernel's own record (LOOP_GET_STATUS64) first, by number: the path text
 * may name a file since deleted or renamed, or one of another mount
 * namespace. stat() of the text where the device cannot be asked.
 */
static int loop_backing_of(const char *name, struct loop_backing *b)
{
	char path[PATH_MAX];
	struct loop_info64 info;
	struct stat st;
	int fd, err;

	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", name);
	if (read_attr(path, b->file, sizeof(b->file)) || !b->file[0])
		return -1;
	snprintf(b->loop, sizeof(b->loop), "%.63s", name);
	b->known = 0;
	snprintf(path, sizeof(path), "/dev/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	memset(&info, 0, sizeof(info));
	if (fd >= 0) {
		b->known = !ioctl(fd, LOOP_GET_STATUS64, &info);
		err = errno;
		close(fd);
		if (!b->known && err == ENXIO)
			return -1;	/* detached since sysfs was read */
	}
	if (b->known) {
		/* the kernel encodes these as stat(2) encodes st_dev and st_rdev */
		b->rdev = (dev_t)info.lo_rdevice;
		b->fs = (dev_t)info.lo_device;
		b->ino = (ino_t)info.lo_inode;
		return 0;
	}
	if (!stat(b->file, &st)) {
		b->known = 1;
		b->rdev = S_ISBLK(st.st_mode) ? st.st_rdev : 0;
		b->fs = st.st_dev;
		b->ino = st.st_ino;
	}
	return 0;
}

/* Calls FN for each loop device that has something behind it; stops at FN's first non-zero. */
static int loops_each(int (*fn)(const struct loop_backing *b, void *ctx), void *ctx)
{
	struct loop_backing b;
	struct dirent *e;
	DIR *d = opendir("/sys/block");
	int rc = 0;

	while (d && !rc && (e = readdir(d)))
		if (!strncmp(e->d_name, "loop", 4) && !loop_backing_of(e->d_name, &b))
			rc = fn(&b, ctx);
	if (d)
		closedir(d);
	return rc;
}

/*
 * How writing RDEV (the kernel's NAME) reaches block device DEV: 0 not at
 * all; 1 DEV is RDEV; 2 DEV is a partition of RDEV, a whole disk; 3 DEV is
 * the whole disk RDEV is a partition of. By number (sysfs), not by a path's
 * text. DEVNAME gets DEV's name.
 */
static int overlap(dev_t rdev, const char *name, dev_t dev, char *devname, size_t len)
{
	char dname[64], dwhole[64], rname[64], rwhole[64];
	int dpart;

	devname[0] = 0;
	if (!dev)
		return 0;
	if (dev == rdev)
		return 1;
	dpart = disk_kernel_names(dev, dname, sizeof(dname), dwhole, sizeof(dwhole));
	if (dpart < 0)
		return 0;
	snprintf(devname, len, "%s", dname);
	if (dpart == 1 && !strcmp(dwhole, name))
		return 2;
	if (dpart == 0 && disk_kernel_names(rdev, rname, sizeof(rname), rwhole, sizeof(rwhole)) == 1 &&
	    !strcmp(rwhole, dname))
		return 3;
	return 0;
}

struct loops_walk {
	dev_t rdev;
	const char *name;
	char *buf;
	size_t len, *used;
};

static int add_loop_user(const struct loop_backing *b, void *ctx)
{
	static const char *const where[] = { "", "it", "its partition ", "", };
	struct loops_walk *w = ctx;
	char dev[64], what[PATH_MAX + 256];
	int how;

	/* a backing that cannot be identified may be this device: refused, as for an unreadable mount table */
	if (!b->known) {
		snprintf(what, sizeof(what), "%s's backing %s cannot be identified", b->loop, b->file);
		add(w->buf, w->len, w->used, "%s%s%s", what, "");
		return 0;
	}
	how = overlap(w->rdev, w->name, b->rdev, dev, sizeof(dev));
	if (how) {
		snprintf(what, sizeof(what), "%s is backed by %s%s%s", b->loop, where[how], how == 1 ? "" : dev,
			 how == 3 ? ", the disk it is on" : "");
		add(w->buf, w->len, w->used, "%s%s%s", what, "");
		return 0;
	}
	/* a file on the device's filesystem (a block device's own st_dev is devtmpfs', never a disk) */
	how = overlap(w->rdev, w->name, b->fs, dev, sizeof(dev));
	if (how) {
		snprintf(what, sizeof(what), "%s's backing file %s lives on %s%s%s", b->loop, b->file, where[how],
			 how == 1 ? "" : dev, how == 3 ? ", the disk it is on" : "");
		add(w->buf, w->len, w->used, "%s%s%s", what, "");
	}
	return 0;
}

/* Loop devices whose backing is the device, or a file on it (either way a partition counts). */
static void loop_users(dev_t rdev, const char *name, char *buf, size_t len, size_t *used)
{
	struct loops_walk w = { rdev, name, buf, len, used };

	loops_each(add_loop_user, &w);
}

struct backing_walk {
	const struct stat *st;
	const char *real;	/* the file's path without links, for a loop that cannot be asked */
	char *why;
	size_t len;
};

static int is_backing(const struct loop_backing *b, void *ctx)
{
	struct backing_walk *w = ctx;
	int same = b->known ? !b->rdev && b->fs == w->st->st_dev && b->ino == w->st->st_ino :
			      w->real && !strcmp(b->file, w->real);

	if (same)
		snprintf(w->why, w->len, "%s is backed by it", b->loop);
	return same;
}

struct backings_walk {
	dev_t *fs;
	ino_t *ino;
	unsigned n, max;
};

static int add_backing(const struct loop_backing *b, void *ctx)
{
	struct backings_walk *w = ctx;

	if (!b->known || b->rdev)
		return 0;	/* a device behind it, or one not identified: no file of a folder */
	if (w->n == w->max)
		return 1;
	w->fs[w->n] = b->fs;
	w->ino[w->n++] = b->ino;
	return 0;
}

int consent_loop_backings(dev_t *fs, ino_t *ino, unsigned max)
{
	struct backings_walk w = { fs, ino, 0, max };

	return loops_each(add_backing, &w) ? -1 : (int)w.n;
}

int consent_loop_backing_stat(const struct stat *st, char *why, size_t len)
{
	struct backing_walk w = { st, NULL, why, len };

	why[0] = 0;
	return S_ISREG(st->st_mode) && loops_each(is_backing, &w);
}

int consent_loop_backing(const char *path, char *why, size_t len)
{
	char real[PATH_MAX];
	struct stat st;
	struct backing_walk w = { &st, NULL, why, len };

	why[0] = 0;
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	if (realpath(path, real))
		w.real = real;
	return loops_each(is_backing, &w);
}

/* A mounted or swap source is the device, or a partition of it when it is a whole disk. */
static int is_part_of(dev_t rdev, const char *name, const char *src)
{
	struct stat st;
	const char *base;
	size_t n = strlen(name);

	if (stat(src, &st) || !S_ISBLK(st.st_mode))
		return 0;
	if (st.st_rdev == rdev)
		return 1;
	base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
	if (major(st.st_rdev) != major(rdev) || strncmp(base, name, n))
		return 0;
	base += n;
	if (*base == 'p')
		base++;
	return *base >= '0' && *base <= '9';
}

struct users_walk {
	dev_t rdev;
	const char *name;
	char *buf;
	size_t len, used;
	const char *what;	/* "%s%s mounted on %s" or "%s%s used as swap%s" */
};

static int add_user(const char *src, const char *mnt, void *ctx)
{
	struct users_walk *w = ctx;

	if (is_part_of(w->rdev, w->name, src))
		add(w->buf, w->len, &w->used, w->what, src, mnt);
	return 0;
}

void consent_users(dev_t rdev, char *buf, size_t len)
{
	char name[64];
	struct users_walk w = { rdev, name, buf, len, 0, NULL };

	buf[0] = 0;
	sysfs_name(rdev, name, sizeof(name));
	if (!name[0])
		return;
	holders(name, buf, len, &w.used);
	loop_users(rdev, name, buf, len, &w.used);
	/* a table that cannot be read cannot show the device unused */
	w.what = "%s%s mounted on %s";
	if (mounts_each(add_user, &w) < 0)
		add(buf, len, &w.used, "%s%s%s", bb_err, "");
	w.what = "%s%s used as swap%s";
	if (swaps_each(add_user, &w) < 0)
		add(buf, len, &w.used, "%s%s%s", bb_err, "");
}

/* Rules 1-3 for a device number; PATH names it in the message. */
static int check_dev(const char *path, dev_t rdev)
{
	char why[512];
	int fd;

	if (disk_is_our_medium(rdev, why, sizeof(why)))
		return set_err("refusing to write %s: %s (consent cannot override this)", path, why);
	if (!consent_named(rdev)) {
		char holds[256] = "";

		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			contents_describe(fd, holds, sizeof(holds));
			close(fd);
		}
		return set_err("refusing to write %s (%s): name it in --destroy=%s to consent", path,
			       holds[0] ? holds : "no partition table or filesystem found", path);
	}
	consent_users(rdev, why, sizeof(why));
	if (why[0])
		return set_err("refusing to write %s: it is in use (%s)", path, why);
	/* what the lists above cannot see (a program holding it open exclusively) */
	fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0 && errno == EBUSY)
		return set_err("refusing to write %s: it is in use (opened exclusively by another program)", path);
	if (fd < 0)
		return set_err("cannot open %s: %s", path, strerror(errno));
	close(fd);
	return 0;
}

int consent_check(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return set_err("cannot use %s: %s", path, strerror(errno));
	if (!S_ISBLK(st.st_mode))
		return set_err("%s is not a block device", path);
	return check_dev(path, st.st_rdev);
}

int consent_open(const char *path, int flags)
{
	struct stat before, after;
	int fd;

	if (stat(path, &before) < 0)
		return set_err("cannot use %s: %s", path, strerror(errno));
	if (!S_ISBLK(before.st_mode))
		return set_err("%s is not a block device", path);
	if (check_dev(path, before.st_rdev))
		return -1;
	fd = open(path, flags | O_EXCL | O_CLOEXEC);
	if (fd < 0 && errno == EBUSY)
		return set_err("refusing to write %s: it is in use (opened exclusively by another program)", path);
	if (fd < 0)
		return set_err("cannot open %s: %s", path, strerror(errno));
	if (fstat(fd, &after) < 0 || !S_ISBLK(after.st_mode) || after.st_rdev != before.st_rdev) {
		close(fd);
		return set_err("refusing to write %s: it changed between the check and the open", path);
	}
	return fd;
}

int consent_spawn(char *const devs[], unsigned ndevs, char *const argv[], const char *input, int ignore_int,
		  char *out, size_t outlen)
{
	unsigned i;
	int rc;

	for (i = 0; i < ndevs; i++)
		if (consent_check(devs[i]))
			return -1;
	rc = spawn(argv, input, ignore_int, out, outlen);
	if (rc < 0)
		return set_err("cannot start %s: %s", argv[0], strerror(errno));
	return rc;
}

int consent_tool(const char *what, const char *dev, char *const argv[], const char *input, int ignore_int)
{
	char out[1024], *devs[] = { (char *)dev };
	int rc = consent_spawn(devs, 1, argv, input, ignore_int, out, sizeof(out));

	if (rc < 0)
		return -1;
	if (rc)
		return set_err("%s failed (%s exit status %d): %s", what, argv[0], rc, out[0] ? out : "no message");
	return 0;
}

int consent_mount(const char *dev, const char *dir, const char *fstype, unsigned long flags)
{
	return consent_mount_data(dev, dir, fstype, flags, NULL);
}

int consent_mount_data(const char *dev, const char *dir, const char *fstype, unsigned long flags, const char *data)
{
	if (!(flags & MS_RDONLY) && consent_check(dev)) {
		errno = EPERM;
		return -1;
	}
	return mount(dev, dir, fstype, flags, data);
}

int consent_mount_api(const char *source, const char *dir, const char *fstype, unsigned long flags,
		      const char *data)
{
	static const char *const virtual[] = { "proc", "sysfs", "devtmpfs", "devpts", "tmpfs", "efivarfs",
					       "mqueue", NULL };
	struct stat st;
	unsigned i;

	if (flags & (MS_PRIVATE | MS_SLAVE | MS_SHARED | MS_UNBINDABLE))
		return mount(NULL, dir, NULL, flags, NULL);	/* propagation only: nothing is mounted */
	if (flags & MS_BIND) {
		/* a folder or file of this system, never a block device (that would be a mount of a disk) */
		if (stat(source, &st) || S_ISBLK(st.st_mode)) {
			errno = EPERM;
			return -1;
		}
		return mount(source, dir, NULL, flags, NULL);
	}
	for (i = 0; virtual[i]; i++)
		if (fstype && !strcmp(fstype, virtual[i]))
			return mount(source, dir, fstype, flags, data);
	errno = EPERM;
	return -1;
}

int consent_mount_share(const char *source, const char *dir, const char *fstype, unsigned long flags,
			const char *data)
{
	int share = !strcmp(fstype, "cifs") ? !strncmp(source, "//", 2) && source[2] && source[2] != '/' :
		    !strcmp(fstype, "nfs") || !strcmp(fstype, "nfs4") ? source[0] != '/' && strchr(source, ':') : 0;

	/* cifs: //host/share; nfs: host:/path; never a local path such as /dev/sdX */
	if (!share) {
		errno = EPERM;
		return -1;
	}
	return mount(source, dir, fstype, flags, data);
}
