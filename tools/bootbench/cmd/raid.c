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

#define MAX_LEVELS 16
#define OUTLIER 0.10		/* a disk this far off the median of its siblings is named */
#define RUNDIR "/run/bootbench"
#define MOUNTPOINT RUNDIR "/raid-mnt"
#define DEFAULT_LEVELS "0,1,5,10"

struct level_result {
	const struct raid_level *l;
	struct md_array a;
	struct cells cells;
	int status;		/* of the profile run, or EXIT_FAIL when the array failed */
	double resync_s;	/* -1: skipped with --assume-clean or not needed */
	char error[512];
};

static struct raid {
	char *disks[MD_MAX_DISKS];	/* /dev/vdb */
	char members[MD_MAX_DISKS][80];	/* /dev/vdb, or /dev/vdb1 with --partition */
	char *member[MD_MAX_DISKS];
	unsigned n;
	uint64_t member_size;
	const struct profile *profile;
	const struct raid_level *levels[MAX_LEVELS];
	unsigned nlevels;
	const char *fs, *chunk, *outdir, *progress_arg;
	uint64_t part_bytes;
	int resync, progress_fd;
	unsigned stage, stages;
	struct cells base[MD_MAX_DISKS], median;
	struct level_result res[MAX_LEVELS];
	unsigned nres;
	struct md_array *live;		/* the array up now: torn down on any exit */
	int mounted, partitioned;
} R;

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
static void first_partition(const char *disk, char *out, size_t len)
{
	size_t n = strlen(disk);

	snprintf(out, len, "%s%s1", disk, n && disk[n - 1] >= '0' && disk[n - 1] <= '9' ? "p" : "");
}

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

/* ---- steps that write ---- */

/* A writing tool on DEV, through the consent gate. */
static int run_tool(int keep_going_on_int, const char *what, const char *dev, char *const argv[],
		    const char *input)
{
	char out[1024], *devs[] = { (char *)dev };
	int rc = consent_spawn(devs, 1, argv, input, keep_going_on_int, out, sizeof(out));

	if (rc < 0)
		return -1;
	if (rc)
		return set_err("%s failed (%s exit status %d): %s", what, argv[0], rc, out[0] ? out : "no message");
	return 0;
}

static int wipe(const char *dev)
{
	char *argv[] = { "wipefs", "-a", "-q", (char *)dev, NULL };

	return run_tool(1, "wiping signatures", dev, argv, NULL);
}

static int wait_for_node(const char *dev)
{
	struct stat st;
	int i;

	for (i = 0; i < 100; i++) {
		if (!stat(dev, &st) && S_ISBLK(st.st_mode))
			return 0;
		sleep_ns(100000000);
	}
	return set_err("%s did not appear", dev);
}

/* Whole disks: old signatures off. --partition: one GPT partition at 1 MiB. */
static int prepare_members(void)
{
	char script[256], part[64];
	unsigned i;

	snprintf(script, sizeof(script), "label: gpt\nstart=2048, size=%llu, name=bootbench-raid\n",
		 (unsigned long long)(R.part_bytes / 512));
	for (i = 0; i < R.n; i++) {
		if (!R.part_bytes) {
			snprintf(R.members[i], sizeof(R.members[i]), "%s", R.disks[i]);
			if (wipe(R.disks[i]))
				return -1;
		} else {
			char *argv[] = { "sfdisk", "--quiet", "--wipe", "always", "--wipe-partitions", "always",
					 R.disks[i], NULL };

			R.partitioned = 1;
			if (wipe(R.disks[i]) || run_tool(0, "partitioning", R.disks[i], argv, script))
				return -1;
			first_partition(R.disks[i], part, sizeof(part));
			/* the partition this run wrote on a named disk is the run's to write */
			if (wait_for_node(part))
				return -1;
			consent_allow_partitions_of(R.disks[i]);
			snprintf(R.members[i], sizeof(R.members[i]), "%s", part);
			if (wipe(part))
				return -1;
		}
		R.member[i] = R.members[i];
	}
	return 0;
}

