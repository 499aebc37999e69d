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


/* Whether folder DIR is on the boot or results medium; WHY says which. */
static int on_our_medium(const char *dir, char *why, size_t len)
{
	struct fs_walk w = { 0, 0 };
	struct stat st;

	if (stat(dir, &st))
		return 0;
	w.fs = st.st_dev;
	return mounts_each(find_source, &w) >= 0 && w.source && disk_is_our_medium(w.source, why, len);
}

int writable_init(const char *dir, const char *devs)
{
	char resolved[PATH_MAX], medium[256];
	struct stat st;

	nwrite_devs = 0;
	workdir[0] = 0;
	if (dir && *dir) {
		if (!realpath(dir, resolved) || stat(resolved, &st) || !S_ISDIR(st.st_mode))
			return set_err("--workdir=%s: not a folder", dir);
		if (system_dir(resolved))
			return set_err("--workdir=%s: %s is the appliance's own (never written by a job)", dir,
				       system_dir(resolved));
		if (on_our_medium(resolved, medium, sizeof(medium)))
			return set_err("--workdir=%s: on the boot or results medium (%s): a job never writes there", dir,
				       medium);
	} else if (!getcwd(resolved, sizeof(resolved))) {
		resolved[0] = 0;
	}
	/* started on the boot or results medium: no working folder there (a job's files, fio's state files) */
	if (resolved[0] && on_our_medium(resolved, medium, sizeof(medium)))
		resolved[0] = 0;
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

/* mountinfo's octal escapes (\040 a space) undone in place */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++, o++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o = *s;
		}
	}
	*o = 0;
}

/*
 * What folder DIR (resolved) is on its filesystem when that filesystem is
 * the root's: a bind mount shows one folder at another's path (/etc bound
 * at /tmp/x). EFF gets the folder's own path there; 0 when DIR is not on
 * the root's filesystem or the table cannot be read.
 */
static int root_fs_path(const char *dir, char *eff, size_t len)
{
	char line[3 * PATH_MAX], root[PATH_MAX], mnt[PATH_MAX], best_root[PATH_MAX] = "", best_mnt[PATH_MAX] = "";
	unsigned maj, min, best_maj = 0, best_min = 0, root_maj = 0, root_min = 0;
	FILE *f = fopen("/proc/self/mountinfo", "r");
	int have_root = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*u %*u %u:%u %4095s %4095s", &maj, &min, root, mnt) != 4)
			continue;
		unescape(root);
		unescape(mnt);
		if (!strcmp(mnt, "/")) {
			root_maj = maj, root_min = min, have_root = 1;
		}
		/* the longest mount point over DIR; the last of equals (mounted over the others) */
		if (under(dir, mnt) && strlen(mnt) >= strlen(best_mnt)) {
			snprintf(best_mnt, sizeof(best_mnt), "%s", mnt);
			snprintf(best_root, sizeof(best_root), "%s", root);
			best_maj = maj, best_min = min;
		}
	}
	fclose(f);
	if (!have_root || !best_mnt[0] || best_maj != root_maj || best_min != root_min)
		return 0;
	snprintf(eff, len, "%s%s", strcmp(best_root, "/") ? best_root : "", dir + (strcmp(best_mnt, "/") ? strlen(best_mnt) : 0));
	if (!eff[0])
		snprintf(eff, len, "/");
	return 1;
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
	/* judged where it is on the root's filesystem too: /etc bound at /tmp/x is /etc */
	{
		char eff[PATH_MAX];

		if (root_fs_path(dir, eff, sizeof(eff)) && strcmp(eff, dir) && (sys = system_dir(eff)))
			return snprintf(why, len, "%s is in %s, which is %s of the root's filesystem (a bind mount): the "
					"appliance's own, never written by a job", path, dir, eff), 0;
	}
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
			return snprintf(why, len, "%s is on the boot or results medium (%s): a job never writes there",
					path, medium), 0;
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
		return snprintf(why, len, "%s: the working folder is /, a system folder or on the boot or results "
				"medium: name a file under /tmp, or give --workdir=DIR", path), 0;
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
