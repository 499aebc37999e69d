// SPDX-License-Identifier: MIT
/* confine.c - the world of a job's I/O: read-only mounts, a /dev of its own, the allowlist (confine.h). */
#include "safety/confine.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/mount.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>

#include "lib/util.h"
#include "safety/caps.h"
#include "safety/consent.h"
#include "safety/mountns.h"
#include "safety/syscalls.h"

/* where a plain chroot's root is bound to become a mount of its own */
#define CONFINE_ROOT "/run/bootbench/sandbox-root"
#define MAX_DIRS 64

static const struct {
	const char *name;
	unsigned major, minor;
} char_devs[] = {
	{ "null", 1, 3 }, { "zero", 1, 5 }, { "full", 1, 7 }, { "random", 1, 8 }, { "urandom", 1, 9 },
};

/* Every folder of PATH's up to its last '/' made (on the new /dev's tmpfs). */
static int make_parents(const char *path)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *s = buf + 1; (s = strchr(s, '/')); s++) {
		*s = 0;
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -1;
		*s = '/';
	}
	return 0;
}

/* The root read-only, nosuid and nodev, every mount under it too. */
static int root_readonly(void)
{
	if (!mount_set_readonly("/", AT_RECURSIVE, 1))
		return 0;
	/*
	 * A plain chroot (a test's fresh root, never the appliance): its root
	 * is no mount point, so it cannot be made read-only. A bind of it is
	 * one, and becomes the root.
	 */
	if (errno != EINVAL || (mkdir(CONFINE_ROOT, 0700) < 0 && errno != EEXIST) ||
	    consent_mount_api("/", CONFINE_ROOT, NULL, MS_BIND | MS_REC, NULL) < 0 || chdir(CONFINE_ROOT) < 0 ||
	    chroot(".") < 0 || chdir("/") < 0 || mount_set_readonly("/", AT_RECURSIVE, 1) < 0)
		return set_err("read-only mounts: %s", strerror(errno));
	return 0;
}

