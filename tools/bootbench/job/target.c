// SPDX-License-Identifier: MIT
/* target.c - inspecting, claiming, creating and trimming files and block devices. */
#include "job/target.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "job/options.h"
#include "lib/rand.h"
#include "lib/util.h"
#include "safety/consent.h"

static struct target **targets;
static unsigned ntargets;
/* every target made, forgotten or not: an earlier run's results may still
 * point at them, so they live, and stay reachable, until the process ends */
static struct target **made;
static unsigned nmade;

struct target *target_get(const char *path)
{
	struct target *t;
	unsigned i;

	for (i = 0; i < ntargets; i++)
		if (!strcmp(targets[i]->path, path))
			return targets[i];
	t = xcalloc(1, sizeof(*t));
	t->path = xstrdup(path);
	t->dev_path = t->path;
	t->claim_fd = -1;
	t->lbs = 512;
	pthread_mutex_init(&t->lock, NULL);
	targets = xrealloc(targets, (ntargets + 1) * sizeof(*targets));
	targets[ntargets++] = t;
	made = xrealloc(made, (nmade + 1) * sizeof(*made));
	made[nmade++] = t;
	return t;
}

struct target **target_list(unsigned *n)
{
	*n = ntargets;
	return targets;
}

/* A block device's number, size and logical block size into t. */
static int inspect_blk(struct target *t, const char *path)
{
	unsigned long long size = 0;
	struct stat st;
	int lbs = 512, fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return set_err("cannot open %s: %s", path, strerror(errno));
	if (fstat(fd, &st) || ioctl(fd, BLKGETSIZE64, &size) < 0 || ioctl(fd, BLKSSZGET, &lbs) < 0) {
		close(fd);
		return set_err("cannot read the size of %s: %s", path, strerror(errno));
	}
	close(fd);
	t->is_blk = 1;
	t->rdev = st.st_rdev;
	t->size = size;
	t->lbs = (unsigned)lbs;
	return 0;
}

/*
 * An NVMe generic char device (/dev/ngXnY, io_uring_cmd's target) stands
 * for its namespace's block device: its size, block size and consent are
 * that device's, and the claim holds it. sysfs: /sys/dev/char/M:m is
 * .../nvme/nvmeX/ngXnY, its namespace .../nvme/nvmeX/nvmeXnY (without
 * native multipath, whose block devices are named by subsystem).
 */
static int nvme_generic(struct target *t, dev_t rdev)
{
	char link[PATH_MAX + 64], real[PATH_MAX], dir[PATH_MAX], blk[PATH_MAX + 16], buf[32];
	const char *name;
	struct stat st;
	ssize_t n;
	int fd;

	snprintf(link, sizeof(link), "/sys/dev/char/%u:%u", major(rdev), minor(rdev));
	if (!realpath(link, real) || !(name = strrchr(real, '/')) || strncmp(name, "/ng", 3))
		return set_err("%s is a character device, neither a regular file nor a block device (nor an NVMe generic device, /dev/ngXnY)", t->path);
	snprintf(dir, sizeof(dir), "%.*s", (int)(name - real), real);
	/* ngXnY -> nvmeXnY */
	snprintf(blk, sizeof(blk), "/dev/nvme%s", name + 3);
	if (stat(blk, &st) < 0 || !S_ISBLK(st.st_mode))
		return set_err("%s: its namespace's block device %s is not there", t->path, blk);
	snprintf(link, sizeof(link), "%s/nvme%s/nsid", dir, name + 3);
	fd = open(link, O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return set_err("%s: cannot read its namespace id (%s)", t->path, link);
	buf[n] = 0;
	t->nsid = (unsigned)strtoul(buf, NULL, 10);
	t->dev_path = xstrdup(blk);
	t->nvme_chr = 1;
	return inspect_blk(t, blk);
}

int target_inspect(struct target *t)
{
	struct stat st;

	if (stat(t->path, &st) < 0) {
		char dir[4096], *slash;

		if (errno != ENOENT)
			return set_err("cannot use %s: %s", t->path, strerror(errno));
		if (!strncmp(t->path, "/dev/", 5) && !strchr(t->path + 5, '/'))
			return set_err("no such device: %s", t->path);
		snprintf(dir, sizeof(dir), "%s", t->path);
		slash = strrchr(dir, '/');
		if (slash) {
			*slash = 0;
			if (stat(*dir ? dir : "/", &st) < 0 || !S_ISDIR(st.st_mode))
				return set_err("cannot create %s: directory %s does not exist", t->path, dir);
		}
		t->exists = 0;
		return 0;
	}
	t->exists = 1;
	if (S_ISDIR(st.st_mode))
		return set_err("%s is a directory, not a file or block device", t->path);
	if (S_ISBLK(st.st_mode))
		return inspect_blk(t, t->path);
	if (S_ISCHR(st.st_mode))
		return nvme_generic(t, st.st_rdev);
	if (!S_ISREG(st.st_mode))
		return set_err("%s is neither a regular file nor a block device", t->path);
	t->size = (uint64_t)st.st_size;
	t->st_dev = st.st_dev;
	/* direct I/O on files: the alignment the filesystem asks for */
	t->lbs = 512;
	return 0;
}

int target_claim(struct target *t)
{
	if (!t->is_blk || t->claim_fd >= 0)
		return 0;
	t->claim_fd = consent_open(t->dev_path, O_RDONLY);
	if (t->claim_fd < 0)
		return -1;
	return 0;
}

int target_open(struct target *t, int flags)
{
	char self[64];
	struct stat st;
	int fd;

	if (t->nvme_chr)
		/* consent: an NVMe generic device whose namespace is claimed; commands pass
		 * the page cache by nature, and a char device takes no O_DIRECT */
		return open_nolinks(t->path, flags & ~O_DIRECT, 0);
	if (t->claim_fd < 0) {
		char why[160];

		/* consent: a file, or a device only read; direct=1 stays direct (without it
		 * reads were served by the page cache and their figures were the cache's) */
		fd = open_nolinks(t->path, flags, 0);
		if (fd < 0 || t->is_blk || (flags & O_ACCMODE) == O_RDONLY)
			return fd;
		/* the file opened, as it is now: one name only, and no loop device's backing
		 * (judged by name before the run; a name can change since, an open file cannot) */
		if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_nlink > 1 ||
		    consent_loop_backing_stat(&st, why, sizeof(why))) {
			close(fd);
			errno = EMLINK;
			return -1;
		}
		return fd;
	}
	/* the claimed open file itself, reopened with the job's flags: no path lookup */
	snprintf(self, sizeof(self), "/proc/self/fd/%d", t->claim_fd);
	fd = open(self, flags);	/* consent: the device consent_open claimed */
	if (fd >= 0 && (fstat(fd, &st) || st.st_rdev != t->rdev)) {
		close(fd);
		errno = EXDEV;
		return -1;
	}
	return fd;
}

