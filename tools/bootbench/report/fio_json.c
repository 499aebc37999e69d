// SPDX-License-Identifier: MIT
/*
 * fio_json.c - fio's JSON and JSON+ layout (fio 3.x: "fio version",
 * timestamps, "global options", jobs[] with read/write/trim/sync, latency
 * buckets, disk_util), so fio's consumers read it unchanged. What fio does
 * not have (per-second series, device identity, notes) is under "bootbench".
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "lib/json.h"
#include "lib/util.h"
#include "report/report.h"
#include "sys/sysinfo.h"

static void lat_object(struct json *j, const char *key, const struct hist *h, const struct plist *pl,
		       int percentiles, int plus)
{
	unsigned i;
	char name[32];

	json_obj_open(j, key);
	json_uint(j, "min", h->n ? h->min : 0);
	json_uint(j, "max", h->max);
	json_double(j, "mean", hist_mean(h));
	json_double(j, "stddev", hist_stddev(h));
	json_uint(j, "N", h->n);
	if (percentiles && h->n) {
		json_obj_open(j, "percentile");
		for (i = 0; i < pl->n; i++) {
			snprintf(name, sizeof(name), "%f", pl->p[i]);
			json_uint(j, name, hist_percentile(h, pl->p[i]));
		}
		json_obj_close(j);
		if (plus) {
			json_obj_open(j, "bins");
			for (i = 0; i < HIST_NR; i++) {
				if (!h->bucket[i])
					continue;
				snprintf(name, sizeof(name), "%" PRIu64, hist_bucket_value(i));
				json_uint(j, name, h->bucket[i]);
			}
			json_obj_close(j);
		}
	}
	json_obj_close(j);
}

static void dir_object(struct json *j, const struct run_result *r, const struct report *rep, int d, int plus)
{
	const struct dir_stats *ds = &rep->st.dir[d];
	const struct plist *pl = &rep->job->o.percentiles;
	double bw = report_bw_bytes(rep, d), min, max, mean, dev, agg;
	uint64_t group_bw = group_bw_bytes(r, rep->job->groupid, d);
	unsigned n;

	json_obj_open(j, ddir_names[d]);
	json_uint(j, "io_bytes", ds->bytes);
	json_uint(j, "io_kbytes", ds->bytes / 1024);
	json_uint(j, "bw_bytes", (uint64_t)bw);
	json_uint(j, "bw", (uint64_t)(bw / 1024));
	json_double(j, "iops", report_iops(rep, d));
	json_uint(j, "runtime", ds->ios ? rep->st.runtime_ns / 1000000 : 0);
	json_uint(j, "total_ios", ds->ios);
	json_uint(j, "short_ios", ds->short_ios);
	json_uint(j, "drop_ios", 0);
	lat_object(j, "slat_ns", &ds->slat, pl, 0, 0);
	lat_object(j, "clat_ns", &ds->clat, pl, rep->job->o.clat_percentiles, plus);
	lat_object(j, "lat_ns", &ds->lat, pl, rep->job->o.lat_percentiles, plus && rep->job->o.lat_percentiles);
	avg_stat_get(&rep->st.bw[d], &min, &max, &mean, &dev);
	n = (unsigned)rep->st.bw[d].samples;
	json_uint(j, "bw_min", (uint64_t)min);
	json_uint(j, "bw_max", (uint64_t)max);
	/* as fio: the mean of the samples against the group's whole bandwidth, at most 100 */
	agg = group_bw >= 1024 && n ? mean * 100 / (double)(group_bw / 1024) : 0.0;
	json_double(j, "bw_agg", agg > 100.0 ? 100.0 : agg);
	json_double(j, "bw_mean", mean);
	json_double(j, "bw_dev", dev);
	json_uint(j, "bw_samples", n);
	avg_stat_get(&rep->st.iops[d], &min, &max, &mean, &dev);
	n = (unsigned)rep->st.iops[d].samples;
	json_uint(j, "iops_min", (uint64_t)min);
	json_uint(j, "iops_max", (uint64_t)max);
	json_double(j, "iops_mean", mean);
	json_double(j, "iops_stddev", dev);
	json_uint(j, "iops_samples", n);
	json_obj_close(j);
}

static void bucket_object(struct json *j, const char *key, const uint64_t *counts, const char *const *names)
{
	uint64_t total = 0;
	unsigned i;

	for (i = 0; i < DEPTH_BUCKETS; i++)
		total += counts[i];
	json_obj_open(j, key);
	for (i = 0; i < DEPTH_BUCKETS; i++)
		json_double(j, names[i], total ? 100.0 * counts[i] / total : 0.0);
	json_obj_close(j);
}

