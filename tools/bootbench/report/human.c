// SPDX-License-Identifier: MIT
/*
 * human.c - the readable summary, laid out as fio's normal output so
 * that people who read fio read this: per job IOPS and bandwidth, latency
 * with its percentiles, per-second ranges, CPU and queue depths, then one
 * line per group and direction.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "report/report.h"

/* nsec, usec or msec: whichever keeps the largest figure readable */
static double lat_unit(const struct hist *h, const char **name)
{
	if (h->max < 10000) {
		*name = "nsec";
		return 1;
	}
	if (h->max < 10000000) {
		*name = "usec";
		return 1e3;
	}
	*name = "msec";
	return 1e6;
}

static void lat_line(FILE *f, const char *label, const struct hist *h)
{
	const char *unit;
	double div = lat_unit(h, &unit);

	if (!h->n)
		return;
	fprintf(f, "    %4s (%s): min=%.0f, max=%.0f, avg=%.2f, stdev=%.2f\n", label, unit, h->min / div,
		h->max / div, hist_mean(h) / div, hist_stddev(h) / div);
}

/* v to significant_figures figures (fio's): 123456 at 4 is 123500 */
static double sig_figs(double v, unsigned figs)
{
	int digits = v >= 1 ? (int)floor(log10(v)) + 1 : 1;
	double scale;

	if (digits <= (int)figs)
		return v;
	scale = pow(10, digits - (int)figs);
	return floor(v / scale + 0.5) * scale;
}

static void percentiles(FILE *f, const char *label, const struct hist *h, const struct job_opts *o)
{
	const struct plist *pl = &o->percentiles;
	const char *unit;
	double div = lat_unit(h, &unit);
	unsigned i, figs = o->significant_figures ? o->significant_figures : 4;

	if (!h->n)
		return;
	fprintf(f, "    %s percentiles (%s):\n", label, unit);
	for (i = 0; i < pl->n; i++) {
		fprintf(f, "%s%6.2fth=[%6.0f]%s", i % 4 ? " " : "     |", pl->p[i],
			sig_figs(hist_percentile(h, pl->p[i]) / div, figs), i + 1 == pl->n ? "\n" : i % 4 == 3 ? ",\n" : ",");
	}
}

static void dir_block(FILE *f, const struct run_result *r, const struct report *rep, int d)
{
	const struct dir_stats *ds = &rep->st.dir[d];
	double bw = report_bw_bytes(rep, d), min, max, mean, dev, group, per;
	char a[32], b[32], c[32], e[32];
	unsigned n;

	if (!ds->ios && !ds->short_ios)
		return;
	if (rep->job->o.unit_base == 1)	/* bits, as fio's unit_base=1 */
		fprintf(f, "  %s: IOPS=%s, BW=%sbit/s (%sbit/s)(%s/%llumsec)\n", ddir_names[d],
			fmt_si(report_iops(rep, d), a, sizeof(a)), fmt_iec(bw * 8, b, sizeof(b)),
			fmt_si(bw * 8, c, sizeof(c)), fmt_iec((double)ds->bytes, e, sizeof(e)),
			(unsigned long long)(rep->st.runtime_ns / 1000000));
	else
		fprintf(f, "  %s: IOPS=%s, BW=%s/s (%sB/s)(%s/%llumsec)\n", ddir_names[d],
			fmt_si(report_iops(rep, d), a, sizeof(a)), fmt_iec(bw, b, sizeof(b)), fmt_si(bw, c, sizeof(c)),
			fmt_iec((double)ds->bytes, e, sizeof(e)), (unsigned long long)(rep->st.runtime_ns / 1000000));
	lat_line(f, "slat", &ds->slat);
	lat_line(f, "clat", &ds->clat);
	lat_line(f, "lat", &ds->lat);
	if (rep->job->o.clat_percentiles)
		percentiles(f, "clat", &ds->clat, &rep->job->o);
	if (rep->job->o.lat_percentiles)
		percentiles(f, "lat", &ds->lat, &rep->job->o);
	n = avg_stat_get(&rep->st.bw[d], &min, &max, &mean, &dev) ? (unsigned)rep->st.bw[d].samples : 0;
	group = (double)group_bw_bytes(r, rep->job->groupid, d);
	/* as fio: the mean of the samples against the group's whole bandwidth, at most 100 */
	per = group >= 1024 ? mean * 100 / (group / 1024) : 0;
	if (n)
		fprintf(f, "   bw (  KiB/s): min=%.0f, max=%.0f, per=%.2f%%, avg=%.2f, stdev=%.2f, samples=%u\n",
			min, max, per > 100 ? 100 : per, mean, dev, n);
	n = avg_stat_get(&rep->st.iops[d], &min, &max, &mean, &dev) ? (unsigned)rep->st.iops[d].samples : 0;
	if (n)
		fprintf(f, "   iops        : min=%.0f, max=%.0f, avg=%.2f, stdev=%.2f, samples=%u\n", min, max, mean,
			dev, n);
}