void target_release_all(void)
{
	unsigned i;

	for (i = 0; i < ntargets; i++)
		if (targets[i]->claim_fd >= 0) {
			close(targets[i]->claim_fd);
			targets[i]->claim_fd = -1;
		}
}

void targets_forget(void)
{
	target_release_all();
	ntargets = 0;
}

/* Fills [0, end) of a new file with incompressible data so reads are real. */
static int layout_data(int fd, uint64_t end)
{
	static uint64_t block[1 << 17];	/* 1 MiB */
	struct rng r;
	uint64_t off = 0;
	unsigned i;

	rng_seed(&r, 0x1a7e0u);
	while (off < end) {
		size_t len = end - off < sizeof(block) ? end - off : sizeof(block);
		ssize_t n;

		for (i = 0; i < ARRAY_SIZE(block); i++)
			block[i] = rng_next(&r);
		n = pwrite(fd, block, len, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		off += n;
	}
	return fsync(fd);
}

int target_prepare(struct target *t)
{
	int fd, rc = 0, mode;

	pthread_mutex_lock(&t->lock);
	if (t->prepared || t->is_blk || t->exists)
		goto out_unlock;
	fd = open_nolinks(t->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);	/* consent: a new regular file */
	if (fd < 0) {
		rc = set_err("cannot create %s: %s", t->path, strerror(errno));
		goto out_unlock;
	}
	t->created = 1;
	if (t->needs_data) {
		if (layout_data(fd, t->need_end))
			rc = set_err("cannot lay out %s: %s", t->path, strerror(errno));
	} else if (t->falloc == FALLOC_TRUNCATE) {
		if (ftruncate(fd, (off_t)t->need_end))
			rc = set_err("cannot size %s: %s", t->path, strerror(errno));
	} else if (t->falloc != FALLOC_NONE) {
		mode = t->falloc == FALLOC_KEEP ? FALLOC_FL_KEEP_SIZE : 0;
		if (fallocate(fd, mode, 0, (off_t)t->need_end) < 0 && errno != EOPNOTSUPP)
			rc = set_err("cannot allocate %s: %s", t->path, strerror(errno));
	}
	close(fd);
	if (!rc) {
		t->size = t->need_end;
		t->exists = 1;
	}
out_unlock:
	t->prepared = 1;
	pthread_mutex_unlock(&t->lock);
	return rc;
}

void target_cleanup_all(void)
{
	unsigned i;

	for (i = 0; i < ntargets; i++) {
		struct target *t = targets[i];

		if (t->created && t->unlink)
			unlink(t->path);
		if (t->claim_fd >= 0) {
			close(t->claim_fd);
			t->claim_fd = -1;
		}
	}
}

int target_trim(int fd, int is_blk, uint64_t off, uint64_t len)
{
	if (is_blk) {
		uint64_t range[2] = { off, len };

		return ioctl(fd, BLKDISCARD, range) < 0 ? -errno : 0;
	}
	return fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len) < 0 ? -errno : 0;
}