/* fio's latency_ns/us/ms: the share of I/Os whose total latency falls in each range */
static void latency_buckets(struct json *j, const struct report *rep)
{
	static const char *const names[] = { "2", "4", "10", "20", "50", "100", "250", "500", "750", "1000" };
	static const uint64_t limits[] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000 };
	static const char *const scale_key[] = { "latency_ns", "latency_us", "latency_ms" };
	struct hist all;
	uint64_t scale = 1, lo, hi;
	unsigned s, i, d;

	hist_reset(&all);
	for (d = 0; d < DDIR_NR; d++)
		hist_merge(&all, &rep->st.dir[d].lat);
	for (s = 0; s < 3; s++, scale *= 1000) {
		json_obj_open(j, scale_key[s]);
		lo = s ? scale : 0;
		for (i = 0; i < ARRAY_SIZE(limits); i++) {
			hi = limits[i] * scale;
			json_double(j, names[i], all.n ? 100.0 * (hist_count_below(&all, hi) -
						     hist_count_below(&all, lo)) / all.n : 0.0);
			lo = hi;
		}
		if (s == 2) {
			json_double(j, "2000", all.n ? 100.0 * (hist_count_below(&all, 2000 * scale) -
						 hist_count_below(&all, lo)) / all.n : 0.0);
			json_double(j, ">=2000", all.n ? 100.0 * (all.n - hist_count_below(&all, 2000 * scale)) /
						 all.n : 0.0);
		}
		json_obj_close(j);
	}
}

static void device_identity(struct json *j, const struct target *t)
{
	static const char *const attrs[] = { "model", "serial", "firmware_rev", "vendor" };
	char path[256], val[256], name[64] = "";
	unsigned i;

	json_obj_open(j, NULL);
	json_str(j, "path", t->path);
	json_str(j, "type", t->is_blk ? "block" : "file");
	json_uint(j, "size", t->size);
	if (t->is_blk) {
		char link[128];
		ssize_t n;

		json_uint(j, "logical_block_size", t->lbs);
		snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(t->rdev), minor(t->rdev));
		n = readlink(link, path, sizeof(path) - 1);
		if (n > 0) {
			path[n] = 0;
			snprintf(name, sizeof(name), "%s", strrchr(path, '/') + 1);
		}
		json_str(j, "device", name);
		for (i = 0; i < ARRAY_SIZE(attrs) && name[0]; i++) {
			snprintf(path, sizeof(path), "/sys/class/block/%s/device/%s", name, attrs[i]);
			if (!read_attr(path, val, sizeof(val)) && val[0])
				json_str(j, attrs[i], val);
		}
	}
	json_obj_close(j);
}

static void ours(struct json *j, const struct run_result *r)
{
	unsigned i, k, d;

	json_obj_open(j, "bootbench");
	json_str(j, "version", BB_VERSION);
	json_bool(j, "interrupted", r->interrupted);
	/* every saved result says which machine it came from */
	sysinfo_json(j, "system");
	json_arr_open(j, "notes");
	for (i = 0; i < r->nnotes; i++)
		json_str(j, NULL, r->notes[i]);
	json_arr_close(j);
	json_arr_open(j, "jobs");
	for (i = 0; i < r->nreports; i++) {
		const struct report *rep = &r->reports[i];

		json_obj_open(j, NULL);
		json_str(j, "jobname", rep->job->o.name);
		json_str(j, "ioengine", engine_name(rep->job->o.ioengine));
		json_uint(j, "clones", rep->st.clones);
		json_str(j, "error_message", rep->st.errmsg);
		if (rep->engine_note)
			json_str(j, "engine_note", rep->engine_note);
		if (rep->job->o.verify) {
			json_obj_open(j, "verify");
			json_uint(j, "blocks", rep->st.verify_blocks);
			json_uint(j, "bad", rep->st.verify_bad);
			json_obj_close(j);
		}
		json_arr_open(j, "targets");
		for (k = 0; k < rep->ntargets; k++)
			device_identity(j, rep->targets[k]);
		json_arr_close(j);
		json_arr_open(j, "samples");
		for (k = 0; k < rep->st.nsamples; k++) {
			const struct sample *s = &rep->st.samples[k];

			json_obj_open(j, NULL);
			json_uint(j, "t_ms", s->t_ms);
			json_uint(j, "dur_ms", s->dur_ms);
			for (d = 0; d < DDIR_NR; d++) {
				char key[32];

				if (!rep->st.dir[d].ios)
					continue;
				snprintf(key, sizeof(key), "%s_iops", ddir_names[d]);
				json_double(j, key, s->dur_ms ? s->ios[d] * 1000.0 / s->dur_ms : 0);
				snprintf(key, sizeof(key), "%s_bw_bytes", ddir_names[d]);
				json_uint(j, key, s->dur_ms ? s->bytes[d] * 1000 / s->dur_ms : 0);
				snprintf(key, sizeof(key), "%s_lat_mean_ns", ddir_names[d]);
				json_double(j, key, s->ios[d] ? (double)s->lat_sum_ns[d] / s->ios[d] : 0);
			}
			json_obj_close(j);
		}
		json_arr_close(j);
		json_obj_close(j);
	}
	json_arr_close(j);
	json_obj_close(j);
}