static int make_dev(const struct confine *c)
{
	char path[PATH_MAX];

	if (consent_mount_api("bbdev", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755,size=64k") < 0)
		return set_err("a /dev of its own: %s", strerror(errno));
	for (unsigned i = 0; i < ARRAY_SIZE(char_devs); i++) {
		snprintf(path, sizeof(path), "/dev/%s", char_devs[i].name);
		if (mknod(path, S_IFCHR | 0666, makedev(char_devs[i].major, char_devs[i].minor)) < 0)
			return set_err("%s: %s", path, strerror(errno));
	}
	for (unsigned i = 0; i < c->nnodes; i++) {
		const struct confine_node *n = &c->nodes[i];

		if (strncmp(n->path, "/dev/", 5) || strstr(n->path, "/.."))
			return set_err("%s: a device is named by its node under /dev", n->path);
		if (make_parents(n->path) < 0 || (mknod(n->path, n->mode, n->rdev) < 0 && errno != EEXIST))
			return set_err("%s: %s", n->path, strerror(errno));
	}
	if (mkdir("/dev/shm", 01777) < 0 && errno != EEXIST)
		return set_err("/dev/shm: %s", strerror(errno));
	if (c->fresh_shm &&
	    consent_mount_api("bbshm", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=1777") < 0)
		return set_err("/dev/shm: %s", strerror(errno));
	/* the places of the writable folders in /dev (under /dev/shm) */
	for (const char *const *w = c->write_dirs; w && *w; w++)
		if (!strncmp(*w, "/dev/", 5)) {
			snprintf(path, sizeof(path), "%s/", *w);
			if (make_parents(path) < 0)
				return set_err("%s: %s", *w, strerror(errno));
		}
	if (mount_set_readonly("/dev", 0, 0) < 0)
		return set_err("/dev read-only: %s", strerror(errno));
	return 0;
}

/* --- the files fio must not write in the folders it may (protect_links) --- */

#define MAX_LOOPS 256
#define MAX_WALKED 200000	/* files looked at under the writable folders, at most */
#define MAX_PROTECTED 4096

static struct {
	dev_t fs[MAX_LOOPS];
	ino_t ino[MAX_LOOPS];
	int nloops;
	char **paths;		/* the files to bind read-only */
	unsigned npaths, walked;
	int too_many;
} guard;

static int is_backing(const struct stat *st)
{
	for (int i = 0; i < guard.nloops; i++)
		if (guard.fs[i] == st->st_dev && guard.ino[i] == st->st_ino)
			return 1;
	return 0;
}

static int look_at(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	if (++guard.walked > MAX_WALKED)
		return guard.too_many = 1;
	if (type != FTW_F || !S_ISREG(st->st_mode) || (st->st_nlink < 2 && !is_backing(st)))
		return 0;
	if (guard.npaths == MAX_PROTECTED)
		return guard.too_many = 1;
	guard.paths = xrealloc(guard.paths, (guard.npaths + 1) * sizeof(*guard.paths));
	guard.paths[guard.npaths++] = xstrdup(path);
	return 0;
}

static void guard_free(void)
{
	for (unsigned i = 0; i < guard.npaths; i++)
		free(guard.paths[i]);
	free(guard.paths);
	guard.paths = NULL;
	guard.npaths = guard.walked = 0;
	guard.too_many = 0;
}

/* In the new namespace, the folders in place: each such file a read-only mount of its own. */
static int protect_files(const struct confine *c)
{
	struct mount_attr ro = { .attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV };
	int rc = 0;

	for (const char *const *w = c->write_dirs; w && *w && !guard.too_many; w++)
		/* this filesystem only: another mounted below is not in the folder's bind */
		if (nftw(*w, look_at, 16, FTW_PHYS | FTW_MOUNT) < 0 && !guard.too_many)
			rc = set_err("%s: its files cannot be looked at: %s", *w, strerror(errno));
	if (guard.too_many)
		rc = set_err("more than %d files under the folders a job may write, or %d with other names: they "
			     "cannot all be checked (run it in a folder of its own, --workdir)", MAX_WALKED, MAX_PROTECTED);
	for (unsigned i = 0; !rc && i < guard.npaths; i++) {
		int fd = (int)syscall(SYS_open_tree, AT_FDCWD, guard.paths[i],
				      OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_SYMLINK_NOFOLLOW);

		if (fd < 0 || syscall(SYS_mount_setattr, fd, "", AT_EMPTY_PATH, &ro, sizeof(ro)) < 0 ||
		    syscall(SYS_move_mount, fd, "", AT_FDCWD, guard.paths[i], MOVE_MOUNT_F_EMPTY_PATH) < 0)
			rc = set_err("%s: read-only: %s", guard.paths[i], strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	guard_free();
	return rc;
}

int confine_mounts(const struct confine *c)
{
	struct mount_attr files = { .attr_set = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, .attr_clr = MOUNT_ATTR_RDONLY };
	struct mount_attr all_ro = { .attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV };
	const char *order[MAX_DIRS];
	char cwd[PATH_MAX];
	int fds[MAX_DIRS], n = 0, nw = 0, rc = -1, dir, shm = -1;

	if (!getcwd(cwd, sizeof(cwd)))
		return set_err("the working folder: %s", strerror(errno));
	/* a folder before the folders in it: placed later, a child's mount lies over its parent's */
	for (const char *const *w = c->write_dirs; w && *w; w++, nw++)
		if (nw == MAX_DIRS)
			return set_err("more than %d folders to write", MAX_DIRS);
	for (int i = 0; i < nw; i++)
		order[i] = c->write_dirs[i];
	for (int i = 1; i < nw; i++)
		for (int k = i; k > 0 && strlen(order[k]) < strlen(order[k - 1]); k--) {
			const char *t = order[k];

			order[k] = order[k - 1];
			order[k - 1] = t;
		}
	/*
	 * The writable folders, each cloned before anything is covered or made
	 * read-only, with the mounts below it (a filesystem mounted in the working
	 * folder stays where the job's names reach it), all read-only but the
	 * folder's own mount, and that one only when the host has it writable: a
	 * read-only mount is never made writable here.
	 */
	for (; n < nw; n++) {
		struct statvfs vfs;
		int host_ro;

		/* pinned through no link: a folder swapped for a link since it was judged is refused */
		dir = open_nolinks(order[n], O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
		host_ro = dir >= 0 && !fstatvfs(dir, &vfs) && (vfs.f_flag & ST_RDONLY);
		fds[n] = dir < 0 ? -1 : (int)syscall(SYS_open_tree, dir, "", AT_EMPTY_PATH | AT_RECURSIVE | OPEN_TREE_CLONE |
								    OPEN_TREE_CLOEXEC);
		if (dir >= 0)
			close(dir);
		if (fds[n] < 0 ||
		    syscall(SYS_mount_setattr, fds[n], "", AT_EMPTY_PATH | AT_RECURSIVE, &all_ro, sizeof(all_ro)) < 0 ||
		    (!host_ro && syscall(SYS_mount_setattr, fds[n], "", AT_EMPTY_PATH, &files, sizeof(files)) < 0)) {
			set_err("%s: %s", order[n], errno == ELOOP ? "a link is on its way (a folder to write is bound through none)" :
				strerror(errno));
			n += fds[n] >= 0;
			goto out;
		}
	}
	/* the loop devices' backing files, asked of the devices before /dev is replaced */
	if (c->protect_links && (guard.nloops = consent_loop_backings(guard.fs, guard.ino, MAX_LOOPS)) < 0) {
		set_err("more than %d loop devices", MAX_LOOPS);
		goto out;
	}
	/* the host's /dev/shm, read-only, for the files a job reads there (a new /dev covers it) */
	if (!c->fresh_shm) {
		struct mount_attr ro = { .attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV };

		shm = (int)syscall(SYS_open_tree, AT_FDCWD, "/dev/shm", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
		if (shm < 0 || syscall(SYS_mount_setattr, shm, "", AT_EMPTY_PATH, &ro, sizeof(ro)) < 0) {
			set_err("/dev/shm: %s", strerror(errno));
			goto out;
		}
	}
	if (root_readonly() || make_dev(c))
		goto out;
	if (shm >= 0 && syscall(SYS_move_mount, shm, "", AT_FDCWD, "/dev/shm", MOVE_MOUNT_F_EMPTY_PATH) < 0) {
		set_err("/dev/shm: %s", strerror(errno));
		goto out;
	}
	for (int i = 0; i < n; i++)
		if (syscall(SYS_move_mount, fds[i], "", AT_FDCWD, order[i], MOVE_MOUNT_F_EMPTY_PATH) < 0) {
			set_err("%s: %s", order[i], strerror(errno));
			goto out;
		}
	if (c->protect_links && protect_files(c))
		goto out;
	/* by its path, in the new root (a plain chroot's bind) and over the new mounts */
	if (chdir(cwd) < 0)
		set_err("the working folder %s: %s", cwd, strerror(errno));
	else
		rc = 0;
out:
	while (n-- > 0)
		close(fds[n]);
	if (shm >= 0)
		close(shm);
	return rc;
}

/* --- the native engine's confined thread, which starts the engine's threads --- */

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t thread;
	int running;		/* the confined thread is there */
	int ready;		/* 1 confined, -1 failed (bb_err in why) */
	int stop;
	/* one request at a time: a thread to start */
	void *(*fn)(void *);
	void *arg;
	pthread_t made;
	int pending, rc;
	const struct confine *c;
	const int *keep;
	unsigned nkeep;
	char why[512];
} sp = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };

static void *confined_main(void *unused)
{
	/* not root (a developer's run on files): no mounts can be made; the write rule and the file
	 * permissions hold, and the allowlist below */
	int root = geteuid() == 0;
	int ok = !root || (private_mount_namespace(0) == 0 && confine_mounts(sp.c) == 0);

	(void)unused;
	/* by its name in ps and /proc/PID/task: it waits, the engine's threads work */
	prctl(PR_SET_NAME, "bb-sandbox");
	if (ok && root && caps_keep_only(sp.keep, sp.nkeep) < 0)
		ok = !set_err("dropping capabilities: %s", strerror(errno));
	if (ok && syscalls_confine(SC_NATIVE) < 0)
		ok = !set_err("the system-call allowlist: %s", strerror(errno));
	pthread_mutex_lock(&sp.lock);
	if (!ok)
		snprintf(sp.why, sizeof(sp.why), "%s", bb_err);
	sp.ready = ok ? 1 : -1;
	pthread_cond_broadcast(&sp.cond);
	while (ok && !sp.stop) {
		if (sp.pending) {
			sp.rc = pthread_create(&sp.made, NULL, sp.fn, sp.arg);
			sp.pending = 0;
			pthread_cond_broadcast(&sp.cond);
		}
		pthread_cond_wait(&sp.cond, &sp.lock);
	}
	pthread_mutex_unlock(&sp.lock);
	return NULL;
}

int confine_start(const struct confine *c, const int *keep, unsigned nkeep)
{
	int rc;

	sp.c = c;
	sp.keep = keep;
	sp.nkeep = nkeep;
	sp.ready = sp.stop = sp.pending = 0;
	rc = pthread_create(&sp.thread, NULL, confined_main, NULL);
	if (rc)
		return set_err("cannot start the sandbox's thread: %s", strerror(rc));
	sp.running = 1;
	pthread_mutex_lock(&sp.lock);
	while (!sp.ready)
		pthread_cond_wait(&sp.cond, &sp.lock);
	pthread_mutex_unlock(&sp.lock);
	if (sp.ready < 0) {
		pthread_join(sp.thread, NULL);
		sp.running = 0;
		return set_err("%s: the sandbox could not be made: %s", c->name, sp.why);
	}
	return 0;
}

int confine_spawn(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	int rc;

	if (!sp.running)
		return EINVAL;
	pthread_mutex_lock(&sp.lock);
	while (sp.pending)
		pthread_cond_wait(&sp.cond, &sp.lock);
	sp.fn = fn;
	sp.arg = arg;
	sp.pending = 1;
	pthread_cond_broadcast(&sp.cond);
	while (sp.pending)
		pthread_cond_wait(&sp.cond, &sp.lock);
	rc = sp.rc;
	if (!rc)
		*thread = sp.made;
	pthread_mutex_unlock(&sp.lock);
	return rc;
}

void confine_stop(void)
{
	if (!sp.running)
		return;
	pthread_mutex_lock(&sp.lock);
	sp.stop = 1;
	pthread_cond_broadcast(&sp.cond);
	pthread_mutex_unlock(&sp.lock);
	pthread_join(sp.thread, NULL);
	sp.running = 0;
}
