// SPDX-License-Identifier: MIT
/*
 * output.c - raid.json (every disk's baseline, every level's cells, the
 * verdict) and the saved copies of the table in --output.
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
#include "raid/raid.h"
#include "safety/consent.h"
#include "sys/sysinfo.h"

static void cells_json(struct json *j, const char *key, const struct cells *cs)
{
	unsigned i;

	json_arr_open(j, key);
	for (i = 0; i < cs->n; i++) {
		const struct cell *c = &cs->c[i];
		const struct cell *m = cells_find(&raid_ctx.median, c->test, c->dir);
		double x = raid_ratio(c, m);

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
	json_str(&j, "profile", raid_ctx.profile->name);
	json_arr_open(&j, "disks");
	for (i = 0; i < raid_ctx.n; i++) {
		json_obj_open(&j, NULL);
		json_str(&j, "disk", raid_ctx.disks[i]);
		json_str(&j, "member", raid_ctx.members[i]);
		cells_json(&j, "baseline", &raid_ctx.base[i]);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	json_uint(&j, "member_bytes", raid_ctx.member_size);
	json_str(&j, "members", raid_ctx.part_bytes ? "head partition" : "whole disk");
	json_str(&j, "filesystem", raid_ctx.fs ? raid_ctx.fs : "");
	json_bool(&j, "assume_clean", !raid_ctx.resync);
	if (raid_ctx.nzfs) {
		json_obj_open(&j, "zfs");
		json_str(&j, "version", raid_ctx.zfs_version);
		json_uint(&j, "ashift", raid_ctx.zs.ashift);
		json_uint(&j, "recordsize", raid_ctx.zs.recordsize);
		json_str(&j, "compression", "off");
		json_str(&j, "atime", "off");
		json_str(&j, "io", zfs_direct_io() ? "direct" : "buffered, ARC capped");
		json_uint(&j, "arc_max_bytes", raid_ctx.arc_max);
		json_obj_close(&j);
	}
	cells_json(&j, "baseline_median", &raid_ctx.median);
	raid_print_outliers(NULL, &j);
	json_arr_open(&j, "levels");
	for (i = 0; i < raid_ctx.nres; i++) {
		const struct level_result *r = &raid_ctx.res[i];

		json_obj_open(&j, NULL);
		json_str(&j, "level", r->name);
		json_str(&j, "kind", r->l ? "md" : "zfs");
		if (r->l) {
			json_str(&j, "mdadm", r->a.cmdline);
			json_double(&j, "capacity_disks", raid_capacity(r->l, raid_ctx.n));
			json_uint(&j, "disks", raid_ctx.n);
		} else {
			json_str(&j, "topology", r->z->name);
			json_uint(&j, "disks", r->width);
			json_str(&j, "pool", r->pool.name);
			json_str(&j, "zpool", r->pool.cmdline);
			json_double(&j, "capacity_disks", zfs_capacity(r->z, r->width));
			json_uint(&j, "arc_max_bytes", r->pool.arc_max);
		}
		if (r->resync_s >= 0)
			json_double(&j, "resync_s", r->resync_s);
		json_int(&j, "status", r->status);
		json_str(&j, "error", r->error);
		cells_json(&j, "results", &r->cells);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	raid_print_verdict(NULL, &j);
	json_bool(&j, "interrupted", stop_requested != 0);
	json_int(&j, "exit_status", status);
	sysinfo_json(&j, "system");
	json_obj_close(&j);
	fputc('\n', f);
}

void raid_save(const char *name, int status, int as_json)
{
	char path[4200], *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (!raid_ctx.outdir)
		return;
	f = open_memstream(&buf, &len);
	if (!f)
		return;
	if (as_json) {
		write_json(f, status);
	} else {
		raid_print_setup(f);
		raid_print_outliers(f, NULL);
		raid_print_table(f);
		raid_print_failures(f);
		raid_print_verdict(f, NULL);
	}
	fclose(f);
	snprintf(path, sizeof(path), "%s/%s", raid_ctx.outdir, name);
	if (write_file_atomic(path, buf, len))
		note("%s", bb_err);
	free(buf);
}

