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

#include "lib/args.h"
#include "lib/json.h"
#include "lib/util.h"
#include "lib/wrap.h"
#include "profiles/profiles.h"
#include "report/html.h"
#include "report/svg.h"
#include "results/fleet.h"
#include "results/inventory.h"
#include "results/load.h"
#include "stats/robust.h"

enum compare_format { AS_TEXT, AS_CSV, AS_JSON, AS_HTML };

/* --by: the rule the groups are made by */
static enum fleet_by grouping;

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
		char line[1024];

		snprintf(line, sizeof(line), "YABS's table: %s (%s)", fleet_who(first, buf, sizeof(buf)), first->file);
		putchar('\n');
		wrap_print(stdout, "", line, wrap_width());
		yabs_layout(stdout, c, ARRAY_SIZE(sizes));
	}
}

/* The Ars comparison and the RAID5-vs-RAID10 one: each level relative to one disk, over all raid.json. */
static void levels_view(const struct rs_set *s)
{
	const char *tests[64], *levels[64];
	unsigned nt = fleet_firsts(s, 0, tests, 64), nl = fleet_firsts(s, 1, levels, 64), t, l;

	if (!s->nlv)
		return;
	putchar('\n');
	wrap_print(stdout, "", "RAID levels and ZFS pools relative to one disk (bandwidth; the median over the raid.json "
		   "files)", wrap_width());
	printf("%-28s %-14s %5s %9s %10s\n", "test", "level", "runs", "vs disk", "p99 us");
	for (t = 0; t < nt; t++)
		for (l = 0; l < nl; l++) {
			double vs, p99;
			unsigned n = fleet_level_median(s, tests[t], levels[l], &vs, &p99);

			if (n)
				printf("%-28.28s %-14.14s %5u %8.2fx %10.1f\n", l ? "" : tests[t], levels[l], n, vs,
				       p99 / 1000);
		}
}

static void text_fsync(const struct rs_figure *log, double ratio, void *arg)
{
	char buf[512], line[1024];

	(void)arg;
	snprintf(line, sizeof(line), "%s (%s): %s sync p50 %.0f us, %.0fx a page write's",
		 log->disk.model[0] ? log->disk.model : "unknown model", fleet_who(log, buf, sizeof(buf)), log->test,
		 log->sync_p50_ns / 1000, ratio);
	wrap_print(stdout, "  fsync-bound: ", line, wrap_width());
}

