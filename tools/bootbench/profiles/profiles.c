// SPDX-License-Identifier: MIT
/*
 * profiles.c - the profile registry and each profile's summary table.
 * The tables show what the published comparisons show, plus latency
 * percentiles (completion latency, submission to completion).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "job/jobs.h"
#include "lib/util.h"
#include "profiles/profiles.h"
#include "stats/hist.h"
#include "sys/disks.h"

static double mb_s(const struct report *rep, int d)
{
	return report_bw_bytes(rep, d) / 1e6;
}

static double pct_us(const struct hist *h, double p)
{
	return h->n ? hist_percentile(h, p) / 1000.0 : 0;
}

/* One line per job and direction: the common table of quick, ars and mdraid
 * (71 columns: it fits the menu's box, 73, whole). */
static void jobs_table(FILE *f, const struct run_result *r)
{
	unsigned i;
	int d;

	fprintf(f, "%-20s %-5s %8s %8s %8s %8s %8s\n", "test", "dir", "IOPS", "MB/s", "p50 us", "p99 us",
		"p99.9 us");
	for (i = 0; i < r->nreports; i++) {
		const struct report *rep = &r->reports[i];

		for (d = 0; d < DDIR_NR; d++) {
			const struct dir_stats *s = &rep->st.dir[d];

			if (!s->ios)
				continue;
			fprintf(f, "%-20.20s %-5s %8.0f %8.1f %8.1f %8.1f %8.1f\n", rep->job->o.name,
				ddir_names[d], report_iops(rep, d), mb_s(rep, d), pct_us(&s->clat, 50),
				pct_us(&s->clat, 99), pct_us(&s->clat, 99.9));
		}
		if (rep->st.sync.n)
			fprintf(f, "%-20.20s %-5s %8.0f %8s %8.1f %8.1f %8.1f\n", rep->job->o.name, "sync",
				rep->st.runtime_ns ? rep->st.sync.n * 1e9 / rep->st.runtime_ns : 0, "-",
				pct_us(&rep->st.sync, 50), pct_us(&rep->st.sync, 99), pct_us(&rep->st.sync, 99.9));
		if (rep->st.error)
			fprintf(f, "%-20.20s ERROR: %s\n", rep->job->o.name, rep->st.errmsg);
	}
}

static void yabs_cell(FILE *f, double mbs, double iops)
{
	char a[16], b[16];

	if (mbs >= 1000)
		snprintf(a, sizeof(a), "%.2f GB/s", mbs / 1000);
	else
		snprintf(a, sizeof(a), "%.2f MB/s", mbs);
	fmt_si(iops, b, sizeof(b));
	fprintf(f, " | %-11s (%5s)", a, b);
}

void yabs_layout(FILE *f, const struct yabs_column *c, unsigned n)
{
	static const char *const rows[] = { "Read", "Write", "Total" };
	unsigned i, row, start;

	for (start = 0; start < n; start += 2) {
		unsigned end = start + 2 < n ? start + 2 : n;

		fprintf(f, "%-10s", "Block Size");
		for (i = start; i < end; i++)
			fprintf(f, " | %-11s %7s", c[i].size, "(IOPS)");
		fprintf(f, "\n%-10s", "  ------");
		for (i = start; i < end; i++)
			fprintf(f, " | %-11s %7s", "---", "---- ");
		fputc('\n', f);
		for (row = 0; row < 3; row++) {
			fprintf(f, "%-10s", rows[row]);
			for (i = start; i < end; i++)
				yabs_cell(f, row == 2 ? c[i].mbs[0] + c[i].mbs[1] : c[i].mbs[row],
					  row == 2 ? c[i].iops[0] + c[i].iops[1] : c[i].iops[row]);
			fputc('\n', f);
		}
		fputc('\n', f);
	}
}

/* YABS's layout: block sizes in column pairs, rows Read / Write / Total. */
static void yabs_table(FILE *f, const struct run_result *r)
{
	struct yabs_column c[16];
	unsigned i, n = 0;

	for (i = 0; i < r->nreports && n < ARRAY_SIZE(c); i++, n++) {
		const struct report *rep = &r->reports[i];

		const char *dash = strrchr(rep->job->o.name, '-');

		snprintf(c[n].size, sizeof(c[n].size), "%s", dash ? dash + 1 : rep->job->o.name);
		c[n].mbs[0] = mb_s(rep, DDIR_READ);
		c[n].mbs[1] = mb_s(rep, DDIR_WRITE);
		c[n].iops[0] = report_iops(rep, DDIR_READ);
		c[n].iops[1] = report_iops(rep, DDIR_WRITE);
	}
	yabs_layout(f, c, n);
	fprintf(f, "Completion latency, which YABS does not show:\n");
	jobs_table(f, r);
}

