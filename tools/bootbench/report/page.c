// SPDX-License-Identifier: MIT
/*
 * page.c - one self-contained HTML page of results (page.h): per result
 * folder the machine, its disks with their health, each run's figures,
 * latency curves and series, the dbcommit and steady-state charts, bad
 * blocks from the console log and the RAID table; per JSON file its run.
 * Everything is read with the results readers (results/load.h) and drawn
 * with svg.c; nothing outside the page is referenced.
 */
#include "report/page.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"
#include "report/html.h"
#include "report/svg.h"
#include "results/inventory.h"
#include "results/load.h"

static FILE *out;
static unsigned unreadable;
static json_t *folder_disks;	/* the folder's disks.json: names a disk a run's JSON did not */

static void esc(const char *s)
{
	html_escape(out, s);
}

static const char *str_of(json_t *j, const char *path)
{
	static char buf[8][512];
	static unsigned k;

	k = (k + 1) % 8;
	return rs_str(j, path, buf[k], sizeof(buf[k]));
}

/* A file as text into the page, preformatted; 0 when it is not there. */
static int pre_file(const char *path)
{
	char buf[4096];
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return 0;
	fputs("<pre>", out);
	while ((n = fread(buf, 1, sizeof(buf) - 1, f))) {
		buf[n] = 0;
		esc(buf);
	}
	fputs("</pre>\n", out);
	fclose(f);
	return 1;
}

static void row2(const char *k, const char *v)
{
	if (!v || !v[0])
		return;
	fputs("<tr><th>", out);
	esc(k);
	fputs("</th><td>", out);
	esc(v);
	fputs("</td></tr>\n", out);
}

static void machine_section(json_t *si, const char *system_txt)
{
	char mem[32], buf[512];
	json_t *nic;
	size_t i;

	fputs("<h2>Machine</h2>\n<table>\n", out);
	snprintf(buf, sizeof(buf), "%s%s%s", str_of(si, "dmi.sys_vendor"),
		 str_of(si, "dmi.sys_vendor")[0] ? " " : "", str_of(si, "dmi.product_name"));
	row2("system", buf);
	row2("serial", str_of(si, "dmi.product_serial"));
	row2("board", str_of(si, "dmi.board_name"));
	if (str_of(si, "dmi.bios_version")[0]) {
		snprintf(buf, sizeof(buf), "%s %s (%s)", str_of(si, "dmi.bios_vendor"),
			 str_of(si, "dmi.bios_version"), str_of(si, "dmi.bios_date"));
		row2("firmware", buf);
	}
	snprintf(buf, sizeof(buf), "%s, Secure Boot %s", str_of(si, "firmware.boot_mode"),
		 str_of(si, "firmware.secure_boot"));
	row2("boot", buf);
	snprintf(buf, sizeof(buf), "%s, %s CPUs", str_of(si, "cpu.model"), str_of(si, "cpu.cpus"));
	row2("CPU", buf);
	row2("memory", fmt_iec(rs_num(si, "memory_bytes"), mem, sizeof(mem)));
	row2("kernel", str_of(si, "kernel"));
	json_array_foreach(json_object_get(si, "nics"), i, nic) {
		char speed[32];

		if (rs_num(nic, "speed_mbps") > 0)
			snprintf(speed, sizeof(speed), "%.0f Mb/s", rs_num(nic, "speed_mbps"));
		else
			snprintf(speed, sizeof(speed), "speed not reported");
		snprintf(buf, sizeof(buf), "%s %s, %s, link %s, %s%s%s", str_of(nic, "name"), str_of(nic, "mac"),
			 str_of(nic, "driver"), str_of(nic, "state"), speed, str_of(nic, "ipv4")[0] ? ", " : "",
			 str_of(nic, "ipv4"));
		row2("network", buf);
	}
	fputs("</table>\n", out);
	if (system_txt) {
		fputs("<details><summary>system.txt (as the appliance described itself)</summary>\n", out);
		pre_file(system_txt);
		fputs("</details>\n", out);
	}
}

/* "41 C", or "temperature not reported" (null: the drive gave none) */
static const char *temp_text(json_t *h, char *buf, size_t len)
{
	const char *t = str_of(h, "temperature_c");

	if (!t[0])
		return "temperature not reported";
	snprintf(buf, len, "%s C", t);
	return buf;
}

