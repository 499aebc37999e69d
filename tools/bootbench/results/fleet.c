// SPDX-License-Identifier: MIT
/*
 * fleet.c - many machines' figures grouped (fleet.h): by model, firmware
 * and capacity, by model and capacity, or by machine; each group's median
 * and MAD, and the disks that stray from it (stats/robust.h's rule).
 */
#include "results/fleet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "stats/robust.h"

static void group_key(const struct rs_figure *f, enum fleet_by grouping, char *key, size_t len)
{
	char size[32];

	fmt_iec((double)f->disk.size, size, sizeof(size));
	if (grouping == FLEET_BY_MACHINE)
		snprintf(key, len, "machine %s", f->disk.machine);
	else if (grouping == FLEET_BY_MODEL)
		snprintf(key, len, "%s / %s", f->disk.model[0] ? f->disk.model : "unknown model", size);
	else
		snprintf(key, len, "%s / %s / %s", f->disk.model[0] ? f->disk.model : "unknown model",
			 f->disk.firmware[0] ? f->disk.firmware : "unknown firmware", size);
}

static int by_disk(const void *a, const void *b)
{
	const struct fleet_member *x = a, *y = b;
	int c = strcmp(x->f->disk.machine, y->f->disk.machine);

	return c ? c : strcmp(x->f->disk.slot, y->f->disk.slot);
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct fleet_group *)a)->key, ((const struct fleet_group *)b)->key);
}

/* The groups of TEST's figures, each summed up; caller frees with free_groups. */
struct fleet_group *fleet_groups(const struct rs_set *s, const char *test, enum fleet_by grouping, unsigned *ng)
{
	struct fleet_group *g = NULL;
	unsigned i, k, n = 0;

	for (i = 0; i < s->n; i++) {
		char key[512];

		if (strcmp(s->fig[i].test, test))
			continue;
		group_key(&s->fig[i], grouping, key, sizeof(key));
		for (k = 0; k < n && strcmp(g[k].key, key); k++)
			;
		if (k == n) {
			g = xrealloc(g, (n + 1) * sizeof(*g));
			memset(&g[n], 0, sizeof(*g));
			snprintf(g[n].key, sizeof(g[n].key), "%s", key);
			n++;
		}
		g[k].m = xrealloc(g[k].m, (g[k].n + 1) * sizeof(*g[k].m));
		g[k].m[g[k].n++] = (struct fleet_member){ .f = &s->fig[i] };
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
			struct fleet_member *m = &g[k].m[i];

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

void fleet_free(struct fleet_group *g, unsigned n)
{
	while (n)
		free(g[--n].m);
	free(g);
}

/* The tests in the order their first figure came. */
const char **fleet_tests(const struct rs_set *s, unsigned *nt)
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

const char *fleet_who(const struct rs_figure *f, char *buf, size_t len)
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
unsigned fleet_fsync_bound(const struct rs_set *s, void (*each)(const struct rs_figure *log, double ratio, void *arg),
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

/* The levels' cells of TEST and LEVEL: how many runs, their median ratio and p99. */
unsigned fleet_level_median(const struct rs_set *s, const char *test, const char *level, double *vs, double *p99)
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
unsigned fleet_firsts(const struct rs_set *s, int levels, const char **out, unsigned max)
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

