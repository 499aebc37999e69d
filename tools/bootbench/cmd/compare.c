// SPDX-License-Identifier: MIT
/*
 * compare.c - `bootbench compare`: many machines' results side by side, the
 * slow drive named. Every test (a job and a direction) of every result file
 * under the folders given (a share full of them, searched recursively; fio's
 * own JSON too) is put in its disk's group (model + firmware + capacity by
 * default); a group of three or more is summed up by its median and MAD,
 * and a disk more than 3 scaled MADs and 10% off its group's median is an
 * OUTLIER, named by machine serial, disk serial and slot (stats/robust.h).
 * A group too small is said to be so, never compared with another. The
 * dbcommit verdict per disk (a commit's sync p50 over 10x a page write's)
 * names fsync-bound models.
 *
 * Its flags and help: the declaration at the end (lib/args.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "html.h"
#include "json.h"
#include "load.h"
#include "profiles.h"
#include "robust.h"
#include "svg.h"
#include "util.h"

enum by { BY_FIRMWARE, BY_MODEL, BY_MACHINE };
enum compare_format { AS_TEXT, AS_CSV, AS_JSON, AS_HTML };

struct member {
	const struct rs_figure *f;
	double dev;		/* relative to the group's median */
	int outlier;		/* -1 slow, +1 fast, 0 not */
};

struct group {
	char key[512];
	struct member *m;
	unsigned n;
	double median, mad, median_bw;
	int compared;
};

static enum by grouping;

static void group_key(const struct rs_figure *f, char *key, size_t len)
{
	char size[32];

	fmt_iec((double)f->disk.size, size, sizeof(size));
	if (grouping == BY_MACHINE)
		snprintf(key, len, "machine %s", f->disk.machine);
	else if (grouping == BY_MODEL)
		snprintf(key, len, "%s / %s", f->disk.model[0] ? f->disk.model : "unknown model", size);
	else
		snprintf(key, len, "%s / %s / %s", f->disk.model[0] ? f->disk.model : "unknown model",
			 f->disk.firmware[0] ? f->disk.firmware : "unknown firmware", size);
}

static int by_disk(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c = strcmp(x->f->disk.machine, y->f->disk.machine);

	return c ? c : strcmp(x->f->disk.slot, y->f->disk.slot);
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct group *)a)->key, ((const struct group *)b)->key);
}

/* The groups of TEST's figures, each summed up; caller frees with free_groups. */
static struct group *groups_of(const struct rs_set *s, const char *test, unsigned *ng)
{
	struct group *g = NULL;
	unsigned i, k, n = 0;

	for (i = 0; i < s->n; i++) {
		char key[512];

		if (strcmp(s->fig[i].test, test))
			continue;
		group_key(&s->fig[i], key, sizeof(key));
		for (k = 0; k < n && strcmp(g[k].key, key); k++)
			;
		if (k == n) {
			g = xrealloc(g, (n + 1) * sizeof(*g));
			memset(&g[n], 0, sizeof(*g));
			snprintf(g[n].key, sizeof(g[n].key), "%s", key);
			n++;
		}
		g[k].m = xrealloc(g[k].m, (g[k].n + 1) * sizeof(*g[k].m));
		g[k].m[g[k].n++] = (struct member){ .f = &s->fig[i] };
	}
	for (k = 0; k < n; k++) {
		double *iops = xcalloc(g[k].n, sizeof(*iops)), *bw = xcalloc(g[k].n, sizeof(*bw));

		qsort(g[k].m, g[k].n, sizeof(*g[k].m), by_disk);
		for (i = 0; i < g[k].n; i++) {
			iops[i] = g[k].m[i].f->iops;
			bw[i] = g[k].m[i].f->bw_bytes;
		}
		g[k].median = median_of(iops, g[k].n);
		g[k].median_bw = median_of(bw, g[k].n);
		g[k].mad = mad_of(iops, g[k].n, g[k].median);
		g[k].compared = g[k].n >= OUTLIER_MIN_GROUP;
		for (i = 0; i < g[k].n; i++) {
			struct member *m = &g[k].m[i];

			m->dev = g[k].median > 0 ? m->f->iops / g[k].median - 1 : 0;
			if (g[k].compared && is_outlier(m->f->iops, g[k].median, g[k].mad))
				m->outlier = m->f->iops < g[k].median ? -1 : 1;
		}
		free(iops);
		free(bw);
	}
	if (n)
		qsort(g, n, sizeof(*g), by_key);
	*ng = n;
	return g;
}

