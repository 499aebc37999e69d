// SPDX-License-Identifier: MIT
/*
 * raid.c - `bootbench raid`: the published RAID comparisons (mdadm
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
 * ZFS pools (--zfs) follow the md levels on the same disks, in the same
 * table: each topology at each width created with zpool, the profile on a
 * file in it, then destroyed and its labels cleared, under the same rules.
 *
 * Its flags and help: the declaration at the end (lib/args.h); the
 * levels and topologies it lists come from their tables.
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

#include "job/options.h"
#include "job/worker.h"
#include "lib/args.h"
#include "lib/json.h"
#include "lib/packs.h"
#include "lib/util.h"
#include "profiles/profiles.h"
#include "raid/collect.h"
#include "raid/mdraid.h"
#include "raid/parity.h"
#include "raid/raid.h"
#include "raid/zfs.h"
#include "safety/consent.h"
#include "sys/disks.h"
#include "sys/sysinfo.h"

#define DEFAULT_LEVELS "0,1,5,10"
/* the smallest ARC ZFS accepts: what is measured is the disks, not memory */
#define DEFAULT_ARC_MAX (64ull << 20)


/* The levels and topologies, from their tables: after the flags in --help. */
static void raid_more_help(FILE *f)
{
	unsigned i;

	fprintf(f, "\nLevels (--levels; default %s, those the disks allow):\n", DEFAULT_LEVELS);
	for (i = 0; i < raid_level_count; i++)
		fprintf(f, "  %-10s %s%s%s%s\n", raid_levels[i].name, raid_levels[i].what,
			raid_levels[i].alias ? " (or " : "", raid_levels[i].alias ? raid_levels[i].alias : "",
			raid_levels[i].alias ? ")" : "");
	fprintf(f, "ZFS pools (--zfs; none by default; ZFS needs Secure Boot off: its modules are built\n"
		"by bootbench, and Debian's kernel under Secure Boot loads only Debian's):\n");
	for (i = 0; i < zfs_topology_count; i++)
		fprintf(f, "  %-10s %s\n", zfs_topologies[i].name, zfs_topologies[i].what);
	fprintf(f, "BOOTBENCH_SCALE=F scales the profile's runtimes and sizes.\n"
		"On a console (or with $COLUMNS) the prose is folded to its width, each disk's and\n"
		"level's lines under its name; raid.txt keeps a line a line. The table is 72 columns.\n");
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
	raid_ctx.stage++;
	printf("== %u/%u %s ==\n", raid_ctx.stage, raid_ctx.stages, text);
	fflush(stdout);
	if (raid_ctx.progress_fd > 0)
		dprintf(raid_ctx.progress_fd, "stage %u %u %s\n", raid_ctx.stage, raid_ctx.stages, text);
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
		for (i = 0; i < raid_ctx.nlevels; i++)
			if (raid_ctx.levels[i] == l)
				die_usage("raid: --levels: %s is named twice", l->name);
		if (raid_ctx.nlevels == MAX_LEVELS)
			die_usage("raid: --levels: at most %d levels", MAX_LEVELS);
		raid_ctx.levels[raid_ctx.nlevels++] = l;
	}
	if (!raid_ctx.nlevels)
		die_usage("raid: --levels: name at least one level");
}

static void parse_zfs(const char *list)
{
	char buf[256], *tok, *save = NULL;
	unsigned i;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct zfs_topology *t = zfs_topology_find(tok);

		if (!t)
			die_usage("raid: --zfs: no ZFS topology '%s' (stripe, mirror, raidz1, raidz2, raidz3)", tok);
		for (i = 0; i < raid_ctx.nzfs; i++)
			if (raid_ctx.zfs[i] == t)
				die_usage("raid: --zfs: %s is named twice", t->name);
		raid_ctx.zfs[raid_ctx.nzfs++] = t;
	}
	if (!raid_ctx.nzfs)
		die_usage("raid: --zfs: name at least one topology");
}