static void health_text(json_t *d, char *buf, size_t len)
{
	json_t *nv = json_object_get(d, "nvme_health"), *sm = json_object_get(d, "smart");
	char temp[64], spare[64] = "spare not reported", used[64] = "wear not reported";
	/* Files written before issue 48 gave 0 and 0 where the drive reported neither (now
	 * null). A drive whose spare is really gone at 0% wear (a die lost early) says so in
	 * its critical warning's bit 0 (spare under its threshold): those 0s are figures */
	int old_unreported = nv && json_is_integer(json_object_get(nv, "available_spare_pct")) &&
			     json_is_integer(json_object_get(nv, "percentage_used")) &&
			     rs_num(nv, "available_spare_pct") == 0 && rs_num(nv, "percentage_used") == 0 &&
			     !((int)rs_num(nv, "critical_warning") & 1);

	buf[0] = 0;
	if (nv && !old_unreported && str_of(nv, "available_spare_pct")[0])
		snprintf(spare, sizeof(spare), "spare %s%%", str_of(nv, "available_spare_pct"));
	if (nv && !old_unreported && str_of(nv, "percentage_used")[0])
		snprintf(used, sizeof(used), "%s%% used", str_of(nv, "percentage_used"));
	if (nv)
		snprintf(buf, len, "NVMe: %s, %s, %s, %s media errors, %s unsafe shutdowns, %s h on%s",
			 temp_text(nv, temp, sizeof(temp)), used,
			 spare, str_of(nv, "media_errors"), str_of(nv, "unsafe_shutdowns"),
			 str_of(nv, "power_on_hours"), rs_num(nv, "critical_warning") ? ", CRITICAL WARNING" : "");
	else if (sm)
		snprintf(buf, len, "SMART: %s, %s, %s h on",
			 !json_object_get(sm, "passed") ? "no overall assessment" :
			 json_is_true(json_object_get(sm, "passed")) ? "passed" : "FAILED",
			 temp_text(sm, temp, sizeof(temp)),
			 str_of(sm, "power_on_hours")[0] ? str_of(sm, "power_on_hours") : "?");
}