static void free_groups(struct group *g, unsigned n)
{
	while (n)
		free(g[--n].m);
	free(g);
}

/* The tests in the order their first figure came. */
static const char **tests_of(const struct rs_set *s, unsigned *nt)
{
	const char **t = NULL;
	unsigned i, k, n = 0;

	for (i = 0; i < s->n; i++) {
		for (k = 0; k < n && strcmp(t[k], s->fig[i].test); k++)
			;
		if (k == n) {
			t = xrealloc(t, (n + 1) * sizeof(*t));
			t[n++] = s->fig[i].test;
		}
	}
	*nt = n;
	return t;
}

static const char *who(const struct rs_figure *f, char *buf, size_t len)
{
	snprintf(buf, len, "machine %s, disk %s, slot %s", f->disk.machine[0] ? f->disk.machine : "?",
		 f->disk.serial[0] ? f->disk.serial : "(no serial)", f->disk.slot[0] ? f->disk.slot : "?");
	return buf;
}

/*
 * dbcommit's verdict per disk: its log job's sync p50 over 10x its page
 * job's write p50 (profiles.c's rule). Returns the number of fsync-bound
 * disks; each is listed through EACH (NULL: only counted).
 */
static unsigned fsync_bound(const struct rs_set *s, void (*each)(const struct rs_figure *log, double ratio, void *arg),
			    void *arg)
{
	unsigned i, k, found = 0;

	for (i = 0; i < s->n; i++) {
		const struct rs_figure *log = &s->fig[i];
		char pages[160];

		if (strncmp(log->test, "dbcommit-log-", 13) || !log->sync_p50_ns)
			continue;
		snprintf(pages, sizeof(pages), "dbcommit-pages-%s", log->test + 13);
		for (k = 0; k < s->n; k++) {
			const struct rs_figure *p = &s->fig[k];

			if (strcmp(p->test, pages) || strcmp(p->file, log->file) || strcmp(p->disk.slot, log->disk.slot) ||
			    !p->clat_p50_ns)
				continue;
			if (log->sync_p50_ns > 10 * p->clat_p50_ns) {
				found++;
				if (each)
					each(log, log->sync_p50_ns / p->clat_p50_ns, arg);
			}
			break;
		}
	}
	return found;
}

/*
 * The seeds' own tables. YABS: every disk that ran the yabs profile, in
 * YABS's Read / Write / Total layout (its clones added up, as YABS does).
 */
static void yabs_views(const struct rs_set *s)
{
	static const char *const sizes[] = { "4k", "64k", "512k", "1m" };
	unsigned i, k, d, n;

	for (i = 0; i < s->n; i++) {
		const struct rs_figure *first = &s->fig[i];
		struct yabs_column c[4];
		char buf[512];

		if (strncmp(first->test, "yabs-4k ", 8))
			continue;
		/* one table per disk and file: the first yabs-4k figure of each */
		for (k = 0; k < i; k++)
			if (!strncmp(s->fig[k].test, "yabs-4k ", 8) && !strcmp(s->fig[k].file, first->file) &&
			    !strcmp(s->fig[k].disk.slot, first->disk.slot))
				break;
		if (k < i)
			continue;
		memset(c, 0, sizeof(c));
		for (n = 0; n < ARRAY_SIZE(sizes); n++) {
			snprintf(c[n].size, sizeof(c[n].size), "%s", sizes[n]);
			for (k = 0; k < s->n; k++) {
				const struct rs_figure *f = &s->fig[k];
				char want[2][32];

				snprintf(want[0], sizeof(want[0]), "yabs-%s read", sizes[n]);
				snprintf(want[1], sizeof(want[1]), "yabs-%s write", sizes[n]);
				if (strcmp(f->file, first->file) || strcmp(f->disk.slot, first->disk.slot))
					continue;
				for (d = 0; d < 2; d++)
					if (!strcmp(f->test, want[d])) {
						c[n].mbs[d] = f->bw_bytes / 1e6;
						c[n].iops[d] = f->iops;
					}
			}
		}
		printf("\nYABS's table: %s (%s)\n", who(first, buf, sizeof(buf)), first->file);
		yabs_layout(stdout, c, ARRAY_SIZE(sizes));
	}
}

