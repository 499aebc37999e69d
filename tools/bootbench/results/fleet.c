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
#include "sys/machine.h"

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

struct keyed {
	const struct rs_figure *f;
	int anon;		/* its serial is firmware's placeholder (0000000000, a bridge's): no disk's own */
	char key[512];
};

/*
 * Whether X and Y are one disk: its serial, wherever it was measured (a
 * slow disk moved to another machine to confirm it is one vote, its
 * newest run's, not two that pull the median its way); a disk without a
 * serial, or with a placeholder many disks report alike, is its machine
 * and slot (as a machine's placeholder serial is no machine's,
 * sys/machine.c). Its reruns are one disk too.
 */
static int disk_cmp(const struct keyed *kx, const struct keyed *ky)
{
	const struct rs_figure *x = kx->f, *y = ky->f;
	int sx = x->disk.serial[0] && !kx->anon, sy = y->disk.serial[0] && !ky->anon;
	int c = !sx - !sy;

	if (c)
		return c;
	if (sx)
		return strcmp(x->disk.serial, y->disk.serial);
	c = strcmp(x->disk.machine, y->disk.machine);
	return c ? c : strcmp(x->disk.slot, y->disk.slot);
}

/* By group, then disk, its newest run first (then by file, so the order never depends on the walk's). */
static int by_group_disk_newest(const void *a, const void *b)
{
	const struct keyed *x = *(const struct keyed *const *)a, *y = *(const struct keyed *const *)b;
	int c = strcmp(x->key, y->key);

	if (!c)
		c = disk_cmp(x, y);
	if (!c)
		c = x->f->when < y->f->when ? 1 : x->f->when > y->f->when ? -1 : 0;
	if (!c)
		c = -strcmp(x->f->file, y->f->file);
	return c;
}

/*
 * The groups of TEST's figures, each summed up; caller frees with
 * fleet_free. One disk is one member, its newest run (three runs of a
 * disk are one disk, not a group of three that agree). Sorted, not
 * searched pairwise: a share of 10,000 machines is 10,000 groups by
 * machine.
 */
struct fleet_group *fleet_groups(const struct rs_set *s, const char *test, enum fleet_by grouping, unsigned *ng)
{
	struct keyed *k = xcalloc(s->n ? s->n : 1, sizeof(*k)), **o = xcalloc(s->n ? s->n : 1, sizeof(*o));
	struct fleet_group *g = NULL;
	unsigned i, j, n = 0, nk = 0;

	for (i = 0; i < s->n; i++) {
		if (strcmp(s->fig[i].test, test))
			continue;
		k[nk].f = &s->fig[i];
		k[nk].anon = s->fig[i].disk.serial[0] && serial_is_placeholder(s->fig[i].disk.serial);
		group_key(&s->fig[i], grouping, k[nk].key, sizeof(k[nk].key));
		o[nk] = &k[nk];
		nk++;
	}
	if (nk)
		qsort(o, nk, sizeof(*o), by_group_disk_newest);
	for (i = 0; i < nk; i = j) {
		unsigned members = 0;

		for (j = i; j < nk && !strcmp(o[j]->key, o[i]->key); j++)
			;
		g = xrealloc(g, (n + 1) * sizeof(*g));
		memset(&g[n], 0, sizeof(*g));
		snprintf(g[n].key, sizeof(g[n].key), "%s", o[i]->key);
		g[n].m = xcalloc(j - i, sizeof(*g[n].m));
		for (unsigned x = i; x < j; x++) {
			const struct rs_figure *f = o[x]->f;

			if (x > i && !disk_cmp(o[x - 1], o[x]))
				continue;	/* an older run of the disk just taken (in this machine or another) */
			g[n].m[members++] = (struct fleet_member){ .f = f };
		}
		g[n].n = members;
		n++;
	}
	free(o);
	free(k);
	for (i = 0; i < n; i++) {
		double *iops = xcalloc(g[i].n, sizeof(*iops)), *bw = xcalloc(g[i].n, sizeof(*bw));

		qsort(g[i].m, g[i].n, sizeof(*g[i].m), by_disk);
		for (j = 0; j < g[i].n; j++) {
			iops[j] = g[i].m[j].f->iops;
			bw[j] = g[i].m[j].f->bw_bytes;
		}
		g[i].median = median_of(iops, g[i].n);
		g[i].median_bw = median_of(bw, g[i].n);
		g[i].mad = mad_of(iops, g[i].n, g[i].median);
		g[i].compared = g[i].n >= OUTLIER_MIN_GROUP;
		for (j = 0; j < g[i].n; j++) {
			struct fleet_member *m = &g[i].m[j];

			m->dev = g[i].median > 0 ? m->f->iops / g[i].median - 1 : 0;
			if (g[i].compared && is_outlier(m->f->iops, g[i].median, g[i].mad))
				m->outlier = m->f->iops < g[i].median ? -1 : 1;
		}
		free(iops);
		free(bw);
	}
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

