// SPDX-License-Identifier: MIT
/*
 * cmd_raid.c - `bootbench raid`: the published RAID comparisons (mdadm
 * RAID5 vs RAID10 near2/far2 on disks; RAID0/10/5 on NVMe) in one run.
 * First a profile on every single disk (the 1.00x baseline; a disk more than
 * 10% off its siblings is named), then for each level: create the array with
 * mdadm, optionally a filesystem and a file on it, the same profile, then
 * stop and wipe the array. The table gives every level and test in absolute
 * figures, relative to one disk, and with p99 completion latency.
 *
 * Arrays are ours by name (bootbench-LEVEL in the superblock): they are torn
 * down on success, failure and Ctrl-C, and one left by a killed run is
 * stopped and wiped when the next run starts (or by --cleanup).
 *
 * usage: bootbench raid --destroy=DEV[,DEV...] [--levels=L[,L...]] [--profile=NAME]
 *                       [--partition=SIZE] [--fs=ext4|xfs] [--chunk=SIZE] [--resync]
 *                       [--output=DIR] [--progress-fd=N] DISK...
 *        bootbench raid --cleanup DISK...
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <linux/fs.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "raid.h"
#include "collect.h"
#include "consent.h"
#include "disks.h"
#include "json.h"
#include "mdraid.h"
#include "options.h"
#include "parity.h"
#include "profiles.h"
#include "sysinfo.h"
#include "util.h"
#include "worker.h"

#define DEFAULT_LEVELS "0,1,5,10"

struct raid R;

static void usage(void)
{
	unsigned i;

	printf("usage: bootbench raid --destroy=DEV[,DEV...] [--levels=L[,L...]] [--profile=NAME]\n"
	       "                      [--partition=SIZE] [--fs=ext4|xfs] [--chunk=SIZE] [--resync]\n"
	       "                      [--output=DIR] [--progress-fd=N] DISK...\n"
	       "       bootbench raid --cleanup DISK...\n\n"
	       "Compares md RAID levels on the same disks: the profile on every single disk first\n"
	       "(the 1.00x baseline), then on an array of each level, created with mdadm and wiped\n"
	       "after. Every DISK must be named in --destroy: everything on it is lost.\n\n"
	       "  --levels=L,L     levels to compare (default %s, those the disks allow):\n", DEFAULT_LEVELS);
	for (i = 0; i < raid_level_count; i++)
		printf("                     %-10s %s%s%s%s\n", raid_levels[i].name, raid_levels[i].what,
		       raid_levels[i].alias ? " (or " : "", raid_levels[i].alias ? raid_levels[i].alias : "",
		       raid_levels[i].alias ? ")" : "");
	printf("  --profile=NAME   the tests (default mdraid; yabs and ars work too)\n"
	       "  --partition=SIZE use a partition of SIZE at the head of each disk, not the whole disk\n"
	       "  --fs=ext4|xfs    a filesystem on each array (and disk) and the tests on a file in it\n"
	       "  --chunk=SIZE     mdadm's chunk size (default mdadm's: 512K)\n"
	       "  --resync         wait for the initial resync instead of --assume-clean\n"
	       "  --output=DIR     save raid.txt, raid.json and each run's fio JSON there\n"
	       "  --progress-fd=N  stage and progress lines on file descriptor N\n"
	       "  --cleanup        only stop and wipe what an earlier, killed run left\n\n"
	       "BOOTBENCH_SCALE=F scales the profile's runtimes and sizes.\n"
	       "Exit status: 0 every level measured, 1 a level failed or the run was stopped,\n"
	       "2 bad input (nothing written).\n");
}

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
	if (collect_child > 0)
		kill(collect_child, SIGINT);
}

static void stage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void stage(const char *fmt, ...)
{
	char text[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	R.stage++;
	printf("== %u/%u %s ==\n", R.stage, R.stages, text);
	fflush(stdout);
	if (R.progress_fd > 0)
		dprintf(R.progress_fd, "stage %u %u %s\n", R.stage, R.stages, text);
}

/* ---- input ---- */

/* Consent by device number, as the engine checks it. */
static int in_list(const char *list, const char *dev)
{
	struct stat st;

	return !stat(dev, &st) && S_ISBLK(st.st_mode) && destroy_list_has(list, st.st_rdev);
}

