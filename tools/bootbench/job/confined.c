// SPDX-License-Identifier: MIT
/*
 * confined.c - the world of a native run's engine threads (confined.h):
 * what its targets need, and nothing else, made from the target list once
 * the files are laid out.
 */
#include "job/confined.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/stat.h>

#include "job/target.h"
#include "lib/util.h"
#include "safety/confine.h"
#include "safety/syscalls.h"
#include "safety/writable.h"

#define MAX_ITEMS 256

static struct confine_node nodes[MAX_ITEMS];
static const char *dirs[MAX_ITEMS + 1];
static unsigned ndirs;
static struct confine world = { .name = "the engine", .nodes = nodes, .write_dirs = dirs };

static int add_dir(const char *dir)
{
	char real[PATH_MAX];

	if (!realpath(dir, real))
		return set_err("%s: %s", dir, strerror(errno));
	for (unsigned i = 0; i < ndirs; i++)
		if (!strcmp(dirs[i], real))
			return 0;
	if (ndirs == MAX_ITEMS)
		return set_err("more than %d folders to write", MAX_ITEMS);
	dirs[ndirs++] = xstrdup(real);
	dirs[ndirs] = NULL;
	return 0;
}

static void forget(void)
{
	for (unsigned i = 0; i < ndirs; i++)
		free((char *)dirs[i]);
	ndirs = 0;
	dirs[0] = NULL;
	world.nnodes = 0;
}

/* What the targets need: their folders where written, their nodes; *PASSTHROUGH when one is an NVMe generic device. */
static int plan(int *passthrough)
{
	unsigned nt;
	struct target **all = target_list(&nt);

	*passthrough = 0;
	/* the working folder: verify's dump files, relative names */
	if (writable_workdir()[0] && add_dir("."))
		return -1;
	for (unsigned i = 0; i < nt; i++) {
		const struct target *t = all[i];
		struct stat st;

		if (!t->used)
			continue;
		if (t->is_blk || t->nvme_chr) {
			if (world.nnodes == MAX_ITEMS)
				return set_err("more than %d devices", MAX_ITEMS);
			if (stat(t->path, &st) < 0)
				return set_err("%s: %s", t->path, strerror(errno));
			nodes[world.nnodes++] = (struct confine_node){ t->path, st.st_rdev,
								      (st.st_mode & S_IFMT) | (t->written ? 0600 : 0400) };
			*passthrough |= t->nvme_chr;
		} else if (t->written || t->created || !t->exists) {
			char parent[PATH_MAX], why[600];
			const char *slash = strrchr(t->path, '/');

			/* judged again where it lands now: a folder swapped for a link since the check is refused */
			if (!writable_file(t->path, why, sizeof(why)))
				return set_err("refusing to write a file: %s", why);

			snprintf(parent, sizeof(parent), "%.*s", slash ? (int)(slash - t->path) : 1,
				 slash ? t->path : ".");
			if (add_dir(parent[0] ? parent : "/"))
				return -1;
		}
	}
	return 0;
}

int confined_begin(void)
{
	/* what the engine keeps: priorities, locked memory (registered buffers), rlimits */
	static const int keep[] = { CAP_SYS_NICE, CAP_IPC_LOCK, CAP_SYS_RESOURCE };
	/* NVMe passthrough: the kernel (6.1) asks for CAP_SYS_ADMIN of every command; the allowlist still holds */
	static const int keep_passthrough[] = { CAP_SYS_NICE, CAP_IPC_LOCK, CAP_SYS_RESOURCE, CAP_SYS_ADMIN };
	int passthrough;

	forget();
	if (plan(&passthrough))
		return -1;
	if (passthrough)
		return confine_start(&world, keep_passthrough, ARRAY_SIZE(keep_passthrough));
	return confine_start(&world, keep, ARRAY_SIZE(keep));
}

int confined_thread(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	return confine_spawn(thread, fn, arg);
}

unsigned confined_end(long *last)
{
	static unsigned before;
	unsigned n;

	confine_stop();
	forget();
	n = syscalls_refused(last) - before;
	before += n;
	return n;
}