static void disks_section(json_t *dj)
{
	char size[32], health[512];
	json_t *d;
	size_t i;

	fputs("<h2>Disks</h2>\n<table>\n<tr><th>device</th><th>model</th><th>serial</th><th>firmware</th>"
	      "<th>size</th><th>link</th><th>sectors</th><th>health</th><th>contents</th></tr>\n", out);
	json_array_foreach(json_object_get(dj, "disks"), i, d) {
		char sectors[64];

		fmt_iec(rs_num(d, "size"), size, sizeof(size));
		health_text(d, health, sizeof(health));
		snprintf(sectors, sizeof(sectors), "%s / %s B%s", str_of(d, "logical_block_size"),
			 str_of(d, "physical_block_size"), json_is_true(json_object_get(d, "rotational")) ? ", spinning" :
			 "");
		fputs("<tr><td>", out);
		esc(str_of(d, "path"));
		fputs("</td><td>", out);
		esc(str_of(d, "model"));
		fputs("</td><td>", out);
		esc(str_of(d, "serial"));
		fputs("</td><td>", out);
		esc(str_of(d, "firmware"));
		fprintf(out, "</td><td class=\"n\">%s</td><td>", size);
		esc(str_of(d, "transport"));
		fputs("</td><td>", out);
		esc(sectors);
		fprintf(out, "</td><td%s>", strstr(health, "FAILED") || strstr(health, "CRITICAL") ? " class=\"bad\"" : "");
		esc(health[0] ? health : "not reported");
		fputs("</td><td>", out);
		esc(str_of(d, "content"));
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

/* The completion-latency curve of one direction: json+ bins when there, else fio's percentile list. */
static unsigned latency_curve(json_t *clat, double *x, double *y, unsigned max)
{
	json_t *bins = json_object_get(clat, "bins"), *pct = json_object_get(clat, "percentile"), *v;
	const char *k;
	unsigned n = 0;

	if (json_object_size(bins)) {
		/* bins: "latency ns": count; cumulated in latency order into percentiles */
		double total = 0, run = 0, *lat, *cnt;
		unsigned nb = 0, i, j;

		lat = xcalloc(json_object_size(bins), sizeof(*lat));
		cnt = xcalloc(json_object_size(bins), sizeof(*cnt));
		json_object_foreach(bins, k, v) {
			double l = strtod(k, NULL), c = json_number_value(v);

			for (i = nb; i > 0 && lat[i - 1] > l; i--) {
				lat[i] = lat[i - 1];
				cnt[i] = cnt[i - 1];
			}
			lat[i] = l;
			cnt[i] = c;
			nb++;
			total += c;
		}
		for (j = 0; j < nb && n < max; j++) {
			run += cnt[j];
			x[n] = 100 * run / total;
			y[n++] = lat[j] / 1000;
			if (x[n - 1] >= 99.9999)
				break;
		}
		free(lat);
		free(cnt);
		return n;
	}
	json_object_foreach(pct, k, v) {
		if (n < max && json_number_value(v) > 0) {
			x[n] = strtod(k, NULL);
			y[n++] = json_number_value(v) / 1000;
		}
	}
	return n;
}

static void job_charts(json_t *job, json_t *mine)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	double lx[3][1024], ly[3][1024], *t = NULL, *v[6] = { 0 };
	struct svg_series s[6];
	unsigned d, n = 0, ns = 0, k;
	json_t *samples = json_object_get(mine, "samples"), *smp;
	char title[256], labels[6][64];
	size_t i;

	fputs("<div class=\"charts\">\n", out);
	for (d = 0; d < 3; d++) {
		json_t *dir = json_object_get(job, dirs[d]);

		if (rs_num(dir, "io_bytes") <= 0)
			continue;
		s[ns] = (struct svg_series){ .label = dirs[d], .x = lx[d], .y = ly[d],
					     .n = latency_curve(json_object_get(dir, "clat_ns"), lx[d], ly[d], 1024) };
		if (s[ns].n)
			ns++;
	}
	if (ns) {
		snprintf(title, sizeof(title), "%s: completion latency", str_of(job, "jobname"));
		svg_lines(out, &(struct svg_chart){ .title = title, .xlabel = "percentile of I/Os",
						    .ylabel = "completion latency (us)", .xaxis = AXIS_NINES,
						    .yaxis = AXIS_LOG }, s, ns);
	}
	/* the per-second series "bootbench".jobs[].samples */
	n = (unsigned)json_array_size(samples);
	if (n) {
		t = xcalloc(n, sizeof(*t));
		for (k = 0; k < 6; k++)
			v[k] = xcalloc(n, sizeof(double));
		json_array_foreach(samples, i, smp) {
			t[i] = rs_num(smp, "t_ms") / 1000;
			for (d = 0; d < 3; d++) {
				char key[32];

				snprintf(key, sizeof(key), "%s_iops", dirs[d]);
				v[d][i] = rs_num(smp, key);
				snprintf(key, sizeof(key), "%s_bw_bytes", dirs[d]);
				v[3 + d][i] = rs_num(smp, key) / 1e6;
			}
		}
		for (k = 0; k < 2; k++) {
			ns = 0;
			for (d = 0; d < 3; d++) {
				char key[32];

				snprintf(key, sizeof(key), "%s_iops", dirs[d]);
				if (!json_object_get(json_array_get(samples, 0), key))
					continue;
				snprintf(labels[ns], sizeof(labels[ns]), "%s", dirs[d]);
				s[ns] = (struct svg_series){ .label = labels[ns], .x = t, .y = v[3 * k + d], .n = n };
				ns++;
			}
			if (!ns)
				continue;
			snprintf(title, sizeof(title), "%s: %s per second", str_of(job, "jobname"), k ? "MB/s" : "IOPS");
			svg_lines(out, &(struct svg_chart){ .title = title, .xlabel = "time into the run (s)",
							    .ylabel = k ? "throughput (MB/s)" : "IOPS" }, s, ns);
		}
		free(t);
		for (k = 0; k < 6; k++)
			free(v[k]);
	}
	fputs("</div>\n", out);
}

/* dbcommit: each pair's sync latency beside its page writes', from the log and pages jobs. */
static void dbcommit_chart(json_t *jobs)
{
	const char *labels[64];
	char names[64][96];
	double vals[64];
	unsigned n = 0;
	json_t *log;
	size_t i;

	json_array_foreach(jobs, i, log) {
		const char *name = str_of(log, "jobname");
		json_t *pages = json_array_get(jobs, i + 1);

		if (strncmp(name, "dbcommit-log-", 13) || !pages || n + 2 > ARRAY_SIZE(vals))
			continue;
		snprintf(names[n], sizeof(names[n]), "%s sync p99", name + 13);
		vals[n] = rs_percentile(json_object_get(json_object_get(log, "sync"), "lat_ns"), 99) / 1000;
		labels[n] = names[n];
		n++;
		snprintf(names[n], sizeof(names[n]), "%s page write p99", name + 13);
		vals[n] = rs_percentile(json_object_get(json_object_get(pages, "write"), "clat_ns"), 99) / 1000;
		labels[n] = names[n];
		n++;
	}
	if (n)
		svg_bars(out, "dbcommit: a commit's sync against a plain 16 KiB page write (p99)", "latency (us)",
			 labels, vals, NULL, n, 0);
}

/* steady: the rounds' IOPS, the steady-state window (as the summary found it) shaded. */
static void steady_chart(json_t *jobs, const char *summary_txt)
{
	double x[64], y[64];
	unsigned n = 0, reached = 0, first = 0, last = 0;
	struct svg_series s[2];
	char line[256];
	json_t *job;
	size_t i;
	FILE *f;

	json_array_foreach(jobs, i, job)
		if (!strncmp(str_of(job, "jobname"), "steady-round-", 13) && n < 64) {
			x[n] = n + 1;
			y[n++] = rs_num(job, "write.iops");
		}
	if (!n)
		return;
	f = summary_txt ? fopen(summary_txt, "re") : NULL;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Steady state reached at round %u: rounds %u-%u", &reached, &first, &last) == 3)
			break;
	if (f)
		fclose(f);
	s[0] = (struct svg_series){ .label = "every round", .x = x, .y = y, .n = n };
	/* the window: its rounds again, as a second line over the first */
	if (reached && first >= 1 && last <= n && first < last)
		s[1] = (struct svg_series){ .label = "steady-state window", .x = x + first - 1, .y = y + first - 1,
					    .n = last - first + 1 };
	svg_lines(out, &(struct svg_chart){ .title = reached ? "steady: rounds, the steady-state window marked" :
						  "steady: rounds (no steady state reached)",
					    .xlabel = "round", .ylabel = "4k random write IOPS" },
		  s, reached && first < last ? 2 : 1);
}

/* burnin and any verifying run: the bad LBAs the console log named, read and write errors too. */
static void bad_blocks(const char *console_log)
{
	FILE *f = fopen(console_log, "re");
	char line[1024];
	unsigned n = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		/* verify's lines and the located I/O errors' (job/badlba.c) */
		if (!strstr(line, " LBA ") ||
		    !(strstr(line, "verify: ") || strstr(line, "read error: ") || strstr(line, "write error: ")))
			continue;
		if (!n++)
			fputs("<h3 class=\"bad\">Bad blocks (from console.log)</h3>\n<pre>", out);
		esc(line);
	}
	if (n)
		fputs("</pre>\n", out);
	fclose(f);
}

