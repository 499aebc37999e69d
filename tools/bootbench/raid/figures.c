// SPDX-License-Identifier: MIT
/*
 * figures.c - the figures of `bootbench raid`: the median single disk as
 * the 1.00x baseline, disks more than 10% off it named, every level and
 * test relative to it, and the verdict of the parity CPU limit.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/fs.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "job/worker.h"
#include "lib/json.h"
#include "lib/util.h"
#include "lib/wrap.h"
#include "raid/raid.h"
#include "raid/verdict.h"
#include "safety/consent.h"
#include "stats/robust.h"
#include "sys/sysinfo.h"


/*
 * The width F's prose is folded to: the console's (or $COLUMNS: the menu
 * sets its box's) for stdout, none for raid.txt, whose lines stay whole.
 * The table itself is 72 columns either way.
 */
static int width_of(FILE *f)
{
	return f == stdout ? wrap_width() : 0;
}

/* The baseline: per test and direction, the median of the disks. */
void raid_baseline_median(void)
{
	const struct cells *first = &raid_ctx.base[0];
	unsigned i, k;

	raid_ctx.median.c = xcalloc(first->n ? first->n : 1, sizeof(struct cell));
	raid_ctx.median.n = 0;
	for (i = 0; i < first->n; i++) {
		double iops[MD_MAX_DISKS], bw[MD_MAX_DISKS], p99[MD_MAX_DISKS];
		struct cell *m = &raid_ctx.median.c[raid_ctx.median.n];
		unsigned have = 0;

		for (k = 0; k < raid_ctx.n; k++) {
			const struct cell *c = cells_find(&raid_ctx.base[k], first->c[i].test, first->c[i].dir);

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
		raid_ctx.median.n++;
	}
}

double raid_ratio(const struct cell *c, const struct cell *base)
{
	if (!c || !base)
		return NAN;
	if (base->bw > 0)
		return c->bw / base->bw;
	return base->iops > 0 ? c->iops / base->iops : NAN;
}

/* Disks off the median of their siblings by more than OUTLIER, named (to F or J). */
unsigned raid_print_outliers(FILE *f, struct json *j)
{
	unsigned i, k, found = 0;

	if (j)
		json_arr_open(j, "outliers");
	for (k = 0; k < raid_ctx.n; k++)
		for (i = 0; i < raid_ctx.median.n; i++) {
			const struct cell *m = &raid_ctx.median.c[i];
			double x = raid_ratio(cells_find(&raid_ctx.base[k], m->test, m->dir), m);

			if (isnan(x) || fabs(x - 1) <= OUTLIER)
				continue;
			found++;
			if (f) {
				/* folded under the disk's name: each disk's lines its own */
				char lead[80], why[160];

				snprintf(lead, sizeof(lead), "%s ", raid_ctx.disks[k]);
				snprintf(why, sizeof(why), "differs from its siblings: %s %s %.2fx of the median disk",
					 m->test, m->dir, x);
				wrap_print(f, lead, why, width_of(f));
			}
			if (j) {
				json_obj_open(j, NULL);
				json_str(j, "disk", raid_ctx.disks[k]);
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
		fprintf(f, "%-20.20s %-5s %-12s %s\n", test, dir, level, why ? why : "-");
		return;
	}
	fprintf(f, "%-20.20s %-5s %-12s %7.0f %7.1f %6.2fx %8.*f\n", test, dir, level, c->iops, c->bw / 1e6,
		raid_ratio(c, base), c->p99_us >= 100000 ? 0 : 1, c->p99_us);
}

void raid_print_table(FILE *f)
{
	unsigned i, k;

	/* 72 columns: the menu shows it in a 78-column box */
	fprintf(f, "%-20s %-5s %-12s %7s %7s %7s %8s\n", "test", "dir", "level", "IOPS", "MB/s", "vs disk",
		"p99 us");
	for (i = 0; i < raid_ctx.median.n; i++) {
		const struct cell *m = &raid_ctx.median.c[i];

		row(f, m->test, m->dir, "1 disk", m, m, NULL);
		for (k = 0; k < raid_ctx.nres; k++) {
			const struct level_result *r = &raid_ctx.res[k];

			row(f, "", "", r->name, cells_find(&r->cells, m->test, m->dir), m,
			    r->status && !r->cells.n ? "failed" : NULL);
		}
	}
}

void raid_print_failures(FILE *f)
{
	unsigned k;

	char lead[64];

	for (k = 0; k < raid_ctx.nres; k++)
		if (raid_ctx.res[k].error[0]) {
			snprintf(lead, sizeof(lead), "%s failed: ", raid_ctx.res[k].name);
			wrap_print(f, lead, raid_ctx.res[k].error, width_of(f));
		}
}

/* How the pools were made and measured: what the ZFS rows depend on. */
static void print_zfs_setup(FILE *f)
{
	char rs[32], arc[32];
	unsigned i;

	fmt_iec((double)raid_ctx.zs.recordsize, rs, sizeof(rs));
	/* lines of 73 columns at most: the menu's box */
	fprintf(f, "ZFS %s: zfs-TOPOLOGY/WIDTH rows are pools\n"
		   "over the first WIDTH disks; ashift %u (%u-byte sectors),\n"
		   "recordsize %s, compression=off, atime=off;\n"
		   "pools on %s;\n", raid_ctx.zfs_version, raid_ctx.zs.ashift, 1u << raid_ctx.zs.ashift, rs,
		raid_ctx.part_bytes ? "the head partitions" : "a partition over each disk from 1 MiB, as zpool lays one out");
	if (zfs_direct_io())
		fprintf(f, "tests on a file in the pool with O_DIRECT (ZFS Direct I/O)\n");
	else
		fprintf(f, "tests on a file in the pool, buffered: ZFS before 2.3 serves O_DIRECT\n"
			   "through its ARC, so the ARC was capped at %s (zfs_arc_max)\n",
			fmt_iec((double)raid_ctx.arc_max, arc, sizeof(arc)));
	for (i = 0; i < raid_ctx.nzfs; i++)
		fprintf(f, "  %-7s %s\n", raid_ctx.zfs[i]->name, raid_ctx.zfs[i]->what + 5);
}

void raid_print_setup(FILE *f)
{
	unsigned i;
	char size[32], lead[96], names[MD_MAX_DISKS * 40] = "", members[200];

	/* the disks folded under the first: many of them run past a line */
	snprintf(lead, sizeof(lead), "bootbench raid: profile %s on %u disks: ", raid_ctx.profile->name, raid_ctx.n);
	for (i = 0; i < raid_ctx.n; i++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", i ? " " : "",
			 raid_ctx.disks[i] + 5);
	wrap_print(f, lead, names, width_of(f));
	snprintf(members, sizeof(members), "%s, %s each; tests on %s;",
		 raid_ctx.part_bytes ? "a partition at the head of each disk" : "whole disks",
		 fmt_iec((double)raid_ctx.member_size, size, sizeof(size)),
		 raid_ctx.fs ? (!strcmp(raid_ctx.fs, "ext4") ? "a file on ext4 (lazy init off)" : "a file on xfs")
			     : "the raw device");
	wrap_print(f, "members: ", members, width_of(f));
	fprintf(f, "chunk %s; no write-intent bitmap\n", raid_ctx.chunk ? raid_ctx.chunk : "mdadm's default (512K)");
	if (raid_ctx.nzfs)
		print_zfs_setup(f);
	fprintf(f, "1 disk: the median of the disks; vs disk: bandwidth relative to it;\n"
		   "p99 us: completion latency, 99th percentile\n");
	if (raid_ctx.resync)
		fprintf(f, "resync: mirrors and parity were synced before measuring (--resync)\n");
	else
		fprintf(f, "resync: skipped with --assume-clean on redundant levels; valid here\n"
			   "because the tests never read back data they did not write, and md\n"
			   "reads neither mirrors nor parity to check them, so a stripe costs the\n"
			   "same synced or not\n");
}

/*
 * Whether RAID5/6 writes on these disks are bound by the CPU: the data rate
 * the disks take against the parity throughput of one core (md computes a
 * stripe's parity in its raid5d thread unless group_thread_cnt is raised).
 */
void raid_print_verdict(FILE *f, struct json *j)
{
	double best_write = 0;
	unsigned i, k;

	for (k = 0; k < raid_ctx.median.n; k++)
		if (!strcmp(raid_ctx.median.c[k].dir, "write") && raid_ctx.median.c[k].bw > best_write)
			best_write = raid_ctx.median.c[k].bw;
	if (j)
		json_arr_open(j, "parity_verdict");
	for (i = 0; i < raid_ctx.nlevels; i++) {
		const struct raid_level *l = raid_ctx.levels[i];
		int raid6 = !strcmp(l->md_level, "6");

		if (strcmp(l->md_level, "5") && !raid6)
			continue;
		if (best_write <= 0) {
			if (f)
				fprintf(f, "%s: no write test in the profile, so no parity verdict\n", l->name);
			continue;
		}
		parity_verdict(f, j, l->name, raid_ctx.n, raid6, best_write * (raid_ctx.n - (raid6 ? 2 : 1)));
	}
	if (j)
		json_arr_close(j);
}

