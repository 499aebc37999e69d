// SPDX-License-Identifier: MIT
/*
 * writable.c - the rule of what a job may write besides its consented disks
 * (writable.h). Paths are judged by the folder they are in, resolved
 * (realpath) once: a name with .. or a link in its folders is judged where
 * it lands, and a file that is itself a link is refused, never followed.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"
#include "safety/consent.h"
#include "safety/writable.h"
#include "sys/disks.h"
#include "sys/mounts.h"

#define MAX_WRITE_DEVS 32

/* never writable: the appliance's own system, and the kernel's windows */
static const char *const system_dirs[] = { "/proc", "/sys", "/dev", "/etc", "/root", "/usr", "/lib", "/lib64",
					   "/bin", "/sbin", "/boot", NULL };

#define MAX_MADE_DIRS 16

static char workdir[PATH_MAX];
static char made_dirs[MAX_MADE_DIRS][PATH_MAX];	/* filesystems this process made from consented disks */
static unsigned nmade_dirs;
static dev_t write_devs[MAX_WRITE_DEVS];
static unsigned nwrite_devs;

/* Whether DIR (resolved) is TOP or under it. */
static int under(const char *dir, const char *top)
{
	size_t n = strlen(top);

	if (!strcmp(top, "/"))
		return 1;
	return !strncmp(dir, top, n) && (dir[n] == 0 || dir[n] == '/');
}

static const char *system_dir(const char *dir)
{
	if (!strcmp(dir, "/"))
		return "/";
	if (under(dir, "/dev/shm"))
		return NULL;	/* files in memory, as /tmp's: no device behind them */
	for (unsigned i = 0; system_dirs[i]; i++)
		if (under(dir, system_dirs[i]))
			return system_dirs[i];
	return NULL;
}

int writable_init(const char *dir, const char *devs)
{
	char resolved[PATH_MAX];
	struct stat st;

	nwrite_devs = 0;
	workdir[0] = 0;
	if (dir && *dir) {
		if (!realpath(dir, resolved) || stat(resolved, &st) || !S_ISDIR(st.st_mode))
			return set_err("--workdir=%s: not a folder", dir);
		if (system_dir(resolved))
			return set_err("--workdir=%s: %s is the appliance's own (never written by a job)", dir,
				       system_dir(resolved));
	} else if (!getcwd(resolved, sizeof(resolved))) {
		resolved[0] = 0;
	}
	/* a working folder of / or a system folder is none: relative names are refused with a hint */
	if (resolved[0] && !system_dir(resolved))
		snprintf(workdir, sizeof(workdir), "%s", resolved);
	if (devs && *devs) {
		char *list = xstrdup(devs), *save, *tok;
		int rc = 0;

		for (tok = strtok_r(list, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
			if (stat(tok, &st) || !S_ISBLK(st.st_mode))
				rc = set_err("--write=%s: not a block device (name the device of the mounted filesystem a "
					     "job may write)", tok);
			else if (nwrite_devs == MAX_WRITE_DEVS)
				rc = set_err("--write: more than %d devices", MAX_WRITE_DEVS);
			else
				write_devs[nwrite_devs++] = st.st_rdev;
		}
		free(list);
		return rc;
	}
	return 0;
}

void writable_allow_dir(const char *dir)
{
	char resolved[PATH_MAX];

	if (nmade_dirs < MAX_MADE_DIRS && realpath(dir, resolved) && !system_dir(resolved))
		snprintf(made_dirs[nmade_dirs++], PATH_MAX, "%s", resolved);
}

const char *writable_workdir(void)
{
	return workdir;
}

struct fs_walk {
	dev_t fs;		/* st_dev of the folder */
	dev_t source;		/* the block device mounted there, 0 when none was found */
};

static int find_source(const char *src, const char *mnt, void *ctx)
{
	struct fs_walk *w = ctx;
	struct stat m, s;

	if (!stat(mnt, &m) && m.st_dev == w->fs && !stat(src, &s) && S_ISBLK(s.st_mode))
		w->source = s.st_rdev;
	return 0;
}

int writable_file(const char *path, char *why, size_t len)
{
	char copy[PATH_MAX], dir[PATH_MAX], *slash, loop[160];
	const char *sys;
	struct stat st;
	struct fs_walk w = { 0, 0 };

	if (strlen(path) >= sizeof(copy))
		return snprintf(why, len, "%.80s...: a path too long", path), 0;
	if (!lstat(path, &st) && S_ISLNK(st.st_mode))
		return snprintf(why, len, "%s is a symbolic link: a job's file is written where it is named, never "
				"through a link", path), 0;
	/* a hard link's other name may be anywhere on its filesystem: /etc's files, a disk's image */
	if (!lstat(path, &st) && S_ISREG(st.st_mode) && st.st_nlink > 1)
		return snprintf(why, len, "%s has %lu names (hard links): a job writes a file known by one name only, "
				"since another may be a system file", path, (unsigned long)st.st_nlink), 0;
	snprintf(copy, sizeof(copy), "%s", path);
	slash = strrchr(copy, '/');
	if (!slash)
		snprintf(copy, sizeof(copy), ".");
	else if (slash == copy)
		copy[1] = 0;
	else
		*slash = 0;
	if (!realpath(copy, dir))
		return snprintf(why, len, "%s: its folder %s cannot be resolved: %s", path, copy, strerror(errno)), 0;
	if ((sys = system_dir(dir)))
		return snprintf(why, len, "%s is in %s, the appliance's own: a job never writes there%s", path, sys,
				!strcmp(sys, "/") ? " (name a file under /tmp, or give --workdir=DIR)" : ""), 0;
	if (consent_loop_backing(path, loop, sizeof(loop)))
		return snprintf(why, len, "%s backs a loop device (%s): writing it writes that device, which "
				"needs --destroy=/dev/loopN", path, loop), 0;
	if (stat(dir, &st))
		return snprintf(why, len, "%s: %s", dir, strerror(errno)), 0;
	w.fs = st.st_dev;
	if (mounts_each(find_source, &w) < 0)
		return snprintf(why, len, "%s: the mount table cannot be read", path), 0;
	if (w.source) {
		char medium[256];

		if (disk_is_our_medium(w.source, medium, sizeof(medium)))
			return snprintf(why, len, "%s is on %s: a job never writes the boot or results medium", path,
					medium), 0;
		if (consent_named(w.source))
			return 1;
		for (unsigned i = 0; i < nwrite_devs; i++)
			if (write_devs[i] == w.source)
				return 1;
	}
	if (under(dir, "/tmp") || under(dir, "/dev/shm"))
		return 1;
	for (unsigned i = 0; i < nmade_dirs; i++)
		if (under(dir, made_dirs[i]))
			return 1;
	if (workdir[0] && under(dir, workdir))
		return 1;
	if (!workdir[0] && !slash)
		return snprintf(why, len, "%s: the working folder is / or a system folder: name a file under /tmp, "
				"or give --workdir=DIR", path), 0;
	if (w.source) {
		char name[64], whole[64];

		if (disk_kernel_names(w.source, name, sizeof(name), whole, sizeof(whole)) < 0)
			snprintf(name, sizeof(name), "DEV");
		return snprintf(why, len, "%s is in %s, not the working folder nor /tmp: allow its filesystem with "
				"--write=/dev/%s", path, dir, name), 0;
	}
	return snprintf(why, len, "%s is in %s, not the working folder (%s) nor /tmp: run from there or give "
			"--workdir", path, dir, workdir[0] ? workdir : "none"), 0;
}