static void parse_levels(const char *list)
{
	char buf[512], *tok, *save = NULL;
	unsigned i;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct raid_level *l = raid_level_find(tok);

		if (!l)
			die_usage("raid: --levels: no RAID level '%s' (see 'bootbench raid --help')", tok);
		for (i = 0; i < R.nlevels; i++)
			if (R.levels[i] == l)
				die_usage("raid: --levels: %s is named twice", l->name);
		if (R.nlevels == MAX_LEVELS)
			die_usage("raid: --levels: at most %d levels", MAX_LEVELS);
		R.levels[R.nlevels++] = l;
	}
	if (!R.nlevels)
		die_usage("raid: --levels: name at least one level");
}

/* The default levels the disks allow: raid5 needs three. */
static void drop_levels_too_big(void)
{
	unsigned i, kept = 0;

	for (i = 0; i < R.nlevels; i++)
		if (R.n >= R.levels[i]->min_disks)
			R.levels[kept++] = R.levels[i];
		else
			printf("%s left out: it needs %u disks, %u given\n", R.levels[i]->name, R.levels[i]->min_disks,
			       R.n);
	R.nlevels = kept;
}

static int have_program(const char *name)
{
	char *path = getenv("PATH"), buf[4096], *dir, *save = NULL, file[4400];

	snprintf(buf, sizeof(buf), "%s", path ? path : "/usr/sbin:/usr/bin:/sbin:/bin");
	for (dir = strtok_r(buf, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(file, sizeof(file), "%s/%s", dir, name);
		if (!access(file, X_OK))
			return 1;
	}
	return 0;
}

/* The first partition of a disk: vdb -> vdb1, nvme0n1 -> nvme0n1p1. */
/* Everything about the input checked before anything is written. */
static void check_input(const char *destroy, int cleanup_only)
{
	uint64_t smallest = UINT64_MAX;
	unsigned i, k;

	if (!R.n)
		die_usage("raid: name the disks (e.g. bootbench raid --destroy=/dev/sdb,/dev/sdc /dev/sdb /dev/sdc)");
	for (i = 0; i < R.n; i++) {
		struct disk d;

		if (strncmp(R.disks[i], "/dev/", 5) || disk_find(R.disks[i], &d))
			die_usage("raid: %s is not a whole disk (see 'bootbench disks')", R.disks[i]);
		for (k = 0; k < i; k++)
			if (!strcmp(R.disks[k], R.disks[i]))
				die_usage("raid: %s is named twice", R.disks[i]);
		/* --cleanup too: it stops arrays and zeroes superblocks only on named disks */
		if (!in_list(destroy, R.disks[i]))
			die_usage("raid: refusing to %s %s: name it in --destroy=%s to go on", cleanup_only ?
				  "clean up" : "write", R.disks[i], R.disks[i]);
		if (d.size < smallest)
			smallest = d.size;
	}
	if (cleanup_only)
		return;
	if (R.n < 2)
		die_usage("raid: an array needs at least 2 disks, %u given", R.n);
	if (R.n > MD_MAX_DISKS)
		die_usage("raid: at most %d disks", MD_MAX_DISKS);
	for (i = 0; i < R.nlevels; i++)
		if (R.n < R.levels[i]->min_disks)
			die_usage("raid: %s needs at least %u disks, %u given", R.levels[i]->name,
				  R.levels[i]->min_disks, R.n);
	/* a head partition starts at 1 MiB and leaves room for GPT's backup */
	if (R.part_bytes && R.part_bytes + (2ull << 20) > smallest)
		die_usage("raid: --partition: %llu bytes do not fit on the smallest disk (%llu bytes)",
			  (unsigned long long)R.part_bytes, (unsigned long long)smallest);
	if (R.part_bytes && R.part_bytes < (8ull << 20))
		die_usage("raid: --partition: at least 8M");
	if (R.fs && !have_program(!strcmp(R.fs, "ext4") ? "mkfs.ext4" : "mkfs.xfs"))
		die_usage("raid: --fs=%s: mkfs.%s is not installed", R.fs, R.fs);
	if (!have_program("mdadm"))
		die_usage("raid: mdadm is not installed");
	R.member_size = R.part_bytes ? R.part_bytes : smallest;
}

/* One profile run on DEV, its fio JSON saved as DIR/LABEL.json. */
static int measure(const char *dev, const char *label, struct cells *cells, char *err, size_t errlen)
{
	static struct jobset js;
	struct run_hooks hooks = { 0 };
	char target[256], out[4200], *argv[4];
	int argc = 0, rc;

	memset(cells, 0, sizeof(*cells));
	if (prepare_target(dev, target, sizeof(target), &hooks.size_max)) {
		snprintf(err, errlen, "%s", bb_err);
		release_target(dev);
		return EXIT_FAIL;
	}
	if (R.outdir) {
		snprintf(out, sizeof(out), "--output=%s/%s.json", R.outdir, label);
		argv[argc++] = "--output-format=json";
		argv[argc++] = out;
	}
	if (R.progress_arg)
		argv[argc++] = (char *)R.progress_arg;
	/* DEV's consent: a named disk, or a partition or array this run made of named disks */
	setenv("TARGET", target, 1);
	if (profile_jobset(&js, R.profile, argc, argv)) {
		snprintf(err, errlen, "%s", bb_err);
		rc = EXIT_USAGE;
	} else {
		rc = collect_run(&js, &hooks, cells);
	}
	if (rc && !stop_requested)
		snprintf(err, errlen, "the %s profile exited with status %d (its messages are above)",
			 R.profile->name, rc);
	if (release_target(dev)) {
		snprintf(err, errlen, "%s", bb_err);
		rc = EXIT_FAIL;
	}
	if (!rc && !cells->n) {
		snprintf(err, errlen, "the %s profile reported no figures", R.profile->name);
		rc = EXIT_FAIL;
	}
	return rc;
}

/* ---- the run ---- */

static int take_lock(void)
{
	int fd;

	mkdir(RUNDIR, 0755);
	fd = open(RUNDIR "/raid.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0600);	/* consent: a lock file in /run */
	if (fd < 0)
		return set_err("cannot open " RUNDIR "/raid.lock: %s", strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB))
		return set_err("another bootbench raid is running (it holds " RUNDIR "/raid.lock)");
	return 0;
}

/* After cleanup: no disk may be a medium of ours, mounted, held or swap. */
static void check_free(void)
{
	unsigned i;

	for (i = 0; i < R.n; i++) {
		char why[512];
		struct disk d;

		if (disk_find(R.disks[i], &d))
			die_usage("raid: %s is gone", R.disks[i]);
		disk_refusal(&d, why, sizeof(why));
		if (why[0])
			die_usage("raid: refusing to write %s: %s", R.disks[i], why);
	}
}

static int run_levels(void)
{
	unsigned i;
	int status = EXIT_OK;

	for (i = 0; i < R.nlevels && !stop_requested; i++) {
		struct level_result *r = &R.res[R.nres++];
		char label[80];

		r->l = R.levels[i];
		r->resync_s = -1;
		stage("%s: %s", r->l->name, r->l->what);
		if (md_create(r->l, R.member, R.n, R.chunk, !R.resync, &r->a)) {
			snprintf(r->error, sizeof(r->error), "%s", bb_err);
			note("%s", bb_err);
			r->status = EXIT_FAIL;
			/* mdadm may have written superblocks before it failed */
			if (md_cleanup_ours(R.member, R.n, stdout) < 0)
				return -1;
			status = EXIT_FAIL;
			continue;
		}
		R.live = &r->a;
		printf("%s is %s: %s\n", r->a.name, r->a.dev, r->a.cmdline);
		if (R.resync && r->l->redundant) {
			r->resync_s = md_wait_resync(&r->a, &stop_requested);
			if (r->resync_s >= 0)
				printf("resync took %.1f s\n", r->resync_s);
		}
		snprintf(label, sizeof(label), "%s", r->l->name);
		if (!stop_requested)
			r->status = measure(r->a.dev, label, &r->cells, r->error, sizeof(r->error));
		if (r->status) {
			if (r->error[0])
				note("%s: %s", r->l->name, r->error);
			status = EXIT_FAIL;
		}
		if (teardown_array())
			return -1;
	}
	return status;
}

int cmd_raid(int argc, char **argv)
{
	const char *destroy = NULL, *levels = NULL;
	struct sigaction sa = { .sa_handler = on_signal };
	int i, cleanup_only = 0, status = EXIT_OK, found;
	unsigned k;
	struct stat st;

	/* the stages and mdadm's messages in the order they happened, also in a log */
	setvbuf(stdout, NULL, _IOLBF, 0);
	R.profile = profile_find("mdraid");
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage();
			return EXIT_OK;
		} else if (!strncmp(a, "--destroy=", 10)) {
			destroy = a + 10;
		} else if (!strncmp(a, "--levels=", 9)) {
			levels = a + 9;
		} else if (!strncmp(a, "--profile=", 10)) {
			R.profile = profile_find(a + 10);
			if (!R.profile)
				die_usage("raid: --profile: no profile '%s' (see 'bootbench profile --list')", a + 10);
		} else if (!strncmp(a, "--partition=", 12)) {
			if (parse_size(a + 12, &R.part_bytes) || !R.part_bytes || R.part_bytes % 512)
				die_usage("raid: --partition=%s: expected a size such as 8G (whole sectors)", a + 12);
		} else if (!strncmp(a, "--fs=", 5)) {
			R.fs = a + 5;
			if (strcmp(R.fs, "ext4") && strcmp(R.fs, "xfs"))
				die_usage("raid: --fs=%s: expected ext4 or xfs", R.fs);
		} else if (!strncmp(a, "--chunk=", 8)) {
			uint64_t c;

			if (parse_size(a + 8, &c) || c < 4096 || (c & (c - 1)))
				die_usage("raid: --chunk=%s: expected a power of two from 4K", a + 8);
			R.chunk = a + 8;
		} else if (!strcmp(a, "--resync")) {
			R.resync = 1;
		} else if (!strncmp(a, "--output=", 9)) {
			R.outdir = a + 9;
			if (stat(R.outdir, &st) || !S_ISDIR(st.st_mode))
				die_usage("raid: --output=%s is not a directory", R.outdir);
		} else if (!strncmp(a, "--progress-fd=", 14)) {
			char *end;

			R.progress_fd = (int)strtol(a + 14, &end, 10);
			if (*end || R.progress_fd < 3 || fcntl(R.progress_fd, F_GETFD) < 0)
				die_usage("raid: --progress-fd=%s: not an open file descriptor above 2", a + 14);
			R.progress_arg = a;
		} else if (!strcmp(a, "--cleanup")) {
			cleanup_only = 1;
		} else if (a[0] == '-') {
			die_usage("raid: unknown option '%s' (see 'bootbench raid --help')", a);
		} else if (R.n < MD_MAX_DISKS) {
			R.disks[R.n++] = argv[i];
		} else {
			die_usage("raid: at most %d disks", MD_MAX_DISKS);
		}
	}
	if (!R.profile)
		die_usage("raid: the mdraid profile is missing");
	if (!cleanup_only)
		parse_levels(levels ? levels : DEFAULT_LEVELS);
	if (!levels)
		drop_levels_too_big();
	check_input(destroy, cleanup_only);

	if (take_lock())
		die_usage("raid: %s", bb_err);
	if (consent_allow(destroy))
		die_usage("raid: %s", bb_err);
	/* what a killed --partition run left on a named disk is the cleanup's to remove */
	for (k = 0; k < R.n; k++)
		consent_allow_partitions_of(R.disks[k]);
	found = md_cleanup_ours(R.disks, R.n, stdout);
	if (found < 0) {
		note("raid: cleanup of an earlier run failed: %s", bb_err);
		return EXIT_FAIL;
	}
	if (cleanup_only) {
		printf("%d thing(s) of an earlier run cleaned up\n", found);
		return EXIT_OK;
	}
	check_free();

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* `bootbench raid | tee log` and Ctrl-C: tee goes first, and the
	 * teardown must still run when our output has nowhere to go */
	signal(SIGPIPE, SIG_IGN);
	R.stages = R.n + R.nlevels;
	print_setup(stdout);
	if (prepare_members()) {
		note("raid: %s", bb_err);
		status = EXIT_FAIL;
		goto out_teardown;
	}
	for (k = 0; k < R.n && !stop_requested; k++) {
		char label[128], err[512] = "";

		stage("baseline: %s alone", R.member[k]);
		snprintf(label, sizeof(label), "baseline-%s", R.member[k] + 5);
		if (measure(R.member[k], label, &R.base[k], err, sizeof(err))) {
			if (err[0])
				note("raid: baseline on %s: %s", R.member[k], err);
			status = EXIT_FAIL;
			goto out_teardown;
		}
	}
	if (stop_requested)
		goto out_teardown;
	baseline_median();
	print_outliers(stdout, NULL);
	i = run_levels();
	if (i < 0) {
		note("raid: %s", bb_err);
		status = EXIT_FAIL;
	} else if (i > status) {
		status = i;
	}
out_teardown:
	if (teardown_array() || teardown_members()) {
		note("raid: teardown failed: %s; run 'bootbench raid --cleanup' on these disks", bb_err);
		status = EXIT_FAIL;
	}
	if (stop_requested) {
		note("raid: interrupted: the table covers the run until then; arrays are torn down");
		status = EXIT_FAIL;
	}
	if (R.median.n) {
		putchar('\n');
		print_table(stdout);
		print_failures(stdout);
		putchar('\n');
		print_verdict(stdout, NULL);
	}
	save("raid.txt", status, 0);
	save("raid.json", status, 1);
	return status;
}