/* The device or file a run measures: DEV itself, or a file on a new filesystem on it. */
static int prepare_target(const char *dev, char *target, size_t len, uint64_t *size_max)
{
	char *ext4[] = { "mkfs.ext4", "-F", "-q", "-E", "lazy_itable_init=0,lazy_journal_init=0", (char *)dev, NULL };
	char *xfs[] = { "mkfs.xfs", "-f", "-q", (char *)dev, NULL };
	char *modprobe[] = { "modprobe", "-q", (char *)R.fs, NULL };
	struct statvfs vfs;
	int rc;

	if (!R.fs) {
		unsigned long long bytes = 0;
		int fd = open(dev, O_RDONLY | O_CLOEXEC);

		/* a profile written for big disks covers what this device has */
		if (fd < 0 || ioctl(fd, BLKGETSIZE64, &bytes)) {
			if (fd >= 0)
				close(fd);
			return set_err("cannot read the size of %s: %s", dev, strerror(errno));
		}
		close(fd);
		snprintf(target, len, "%s", dev);
		*size_max = bytes;
		return 0;
	}
	if (run_tool(0, "mkfs", dev, !strcmp(R.fs, "ext4") ? ext4 : xfs, NULL))
		return -1;
	mkdir(RUNDIR, 0755);
	mkdir(MOUNTPOINT, 0755);
	rc = consent_mount(dev, MOUNTPOINT, R.fs, 0);
	if (rc && errno == ENODEV) {
		/* the filesystem is a module not loaded yet */
		spawn(modprobe, NULL, 0, NULL, 0);	/* consent: loads a module, writes no device */
		rc = consent_mount(dev, MOUNTPOINT, R.fs, 0);
	}
	if (rc && errno == EPERM)
		return -1;
	if (rc)
		return set_err("cannot mount %s (%s) on %s: %s", dev, R.fs, MOUNTPOINT, strerror(errno));
	R.mounted = 1;
	snprintf(target, len, MOUNTPOINT "/bootbench-raid.dat");
	if (statvfs(MOUNTPOINT, &vfs))
		return set_err("cannot read the free space of %s: %s", MOUNTPOINT, strerror(errno));
	/* the file takes most of the filesystem, leaving room for its metadata */
	*size_max = (uint64_t)(vfs.f_bavail * (double)vfs.f_frsize * 0.8) & ~((1ull << 20) - 1);
	return 0;
}