static void job_object(struct json *j, const struct run_result *r, const struct report *rep, int plus)
{
	static const char *const depth_names[] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const batch_names[] = { "0", "4", "8", "16", "32", "64", ">=64" };
	const struct job_stats *st = &rep->st;
	double cpu_base;
	unsigned i, d;

	json_obj_open(j, NULL);
	json_str(j, "jobname", rep->job->o.name);
	json_uint(j, "groupid", rep->job->groupid);
	json_int(j, "error", st->error);
	if (rep->job->o.continue_on_error) {	/* as fio: only when errors may be counted */
		json_uint(j, "total_err", st->total_err);
		json_int(j, "first_error", st->first_error);
	}
	json_uint(j, "eta", 0);
	json_uint(j, "elapsed", (st->runtime_ns + 999999999) / 1000000000);
	/* as fio: a job whose section sets nothing has no "job options" */
	if (rep->job->given.n) {
		json_obj_open(j, "job options");
		for (i = 0; i < rep->job->given.n; i++)
			json_str(j, rep->job->given.v[i].key, rep->job->given.v[i].val);
		json_obj_close(j);
	}
	for (d = 0; d < DDIR_NR; d++)
		dir_object(j, r, rep, d, plus);
	json_obj_open(j, "sync");
	json_uint(j, "total_ios", st->sync.n);
	lat_object(j, "lat_ns", &st->sync, &rep->job->o.percentiles, 1, plus);
	json_obj_close(j);
	/* as fio: a group's runtime is its jobs' summed, and so is the time its CPU shares are of */
	json_uint(j, "job_runtime", st->total_runtime_ns / 1000000);
	cpu_base = (double)(st->total_runtime_ns / 1000000) * 1000.0;
	json_double(j, "usr_cpu", cpu_base > 0 ? 100.0 * st->usr_us / cpu_base : 0);
	json_double(j, "sys_cpu", cpu_base > 0 ? 100.0 * st->sys_us / cpu_base : 0);
	json_uint(j, "ctx", st->ctx);
	json_uint(j, "majf", st->majf);
	json_uint(j, "minf", st->minf);
	bucket_object(j, "iodepth_level", st->depth, depth_names);
	bucket_object(j, "iodepth_submit", st->submit, batch_names);
	bucket_object(j, "iodepth_complete", st->complete, batch_names);
	latency_buckets(j, rep);
	/* as fio: a job that never started (exit_what=all's later groups) has no latency target figures */
	if (st->started) {
		json_uint(j, "latency_depth", rep->job->o.iodepth);
		json_uint(j, "latency_target", 0);
		json_double(j, "latency_percentile", 100.0);
		json_uint(j, "latency_window", 0);
	}
	json_obj_close(j);
}

static void disk_util_array(struct json *j, const struct run_result *r)
{
	unsigned i;

	json_arr_open(j, "disk_util");
	for (i = 0; i < r->ndu; i++) {
		const struct disk_util *u = &r->du[i];
		uint64_t delta[DISKSTAT_FIELDS], elapsed_ms = (u->t_after_ns - u->t_before_ns) / 1000000;
		unsigned k;

		for (k = 0; k < DISKSTAT_FIELDS; k++)
			delta[k] = u->after[k] - u->before[k];
		json_obj_open(j, NULL);
		json_str(j, "name", u->name);
		json_uint(j, "read_ios", delta[0]);
		json_uint(j, "write_ios", delta[4]);
		json_uint(j, "read_merges", delta[1]);
		json_uint(j, "write_merges", delta[5]);
		json_uint(j, "read_ticks", delta[3]);
		json_uint(j, "write_ticks", delta[7]);
		json_uint(j, "in_queue", delta[10]);
		json_double(j, "util", elapsed_ms ? (100.0 * delta[9] / elapsed_ms > 100 ? 100.0
						      : 100.0 * delta[9] / elapsed_ms) : 0.0);
		json_obj_close(j);
	}
	json_arr_close(j);
}

void report_json(FILE *f, const struct run_result *r, int plus)
{
	struct json j;
	char when[64];
	time_t secs = (time_t)(r->timestamp_ms / 1000);
	unsigned i;

	json_init(&j, f);
	json_obj_open(&j, NULL);
	json_str(&j, "fio version", BB_NAME "-" BB_VERSION);
	json_uint(&j, "timestamp", r->timestamp_ms / 1000);
	json_uint(&j, "timestamp_ms", r->timestamp_ms);
	strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", localtime(&secs));
	json_str(&j, "time", when);
	if (r->js->saw_global && r->js->global_given.n) {
		json_obj_open(&j, "global options");
		for (i = 0; i < r->js->global_given.n; i++)
			json_str(&j, r->js->global_given.v[i].key, r->js->global_given.v[i].val);
		json_obj_close(&j);
	}
	json_arr_open(&j, "jobs");
	for (i = 0; i < r->nreports; i++)
		job_object(&j, r, &r->reports[i], plus);
	json_arr_close(&j);
	if (r->ndu)
		disk_util_array(&j, r);
	ours(&j, r);
	json_obj_close(&j);
}

int report_json_file(const char *path, const struct run_result *r, int plus)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f)
		return set_err("out of memory");
	report_json(f, r, plus);
	fclose(f);
	rc = write_file_atomic(path, buf, len);
	free(buf);
	return rc;
}