/*
 * dbcommit: the log job's writes are commits; its sync histogram is the
 * fsync (or fdatasync) latency; the page job's write latency is what the
 * same disk does without a cache flush.
 */
static void dbcommit_table(FILE *f, const struct run_result *r)
{
	unsigned i;
	int dominated = 0;

	fprintf(f, "%-12s %9s %8s %8s %8s %9s %9s\n", "sync / jobs", "commits/s", "sync p50", "sync p99",
		"p99.9 us", "write p50", "write p99");
	for (i = 0; i + 1 < r->nreports; i += 2) {
		const struct report *log = &r->reports[i], *pages = &r->reports[i + 1];
		const struct hist *sync = &log->st.sync, *w = &pages->st.dir[DDIR_WRITE].clat;
		double commits = log->st.runtime_ns ? sync->n * 1e9 / log->st.runtime_ns : 0;
		const char *name;

		if (strncmp(log->job->o.name, "dbcommit-log-", 13))
			continue;
		name = log->job->o.name + 13;
		fprintf(f, "%-12.12s %9.0f %8.1f %8.1f %8.1f %9.1f %9.1f\n", name, commits, pct_us(sync, 50),
			pct_us(sync, 99), pct_us(sync, 99.9), pct_us(w, 50), pct_us(w, 99));
		if (w->n && pct_us(sync, 50) > 10 * pct_us(w, 50))
			dominated = 1;
	}
	fprintf(f, "(latencies in microseconds; write = 16 KiB page writes without a flush)\n");
	if (dominated)
		fprintf(f, "Verdict: fsync dominates. A commit waits for the disk's cache flush,\n"
			   "which takes more than 10x a plain write: this disk will be slow for\n"
			   "databases whatever its IOPS on paper.\n");
	else
		fprintf(f, "Verdict: fsync does not dominate: a cache flush costs less than 10x\n"
			   "a plain write.\n");
}

/*
 * steady: SNIA PTS steady state over the rounds' IOPS: a window of 5 rounds
 * whose range is <= 20% of their mean and whose least-squares slope, over
 * the window, moves <= 10% of the mean.
 */
#define STEADY_WINDOW 5