static void depth_line(FILE *f, const char *label, const uint64_t *counts, const char *const *names)
{
	uint64_t total = 0;
	unsigned i;

	for (i = 0; i < DEPTH_BUCKETS; i++)
		total += counts[i];
	fprintf(f, "  %-13s:", label);
	for (i = 0; i < DEPTH_BUCKETS; i++)
		fprintf(f, " %s=%.1f%%%s", names[i], total ? 100.0 * counts[i] / total : 0.0,
			i + 1 < DEPTH_BUCKETS ? "," : "\n");
}

static void job_block(FILE *f, const struct run_result *r, const struct report *rep)
{
	static const char *const depth_names[] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const batch_names[] = { "0", "4", "8", "16", "32", "64", ">=64" };
	const struct job_stats *st = &rep->st;
	double ms = st->runtime_ns / 1e6;
	unsigned d;

	fprintf(f, "%s: (groupid=%u, jobs=%u): err=%2d: engine=%s\n", rep->job->o.name, rep->job->groupid, st->clones,
		st->error, engine_name(rep->job->o.ioengine));
	if (rep->job->o.description)
		fprintf(f, "  Description  : [%s]\n", rep->job->o.description);
	if (st->error)
		fprintf(f, "  error        : %s\n", st->errmsg);
	for (d = 0; d < DDIR_NR; d++)
		dir_block(f, r, rep, d);
	if (st->sync.n) {
		fprintf(f, "  fsync/fdatasync: %llu calls\n", (unsigned long long)st->sync.n);
		lat_line(f, "sync", &st->sync);
		percentiles(f, "sync", &st->sync, &rep->job->o);
	}
	fprintf(f, "  cpu          : usr=%.2f%%, sys=%.2f%%, ctx=%llu, majf=%llu, minf=%llu\n",
		ms > 0 ? st->usr_us / (ms * 10) : 0, ms > 0 ? st->sys_us / (ms * 10) : 0,
		(unsigned long long)st->ctx, (unsigned long long)st->majf, (unsigned long long)st->minf);
	depth_line(f, "IO depths", st->depth, depth_names);
	depth_line(f, "submit", st->submit, batch_names);
	depth_line(f, "complete", st->complete, batch_names);
	fprintf(f, "     issued rwts: total=%llu,%llu,%llu,0 short=%llu,%llu,%llu,0\n",
		(unsigned long long)st->dir[0].ios, (unsigned long long)st->dir[1].ios,
		(unsigned long long)st->dir[2].ios, (unsigned long long)st->dir[0].short_ios,
		(unsigned long long)st->dir[1].short_ios, (unsigned long long)st->dir[2].short_ios);
	if (rep->engine_note)
		fprintf(f, "  note         : %s\n", rep->engine_note);
	fputc('\n', f);
}

static void group_lines(FILE *f, const struct run_result *r, unsigned g)
{
	static const char *const upper[DDIR_NR] = { "READ", "WRITE", "TRIM" };
	unsigned d, i;

	fprintf(f, "Run status group %u (all jobs):\n", g);
	for (d = 0; d < DDIR_NR; d++) {
		double total_bw = 0, min_bw = 0, max_bw = 0, bytes = 0;
		uint64_t min_ms = 0, max_ms = 0;
		int any = 0;
		char a[32], b[32], c[32], e[32], h[32], k[32];

		for (i = 0; i < r->nreports; i++) {
			const struct report *rep = &r->reports[i];
			double bw = report_bw_bytes(rep, d);
			uint64_t ms = rep->st.runtime_ns / 1000000;

			if (rep->job->groupid != g || !rep->st.dir[d].ios)
				continue;
			if (!any || bw < min_bw)
				min_bw = bw;
			if (!any || bw > max_bw)
				max_bw = bw;
			if (!any || ms < min_ms)
				min_ms = ms;
			if (!any || ms > max_ms)
				max_ms = ms;
			total_bw += bw;
			bytes += (double)rep->st.dir[d].bytes;
			any = 1;
		}
		if (!any)
			continue;
		fprintf(f, "  %5s: bw=%s/s (%sB/s), %s/s-%s/s, io=%s (%sB), run=%llu-%llumsec\n", upper[d],
			fmt_iec(total_bw, a, sizeof(a)), fmt_si(total_bw, b, sizeof(b)), fmt_iec(min_bw, c, sizeof(c)),
			fmt_iec(max_bw, e, sizeof(e)), fmt_iec(bytes, h, sizeof(h)), fmt_si(bytes, k, sizeof(k)),
			(unsigned long long)min_ms, (unsigned long long)max_ms);
	}
}

void report_human(FILE *f, const struct run_result *r)
{
	unsigned i, g, last_group = 0;

	if (r->interrupted)
		fprintf(f, "*** interrupted: the figures below cover the run up to the interruption ***\n\n");
	for (i = 0; i < r->nnotes; i++)
		fprintf(f, "note: %s\n", r->notes[i]);
	if (r->nnotes)
		fputc('\n', f);
	for (i = 0; i < r->nreports; i++) {
		job_block(f, r, &r->reports[i]);
		if (r->reports[i].job->groupid > last_group)
			last_group = r->reports[i].job->groupid;
	}
	for (g = 0; g <= last_group && r->nreports; g++)
		group_lines(f, r, g);
}