static int release_target(const char *dev)
{
	if (R.mounted) {
		if (unmount_patiently(MOUNTPOINT))
			return set_err("cannot unmount %s: %s", MOUNTPOINT, strerror(errno));
		R.mounted = 0;
	}
	/* the filesystem's signature goes, so no later array or disk shows it */
	return R.fs ? wipe(dev) : 0;
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

/* Takes the live array down; anything that fails here is a loud error. */
static int teardown_array(void)
{
	struct md_array *a = R.live;

	if (!a)
		return 0;
	R.live = NULL;
	if (R.mounted && release_target(a->dev))
		return -1;
	if (md_destroy(a, R.member, R.n))
		return -1;
	printf("%s stopped, superblocks zeroed\n", a->name);
	return 0;
}

static int teardown_members(void)
{
	unsigned i;
	int rc = 0;

	if (!R.partitioned)
		return 0;
	for (i = 0; i < R.n; i++)
		if (wipe(R.members[i]) || wipe(R.disks[i]))
			rc = -1;
	if (!rc)
		printf("partition tables of this run removed\n");
	return rc;
}

/* ---- figures ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median_of(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The baseline: per test and direction, the median of the disks. */
static void baseline_median(void)
{
	const struct cells *first = &R.base[0];
	unsigned i, k;

	R.median.c = xcalloc(first->n ? first->n : 1, sizeof(struct cell));
	R.median.n = 0;
	for (i = 0; i < first->n; i++) {
		double iops[MD_MAX_DISKS], bw[MD_MAX_DISKS], p99[MD_MAX_DISKS];
		struct cell *m = &R.median.c[R.median.n];
		unsigned have = 0;

		for (k = 0; k < R.n; k++) {
			const struct cell *c = cells_find(&R.base[k], first->c[i].test, first->c[i].dir);

			if (!c)
				continue;
			iops[have] = c->iops;
			bw[have] = c->bw;
			p99[have++] = c->p99_us;
		}
		*m = first->c[i];
		m->iops = median_of(iops, have);
		m->bw = median_of(bw, have);
		m->p99_us = median_of(p99, have);
		R.median.n++;
	}
}

static double ratio(const struct cell *c, const struct cell *base)
{
	if (!c || !base)
		return NAN;
	if (base->bw > 0)
		return c->bw / base->bw;
	return base->iops > 0 ? c->iops / base->iops : NAN;
}

/* Disks off the median of their siblings by more than OUTLIER, named (to F or J). */
static unsigned print_outliers(FILE *f, struct json *j)
{
	unsigned i, k, found = 0;

	if (j)
		json_arr_open(j, "outliers");
	for (k = 0; k < R.n; k++)
		for (i = 0; i < R.median.n; i++) {
			const struct cell *m = &R.median.c[i];
			double x = ratio(cells_find(&R.base[k], m->test, m->dir), m);

			if (isnan(x) || fabs(x - 1) <= OUTLIER)
				continue;
			found++;
			if (f)
				fprintf(f, "%s differs from its siblings: %s %s %.2fx of the median disk\n", R.disks[k],
					m->test, m->dir, x);
			if (j) {
				json_obj_open(j, NULL);
				json_str(j, "disk", R.disks[k]);
				json_str(j, "test", m->test);
				json_str(j, "dir", m->dir);
				json_double(j, "vs_median", x);
				json_obj_close(j);
			}
		}
	if (j)
		json_arr_close(j);
	if (f && !found)
		fprintf(f, "the disks agree within %.0f%% on every test\n", OUTLIER * 100);
	return found;
}

static void row(FILE *f, const char *test, const char *dir, const char *level, const struct cell *c,
		const struct cell *base, const char *why)
{
	if (!c) {
		fprintf(f, "%-20.20s %-5s %-9s %s\n", test, dir, level, why ? why : "-");
		return;
	}
	fprintf(f, "%-20.20s %-5s %-9s %8.0f %8.1f %6.2fx %9.1f\n", test, dir, level, c->iops, c->bw / 1e6,
		ratio(c, base), c->p99_us);
}

static void print_table(FILE *f)
{
	unsigned i, k;

	/* 72 columns: the menu shows it in a 78-column box */
	fprintf(f, "%-20s %-5s %-9s %8s %8s %7s %9s\n", "test", "dir", "level", "IOPS", "MB/s", "vs disk",
		"p99 us");
	for (i = 0; i < R.median.n; i++) {
		const struct cell *m = &R.median.c[i];

		row(f, m->test, m->dir, "1 disk", m, m, NULL);
		for (k = 0; k < R.nres; k++) {
			const struct level_result *r = &R.res[k];

			row(f, "", "", r->l->name, cells_find(&r->cells, m->test, m->dir), m,
			    r->status && !r->cells.n ? "failed" : NULL);
		}
	}
}

static void print_failures(FILE *f)
{
	unsigned k;

	for (k = 0; k < R.nres; k++)
		if (R.res[k].error[0])
			fprintf(f, "%s failed: %s\n", R.res[k].l->name, R.res[k].error);
}

static void print_setup(FILE *f)
{
	unsigned i;
	char size[32];

	fprintf(f, "bootbench raid: profile %s on %u disks:", R.profile->name, R.n);
	for (i = 0; i < R.n; i++)
		fprintf(f, " %s", R.disks[i] + 5);
	fprintf(f, "\nmembers: %s, %s each; tests on %s;\nchunk %s; no write-intent bitmap\n",
		R.part_bytes ? "a partition at the head of each disk" : "whole disks",
		fmt_iec((double)R.member_size, size, sizeof(size)),
		R.fs ? (!strcmp(R.fs, "ext4") ? "a file on ext4 (lazy init off)" : "a file on xfs") : "the raw device",
		R.chunk ? R.chunk : "mdadm's default (512K)");
	fprintf(f, "1 disk: the median of the disks; vs disk: bandwidth relative to it;\n"
		   "p99 us: completion latency, 99th percentile\n");
	if (R.resync)
		fprintf(f, "resync: mirrors and parity were synced before measuring (--resync)\n");
	else
		fprintf(f, "resync: skipped with --assume-clean on redundant levels; valid here because the tests\n"
			   "never read back data they did not write, and md reads neither mirrors nor parity to\n"
			   "check them, so a stripe costs the same synced or not\n");
}

/*
 * Whether RAID5/6 writes on these disks are bound by the CPU: the data rate
 * the disks take against the parity throughput of one core (md computes a
 * stripe's parity in its raid5d thread unless group_thread_cnt is raised).
 */
static void print_verdict(FILE *f, struct json *j)
{
	double best_write = 0;
	unsigned i, k;

	for (k = 0; k < R.median.n; k++)
		if (!strcmp(R.median.c[k].dir, "write") && R.median.c[k].bw > best_write)
			best_write = R.median.c[k].bw;
	if (j)
		json_arr_open(j, "parity_verdict");
	for (i = 0; i < R.nlevels; i++) {
		const struct raid_level *l = R.levels[i];
		int raid6 = !strcmp(l->md_level, "6");

		if (strcmp(l->md_level, "5") && !raid6)
			continue;
		if (best_write <= 0) {
			fprintf(f, "%s: no write test in the profile, so no parity verdict\n", l->name);
			continue;
		}
		parity_verdict(f, j, l->name, R.n, raid6, best_write * (R.n - (raid6 ? 2 : 1)));
	}
	if (j)
		json_arr_close(j);
}

static void cells_json(struct json *j, const char *key, const struct cells *cs)
{
	unsigned i;

	json_arr_open(j, key);
	for (i = 0; i < cs->n; i++) {
		const struct cell *c = &cs->c[i];
		const struct cell *m = cells_find(&R.median, c->test, c->dir);
		double x = ratio(c, m);

		json_obj_open(j, NULL);
		json_str(j, "test", c->test);
		json_str(j, "dir", c->dir);
		json_double(j, "iops", c->iops);
		json_double(j, "bw_bytes", c->bw);
		json_double(j, "clat_p99_us", c->p99_us);
		if (!isnan(x))
			json_double(j, "vs_baseline", x);
		json_obj_close(j);
	}
	json_arr_close(j);
}

static void write_json(FILE *f, int status)
{
	struct json j;
	unsigned i;

	json_init(&j, f);
	json_obj_open(&j, NULL);
	json_str(&j, "profile", R.profile->name);
	json_arr_open(&j, "disks");
	for (i = 0; i < R.n; i++) {
		json_obj_open(&j, NULL);
		json_str(&j, "disk", R.disks[i]);
		json_str(&j, "member", R.members[i]);
		cells_json(&j, "baseline", &R.base[i]);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	json_uint(&j, "member_bytes", R.member_size);
	json_str(&j, "members", R.part_bytes ? "head partition" : "whole disk");
	json_str(&j, "filesystem", R.fs ? R.fs : "");
	json_bool(&j, "assume_clean", !R.resync);
	cells_json(&j, "baseline_median", &R.median);
	print_outliers(NULL, &j);
	json_arr_open(&j, "levels");
	for (i = 0; i < R.nres; i++) {
		const struct level_result *r = &R.res[i];

		json_obj_open(&j, NULL);
		json_str(&j, "level", r->l->name);
		json_str(&j, "mdadm", r->a.cmdline);
		json_double(&j, "capacity_disks", raid_capacity(r->l, R.n));
		if (r->resync_s >= 0)
			json_double(&j, "resync_s", r->resync_s);
		json_int(&j, "status", r->status);
		json_str(&j, "error", r->error);
		cells_json(&j, "results", &r->cells);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	print_verdict(NULL, &j);
	json_bool(&j, "interrupted", stop_requested != 0);
	json_int(&j, "exit_status", status);
	sysinfo_json(&j, "system");
	json_obj_close(&j);
	fputc('\n', f);
}

static void save(const char *name, int status, int as_json)
{
	char path[4200], *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (!R.outdir)
		return;
	f = open_memstream(&buf, &len);
	if (!f)
		return;
	if (as_json) {
		write_json(f, status);
	} else {
		print_setup(f);
		print_outliers(f, NULL);
		print_table(f);
		print_failures(f);
		print_verdict(f, NULL);
	}
	fclose(f);
	snprintf(path, sizeof(path), "%s/%s", R.outdir, name);
	if (write_file_atomic(path, buf, len))
		note("%s", bb_err);
	free(buf);
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