/* The job's figures as the JSON has them, per direction that moved data. */
static void figures_table(json_t *job)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	unsigned d, rows = 0;

	for (d = 0; d < ARRAY_SIZE(dirs); d++) {
		json_t *dir = json_object_get(job, dirs[d]), *clat = json_object_get(dir, "clat_ns");

		if (rs_num(dir, "io_bytes") <= 0)
			continue;
		if (!rows++)
			fputs("<table class=\"figures\"><tr><th>direction</th><th>IOPS</th><th>MB/s</th><th>clat p50 us</th>"
			      "<th>p99 us</th><th>p99.9 us</th></tr>\n", out);
		fprintf(out, "<tr><td>%s</td><td class=\"n\">%.0f</td><td class=\"n\">%.1f</td><td class=\"n\">%.1f</td>"
			     "<td class=\"n\">%.1f</td><td class=\"n\">%.1f</td></tr>\n", dirs[d], rs_num(dir, "iops"),
			rs_num(dir, "bw_bytes") / 1e6, rs_percentile(clat, 50) / 1000, rs_percentile(clat, 99) / 1000,
			rs_percentile(clat, 99.9) / 1000);
	}
	if (rows)
		fputs("</table>\n", out);
}

static void fio_section(json_t *j, const char *path)
{
	char txt[PATH_MAX + 8], base[PATH_MAX];
	json_t *job, *ours = json_object_get(j, "bootbench");
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t i;

	snprintf(base, sizeof(base), "%.*s", (int)(strlen(path) - 5), path);
	snprintf(txt, sizeof(txt), "%s.txt", base);
	fputs("<h2>", out);
	esc(name);
	fputs("</h2>\n<p>", out);
	esc(str_of(j, "fio version")[0] ? str_of(j, "fio version") : "fio's JSON layout");
	fputs(", ", out);
	esc(str_of(j, "time"));
	if (json_is_true(json_object_get(ours, "interrupted")))
		fputs(", <span class=\"bad\">interrupted: results cover the run until then</span>", out);
	fputs("</p>\n", out);
	pre_file(txt);
	json_array_foreach(json_object_get(j, "jobs"), i, job) {
		json_t *mine = json_array_get(json_object_get(ours, "jobs"), i);
		json_t *target = json_array_get(json_object_get(mine, "targets"), 0);
		char size[32];

		fputs("<h3>", out);
		esc(str_of(job, "jobname"));
		fputs("</h3>\n<p>", out);
		if (target) {
			char model[128], serial[128], firmware[64];
			json_t *d;
			size_t k;

			rs_str(target, "model", model, sizeof(model));
			rs_str(target, "serial", serial, sizeof(serial));
			rs_str(target, "firmware_rev", firmware, sizeof(firmware));
			json_array_foreach(json_object_get(folder_disks, "disks"), k, d)
				if (!strcmp(str_of(d, "path"), str_of(target, "path"))) {
					if (!model[0])
						rs_str(d, "model", model, sizeof(model));
					if (!serial[0])
						rs_str(d, "serial", serial, sizeof(serial));
					if (!firmware[0])
						rs_str(d, "firmware", firmware, sizeof(firmware));
				}
			esc(str_of(target, "path"));
			fputs(" (", out);
			esc(model[0] ? model : "no model");
			fputs(", serial ", out);
			esc(serial[0] ? serial : "-");
			fputs(", firmware ", out);
			esc(firmware[0] ? firmware : "-");
			fprintf(out, ", %s)", fmt_iec(rs_num(target, "size"), size, sizeof(size)));
		}
		if (rs_num(job, "error"))
			fprintf(out, " <span class=\"bad\">error %s: %s</span>", str_of(job, "error"),
				str_of(mine, "error_message"));
		if (json_object_get(mine, "verify"))
			fprintf(out, " verify: %s blocks read back, <span%s>%s bad</span>", str_of(mine, "verify.blocks"),
				rs_num(mine, "verify.bad") ? " class=\"bad\"" : "", str_of(mine, "verify.bad"));
		fputs("</p>\n", out);
		figures_table(job);
		/* steady's rounds are drawn together below, one point each */
		if (strncmp(str_of(job, "jobname"), "steady-round-", 13))
			job_charts(job, mine);
	}
	dbcommit_chart(json_object_get(j, "jobs"));
	steady_chart(json_object_get(j, "jobs"), access(txt, R_OK) ? NULL : txt);
}