static unsigned print_text(const struct rs_set *s, const char **tests, unsigned nt)
{
	unsigned t, k, i, outliers = 0, fsb;
	char a[32], c[32], buf[512], line[1024];
	/* the table is 97 columns (and an outlier's note after it): a terminal narrower gets it as lines */
	int width = wrap_width(), narrow = width && width < 100;

	snprintf(buf, sizeof(buf), "bootbench compare: %u result file(s), %u figure(s), grouped by %s", s->files, s->n,
		 grouping == FLEET_BY_MACHINE ? "machine" : grouping == FLEET_BY_MODEL ? "model and capacity" :
		 "model, firmware and capacity");
	wrap_print(stdout, "", buf, width);
	snprintf(buf, sizeof(buf), "outlier: more than %.0f scaled MADs and %.0f%% from its group's median IOPS, in "
		 "groups of %d or more", OUTLIER_MADS, OUTLIER_REL * 100, OUTLIER_MIN_GROUP);
	wrap_print(stdout, "", buf, width);
	for (t = 0; t < nt; t++) {
		unsigned ng;
		struct fleet_group *g = fleet_groups(s, tests[t], grouping, &ng);

		printf("\n%s\n", tests[t]);
		for (k = 0; k < ng; k++) {
			if (!g[k].compared) {
				snprintf(line, sizeof(line), "group %s: %u disk(s): too few to compare (%d needed)", g[k].key,
					 g[k].n, OUTLIER_MIN_GROUP);
			} else {
				snprintf(line, sizeof(line), "group %s: %u disks, median %s IOPS (%.1f MB/s), MAD %s IOPS",
					 g[k].key, g[k].n, fmt_si(g[k].median, a, sizeof(a)), g[k].median_bw / 1e6,
					 fmt_si(g[k].mad, c, sizeof(c)));
			}
			wrap_print(stdout, "  ", line, width);
			if (narrow) {
				/* a console too narrow for the table: a disk's name on a line, its figures folded under it */
				for (i = 0; i < g[k].n; i++) {
					const struct fleet_member *m = &g[k].m[i];
					char text[1024];
					int at;

					/* folded too: a slot named by its by-id path runs past 80 alone */
					snprintf(text, sizeof(text), "%s, disk %s%s%s", m->f->disk.machine,
						 m->f->disk.serial[0] ? m->f->disk.serial : "-", m->f->disk.slot[0] ? ", slot " : "",
						 m->f->disk.slot);
					wrap_print(stdout, "    ", text, width);
					at = snprintf(text, sizeof(text), "%s IOPS, %.1f MB/s, p99 %.1f us, %+.1f%% from the median",
						      fmt_si(m->f->iops, a, sizeof(a)), m->f->bw_bytes / 1e6,
						      m->f->clat_p99_ns / 1000, fabs(m->dev) < 0.0005 ? 0.0 : m->dev * 100);
					if (m->outlier) {
						outliers++;
						snprintf(text + at, sizeof(text) - at, "; OUTLIER (%s): %s",
							 m->outlier < 0 ? "slow" : "fast", fleet_who(m->f, buf, sizeof(buf)));
					}
					wrap_print(stdout, "      ", text, width);
				}
				continue;
			}
			printf("    %-18s %-18s %-14s %9s %10s %9s %9s\n", "machine", "disk serial", "slot", "IOPS",
			       "MB/s", "p99 us", "vs median");
			for (i = 0; i < g[k].n; i++) {
				const struct fleet_member *m = &g[k].m[i];

				char mc[160], sc[160], pc[160];
				int cut = wrap_cell(mc, sizeof(mc), m->f->disk.machine, 18) |
					  wrap_cell(sc, sizeof(sc), m->f->disk.serial[0] ? m->f->disk.serial : "-", 18) |
					  wrap_cell(pc, sizeof(pc), m->f->disk.slot, 14);

				char row[256], note[512] = "";
				int at = snprintf(row, sizeof(row), "    %-18s %-18s %-14s %9s %10.1f %9.1f %+8.1f%%", mc,
						  sc, pc, fmt_si(m->f->iops, a, sizeof(a)), m->f->bw_bytes / 1e6,
						  m->f->clat_p99_ns / 1000, fabs(m->dev) < 0.0005 ? 0.0 : m->dev * 100);

				if (m->outlier) {
					outliers++;
					snprintf(note, sizeof(note), "OUTLIER (%s): %s", m->outlier < 0 ? "slow" : "fast",
						 fleet_who(m->f, buf, sizeof(buf)));
				}
				/* the note beside its row where the console has room, else folded under it */
				if (note[0] && width && at + 2 + (int)strlen(note) > width) {
					printf("%s\n", row);
					wrap_print(stdout, "      ", note, width);
				} else {
					printf("%s%s%s\n", row, note[0] ? "  " : "", note);
				}
				if (cut && !m->outlier)	/* an outlier's line names it whole already */
					wrap_print(stdout, "      ", fleet_who(m->f, buf, sizeof(buf)), width);
			}
		}
		fleet_free(g, ng);
	}
	yabs_views(s);
	levels_view(s);
	printf("\n%u outlier(s)\n", outliers);
	fsb = fleet_fsync_bound(s, NULL, NULL);
	if (fsb) {
		printf("%u fsync-bound disk(s) (dbcommit):\n", fsb);
		fleet_fsync_bound(s, text_fsync, NULL);
	}
	return outliers + fsb;
}

