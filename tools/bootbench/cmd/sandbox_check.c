// SPDX-License-Identifier: MIT
/*
 * sandbox_check.c - `bootbench sandbox-check`: every way out of a job's
 * world (safety/escapes.h) tried from inside it, in the engine's threads
 * (safety/confine.h) and in fio's sandbox (safety/sandbox.h), on this
 * machine's kernel. "holds" only when every one was refused as expected;
 * a way not tried counts against it. Its flags and help: the declaration
 * at the end (lib/args.h).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <linux/capability.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "lib/args.h"
#include "lib/util.h"
#include "safety/confine.h"
#include "safety/escapes.h"
#include "safety/sandbox.h"

struct sandbox_check_opts {
	const char *disk;
	int inside;
};

/* A block device to try opening: the first in /sys/block with a node in /dev. */
static const char *some_disk(char *buf, size_t len)
{
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	struct stat st;

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(buf, len, "/dev/%s", e->d_name);
		if (!stat(buf, &st) && S_ISBLK(st.st_mode)) {
			closedir(d);
			return buf;
		}
	}
	if (d)
		closedir(d);
	return NULL;
}

struct tries {
	const char *disk;
	unsigned open_ways;
};

static void *try_in_thread(void *arg)
{
	struct tries *t = arg;

	t->open_ways = escapes_try_all(stdout, t->disk);
	return NULL;
}

/* The engine's threads: a confined thread like a run's, with no target. -1 when it could not be made. */
static int engine_threads(const char *dir, const char *disk, unsigned *open_ways)
{
	static const int keep[] = { CAP_SYS_NICE, CAP_IPC_LOCK, CAP_SYS_RESOURCE };
	const char *dirs[] = { dir, NULL };
	struct confine world = { .name = "the engine", .write_dirs = dirs };
	struct tries t = { .disk = disk };
	pthread_t th;
	int rc;

	printf("sandbox-check: the engine's threads (bootbench run)\n");
	fflush(stdout);
	if (confine_start(&world, keep, ARRAY_SIZE(keep)))
		return -1;
	rc = confine_spawn(&th, try_in_thread, &t);
	if (!rc)
		pthread_join(th, NULL);
	confine_stop();
	if (rc)
		return set_err("a thread in the sandbox: %s", strerror(rc));
	*open_ways = t.open_ways;
	return 0;
}

/* fio's sandbox: this program run in it with --inside. -1 when it could not be made. */
static int fio_sandbox(const char *dir, const char *disk, unsigned *open_ways)
{
	char exe[PATH_MAX], disk_arg[PATH_MAX + 8];
	const char *dirs[] = { dir, NULL };
	char *argv[] = { exe, "sandbox-check", "--inside", disk ? disk_arg : NULL, NULL };
	struct sandbox sb = { .name = "sandbox-check", .write_dirs = dirs, .workdir = dir, .no_network = 1,
			      .argv = argv };
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int rc;

	if (n <= 0)
		return set_err("this program's path: %s", strerror(errno));
	exe[n] = 0;
	snprintf(disk_arg, sizeof(disk_arg), "--disk=%s", disk ? disk : "");
	printf("sandbox-check: fio's sandbox (bootbench run's delegated jobs, fio-server)\n");
	fflush(stdout);
	mkdir("/run/bootbench", 0755);
	rc = sandbox_run(&sb);
	if (rc < 0)
		return -1;
	/* its exit status: the ways not refused (127: it did not run) */
	if (rc >= 100)
		return set_err("the tries did not run in it (exit %d)", rc);
	*open_ways = (unsigned)rc;
	return 0;
}

static int sandbox_check_main(void *opts, int argc, char **argv)
{
	struct sandbox_check_opts *o = opts;
	char disk_buf[PATH_MAX], dir[] = "/tmp/bootbench-sandbox-check.XXXXXX";
	const char *disk = o->disk;
	unsigned engine = 0, fio = 0;
	int bad = 0;

	if (argc)
		die_usage("sandbox-check: unexpected operand '%s'", argv[0]);
	/* inside, the disk is by design not there: only tried */
	if (disk && *disk && !o->inside) {
		struct stat st;

		if (stat(disk, &st) || !S_ISBLK(st.st_mode))
			die_usage("sandbox-check: --disk=%s: not a block device", disk);
	} else {
		disk = o->inside ? (disk && *disk ? disk : NULL) : some_disk(disk_buf, sizeof(disk_buf));
	}
	if (o->inside) {
		unsigned n = escapes_try_all(stdout, disk);

		return n > 99 ? 99 : (int)n;
	}
	if (!mkdtemp(dir)) {
		note("sandbox-check: a working folder: %s", strerror(errno));
		return EXIT_FAIL;
	}
	if (chdir(dir) < 0) {
		note("sandbox-check: %s: %s", dir, strerror(errno));
		rmdir(dir);
		return EXIT_FAIL;
	}
	if (engine_threads(dir, disk, &engine)) {
		note("sandbox-check: the engine's threads: %s", bb_err);
		bad = 1;
	}
	if (fio_sandbox(dir, disk, &fio)) {
		note("sandbox-check: fio's sandbox: %s", bb_err);
		bad = 1;
	}
	if (chdir("/") == 0)
		rmdir(dir);
	if (bad) {
		printf("sandbox-check: not established: a sandbox could not be made (above)\n");
		return EXIT_FAIL;
	}
	if (engine || fio) {
		printf("sandbox-check: the sandbox does NOT hold: %u way(s) out of the engine's threads and %u of fio's "
		       "sandbox not refused\n", engine, fio);
		return EXIT_FAIL;
	}
	printf("sandbox-check: the sandbox holds: every way out refused, in the engine's threads and in fio's "
	       "sandbox\n");
	return EXIT_OK;
}

static const struct arg sandbox_check_args[] = {
	{ .name = "--disk", .kind = ARG_STR, .offset = ARG_AT(struct sandbox_check_opts, disk), .meta = "DEV",
	  .help = "a block device no job names, to try opening [the first in /sys/block]" },
	{ .name = "--inside", .kind = ARG_FLAG, .offset = ARG_AT(struct sandbox_check_opts, inside),
	  .help = "only the tries, where this runs (what fio's sandbox runs; no verdict)" },
	{ NULL },
};

const struct command sandbox_check_command = {
	.name = "sandbox-check",
	.summary = "try every way out of a job's sandbox, on this kernel",
	.usage = "[--disk=DEV]",
	.help = "Tries every way out of the world a job runs in, from inside it: in the threads of\n"
		"bootbench's own engine and in the sandbox fio runs in (delegated jobs, fio-server).\n"
		"Each must be refused: a namespace made or joined, TIOCSTI, unix, internet and\n"
		"netlink sockets, a mount, ptrace, a capability taken back, a module or BPF program\n"
		"loaded, /etc, /proc/sys and /sys written, a disk no job named opened, a device node\n"
		"or link made, a program run. Writes nothing outside a folder of its own under /tmp.\n",
	.exit_status = "0 every way out refused (the sandbox holds), 1 one was not, or a sandbox could not be made, "
		       "2 bad input.",
	.args = sandbox_check_args,
	.opts_size = sizeof(struct sandbox_check_opts),
	.run = sandbox_check_main,
};
