// SPDX-License-Identifier: MIT
/*
 * test_results.c - what `bootbench compare` and `report` stand on: the
 * median, the MAD and the outlier rule (a slow disk among alike siblings is
 * one, a noisy group flags nothing, a tiny MAD alone is not enough); and the
 * reader of result files: fio's JSON with our identities, fio's own JSON
 * (clones added up, identity from hostname and filename), disks.json filling
 * in a disk's serial, and one line for a file that is cut short or foreign
 * while the rest is still read.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/load.h"
#include "stats/robust.h"
#include "unit.h"
#include "lib/util.h"

static char dir[] = "/tmp/bbresults.XXXXXX";

static void put(const char *name, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	fputs(text, f);
	fclose(f);
}

static const struct rs_figure *fig(const struct rs_set *s, const char *test, const char *slot)
{
	unsigned i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->fig[i].test, test) && !strcmp(s->fig[i].disk.slot, slot))
			return &s->fig[i];
	return NULL;
}

static void robust(void)
{
	double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, same[] = { 100, 100, 100, 100, 60 };
	double alike[] = { 1000, 1010, 990, 1005, 995, 600 }, noisy[] = { 500, 1500, 900, 1200, 700 };
	double m;
	unsigned i, flagged = 0;

	CHECK(median_of(odd, 3) == 3, "median of 5 1 3: %g", median_of(odd, 3));
	CHECK(odd[0] == 5, "median_of sorted its input");
	CHECK(median_of(even, 4) == 2.5, "median of 4 1 3 2: %g", median_of(even, 4));
	CHECK(mad_of(even, 4, 2.5) == 1, "MAD of 1 2 3 4: %g", mad_of(even, 4, 2.5));
	m = median_of(same, 5);
	CHECK(m == 100 && mad_of(same, 5, m) == 0, "identical siblings: median %g, MAD %g", m, mad_of(same, 5, m));
	CHECK(is_outlier(60, m, 0), "40%% below identical siblings (MAD 0) is an outlier");
	CHECK(!is_outlier(95, m, 0), "5%% below identical siblings is not (under 10%%)");
	m = median_of(alike, 6);
	CHECK(is_outlier(600, m, mad_of(alike, 6, m)), "600 among ~1000 is an outlier");
	for (i = 0; i < 5; i++)
		flagged += is_outlier(alike[i], m, mad_of(alike, 6, m));
	CHECK(!flagged, "none of the alike disks is flagged (%u were)", flagged);
	m = median_of(noisy, 5);
	for (i = 0, flagged = 0; i < 5; i++)
		flagged += is_outlier(noisy[i], m, mad_of(noisy, 5, m));
	CHECK(!flagged, "a noisy group flags nothing (%u flagged)", flagged);
	CHECK(!is_outlier(1080, 1000, 5), "8%% off is under the 10%% bar even with a tiny MAD");
}

static void reader(void)
{
	struct rs_set s = { 0 };
	const struct rs_figure *f;
	char errs_path[256], line[512];
	FILE *errs;

	/* ours: identity in "bootbench"; the machine by DMI serial */
	put("ours.json",
	    "{\"fio version\": \"bootbench-0.1.0\", \"jobs\": [{\"jobname\": \"randread\", \"error\": 0,"
	    " \"read\": {\"io_bytes\": 4096000, \"iops\": 1000.5, \"bw_bytes\": 4098048,"
	    " \"clat_ns\": {\"percentile\": {\"50.000000\": 20000, \"99.000000\": 90000}}},"
	    " \"write\": {\"io_bytes\": 0, \"iops\": 0}}],"
	    " \"bootbench\": {\"system\": {\"dmi\": {\"product_serial\": \"SRV42\"}, \"nics\": []},"
	    " \"jobs\": [{\"jobname\": \"randread\", \"targets\": [{\"path\": \"/dev/nvme0n1\","
	    " \"model\": \"Fast NVMe\", \"serial\": \"S123\", \"firmware_rev\": \"1.2\", \"size\": 1000}]}]}}\n");
	/* fio's own, two clones of one job on one disk, no identity but the hostname */
	mkdir(strcat(strcpy(line, dir), "/fio"), 0755);
	put("fio/run.json",
	    "{\"fio version\": \"fio-3.33\", \"jobs\": ["
	    "{\"jobname\": \"seq\", \"hostname\": \"rack7\", \"job options\": {\"filename\": \"/dev/sdb\"},"
	    " \"write\": {\"io_bytes\": 100, \"iops\": 10, \"bw_bytes\": 1000, \"clat_ns\": {\"percentile\": {\"99.000000\": 500}}},"
	    " \"sync\": {\"lat_ns\": {\"percentile\": {\"50.000000\": 7000, \"99.000000\": 9000}}}},"
	    "{\"jobname\": \"seq\", \"hostname\": \"rack7\", \"job options\": {\"filename\": \"/dev/sdb\"},"
	    " \"write\": {\"io_bytes\": 100, \"iops\": 30, \"bw_bytes\": 3000, \"clat_ns\": {\"percentile\": {\"99.000000\": 800}}}}]}\n");
	put("fio/disks.json", "{\"disks\": [{\"name\": \"sdb\", \"path\": \"/dev/sdb\", \"serial\": \"WD-99\","
			      " \"model\": \"Slow HDD\", \"firmware\": \"80.00A80\", \"size\": 2000}]}\n");
	put("cut.json", "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"x\", \"read\": {");
	put("foreign.json", "{\"hello\": \"world\"}\n");
	put("notes.txt", "not JSON, and not named .json: not read\n");
	snprintf(errs_path, sizeof(errs_path), "%s.errs", dir);
	errs = fopen(errs_path, "w+");
	CHECK(rs_load_path(&s, dir, errs) == 0, "the folder is read: %s", bb_err);
	CHECK(s.files == 2, "two result files read (%u)", s.files);
	CHECK(s.bad == 2, "two refused: cut short and foreign (%u)", s.bad);
	CHECK(s.n == 2, "two figures: ours' read, fio's write (%u)", s.n);
	f = fig(&s, "randread read", "/dev/nvme0n1");
	CHECK(f && f->iops == 1000.5 && f->bw_bytes == 4098048, "ours: the figures");
	CHECK(f && !strcmp(f->disk.machine, "SRV42") && !strcmp(f->disk.serial, "S123") &&
	      !strcmp(f->disk.model, "Fast NVMe") && !strcmp(f->disk.firmware, "1.2") && f->disk.size == 1000,
	      "ours: the identity (%s %s %s %s)", f ? f->disk.machine : "", f ? f->disk.serial : "",
	      f ? f->disk.model : "", f ? f->disk.firmware : "");
	CHECK(f && f->clat_p50_ns == 20000 && f->clat_p99_ns == 90000, "ours: the percentiles");
	f = fig(&s, "seq write", "/dev/sdb");
	CHECK(f && f->iops == 40 && f->bw_bytes == 4000, "fio's clones are added up (%g IOPS)", f ? f->iops : -1);
	CHECK(f && f->clat_p99_ns == 800, "... their p99 is the worst (%g)", f ? f->clat_p99_ns : -1);
	CHECK(f && f->sync_p50_ns == 7000, "... the sync latency is read (%g)", f ? f->sync_p50_ns : -1);
	CHECK(f && !strcmp(f->disk.machine, "rack7"), "fio's own: the machine is its hostname (%s)",
	      f ? f->disk.machine : "");
	CHECK(f && !strcmp(f->disk.serial, "WD-99") && !strcmp(f->disk.model, "Slow HDD") && f->disk.size == 2000,
	      "... disks.json beside it names the disk (%s %s)", f ? f->disk.serial : "", f ? f->disk.model : "");
	rewind(errs);
	CHECK(fgets(line, sizeof(line), errs) && strstr(line, "cut.json: not JSON, or cut short (line"),
	      "the cut file is named in one line: %s", line);
	CHECK(fgets(line, sizeof(line), errs) && strstr(line, "foreign.json: JSON, but not a result"),
	      "the foreign file is named in one line: %s", line);
	fclose(errs);
	unlink(errs_path);
	rs_free(&s);
	CHECK(rs_load_path(&s, "/nonexistent/results", stderr) == -1 && strstr(bb_err, "/nonexistent/results"),
	      "a path that is not there: %s", bb_err);
}

int main(void)
{
	char cmd[300];

	if (!mkdtemp(dir))
		return 1;
	robust();
	reader();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		return 1;
	return unit_done();
}