/* The levels' cells of TEST and LEVEL: how many runs, their median ratio and p99. */
static unsigned level_median(const struct rs_set *s, const char *test, const char *level, double *vs, double *p99)
{
	double *v = xcalloc(s->nlv ? s->nlv : 1, sizeof(*v)), *p = xcalloc(s->nlv ? s->nlv : 1, sizeof(*p));
	unsigned i, n = 0;

	for (i = 0; i < s->nlv; i++)
		if (!strcmp(s->lv[i].test, test) && !strcmp(s->lv[i].level, level) && !s->lv[i].failed &&
		    s->lv[i].vs_baseline > 0) {
			v[n] = s->lv[i].vs_baseline;
			p[n++] = s->lv[i].clat_p99_ns;
		}
	*vs = median_of(v, n);
	*p99 = median_of(p, n);
	free(v);
	free(p);
	return n;
}

/* Names in the order they first come: the tests of raid.json cells, or the levels. */
static unsigned firsts(const struct rs_set *s, int levels, const char **out, unsigned max)
{
	unsigned i, k, n = 0;

	for (i = 0; i < s->nlv; i++) {
		const char *name = levels ? s->lv[i].level : s->lv[i].test;

		for (k = 0; k < n && strcmp(out[k], name); k++)
			;
		if (k == n && n < max)
			out[n++] = name;
	}
	return n;
}

/* The Ars comparison and the RAID5-vs-RAID10 one: each level relative to one disk, over all raid.json. */
static void levels_view(const struct rs_set *s)
{
	const char *tests[64], *levels[64];
	unsigned nt = firsts(s, 0, tests, 64), nl = firsts(s, 1, levels, 64), t, l;

	if (!s->nlv)
		return;
	printf("\nRAID levels and ZFS pools relative to one disk (bandwidth; the median over the raid.json files)\n");
	printf("%-28s %-14s %5s %9s %10s\n", "test", "level", "runs", "vs disk", "p99 us");
	for (t = 0; t < nt; t++)
		for (l = 0; l < nl; l++) {
			double vs, p99;
			unsigned n = level_median(s, tests[t], levels[l], &vs, &p99);

			if (n)
				printf("%-28.28s %-14.14s %5u %8.2fx %10.1f\n", l ? "" : tests[t], levels[l], n, vs,
				       p99 / 1000);
		}
}

static void text_fsync(const struct rs_figure *log, double ratio, void *arg)
{
	char buf[512];

	(void)arg;
	printf("  fsync-bound: %s (%s): %s sync p50 %.0f us, %.0fx a page write's\n",
	       log->disk.model[0] ? log->disk.model : "unknown model", who(log, buf, sizeof(buf)), log->test,
	       log->sync_p50_ns / 1000, ratio);
}

static unsigned print_text(const struct rs_set *s, const char **tests, unsigned nt)
{
	unsigned t, k, i, outliers = 0, fsb;
	char a[32], c[32], buf[512];

	printf("bootbench compare: %u result file(s), %u figure(s), grouped by %s\n", s->files, s->n,
	       grouping == BY_MACHINE ? "machine" : grouping == BY_MODEL ? "model and capacity" :
	       "model, firmware and capacity");
	printf("outlier: more than %.0f scaled MADs and %.0f%% from its group's median IOPS, in groups of %d or "
	       "more\n", OUTLIER_MADS, OUTLIER_REL * 100, OUTLIER_MIN_GROUP);
	for (t = 0; t < nt; t++) {
		unsigned ng;
		struct group *g = groups_of(s, tests[t], &ng);

		printf("\n%s\n", tests[t]);
		for (k = 0; k < ng; k++) {
			if (!g[k].compared) {
				printf("  group %s: %u disk(s): too few to compare (%d needed)\n", g[k].key, g[k].n,
				       OUTLIER_MIN_GROUP);
			} else {
				printf("  group %s: %u disks, median %s IOPS (%.1f MB/s), MAD %s IOPS\n", g[k].key, g[k].n,
				       fmt_si(g[k].median, a, sizeof(a)), g[k].median_bw / 1e6, fmt_si(g[k].mad, c, sizeof(c)));
			}
			printf("    %-18s %-18s %-14s %9s %10s %9s %9s\n", "machine", "disk serial", "slot", "IOPS",
			       "MB/s", "p99 us", "vs median");
			for (i = 0; i < g[k].n; i++) {
				const struct member *m = &g[k].m[i];

				printf("    %-18.18s %-18.18s %-14.14s %9s %10.1f %9.1f %+8.1f%%", m->f->disk.machine,
				       m->f->disk.serial[0] ? m->f->disk.serial : "-", m->f->disk.slot,
				       fmt_si(m->f->iops, a, sizeof(a)), m->f->bw_bytes / 1e6, m->f->clat_p99_ns / 1000,
				       fabs(m->dev) < 0.0005 ? 0.0 : m->dev * 100);
				if (m->outlier) {
					outliers++;
					printf("  OUTLIER (%s): %s", m->outlier < 0 ? "slow" : "fast",
					       who(m->f, buf, sizeof(buf)));
				}
				putchar('\n');
			}
		}
		free_groups(g, ng);
	}
	yabs_views(s);
	levels_view(s);
	printf("\n%u outlier(s)\n", outliers);
	fsb = fsync_bound(s, NULL, NULL);
	if (fsb) {
		printf("%u fsync-bound disk(s) (dbcommit):\n", fsb);
		fsync_bound(s, text_fsync, NULL);
	}
	return outliers + fsb;
}