static int steady_window(const double *v, double *mean)
{
	double sx = 0, sy = 0, sxy = 0, sxx = 0, lo = v[0], hi = v[0], slope;
	int i, n = STEADY_WINDOW;

	for (i = 0; i < n; i++) {
		sx += i;
		sy += v[i];
		sxy += i * v[i];
		sxx += (double)i * i;
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	*mean = sy / n;
	slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
	return *mean > 0 && hi - lo <= 0.2 * *mean && (slope < 0 ? -slope : slope) * (n - 1) <= 0.1 * *mean;
}

static void steady_table(FILE *f, const struct run_result *r)
{
	double iops[64], mean = 0;
	unsigned i, n = 0, reached = 0;

	for (i = 0; i < r->nreports && n < ARRAY_SIZE(iops); i++) {
		const struct report *rep = &r->reports[i];

		if (strncmp(rep->job->o.name, "steady-round-", 13)) {
			fprintf(f, "%-22s %10.1f MB/s written%s%s\n", rep->job->o.name, mb_s(rep, DDIR_WRITE),
				rep->st.error ? ", ERROR: " : "", rep->st.error ? rep->st.errmsg : "");
			continue;
		}
		iops[n] = report_iops(rep, DDIR_WRITE);
		fprintf(f, "round %2u  4k random write %10.0f IOPS  p99 %8.1f us\n", n + 1, iops[n],
			pct_us(&rep->st.dir[DDIR_WRITE].clat, 99));
		n++;
		if (!reached && n >= STEADY_WINDOW && steady_window(&iops[n - STEADY_WINDOW], &mean))
			reached = n;
	}
	if (reached)
		fprintf(f, "Steady state reached at round %u: rounds %u-%u average %.0f IOPS.\n", reached,
			reached - STEADY_WINDOW + 1, reached, mean);
	else
		fprintf(f, "Steady state NOT reached in %u rounds (no 5 rounds within 20%% range and 10%% slope).\n",
			n);
}

/* The target's temperature now, when the device reports one (NVMe, SMART). */
static void temperature_line(FILE *f, const char *when)
{
	const char *target = getenv("TARGET");
	struct disk d;

	if (!target || disk_find(target, &d))
		return;
	if (d.health.valid && d.health.temperature_reported)
		fprintf(f, "temperature %s: %d C%s\n", when, d.health.temperature_c,
			d.health.critical_warning ? " (CRITICAL WARNING set)" : "");
	else if (d.health.valid)
		fprintf(f, "temperature %s: not reported%s\n", when,
			d.health.critical_warning ? " (CRITICAL WARNING set)" : "");
	else if (d.smart.valid && d.smart.temperature_reported)
		fprintf(f, "temperature %s: %d C (SMART)\n", when, d.smart.temperature_c);
}

static void burnin_table(FILE *f, const struct run_result *r)
{
	unsigned i;
	int pass = 1;

	fprintf(f, "%-16s %12s %14s %10s  %s\n", "pass", "write MB/s", "blocks checked", "bad", "result");
	for (i = 0; i < r->nreports; i++) {
		const struct report *rep = &r->reports[i];
		int ok = !rep->st.error && rep->st.verify_blocks && !rep->st.verify_bad;

		fprintf(f, "%-16.16s %12.1f %14llu %10llu  %s\n", rep->job->o.name, mb_s(rep, DDIR_WRITE),
			(unsigned long long)rep->st.verify_blocks, (unsigned long long)rep->st.verify_bad,
			ok ? "ok" : rep->st.errmsg[0] ? rep->st.errmsg : "not verified");
		pass &= ok;
	}
	temperature_line(f, "at the end");
	if (r->interrupted)
		pass = 0;
	fprintf(f, "%s\n", pass ? "PASS: every block written and read back intact" :
		"FAIL: see the lines above (every bad block is listed with its LBA on stderr)");
}

const struct profile profiles[] = {
	{ "quick", "4k random read QD32, 1M sequential read, 4k random write QD32, 4k writes with fsync; 10 s each",
	  1, jobs_table },
	{ "yabs", "YABS's disk test: random 50/50 mix at 4k, 64k, 512k, 1m; QD64, 2 jobs, 30 s each", 1,
	  yabs_table },
	{ "ars", "Ars Technica: 4k and 1m; 1 process QD1 and 8 processes QD8; random read, write, sync write",
	  1, jobs_table },
	{ "mdraid", "mdadm RAID comparison: 1M sequential read/write QD32, 4k random read/write 4x QD32; 60 s",
	  1, jobs_table },
	{ "dbcommit", "database commits: log append + fsync/fdatasync per commit beside 16k page writes",
	  1, dbcommit_table },
	{ "burnin", "verified whole-device burn-in: write, read back, CRC-32C per block; 2 passes; PASS/FAIL",
	  1, burnin_table },
	{ "steady", "SNIA PTS-style steady state: precondition 2x capacity, 4k random write rounds", 1,
	  steady_table },
};

const unsigned profile_count = ARRAY_SIZE(profiles);

const struct profile *profile_find(const char *name)
{
	unsigned i;

	for (i = 0; i < profile_count; i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

static const char *override_dir(void)
{
	const char *dir = getenv("BOOTBENCH_PROFILES");

	return dir && *dir ? dir : NULL;
}

static const char *builtin_text(const char *name)
{
	unsigned i;

	for (i = 0; builtin_profiles[i].name; i++)
		if (!strcmp(builtin_profiles[i].name, name))
			return builtin_profiles[i].text;
	return NULL;
}

const char *profile_source(const struct profile *p)
{
	static char path[PATH_MAX];

	if (!override_dir())
		return "built in";
	snprintf(path, sizeof(path), "%s/%s.fio", override_dir(), p->name);
	return path;
}

char *profile_text(const struct profile *p)
{
	const char *text;
	char *buf = NULL;
	size_t len = 0;
	FILE *f, *out;
	int c;

	if (!override_dir()) {
		text = builtin_text(p->name);
		if (!text)
			set_err("profile '%s' has no built-in job file", p->name);
		return text ? xstrdup(text) : NULL;
	}
	f = fopen(profile_source(p), "r");
	if (!f) {
		set_err("cannot read %s: %s (BOOTBENCH_PROFILES is set)", profile_source(p), strerror(errno));
		return NULL;
	}
	out = open_memstream(&buf, &len);
	while (out && (c = getc(f)) != EOF)
		putc(c, out);
	fclose(f);
	if (out)
		fclose(out);
	return buf;
}

int profile_load(struct jobset *js, const struct profile *p)
{
	char *text = profile_text(p), name[PATH_MAX];
	int rc;

	if (!text)
		return -1;
	/* a file keeps its path, so that its relative includes resolve */
	snprintf(name, sizeof(name), "%s", override_dir() ? profile_source(p) : p->name);
	if (!override_dir())
		snprintf(name, sizeof(name), "%s.fio", p->name);
	rc = jobset_parse_text(js, name, text);
	free(text);
	return rc;
}

int profile_jobset(struct jobset *js, const struct profile *p, int argc, char **argv)
{
	if (jobset_parse_args(js, argc, argv) || profile_load(js, p))
		return -1;
	if (!js->n)
		return set_err("profile '%s' defines no jobs", p->name);
	return jobset_finish(js);
}

int profile_show(FILE *f, const struct profile *p)
{
	char *text = profile_text(p);

	if (!text)
		return -1;
	fprintf(f, "; %s (%s)\n%s", p->name, profile_source(p), text);
	free(text);
	return 0;
}