static void parse_widths(const char *list)
{
	char buf[256], *tok, *save = NULL, *end;
	unsigned i;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		long w = strtol(tok, &end, 10);

		if (*end || w < 1 || w > MD_MAX_DISKS)
			die_usage("raid: --zfs-width=%s: expected disk counts such as 2,4,8", list);
		for (i = 0; i < raid_ctx.nwidths; i++)
			if (raid_ctx.widths[i] == (unsigned)w)
				die_usage("raid: --zfs-width: %ld is named twice", w);
		if (raid_ctx.nwidths == ZFS_MAX_WIDTHS)
			die_usage("raid: --zfs-width: at most %d widths", ZFS_MAX_WIDTHS);
		raid_ctx.widths[raid_ctx.nwidths++] = (unsigned)w;
	}
	if (!raid_ctx.nwidths)
		die_usage("raid: --zfs-width: name at least one width");
}

/* The default levels the disks allow: raid5 needs three. */
static const struct raid_level *left_out[16];
static unsigned nleft_out;

static void drop_levels_too_big(void)
{
	unsigned i, kept = 0;

	for (i = 0; i < raid_ctx.nlevels; i++)
		if (raid_ctx.n >= raid_ctx.levels[i]->min_disks)
			raid_ctx.levels[kept++] = raid_ctx.levels[i];
		else if (nleft_out < ARRAY_SIZE(left_out))
			left_out[nleft_out++] = raid_ctx.levels[i];
	raid_ctx.nlevels = kept;
}