static void csv_field(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

static unsigned print_csv(const struct rs_set *s, const char **tests, unsigned nt)
{
	unsigned t, k, i, outliers = 0;

	printf("test,group,group_disks,compared,group_median_iops,group_mad_iops,machine,disk_serial,slot,model,"
	       "firmware,size_bytes,iops,bw_bytes,clat_p99_ns,deviation,outlier,file\n");
	for (t = 0; t < nt; t++) {
		unsigned ng;
		struct group *g = groups_of(s, tests[t], &ng);

		for (k = 0; k < ng; k++) {
			for (i = 0; i < g[k].n; i++) {
				const struct member *m = &g[k].m[i];

				csv_field(tests[t]);
				putchar(',');
				csv_field(g[k].key);
				printf(",%u,%d,%.3f,%.3f,", g[k].n, g[k].compared, g[k].median, g[k].mad);
				csv_field(m->f->disk.machine);
				putchar(',');
				csv_field(m->f->disk.serial);
				putchar(',');
				csv_field(m->f->disk.slot);
				putchar(',');
				csv_field(m->f->disk.model);
				putchar(',');
				csv_field(m->f->disk.firmware);
				printf(",%llu,%.3f,%.0f,%.0f,%.4f,%s,", (unsigned long long)m->f->disk.size, m->f->iops,
				       m->f->bw_bytes, m->f->clat_p99_ns, m->dev,
				       m->outlier < 0 ? "slow" : m->outlier > 0 ? "fast" : "");
				csv_field(m->f->file);
				putchar('\n');
				outliers += m->outlier != 0;
			}
		}
		free_groups(g, ng);
	}
	return outliers + fsync_bound(s, NULL, NULL);
}

static void json_fsync(const struct rs_figure *log, double ratio, void *arg)
{
	struct json *j = arg;

	json_obj_open(j, NULL);
	json_str(j, "model", log->disk.model);
	json_str(j, "machine", log->disk.machine);
	json_str(j, "disk_serial", log->disk.serial);
	json_str(j, "slot", log->disk.slot);
	json_str(j, "test", log->test);
	json_double(j, "sync_p50_ns", log->sync_p50_ns);
	json_double(j, "vs_page_write", ratio);
	json_obj_close(j);
}

static unsigned print_json(const struct rs_set *s, const char **tests, unsigned nt)
{
	unsigned t, k, i, outliers = 0;
	struct json j;

	json_init(&j, stdout);
	json_obj_open(&j, NULL);
	json_str(&j, "grouped_by", grouping == BY_MACHINE ? "machine" : grouping == BY_MODEL ? "model" : "firmware");
	json_uint(&j, "files", s->files);
	json_uint(&j, "unreadable_files", s->bad);
	json_arr_open(&j, "tests");
	for (t = 0; t < nt; t++) {
		unsigned ng;
		struct group *g = groups_of(s, tests[t], &ng);

		json_obj_open(&j, NULL);
		json_str(&j, "test", tests[t]);
		json_arr_open(&j, "groups");
		for (k = 0; k < ng; k++) {
			json_obj_open(&j, NULL);
			json_str(&j, "group", g[k].key);
			json_uint(&j, "disks", g[k].n);
			json_bool(&j, "compared", g[k].compared);
			json_double(&j, "median_iops", g[k].median);
			json_double(&j, "mad_iops", g[k].mad);
			json_arr_open(&j, "members");
			for (i = 0; i < g[k].n; i++) {
				const struct member *m = &g[k].m[i];

				json_obj_open(&j, NULL);
				json_str(&j, "machine", m->f->disk.machine);
				json_str(&j, "disk_serial", m->f->disk.serial);
				json_str(&j, "slot", m->f->disk.slot);
				json_str(&j, "model", m->f->disk.model);
				json_str(&j, "firmware", m->f->disk.firmware);
				json_uint(&j, "size", m->f->disk.size);
				json_double(&j, "iops", m->f->iops);
				json_double(&j, "bw_bytes", m->f->bw_bytes);
				json_double(&j, "clat_p99_ns", m->f->clat_p99_ns);
				json_double(&j, "deviation", m->dev);
				json_str(&j, "outlier", m->outlier < 0 ? "slow" : m->outlier > 0 ? "fast" : "");
				json_str(&j, "file", m->f->file);
				json_obj_close(&j);
				outliers += m->outlier != 0;
			}
			json_arr_close(&j);
			json_obj_close(&j);
		}
		json_arr_close(&j);
		json_obj_close(&j);
		free_groups(g, ng);
	}
	json_arr_close(&j);
	{
		const char *tests[64], *levels[64];
		unsigned nt2 = firsts(s, 0, tests, 64), nl = firsts(s, 1, levels, 64), l;

		json_arr_open(&j, "levels_vs_one_disk");
		for (t = 0; t < nt2; t++)
			for (l = 0; l < nl; l++) {
				double vs, p99;
				unsigned n = level_median(s, tests[t], levels[l], &vs, &p99);

				if (!n)
					continue;
				json_obj_open(&j, NULL);
				json_str(&j, "test", tests[t]);
				json_str(&j, "level", levels[l]);
				json_uint(&j, "runs", n);
				json_double(&j, "vs_baseline", vs);
				json_double(&j, "clat_p99_ns", p99);
				json_obj_close(&j);
			}
		json_arr_close(&j);
	}
	json_uint(&j, "outliers", outliers);
	json_arr_open(&j, "fsync_bound");
	k = fsync_bound(s, json_fsync, &j);
	json_arr_close(&j);
	json_obj_close(&j);
	putchar('\n');
	return outliers + k;
}

static void html_fsync(const struct rs_figure *log, double ratio, void *arg)
{
	char buf[512];

	(void)arg;
	fputs("<li class=\"bad\">fsync-bound: ", stdout);
	html_escape(stdout, log->disk.model[0] ? log->disk.model : "unknown model");
	printf(" (%s): %s sync p50 %.0f us, %.0fx a page write's</li>\n", who(log, buf, sizeof(buf)), log->test,
	       log->sync_p50_ns / 1000, ratio);
}

/* One page: per test and group a bar per disk (outliers hatched, the median dashed), then the table. */
static unsigned print_html(const struct rs_set *s, const char **tests, unsigned nt)
{
	unsigned t, k, i, outliers = 0, fsb;
	char title[700], buf[512];

	html_begin(stdout, "bootbench compare");
	printf("<p>%u result file(s), %u figure(s), grouped by %s. An OUTLIER lies more than %.0f scaled MADs "
	       "and %.0f%% from its group's median IOPS, in groups of %d or more; its bar is hatched. The dashed "
	       "line is the group's median.</p>\n", s->files, s->n,
	       grouping == BY_MACHINE ? "machine" : grouping == BY_MODEL ? "model and capacity" :
	       "model, firmware and capacity", OUTLIER_MADS, OUTLIER_REL * 100, OUTLIER_MIN_GROUP);
	for (t = 0; t < nt; t++) {
		unsigned ng;
		struct group *g = groups_of(s, tests[t], &ng);

		fputs("<h2>", stdout);
		html_escape(stdout, tests[t]);
		fputs("</h2>\n", stdout);
		for (k = 0; k < ng; k++) {
			const char **labels = xcalloc(g[k].n, sizeof(*labels));
			char (*names)[128] = xcalloc(g[k].n, sizeof(*names));
			double *vals = xcalloc(g[k].n, sizeof(*vals));
			int *mark = xcalloc(g[k].n, sizeof(*mark));

			for (i = 0; i < g[k].n; i++) {
				snprintf(names[i], sizeof(names[i]), "%.60s %.60s", g[k].m[i].f->disk.machine,
					 g[k].m[i].f->disk.slot);
				labels[i] = names[i];
				vals[i] = g[k].m[i].f->iops;
				mark[i] = g[k].m[i].outlier != 0;
				outliers += mark[i];
			}
			if (g[k].compared)
				snprintf(title, sizeof(title), "%s: %u disks, median %.0f IOPS, MAD %.0f", g[k].key,
					 g[k].n, g[k].median, g[k].mad);
			else
				snprintf(title, sizeof(title), "%s: %u disk(s), too few to compare (%d needed)", g[k].key,
					 g[k].n, OUTLIER_MIN_GROUP);
			svg_bars(stdout, title, "IOPS", labels, vals, mark, g[k].n, g[k].compared ? g[k].median : 0);
			fputs("<table><tr><th>machine</th><th>disk serial</th><th>slot</th><th>IOPS</th><th>MB/s</th>"
			      "<th>p99 us</th><th>vs median</th><th></th></tr>\n", stdout);
			for (i = 0; i < g[k].n; i++) {
				const struct member *m = &g[k].m[i];

				fputs("<tr><td>", stdout);
				html_escape(stdout, m->f->disk.machine);
				fputs("</td><td>", stdout);
				html_escape(stdout, m->f->disk.serial[0] ? m->f->disk.serial : "-");
				fputs("</td><td>", stdout);
				html_escape(stdout, m->f->disk.slot);
				printf("</td><td class=\"n\">%.0f</td><td class=\"n\">%.1f</td><td class=\"n\">%.1f</td>"
				       "<td class=\"n\">%+.1f%%</td><td%s>%s</td></tr>\n", m->f->iops, m->f->bw_bytes / 1e6,
				       m->f->clat_p99_ns / 1000, fabs(m->dev) < 0.0005 ? 0.0 : m->dev * 100,
				       m->outlier ? " class=\"bad\"" : "",
				       m->outlier < 0 ? "OUTLIER (slow)" : m->outlier > 0 ? "OUTLIER (fast)" : "");
			}
			fputs("</table>\n", stdout);
			free(labels);
			free(names);
			free(vals);
			free(mark);
		}
		free_groups(g, ng);
	}
	if (s->nlv) {
		const char *tests2[64], *levels[64], *labels[64];
		unsigned nt2 = firsts(s, 0, tests2, 64), nl = firsts(s, 1, levels, 64), l, n;
		char names[64][96];
		double vals[64];

		fputs("<h2>RAID levels and ZFS pools relative to one disk</h2>\n<p>Bandwidth relative to the median "
		      "single disk, the median over the raid.json files; the dashed line is one disk.</p>\n"
		      "<div class=\"charts\">\n", stdout);
		for (t = 0; t < nt2; t++) {
			for (l = 0, n = 0; l < nl; l++) {
				double vs, p99;
				unsigned runs = level_median(s, tests2[t], levels[l], &vs, &p99);

				if (!runs)
					continue;
				snprintf(names[n], sizeof(names[n]), "%s (%u run%s, p99 %.0f us)", levels[l], runs,
					 runs > 1 ? "s" : "", p99 / 1000);
				labels[n] = names[n];
				vals[n++] = vs;
			}
			if (n)
				svg_bars(stdout, tests2[t], "bandwidth relative to one disk (x)", labels, vals, NULL, n, 1.0);
		}
		fputs("</div>\n", stdout);
	}
	printf("<h2>Findings</h2>\n<ul>\n<li>%u outlier(s)</li>\n", outliers);
	for (t = 0; t < nt; t++) {
		unsigned ng;
		struct group *g = groups_of(s, tests[t], &ng);

		for (k = 0; k < ng; k++)
			for (i = 0; i < g[k].n; i++)
				if (g[k].m[i].outlier) {
					fputs("<li class=\"bad\">OUTLIER: ", stdout);
					html_escape(stdout, tests[t]);
					fputs(": ", stdout);
					html_escape(stdout, who(g[k].m[i].f, buf, sizeof(buf)));
					printf(", %+.1f%% from its group's median</li>\n", g[k].m[i].dev * 100);
				}
		free_groups(g, ng);
	}
	fsb = fsync_bound(s, html_fsync, NULL);
	fputs("</ul>\n", stdout);
	html_end(stdout);
	return outliers + fsb;
}

struct compare_opts {
	const char *by, *format;
};

static int compare_main(void *opts, int argc, char **argv)
{
	struct compare_opts *o = opts;
	static const char *const bys[] = { [BY_FIRMWARE] = "firmware", [BY_MODEL] = "model", [BY_MACHINE] = "machine" };
	static const char *const formats[] = { [AS_TEXT] = "text", [AS_CSV] = "csv", [AS_JSON] = "json",
					       [AS_HTML] = "html" };
	enum compare_format format = AS_TEXT;
	struct rs_set set = { 0 };
	const char **tests;
	unsigned nt, found, bad, k;
	int i, paths = argc;

	for (k = 0; o->by && k < ARRAY_SIZE(bys) && strcmp(o->by, bys[k]); k++)
		;
	if (o->by && k == ARRAY_SIZE(bys))
		die_usage("compare: --by=%s: expected model, firmware or machine", o->by);
	if (o->by)
		grouping = (enum by)k;
	for (k = 0; o->format && k < ARRAY_SIZE(formats) && strcmp(o->format, formats[k]); k++)
		;
	if (o->format && k == ARRAY_SIZE(formats))
		die_usage("compare: --format=%s: expected text, csv, json or html", o->format);
	if (o->format)
		format = (enum compare_format)k;
	if (!paths)
		die_usage("compare: no result folder or file named (see 'bootbench compare --help')");
	for (i = 0; i < argc; i++)
		if (argv[i][0] != '-' || !argv[i][1])
			if (rs_load_path(&set, argv[i], stderr))
				die_usage("compare: %s", bb_err);
	if (!set.n && !set.nlv)
		die_usage("compare: no results found in what was named (%u file(s) unreadable)", set.bad);
	tests = tests_of(&set, &nt);
	found = format == AS_CSV ? print_csv(&set, tests, nt) : format == AS_JSON ? print_json(&set, tests, nt) :
		format == AS_HTML ? print_html(&set, tests, nt) : print_text(&set, tests, nt);
	fflush(stdout);
	bad = set.bad;
	free(tests);
	rs_free(&set);
	return found || bad ? EXIT_FAIL : EXIT_OK;
}

/* the help below says 3, 3 and 10%: the figures of stats/robust.h */
_Static_assert(OUTLIER_MIN_GROUP == 3 && (int)(OUTLIER_MADS * 10) == 30 && (int)(OUTLIER_REL * 100 + 0.5) == 10,
	       "compare's help names the outlier rule's figures");

static const struct arg compare_args[] = {
	{ .name = "--by", .kind = ARG_STR, .offset = ARG_AT(struct compare_opts, by), .meta = "model|firmware|machine",
	  .help = "how disks are grouped [firmware]" },
	{ .name = "--format", .kind = ARG_STR, .offset = ARG_AT(struct compare_opts, format), .meta = "text|csv|json|html",
	  .help = "the output [text]" },
	{ NULL },
};

const struct command compare_command = {
	.name = "compare",
	.summary = "many machines' results side by side: groups by model, the outliers named",
	.usage = "[--by=model|firmware|machine] [--format=text|csv|json|html] PATH...",
	.help = "Compares the results under each PATH (result folders, searched recursively, or JSON\n"
		"files: bootbench's runs, profiles and raid baselines, or fio's own JSON) test by test.\n"
		"Disks are grouped by model, firmware and capacity (--by=firmware, the default), by\n"
		"model and capacity (--by=model), or by machine (--by=machine). For each group of 3 or\n"
		"more: the median and MAD of its IOPS, and each disk's deviation from the median; a disk\n"
		"more than 3 scaled MADs (1.4826 x MAD) and 10% away is an OUTLIER, named by machine\n"
		"serial, disk serial and slot. Smaller groups are listed as too small, not compared.\n"
		"dbcommit results name fsync-bound models (a commit's sync p50 over 10x a page write's).\n",
	.exit_status = "0 no outlier, 1 an outlier, a fsync-bound disk or an unreadable file,\n"
		       "2 bad input (no result at all, an unknown option).",
	.args = compare_args,
	.opts_size = sizeof(struct compare_opts),
	.run = compare_main,
};