/* raid.json: each test's levels relative to the median single disk, p99 beside. */
static void raid_section(json_t *j, const char *path)
{
	char txt[PATH_MAX], title[256];
	json_t *levels = json_object_get(j, "levels"), *base = json_object_get(j, "baseline_median"), *cell;
	size_t i, k;

	snprintf(txt, sizeof(txt), "%.*s.txt", (int)(strlen(path) - 5), path);
	fputs("<h2>RAID levels and ZFS pools, relative to one disk</h2>\n", out);
	fprintf(out, "<p>profile %s on %zu disks; bars: bandwidth relative to the median single disk (the dashed "
		"line is one disk); a hatched bar is a level that failed.</p>\n", str_of(j, "profile"),
		json_array_size(json_object_get(j, "disks")));
	pre_file(txt);
	fputs("<div class=\"charts\">\n", out);
	json_array_foreach(base, i, cell) {
		const char *labels[64];
		char test[128], dir[16];
		char names[64][96];
		double vals[64];
		int bad[64];
		unsigned n = 0;
		json_t *lv;

		/* copies: str_of's buffers are reused by the calls below */
		snprintf(test, sizeof(test), "%s", str_of(cell, "test"));
		snprintf(dir, sizeof(dir), "%s", str_of(cell, "dir"));
		json_array_foreach(levels, k, lv) {
			json_t *c;
			size_t m;

			if (n >= ARRAY_SIZE(vals))
				break;
			json_array_foreach(json_object_get(lv, "results"), m, c)
				if (!strcmp(str_of(c, "test"), test) && !strcmp(str_of(c, "dir"), dir)) {
					snprintf(names[n], sizeof(names[n]), "%s (p99 %.0f us)", str_of(lv, "level"),
						 rs_num(c, "clat_p99_us"));
					vals[n] = rs_num(c, "vs_baseline");
					bad[n] = rs_num(lv, "status") != 0;
					labels[n] = names[n];
					n++;
				}
		}
		snprintf(title, sizeof(title), "%s %s (one disk: %.0f IOPS, p99 %.0f us)", test, dir, rs_num(cell, "iops"),
			 rs_num(cell, "clat_p99_us"));
		if (n)
			svg_bars(out, title, "bandwidth relative to one disk (x)", labels, vals, bad, n, 1.0);
	}
	fputs("</div>\n", out);
}