static void csv_field(const char *s)
{
	csv_quote(stdout, s);
}

static unsigned print_csv(const struct rs_set *s, const char **tests, unsigned nt)
{
	unsigned t, k, i, outliers = 0;

	printf("test,group,group_disks,compared,group_median_iops,group_mad_iops,machine,disk_serial,slot,model,"
	       "firmware,size_bytes,iops,bw_bytes,clat_p99_ns,deviation,outlier,file\n");
	for (t = 0; t < nt; t++) {
		unsigned ng;
		struct fleet_group *g = fleet_groups(s, tests[t], grouping, &ng);

		for (k = 0; k < ng; k++) {
			for (i = 0; i < g[k].n; i++) {
				const struct fleet_member *m = &g[k].m[i];

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
		fleet_free(g, ng);
	}
	return outliers + fleet_fsync_bound(s, NULL, NULL);
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
	json_str(&j, "grouped_by", grouping == FLEET_BY_MACHINE ? "machine" : grouping == FLEET_BY_MODEL ? "model" : "firmware");
	json_uint(&j, "files", s->files);
	json_uint(&j, "unreadable_files", s->bad);
	json_arr_open(&j, "tests");
	for (t = 0; t < nt; t++) {
		unsigned ng;
		struct fleet_group *g = fleet_groups(s, tests[t], grouping, &ng);

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
				const struct fleet_member *m = &g[k].m[i];

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
		fleet_free(g, ng);
	}
	json_arr_close(&j);
	{
		const char *tests[64], *levels[64];
		unsigned nt2 = fleet_firsts(s, 0, tests, 64), nl = fleet_firsts(s, 1, levels, 64), l;

		json_arr_open(&j, "levels_vs_one_disk");
		for (t = 0; t < nt2; t++)
			for (l = 0; l < nl; l++) {
				double vs, p99;
				unsigned n = fleet_level_median(s, tests[t], levels[l], &vs, &p99);

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
	k = fleet_fsync_bound(s, json_fsync, &j);
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
	printf(" (%s): %s sync p50 %.0f us, %.0fx a page write's</li>\n", fleet_who(log, buf, sizeof(buf)), log->test,
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
	       grouping == FLEET_BY_MACHINE ? "machine" : grouping == FLEET_BY_MODEL ? "model and capacity" :
	       "model, firmware and capacity", OUTLIER_MADS, OUTLIER_REL * 100, OUTLIER_MIN_GROUP);
	for (t = 0; t < nt; t++) {
		unsigned ng;
		struct fleet_group *g = fleet_groups(s, tests[t], grouping, &ng);

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
				const struct fleet_member *m = &g[k].m[i];

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
		fleet_free(g, ng);
	}
	if (s->nlv) {
		const char *tests2[64], *levels[64], *labels[64];
		unsigned nt2 = fleet_firsts(s, 0, tests2, 64), nl = fleet_firsts(s, 1, levels, 64), l, n;
		char names[64][96];
		double vals[64];

		fputs("<h2>RAID levels and ZFS pools relative to one disk</h2>\n<p>Bandwidth relative to the median "
		      "single disk, the median over the raid.json files; the dashed line is one disk.</p>\n"
		      "<div class=\"charts\">\n", stdout);
		for (t = 0; t < nt2; t++) {
			for (l = 0, n = 0; l < nl; l++) {
				double vs, p99;
				unsigned runs = fleet_level_median(s, tests2[t], levels[l], &vs, &p99);

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
		struct fleet_group *g = fleet_groups(s, tests[t], grouping, &ng);

		for (k = 0; k < ng; k++)
			for (i = 0; i < g[k].n; i++)
				if (g[k].m[i].outlier) {
					fputs("<li class=\"bad\">OUTLIER: ", stdout);
					html_escape(stdout, tests[t]);
					fputs(": ", stdout);
					html_escape(stdout, fleet_who(g[k].m[i].f, buf, sizeof(buf)));
					printf(", %+.1f%% from its group's median</li>\n", g[k].m[i].dev * 100);
				}
		fleet_free(g, ng);
	}
	fsb = fleet_fsync_bound(s, html_fsync, NULL);
	fputs("</ul>\n", stdout);
	html_end(stdout);
	return outliers + fsb;
}

/*
 * The group's DIMMs that run below their rated speed, whatever the others
 * do (a model whose every machine is held there differs in nothing): the
 * machines that run alike on one line. Named, not counted as differing: a
 * CPU, or two DIMMs a channel, may hold them there by design.
 */
static void slow_text(const struct inv_group *g)
{
	char (*line)[512] = xcalloc(g->n, sizeof(*line));
	unsigned i, k, any = 0;

	for (i = 0; i < g->n; i++)
		any |= *inv_slow_summary(g->m[i], line[i], sizeof(line[i])) != 0;
	if (any)
		printf("  DIMMs running below their rated speed (named, not counted as differing: a CPU or two DIMMs a "
		       "channel may hold them there):\n");
	for (i = 0; i < g->n; i++) {
		if (!line[i][0])
			continue;
		for (k = 0; k < i && strcmp(line[k], line[i]); k++)
			;
		if (k < i)
			continue;	/* on the line of the first that runs alike */
		printf("   ");
		for (k = i; k < g->n; k++)
			if (!strcmp(line[k], line[i]))
				printf(" %s", g->m[k]->machine);
		printf(": %s\n", line[i]);
	}
	free(line);
}

/* --inventory: each model's machines, and who differs from the majority in what. Returns how many differ. */
static unsigned inventory_text(const struct inv_set *set, const struct inv_group *g, unsigned ng)
{
	unsigned k, i, differ = 0;

	printf("bootbench compare --inventory: %u machine(s) from %u inventory file(s)%s, %u system model(s)\n",
	       set->n, set->files, set->repeats ? " (older ones of a machine left out)" : "", ng);
	for (k = 0; k < ng; k++) {
		const struct inv_machine *last = NULL;
		unsigned n_differ = 0, alike = 0;

		for (i = 0; i < g[k].ndiffs; i++)
			if (g[k].diffs[i].m != last) {
				last = g[k].diffs[i].m;
				n_differ++;
			}
		printf("\n%s: %u machine(s), %u differ%s\n", g[k].model, g[k].n, n_differ,
		       g[k].n < 3 && n_differ ? " (too few to say which is the odd one out)" : "");
		printf("  alike:");
		for (i = 0; i < g[k].n; i++) {
			unsigned d;

			for (d = 0; d < g[k].ndiffs && g[k].diffs[d].m != g[k].m[i]; d++)
				;
			if (d == g[k].ndiffs) {
				printf(" %s", g[k].m[i]->machine);
				alike++;
			}
		}
		printf("%s\n", alike ? "" : " none");
		for (i = 0, last = NULL; i < g[k].ndiffs; i++) {
			const struct inv_diff *d = &g[k].diffs[i];

			if (d->m != last) {
				printf("  %s (%s):\n", d->m->machine, d->m->file);
				last = d->m;
			}
			if (d->majority)
				printf("    %s: %s (the others: %s)\n", d->part, d->value, d->majority);
			else
				printf("    %s: %s (no majority)\n", d->part, d->value);
		}
		slow_text(&g[k]);
		differ += n_differ;
	}
	return differ;
}

static unsigned inventory_json(const struct inv_set *set, const struct inv_group *g, unsigned ng)
{
	unsigned k, i, differ = 0;
	struct json j;

	json_init(&j, stdout);
	json_obj_open(&j, NULL);
	json_uint(&j, "machines", set->n);
	json_uint(&j, "files", set->files);
	json_uint(&j, "unreadable", set->bad);
	json_arr_open(&j, "models");
	for (k = 0; k < ng; k++) {
		const struct inv_machine *last = NULL;

		json_obj_open(&j, NULL);
		json_str(&j, "model", g[k].model);
		json_arr_open(&j, "machines");
		for (i = 0; i < g[k].n; i++)
			json_str(&j, NULL, g[k].m[i]->machine);
		json_arr_close(&j);
		json_arr_open(&j, "differ");
		for (i = 0; i < g[k].ndiffs; i++) {
			const struct inv_diff *d = &g[k].diffs[i];

			if (d->m != last) {
				if (last) {
					json_arr_close(&j);
					json_obj_close(&j);
				}
				json_obj_open(&j, NULL);
				json_str(&j, "machine", d->m->machine);
				json_str(&j, "file", d->m->file);
				json_arr_open(&j, "parts");
				last = d->m;
				differ++;
			}
			json_obj_open(&j, NULL);
			json_str(&j, "part", d->part);
			json_str(&j, "value", d->value);
			json_str(&j, "majority", d->majority ? d->majority : "");
			json_obj_close(&j);
		}
		if (last) {
			json_arr_close(&j);
			json_obj_close(&j);
		}
		json_arr_close(&j);
		json_arr_open(&j, "below_rated_speed");
		for (i = 0; i < g[k].n; i++)
			for (unsigned s = 0; s < g[k].m[i]->nslow; s++) {
				const struct inv_slow_dimm *d = &g[k].m[i]->slow[s];

				json_obj_open(&j, NULL);
				json_str(&j, "machine", g[k].m[i]->machine);
				json_str(&j, "slot", d->slot);
				json_uint(&j, "running_mts", d->running);
				json_uint(&j, "rated_mts", d->rated);
				json_obj_close(&j);
			}
		json_arr_close(&j);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	json_obj_close(&j);
	putchar('\n');
	return differ;
}

static int compare_inventories(int argc, char **argv, enum compare_format format)
{
	struct inv_set set = { 0 };
	struct inv_group *g;
	unsigned ng, differ;
	int i;

	if (format == AS_CSV || format == AS_HTML)
		die_usage("compare: --inventory: --format=text or json");
	for (i = 0; i < argc; i++)
		if (inv_load_path(&set, argv[i], stderr))
			die_usage("compare: %s", bb_err);
	if (!set.n)
		die_usage("compare: --inventory: no inventory.json in what was named (%u file(s) unreadable)", set.bad);
	g = inv_groups(&set, &ng);
	differ = format == AS_JSON ? inventory_json(&set, g, ng) : inventory_text(&set, g, ng);
	fflush(stdout);
	inv_groups_free(g, ng);
	i = set.bad;
	inv_free(&set);
	return differ || i ? EXIT_FAIL : EXIT_OK;
}

struct compare_opts {
	const char *by, *format;
	int inventory;
};

static int compare_main(void *opts, int argc, char **argv)
{
	struct compare_opts *o = opts;
	static const char *const bys[] = { [FLEET_BY_FIRMWARE] = "firmware", [FLEET_BY_MODEL] = "model", [FLEET_BY_MACHINE] = "machine" };
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
		grouping = (enum fleet_by)k;
	for (k = 0; o->format && k < ARRAY_SIZE(formats) && strcmp(o->format, formats[k]); k++)
		;
	if (o->format && k == ARRAY_SIZE(formats))
		die_usage("compare: --format=%s: expected text, csv, json or html", o->format);
	if (o->format)
		format = (enum compare_format)k;
	if (!paths)
		die_usage("compare: no result folder or file named (see 'bootbench compare --help')");
	if (o->inventory) {
		if (o->by)
			die_usage("compare: --by groups disks; --inventory groups machines by system model");
		return compare_inventories(argc, argv, format);
	}
	for (i = 0; i < argc; i++)
		if (argv[i][0] != '-' || !argv[i][1])
			if (rs_load_path(&set, argv[i], stderr))
				die_usage("compare: %s", bb_err);
	if (!set.n && !set.nlv)
		die_usage("compare: no results found in what was named (%u file(s) unreadable)", set.bad);
	tests = fleet_tests(&set, &nt);
	found = format == AS_CSV ? print_csv(&set, tests, nt) : format == AS_JSON ? print_json(&set, tests, nt) :
		format == AS_HTML ? print_html(&set, tests, nt) : print_text(&set, tests, nt);
	fflush(stdout);
	bad = set.bad;
	free(tests);
	rs_free(&set);
	return found || bad ? EXIT_FAIL : EXIT_OK;
}

/* the help below says 3, 3 and 10%: the figures of stats/robust.h. Floating
 * arithmetic in a static assertion is gcc's extension: clang (make fuzz's
 * compiler) refuses it, and gcc's builds check it for every other build. */
_Static_assert(OUTLIER_MIN_GROUP == 3, "compare's help names the outlier rule's group size");
#ifndef __clang__
_Static_assert((int)(OUTLIER_MADS * 10) == 30 && (int)(OUTLIER_REL * 100 + 0.5) == 10,
	       "compare's help names the outlier rule's figures");
#endif

static const struct arg compare_args[] = {
	{ .name = "--by", .kind = ARG_STR, .offset = ARG_AT(struct compare_opts, by), .meta = "model|firmware|machine",
	  .help = "how disks are grouped [firmware]" },
	{ .name = "--format", .kind = ARG_STR, .offset = ARG_AT(struct compare_opts, format), .meta = "text|csv|json|html",
	  .help = "the output [text]" },
	{ .name = "--inventory", .kind = ARG_FLAG, .offset = ARG_AT(struct compare_opts, inventory),
	  .help = "compare the machines' inventory.json instead: by system model, the\n"
		  "machines that differ from their model's majority named with what differs" },
	{ NULL },
};

const struct command compare_command = {
	.name = "compare",
	.summary = "many machines' results side by side: groups by model, the outliers named",
	.usage = "[--by=model|firmware|machine] [--format=text|csv|json|html] PATH...\n"
		 "--inventory [--format=text|json] PATH...",
	.help = "Compares the results under each PATH (result folders, searched recursively, or JSON\n"
		"files: bootbench's runs, profiles and raid baselines, or fio's own JSON) test by test.\n"
		"Disks are grouped by model, firmware and capacity (--by=firmware, the default), by\n"
		"model and capacity (--by=model), or by machine (--by=machine). For each group of 3 or\n"
		"more: the median and MAD of its IOPS, and each disk's deviation from the median; a disk\n"
		"more than 3 scaled MADs (1.4826 x MAD) and 10% away is an OUTLIER, named by machine\n"
		"serial, disk serial and slot. Smaller groups are listed as too small, not compared.\n"
		"dbcommit results name fsync-bound models (a commit's sync p50 over 10x a page write's).\n"
		"With --inventory: every inventory.json under each PATH (one a machine, its newest),\n"
		"machines grouped by system model (SMBIOS vendor and product); for each part (BIOS,\n"
		"board, CPUs and microcode, each memory slot, NICs, disks by model and size, each PCI\n"
		"device and its PCIe link, the BMC) a machine that is not its group's majority is\n"
		"named with what it has and what the others have: a missing DIMM, another BIOS, a\n"
		"disk's odd firmware, DIMMs running at 2400 MT/s where its twins' run at 3200, a\n"
		"card trained at x4 where its twins are x16. Serials, MACs and UUIDs differ between\n"
		"twins and are not compared. DIMMs running below their rated speed are listed too,\n"
		"whatever their twins do (not counted as differing: a CPU or two DIMMs a channel\n"
		"may hold them there by design).\n",
	.exit_status = "0 no outlier (no machine that differs), 1 an outlier, a fsync-bound disk, a\n"
		       "machine that differs or an unreadable file,\n"
		       "2 bad input (no result at all, an unknown option).",
	.args = compare_args,
	.opts_size = sizeof(struct compare_opts),
	.run = compare_main,
};