/* Said once the input is known good: bad input prints its one line and nothing else. */
static void say_left_out(void)
{
	unsigned i;

	for (i = 0; i < nleft_out; i++)
		printf("%s left out: it needs %u disks, %u given\n", left_out[i]->name, left_out[i]->min_disks, raid_ctx.n);
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

/* The pools the disks can make, ZFS loadable, the ashift: before anything is written. */
static void check_zfs(void)
{
	unsigned i, k, pbs = 512;
	int widths_given = raid_ctx.nwidths > 0;
	char why[256];

	if (!widths_given)
		raid_ctx.widths[raid_ctx.nwidths++] = raid_ctx.n;
	for (k = 0; k < raid_ctx.nwidths; k++) {
		if (raid_ctx.widths[k] > raid_ctx.n)
			die_usage("raid: --zfs-width=%u: only %u disks given", raid_ctx.widths[k], raid_ctx.n);
		for (i = 0; i < raid_ctx.nzfs; i++)
			if (!zfs_width_fits(raid_ctx.zfs[i], raid_ctx.widths[k], why, sizeof(why)))
				die_usage("raid: --zfs=%s over %u disks: %s%s", raid_ctx.zfs[i]->name, raid_ctx.widths[k], why,
					  widths_given ? "" : " (--zfs-width=N makes it of N disks)");
	}
	if (raid_ctx.nres + raid_ctx.nlevels + raid_ctx.nzfs * raid_ctx.nwidths > MAX_RESULTS)
		die_usage("raid: at most %d levels and pools in one run", MAX_RESULTS);
	if (!have_program("zpool")) {
		if (pack_missing_note("zpool", why, sizeof(why)))
			die_usage("raid: --zfs: zpool is not here: %s", why);
		die_usage("raid: --zfs: zpool is not installed");
	}
	if (zfs_load())
		die_usage("raid: --zfs: %s", bb_err);
	zfs_version(raid_ctx.zfs_version, sizeof(raid_ctx.zfs_version));
	if (!raid_ctx.zs.ashift) {
		for (i = 0; i < raid_ctx.n; i++) {
			struct disk d;

			if (!disk_find(raid_ctx.disks[i], &d) && d.pbs > pbs)
				pbs = d.pbs;
		}
		for (raid_ctx.zs.ashift = 9; (1u << raid_ctx.zs.ashift) < pbs && raid_ctx.zs.ashift < 16; raid_ctx.zs.ashift++)
			;
	}
	if (!raid_ctx.zs.recordsize)
		raid_ctx.zs.recordsize = 128 << 10;
	if (!raid_ctx.arc_max)
		raid_ctx.arc_max = DEFAULT_ARC_MAX;
}

/* Everything about the input checked before anything is written. */
static void check_input(const char *destroy, int cleanup_only)
{
	uint64_t smallest = UINT64_MAX;
	unsigned i, k;

	if (!raid_ctx.n)
		die_usage("raid: name the disks (e.g. bootbench raid --destroy=/dev/sdb,/dev/sdc /dev/sdb /dev/sdc)");
	for (i = 0; i < raid_ctx.n; i++) {
		struct disk d;

		if (strncmp(raid_ctx.disks[i], "/dev/", 5) || disk_find(raid_ctx.disks[i], &d))
			die_usage("raid: %s is not a whole disk (see 'bootbench disks')", raid_ctx.disks[i]);
		for (k = 0; k < i; k++)
			if (!strcmp(raid_ctx.disks[k], raid_ctx.disks[i]))
				die_usage("raid: %s is named twice", raid_ctx.disks[i]);
		/* --cleanup too: it stops arrays and zeroes superblocks only on named disks */
		if (!in_list(destroy, raid_ctx.disks[i]))
			die_usage("raid: refusing to %s %s: name it in --destroy=%s to go on", cleanup_only ?
				  "clean up" : "write", raid_ctx.disks[i], raid_ctx.disks[i]);
		if (d.size < smallest)
			smallest = d.size;
	}
	if (cleanup_only)
		return;
	if (raid_ctx.n < 2)
		die_usage("raid: an array needs at least 2 disks, %u given", raid_ctx.n);
	if (raid_ctx.n > MD_MAX_DISKS)
		die_usage("raid: at most %d disks", MD_MAX_DISKS);
	for (i = 0; i < raid_ctx.nlevels; i++)
		if (raid_ctx.n < raid_ctx.levels[i]->min_disks)
			die_usage("raid: %s needs at least %u disks, %u given", raid_ctx.levels[i]->name,
				  raid_ctx.levels[i]->min_disks, raid_ctx.n);
	/* a head partition starts at 1 MiB and leaves room for GPT's backup */
	if (raid_ctx.part_bytes && raid_ctx.part_bytes + (2ull << 20) > smallest)
		die_usage("raid: --partition: %llu bytes do not fit on the smallest disk (%llu bytes)",
			  (unsigned long long)raid_ctx.part_bytes, (unsigned long long)smallest);
	if (raid_ctx.part_bytes && raid_ctx.part_bytes < (8ull << 20))
		die_usage("raid: --partition: at least 8M");
	if (raid_ctx.fs && !have_program(!strcmp(raid_ctx.fs, "ext4") ? "mkfs.ext4" : "mkfs.xfs"))
		die_usage("raid: --fs=%s: mkfs.%s is not installed", raid_ctx.fs, raid_ctx.fs);
	if (raid_ctx.nlevels && !have_program("mdadm"))
		die_usage("raid: mdadm is not installed");
	raid_ctx.member_size = raid_ctx.part_bytes ? raid_ctx.part_bytes : smallest;
	if (raid_ctx.nzfs)
		check_zfs();
}

/* One profile run on DEV, its fio JSON saved as DIR/LABEL.json. */
static int measure(const char *dev, const char *label, struct cells *cells, char *err, size_t errlen)
{
	static struct jobset js;
	struct run_hooks hooks = { 0 };
	char target[256], out[4200], *argv[4];
	int argc = 0, rc;

	memset(cells, 0, sizeof(*cells));
	if (raid_prepare_target(dev, target, sizeof(target), &hooks.size_max)) {
		snprintf(err, errlen, "%s", bb_err);
		raid_release_target(dev);
		return EXIT_FAIL;
	}
	if (raid_ctx.outdir) {
		snprintf(out, sizeof(out), "--output=%s/%s.json", raid_ctx.outdir, label);
		argv[argc++] = "--output-format=json+";	/* the report draws latency curves from the bins */
		argv[argc++] = out;
	}
	if (raid_ctx.progress_arg)
		argv[argc++] = (char *)raid_ctx.progress_arg;
	/* DEV's consent: a named disk, or a partition or array this run made of named disks */
	setenv("TARGET", target, 1);
	if (profile_jobset(&js, raid_ctx.profile, argc, argv)) {
		snprintf(err, errlen, "%s", bb_err);
		rc = EXIT_USAGE;
	} else {
		rc = collect_run(&js, &hooks, cells);
	}
	if (rc && !stop_requested)
		snprintf(err, errlen, "the %s profile exited with status %d (its messages are above)",
			 raid_ctx.profile->name, rc);
	if (raid_release_target(dev)) {
		snprintf(err, errlen, "%s", bb_err);
		rc = EXIT_FAIL;
	}
	if (!rc && !cells->n) {
		snprintf(err, errlen, "the %s profile reported no figures", raid_ctx.profile->name);
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

/* Before anything is written: a ZFS pool that is not ours on a disk (imported or not). */
static void check_foreign_pools(void)
{
	char pool[256], dev[300];
	unsigned i;

	for (i = 0; i < raid_ctx.n; i++)
		if (zfs_foreign_pool(raid_ctx.disks[i], pool, sizeof(pool), dev, sizeof(dev)) == 1)
			die_usage("raid: refusing to write %s: %s holds ZFS pool '%s' (zpool destroy it, or "
				  "zpool labelclear %s, if it is not needed)", raid_ctx.disks[i], dev, pool, dev);
}

/* After cleanup: no disk may be a medium of ours, mounted, held or swap. */
static void check_free(void)
{
	unsigned i;

	for (i = 0; i < raid_ctx.n; i++) {
		char why[512];
		struct disk d;

		if (disk_find(raid_ctx.disks[i], &d))
			die_usage("raid: %s is gone", raid_ctx.disks[i]);
		disk_refusal(&d, why, sizeof(why));
		if (why[0])
			die_usage("raid: refusing to write %s: %s", raid_ctx.disks[i], why);
	}
}

static int run_levels(void)
{
	unsigned i;
	int status = EXIT_OK;

	for (i = 0; i < raid_ctx.nlevels && !stop_requested; i++) {
		struct level_result *r = &raid_ctx.res[raid_ctx.nres++];
		char label[80];

		r->l = raid_ctx.levels[i];
		r->resync_s = -1;
		snprintf(r->name, sizeof(r->name), "%s", r->l->name);
		stage("%s: %s", r->l->name, r->l->what);
		if (md_create(r->l, raid_ctx.member, raid_ctx.n, raid_ctx.chunk, !raid_ctx.resync, &r->a)) {
			snprintf(r->error, sizeof(r->error), "%s", bb_err);
			note("%s", bb_err);
			r->status = EXIT_FAIL;
			/* mdadm may have written superblocks before it failed */
			if (md_cleanup_ours(raid_ctx.member, raid_ctx.n, stdout) < 0)
				return -1;
			status = EXIT_FAIL;
			continue;
		}
		raid_ctx.live = &r->a;
		printf("%s is %s: %s\n", r->a.name, r->a.dev, r->a.cmdline);
		if (raid_ctx.resync && r->l->redundant) {
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
		if (raid_teardown_array())
			return -1;
	}
	return status;
}

/* Each ZFS topology at each width: created, measured, destroyed and cleared. */
static int run_pools(void)
{
	unsigned i, k, w;
	int status = EXIT_OK;

	if (!raid_ctx.nzfs || stop_requested)
		return EXIT_OK;
	if (raid_prepare_zfs_members())
		return -1;
	raid_ctx.arc_max = zfs_direct_io() ? 0 : raid_ctx.arc_max;
	for (k = 0; k < raid_ctx.nwidths && !stop_requested; k++)
		for (i = 0; i < raid_ctx.nzfs && !stop_requested; i++) {
			struct level_result *r = &raid_ctx.res[raid_ctx.nres++];

			r->z = raid_ctx.zfs[i];
			r->width = w = raid_ctx.widths[k];
			r->resync_s = -1;
			snprintf(r->name, sizeof(r->name), "zfs-%s/%u", r->z->name, w);
			stage("%s: %s over %u disks", r->name, r->z->what + 5, w);
			if (zfs_create(r->z, w, raid_ctx.zmember, &raid_ctx.zs, &r->pool)) {
				snprintf(r->error, sizeof(r->error), "%s", bb_err);
				note("%s", bb_err);
				r->status = EXIT_FAIL;
				status = EXIT_FAIL;
				/* zpool may have written labels before it failed */
				if (zfs_cleanup_ours(raid_ctx.zmember, w, stdout) < 0)
					return -1;
				continue;
			}
			raid_ctx.live_pool = &r->pool;
			raid_ctx.live_width = w;
			printf("%s is mounted on %s: %s\n", r->pool.name, r->pool.mountpoint, r->pool.cmdline);
			if (raid_ctx.arc_max)
				r->pool.arc_max = zfs_cap_arc(raid_ctx.arc_max);
			if (!stop_requested)
				r->status = measure(r->pool.name, r->pool.name + strlen(ZFS_NAME_PREFIX), &r->cells,
						    r->error, sizeof(r->error));
			if (r->status) {
				if (r->error[0])
					note("%s: %s", r->name, r->error);
				status = EXIT_FAIL;
			}
			if (raid_teardown_array())
				return -1;
		}
	return status;
}

struct raid_opts {
	const char *destroy, *levels, *profile, *partition, *fs, *chunk, *zfs, *widths, *recordsize, *arc_max;
	const char *output;
	const char *ashift;
	unsigned progress_fd;
	int resync, cleanup;
};

static int raid_main(void *opts, int argc, char **argv)
{
	struct raid_opts *o = opts;
	const char *destroy = o->destroy, *levels = o->levels, *zfs = o->zfs, *widths = o->widths;
	struct sigaction sa = { .sa_handler = on_signal };
	int i, cleanup_only = o->cleanup, status = EXIT_OK, found;
	static char progress_arg[32];
	unsigned k;
	struct stat st;

	/* the stages and mdadm's messages in the order they happened, also in a log */
	setvbuf(stdout, NULL, _IOLBF, 0);
	raid_ctx.profile = profile_find(o->profile ? o->profile : "mdraid");
	if (o->profile && !raid_ctx.profile)
		die_usage("raid: --profile: no profile '%s' (see 'bootbench profile --list')", o->profile);
	if (o->partition && (parse_size(o->partition, &raid_ctx.part_bytes) || !raid_ctx.part_bytes || raid_ctx.part_bytes % 512))
		die_usage("raid: --partition=%s: expected a size such as 8G (whole sectors)", o->partition);
	raid_ctx.fs = o->fs;
	if (raid_ctx.fs && strcmp(raid_ctx.fs, "ext4") && strcmp(raid_ctx.fs, "xfs"))
		die_usage("raid: --fs=%s: expected ext4 or xfs", raid_ctx.fs);
	if (o->chunk) {
		uint64_t c;

		if (parse_size(o->chunk, &c) || c < 4096 || (c & (c - 1)))
			die_usage("raid: --chunk=%s: expected a power of two from 4K", o->chunk);
		raid_ctx.chunk = o->chunk;
	}
	if (o->ashift) {
		char *end;
		long v = strtol(o->ashift, &end, 10);

		if (*end || v < 9 || v > 16)
			die_usage("raid: --ashift=%s: expected 9 (512-byte sectors) to 16", o->ashift);
		raid_ctx.zs.ashift = (unsigned)v;
	}
	if (o->recordsize && (parse_size(o->recordsize, &raid_ctx.zs.recordsize) || raid_ctx.zs.recordsize < 4096 ||
			      raid_ctx.zs.recordsize > (1 << 20) || (raid_ctx.zs.recordsize & (raid_ctx.zs.recordsize - 1))))
		die_usage("raid: --recordsize=%s: expected a power of two from 4K to 1M", o->recordsize);
	if (o->arc_max && (parse_size(o->arc_max, &raid_ctx.arc_max) || raid_ctx.arc_max < (64ull << 20)))
		die_usage("raid: --arc-max=%s: expected a size of 64M or more (ZFS's least)", o->arc_max);
	raid_ctx.resync = o->resync;
	raid_ctx.outdir = o->output;
	if (raid_ctx.outdir && (stat(raid_ctx.outdir, &st) || !S_ISDIR(st.st_mode)))
		die_usage("raid: --output=%s is not a directory", raid_ctx.outdir);
	if (o->progress_fd) {
		raid_ctx.progress_fd = (int)o->progress_fd;
		if (fcntl(raid_ctx.progress_fd, F_GETFD) < 0)
			die_usage("raid: --progress-fd=%u: not an open file descriptor above 2", o->progress_fd);
		snprintf(progress_arg, sizeof(progress_arg), "--progress-fd=%u", o->progress_fd);
		raid_ctx.progress_arg = progress_arg;
	}
	for (i = 0; i < argc; i++) {
		if (raid_ctx.n == MD_MAX_DISKS)
			die_usage("raid: at most %d disks", MD_MAX_DISKS);
		raid_ctx.disks[raid_ctx.n++] = argv[i];
	}
	if (!raid_ctx.profile)
		die_usage("raid: the mdraid profile is missing");
	if (zfs)
		parse_zfs(zfs);
	if (widths && !zfs)
		die_usage("raid: --zfs-width needs --zfs");
	/* with --zfs, md levels only when named */
	if (!cleanup_only && (levels || !zfs))
		parse_levels(levels ? levels : DEFAULT_LEVELS);
	if (widths)
		parse_widths(widths);
	if (!levels)
		drop_levels_too_big();
	check_input(destroy, cleanup_only);
	check_foreign_pools();
	say_left_out();

	if (take_lock())
		die_usage("raid: %s", bb_err);
	if (consent_allow(destroy))
		die_usage("raid: %s", bb_err);
	/* what a killed --partition run left on a named disk is the cleanup's to remove */
	for (k = 0; k < raid_ctx.n; k++)
		consent_allow_partitions_of(raid_ctx.disks[k]);
	found = md_cleanup_ours(raid_ctx.disks, raid_ctx.n, stdout);
	if (found >= 0) {
		int zfound = zfs_cleanup_ours(raid_ctx.disks, raid_ctx.n, stdout), parts;

		found = zfound < 0 ? -1 : found + zfound;
		/* last: the arrays and pools on those partitions are gone now */
		parts = found < 0 ? 0 : cleanup_partition_tables(stdout);
		found = parts < 0 ? -1 : found + parts;
	}
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
	raid_ctx.stages = raid_ctx.n + raid_ctx.nlevels + raid_ctx.nzfs * raid_ctx.nwidths;
	raid_print_setup(stdout);
	if (raid_prepare_members()) {
		note("raid: %s", bb_err);
		status = EXIT_FAIL;
		goto out_teardown;
	}
	for (k = 0; k < raid_ctx.n && !stop_requested; k++) {
		char label[128], err[512] = "";

		stage("baseline: %s alone", raid_ctx.member[k]);
		snprintf(label, sizeof(label), "baseline-%s", raid_ctx.member[k] + 5);
		if (measure(raid_ctx.member[k], label, &raid_ctx.base[k], err, sizeof(err))) {
			if (err[0])
				note("raid: baseline on %s: %s", raid_ctx.member[k], err);
			status = EXIT_FAIL;
			goto out_teardown;
		}
	}
	if (stop_requested)
		goto out_teardown;
	raid_baseline_median();
	raid_print_outliers(stdout, NULL);
	i = run_levels();
	if (i >= 0 && !stop_requested) {
		int z = run_pools();

		i = z < 0 ? z : z > i ? z : i;
	}
	if (i < 0) {
		note("raid: %s", bb_err);
		status = EXIT_FAIL;
	} else if (i > status) {
		status = i;
	}
out_teardown:
	if (raid_teardown_array() || raid_teardown_members()) {
		note("raid: teardown failed: %s; run 'bootbench raid --cleanup' on these disks", bb_err);
		status = EXIT_FAIL;
	}
	if (stop_requested) {
		note("raid: interrupted: the table covers the run until then; arrays are torn down");
		status = EXIT_FAIL;
	}
	if (raid_ctx.median.n) {
		putchar('\n');
		raid_print_table(stdout);
		raid_print_failures(stdout);
		putchar('\n');
		raid_print_verdict(stdout, NULL);
	}
	raid_save("raid.txt", status, 0);
	raid_save("raid.json", status, 1);
	return status;
}


static const struct arg raid_args[] = {
	{ .name = "--destroy", .kind = ARG_STR, .offset = ARG_AT(struct raid_opts, destroy), .meta = "DEV[,DEV...]",
	  .help = "consent: every DISK must be named here; everything on it is lost" },
	{ .name = "--levels", .kind = ARG_STR, .offset = ARG_AT(struct raid_opts, levels), .meta = "L[,L...]",
	  .help = "the md levels to compare (below)" },
	{ .name = "--zfs", .kind = ARG_STR, .offset = ARG_AT(struct raid_opts, zfs), .meta = "T[,T...]",
	  .help = "ZFS pools to compare beside the levels (below)" },
	{ .name = "--zfs-width", .kind = ARG_STR, .offset = ARG_AT(struct raid_opts, widths), .meta = "N[,N...]",
	  .help = "pools over the first N disks, each width in turn [all]" },
	{ .name = "--ashift", .kind = ARG_STR, .offset = ARG_AT(struct raid_opts, ashift), .meta = "N",
	  .help = "the pools' sector size, 2^N bytes [the disks' physical]" },
	{ .name = "--recordsize", .kind = ARG_STR, .offset = ARG_AT(struct raid_opts, recordsize), .meta = "SIZE",
	  .help = "the datasets' recordsize [128K]" },
	{ .name = "--arc-max", .kind = ARG_STR, .offset = ARG_AT(struct raid_opts, arc_max), .meta = "SIZE",
	  .help = "the ARC's cap while measuring [64M]; ZFS before 2.3 reads and\n"
		  "writes O_DIRECT files through it" },
	{ .name = "--profile", .kind = ARG_STR, .offset = ARG_AT(struct raid_opts, profile), .meta = "NAME",
	  .help = "the tests [mdraid; yabs and ars work too]" },
	{ .name = "--partition", .kind = ARG_STR, .offset = ARG_AT(struct raid_opts, partition), .meta = "SIZE",
	  .help = "use a partition of SIZE at the head of each disk, not the whole disk" },
	{ .name = "--fs", .kind = ARG_STR, .offset = ARG_AT(struct raid_opts, fs), .meta = "ext4|xfs",
	  .help = "a filesystem on each array (and disk) and the tests on a file in it" },
	{ .name = "--chunk", .kind = ARG_STR, .offset = ARG_AT(struct raid_opts, chunk), .meta = "SIZE",
	  .help = "mdadm's chunk size [mdadm's: 512K]" },
	{ .name = "--resync", .kind = ARG_FLAG, .offset = ARG_AT(struct raid_opts, resync),
	  .help = "wait for the initial resync instead of --assume-clean" },
	{ .name = "--output", .kind = ARG_STR, .offset = ARG_AT(struct raid_opts, output), .meta = "DIR",
	  .help = "save raid.txt, raid.json and each run's fio JSON there" },
	{ .name = "--progress-fd", .kind = ARG_UINT, .offset = ARG_AT(struct raid_opts, progress_fd), .meta = "N",
	  .help = "stage and progress lines on file descriptor N", .min = 3, .max = 65535 },
	{ .name = "--cleanup", .kind = ARG_FLAG, .offset = ARG_AT(struct raid_opts, cleanup),
	  .help = "only stop and wipe what an earlier, killed run left" },
	{ NULL },
};

const struct command raid_command = {
	.name = "raid",
	.summary = "compare md RAID levels on the same disks, relative to one disk",
	.usage = "--destroy=DEV[,DEV...] [--levels=L[,L...]] [--profile=NAME] [--partition=SIZE]\n"
		 " [--fs=ext4|xfs] [--chunk=SIZE] [--resync] [--zfs=T[,T...]] [--zfs-width=N[,N...]]\n"
		 " [--ashift=N] [--recordsize=SIZE] [--arc-max=SIZE] [--output=DIR] [--progress-fd=N] DISK...\n"
		 "--cleanup --destroy=DEV[,DEV...] DISK...",
	.help = "Compares md RAID levels and ZFS pools on the same disks: the profile on every\n"
		"single disk first (the 1.00x baseline), then on an array of each level, created\n"
		"with mdadm, and on a file in each ZFS pool, made with zpool; each is wiped after.\n"
		"Every DISK must be named in --destroy: everything on it is lost.\n",
	.more_help = raid_more_help,
	.exit_status = "0 every level measured, 1 a level failed or the run was stopped,\n"
		       "2 bad input (nothing written).",
	.args = raid_args,
	.opts_size = sizeof(struct raid_opts),
	.run = raid_main,
};