static int ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && !strcmp(s + a - b, tail);
}

/* A burnin.json "figures" object as list items: NAME: its text. */
static void burnin_figures(json_t *figures)
{
	json_t *fig;
	const char *key;

	json_object_foreach(figures, key, fig) {
		fputs("<li>", out);
		esc(key);
		fputs(": ", out);
		esc(json_string_value(json_object_get(fig, "text")) ? json_string_value(json_object_get(fig, "text")) : "");
		fputs("</li>", out);
	}
}

/* burnin.json: the machine's verdict, then a row a component with its
 * verdict, why, and its figures, each device's (a disk) under its name;
 * what was not run under it. */
static void burnin_section(json_t *j)
{
	json_t *c, *dev;
	size_t i, k;

	fputs("<h2>Burn-in</h2>\n<p>The machine: <b", out);
	if (strcmp(str_of(j, "verdict"), "PASS"))
		fputs(" class=\"bad\"", out);
	fputs(">", out);
	esc(str_of(j, "verdict"));
	fputs("</b> (PASS only when every component asked for passed; ERROR: it could not be tested)</p>\n"
	      "<table><tr><th>component</th><th>verdict</th><th>why, and the figures</th></tr>\n", out);
	json_array_foreach(json_object_get(j, "components"), i, c) {
		const char *v = str_of(c, "verdict");

		if (!strcmp(v, "SKIPPED"))
			continue;
		fputs("<tr><td>", out);
		esc(str_of(c, "name"));
		fprintf(out, "</td><td%s>", strcmp(v, "PASS") ? " class=\"bad\"" : "");
		esc(v);
		fputs("</td><td>", out);
		esc(str_of(c, "reason"));
		fputs("<ul>", out);
		burnin_figures(json_object_get(c, "figures"));
		json_array_foreach(json_object_get(c, "devices"), k, dev) {
			fputs("<li>", out);
			esc(str_of(dev, "device"));
			fputs("<ul>", out);
			burnin_figures(json_object_get(dev, "figures"));
			fputs("</ul></li>", out);
		}
		if (*str_of(c, "not_run")) {
			fputs("<li>not run: ", out);
			esc(str_of(c, "not_run"));
			fputs("</li>", out);
		}
		fputs("</ul></td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

/* status.json: how the unattended run ended (results.sh's write_status). */
static void status_section(json_t *st)
{
	json_t *rc = json_object_get(st, "exit_status");

	fputs("<h2>Run</h2>\n<table>\n", out);
	row2("run", str_of(st, "run"));
	if (json_is_integer(rc)) {
		fprintf(out, "<tr><th>exit status</th><td%s>%lld</td></tr>\n", json_integer_value(rc) ? " class=\"bad\"" : "",
			(long long)json_integer_value(rc));
	} else {
		fputs("<tr><th>exit status</th><td class=\"bad\">not said</td></tr>\n", out);
	}
	row2("ended", str_of(st, "ended"));
	fputs("</table>\n", out);
}

static void one_file(const char *path)
{
	json_t *j = rs_read_json(path);

	if (!j) {
		fprintf(stderr, "report: %s\n", bb_err);
		fputs("<p class=\"bad\">unreadable: ", out);
		esc(bb_err);
		fputs("</p>\n", out);
		unreadable++;
		return;
	}
	if (rs_is_fio(j))
		fio_section(j, path);
	else if (json_is_object(j) && json_object_get(j, "levels"))
		raid_section(j, path);
	else if (json_is_object(j) && json_object_get(j, "bootbench_burnin"))
		burnin_section(j);
	else if (json_is_object(j) && json_object_get(j, "bootbench_status"))
		status_section(j);
	else if (json_is_object(j) && (inv_is_inventory(j) || json_object_get(j, "bootbench_erase_certificate") ||
				       json_object_get(j, "bootbench_erase_certificates")))
		;	/* every result folder's inventory.json, an erase's certificates (erase.html beside them): not runs */
	else if (!ends_with(path, "/sysinfo.json") && !ends_with(path, "/disks.json") &&
		 strcmp(path, "sysinfo.json") && strcmp(path, "disks.json")) {
		fprintf(stderr, "report: %s: JSON, but not a result (neither fio's layout, raid.json, burnin.json, status.json, "
			"inventory.json nor an erase certificate)\n",
			path);
		unreadable++;
	}
	json_decref(j);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void one_folder(const char *dir)
{
	char p[PATH_MAX], **names = NULL;
	unsigned n = 0, i;
	struct dirent *e;
	DIR *d = opendir(dir);
	json_t *j;

	snprintf(p, sizeof(p), "%s/sysinfo.json", dir);
	if ((j = json_load_file(p, 0, NULL))) {
		char txt[PATH_MAX];

		snprintf(txt, sizeof(txt), "%s/system.txt", dir);
		machine_section(j, access(txt, R_OK) ? NULL : txt);
		json_decref(j);
	}
	snprintf(p, sizeof(p), "%s/disks.json", dir);
	if ((folder_disks = json_load_file(p, 0, NULL)))
		disks_section(folder_disks);
	/* the menu's runs keep every target's table in one summary.txt */
	snprintf(p, sizeof(p), "%s/summary.txt", dir);
	if (!access(p, R_OK)) {
		fputs("<h2>Summary</h2>\n", out);
		pre_file(p);
	}
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.' || !ends_with(e->d_name, ".json") || !strcmp(e->d_name, "sysinfo.json") ||
		    !strcmp(e->d_name, "disks.json"))
			continue;
		names = xrealloc(names, (n + 1) * sizeof(*names));
		names[n++] = xstrdup(e->d_name);
	}
	if (d)
		closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	/* raid.json first: the comparison before the runs it is made of */
	for (i = 0; i < n; i++)
		if (!strcmp(names[i], "raid.json")) {
			snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
			one_file(p);
		}
	for (i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		if (strcmp(names[i], "raid.json"))
			one_file(p);
		free(names[i]);
	}
	free(names);
	json_decref(folder_disks);
	folder_disks = NULL;
	snprintf(p, sizeof(p), "%s/console.log", dir);
	bad_blocks(p);
}

unsigned page_write(FILE *f, char *const *paths, int n, const char *when)
{
	struct stat st;
	int i;

	out = f;
	unreadable = 0;
	html_begin(out, "bootbench report");
	fputs("<p>", out);
	for (i = 0; i < n; i++) {
		esc(paths[i]);
		fputs(" ", out);
	}
	fprintf(out, "&middot; made %s by %s %s</p>\n", when, BB_NAME, BB_VERSION);
	for (i = 0; i < n; i++) {
		if (stat(paths[i], &st))
			continue;
		if (S_ISDIR(st.st_mode))
			one_folder(paths[i]);
		else
			one_file(paths[i]);
	}
	html_end(out);
	return unreadable;
}
