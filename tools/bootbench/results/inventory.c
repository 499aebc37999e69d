// SPDX-License-Identifier: MIT
/*
 * inventory.c - a fleet's inventories compared (inventory.h). A machine's
 * parts become facts, one a part, named so that twins name them alike: a
 * memory slot by its locators, a NIC by its kernel name, a PCI device by
 * its address, disks by model and size (their names move between boots;
 * how many of each firmware is the fact). What differs between twins by
 * nature (serials, MACs, UUIDs, when it was taken) is no fact. A memory
 * slot's fact holds the speed the DIMM runs at beside the one it is rated
 * for, so a machine whose DIMMs run slower than its twins' differs; a DIMM
 * running below its rating is also listed whatever its twins do (a CPU, or
 * two DIMMs a channel, may hold it there by design). Strings are from a
 * share, so cut to printable ASCII before they are shown.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "results/inventory.h"
#include "results/load.h"
#include "sys/inventory.h"
#include "sys/nics.h"

int inv_is_inventory(json_t *j)
{
	return json_is_object(j) && json_is_integer(json_object_get(j, "format")) &&
	       json_is_string(json_object_get(j, "machine")) && json_is_array(json_object_get(j, "pci"));
}

static void fact(struct inv_machine *m, const char *part, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fact(struct inv_machine *m, const char *part, const char *fmt, ...)
{
	struct inv_fact *f;
	va_list ap;
	unsigned i;

	for (i = 0; i < m->nfacts; i++)
		if (!strcmp(m->facts[i].part, part))
			return;		/* the first of a name counts (two slots called alike) */
	m->facts = xrealloc(m->facts, (m->nfacts + 1) * sizeof(*m->facts));
	f = &m->facts[m->nfacts++];
	snprintf(f->part, sizeof(f->part), "%s", part);
	va_start(ap, fmt);
	vsnprintf(f->value, sizeof(f->value), fmt, ap);
	va_end(ap);
	printable_ascii(f->part);
	printable_ascii(f->value);
}

/* A string of the inventory; eight of them may be in use at once (one fact's parts). */
static const char *str_at(json_t *obj, const char *path)
{
	static char ring[8][256];
	static unsigned next;

	return rs_str(obj, path, ring[next++ % 8], sizeof(ring[0]));
}

/* Three strings, the empty ones left out; "not given" when all are. */
static const char *words(const char *a, const char *b, const char *c)
{
	static char out[512];
	const char *w[] = { a, b, c };
	size_t used = 0;
	unsigned i;

	out[0] = 0;
	for (i = 0; i < 3; i++)
		if (*w[i] && used < sizeof(out))
			used += (size_t)snprintf(out + used, sizeof(out) - used, "%s%s", used ? " " : "", w[i]);
	return used ? out : "not given";
}

static void size_text(double bytes, char *out, size_t len)
{
	fmt_iec(bytes, out, len);
}

/*
 * A filled slot's fact (SIZE, type, rated speed, the speed it runs at, its
 * maker and part), and the slot noted in M->slow when it runs below its
 * rating. A speed the firmware did not give is said so, never taken as
 * the rated one.
 */
static void dimm_fact(struct inv_machine *m, const char *part, const char *size, json_t *e)
{
	double rated = rs_num(e, "speed_mts"), running = rs_num(e, "configured_mts");
	char speed[48] = "", runs[48];

	if (rated > 0)
		snprintf(speed, sizeof(speed), " %.0f MT/s", rated);
	if (running > 0)
		snprintf(runs, sizeof(runs), "running at %.0f MT/s", running);
	else
		snprintf(runs, sizeof(runs), "running speed not given");
	fact(m, part, "%s %s%s, %s, %s", size, str_at(e, "type"), speed, runs,
	     words(str_at(e, "manufacturer"), str_at(e, "part"), ""));
	if (rated > 0 && running > 0 && running < rated) {
		struct inv_slow_dimm *d;

		m->slow = xrealloc(m->slow, (m->nslow + 1) * sizeof(*m->slow));
		d = &m->slow[m->nslow++];
		snprintf(d->slot, sizeof(d->slot), "%s", part);
		printable_ascii(d->slot);
		d->running = (unsigned)running;
		d->rated = (unsigned)rated;
	}
}

const char *inv_slow_summary(const struct inv_machine *m, char *buf, size_t len)
{
	size_t used = 0;
	unsigned i, alike = 1;

	buf[0] = 0;
	for (i = 1; i < m->nslow; i++)
		alike &= m->slow[i].running == m->slow[0].running && m->slow[i].rated == m->slow[0].rated;
	if (m->nslow && alike && m->nslow == m->ndimms) {
		snprintf(buf, len, "%s %u DIMM%s at %u MT/s, rated %u MT/s", m->nslow > 1 ? "all" : "its", m->nslow,
			 m->nslow > 1 ? "s" : "", m->slow[0].running, m->slow[0].rated);
		return buf;
	}
	for (i = 0; i < m->nslow && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s at %u MT/s, rated %u MT/s", i ? "; " : "",
					 m->slow[i].slot, m->slow[i].running, m->slow[i].rated);
	return buf;
}

static void facts_of(struct inv_machine *m, json_t *j)
{
	size_t i;
	json_t *e;
	char part[200], a[48];
	uint64_t dimm_total = 0;
	unsigned dimms = 0;

	fact(m, "bios", "%s", words(str_at(j, "bios.vendor"), str_at(j, "bios.version"), str_at(j, "bios.date")));
	fact(m, "board", "%s", words(str_at(j, "board.vendor"), str_at(j, "board.product"), str_at(j, "board.version")));
	fact(m, "cpu", "%s", str_at(j, "cpus.model"));
	fact(m, "cpu count", "%s socket(s), %s cores, %s threads", str_at(j, "cpus.sockets"), str_at(j, "cpus.cores"),
	     str_at(j, "cpus.threads"));
	fact(m, "cpu microcode", "%s", str_at(j, "cpus.microcode"));
	json_array_foreach(json_object_get(json_object_get(j, "memory"), "dimms"), i, e) {
		double size = rs_num(e, "size_bytes");

		snprintf(part, sizeof(part), "slot %s%s%s", str_at(e, "slot"), *str_at(e, "bank") ? " " : "", str_at(e, "bank"));
		if (size <= 0) {
			fact(m, part, "empty");
			continue;
		}
		size_text(size, a, sizeof(a));
		dimm_fact(m, part, a, e);
		dimm_total += (uint64_t)size;
		dimms++;
	}
	m->ndimms = dimms;
	if (dimms) {
		size_text((double)dimm_total, a, sizeof(a));
		fact(m, "memory", "%s in %u DIMMs", a, dimms);
	} else {
		/* no slots in the table: what the kernel sees, to the GiB (firmware reserves a little) */
		fact(m, "memory", "about %.0f GiB (no DIMMs in the SMBIOS table)",
		     rs_num(j, "memory.total_bytes") / (1024.0 * 1024 * 1024));
	}
	json_array_foreach(json_object_get(j, "nics"), i, e) {
		double speed = rs_num(e, "speed_mbps");

		snprintf(part, sizeof(part), "nic %s", str_at(e, "name"));
		/* the state and speed alone, not the carrier: inventories before issue 48 have none,
		 * and a fleet of old and new files would differ in words where the links do not */
		nic_link_words(str_at(e, "state"), -1, speed, a, sizeof(a));
		fact(m, part, "%s, firmware %s, %s", str_at(e, "driver"), *str_at(e, "firmware") ? str_at(e, "firmware") : "-", a);
	}
	/* disks: how many of each firmware, per model and size */
	json_array_foreach(json_object_get(j, "disks"), i, e) {
		char value[320] = "", model[128], fw[64];
		size_t x;
		json_t *o;

		size_text(rs_num(e, "size_bytes"), a, sizeof(a));
		snprintf(model, sizeof(model), "%s", *str_at(e, "model") ? str_at(e, "model") : "unknown model");
		snprintf(part, sizeof(part), "disk %s (%s, %s)", model, a, str_at(e, "transport"));
		for (x = 0; x < m->nfacts && strcmp(m->facts[x].part, part); x++)
			;
		if (x < m->nfacts)
			continue;	/* counted with the first of its kind */
		{
			const char *fws[64];
			unsigned counts[64], nfw = 0, f;
			size_t y;

			json_array_foreach(json_object_get(j, "disks"), y, o) {
				char om[128], oa[32];

				snprintf(om, sizeof(om), "%s", *str_at(o, "model") ? str_at(o, "model") : "unknown model");
				size_text(rs_num(o, "size_bytes"), oa, sizeof(oa));
				if (strcmp(om, model) || strcmp(oa, a) || strcmp(str_at(o, "transport"), str_at(e, "transport")))
					continue;
				snprintf(fw, sizeof(fw), "%s", *str_at(o, "firmware") ? str_at(o, "firmware") : "-");
				for (f = 0; f < nfw && strcmp(fws[f], fw); f++)
					;
				if (f == nfw && nfw < 64) {
					fws[nfw] = xstrdup(fw);
					counts[nfw++] = 0;
				}
				if (f < nfw)
					counts[f]++;
			}
			for (f = 0; f < nfw; f++) {
				size_t used = strlen(value);

				snprintf(value + used, sizeof(value) - used, "%s%u x firmware %s", f ? ", " : "", counts[f],
					 fws[f]);
				free((char *)fws[f]);
			}
		}
		fact(m, part, "%s", value);
	}
	json_array_foreach(json_object_get(j, "pci"), i, e) {
		char link[96] = "";

		snprintf(part, sizeof(part), "pci %s", str_at(e, "address"));
		if (rs_num(e, "max_width") > 0)
			snprintf(link, sizeof(link), ", x%.0f %s (can x%.0f %s)", rs_num(e, "link_width"),
				 str_at(e, "link_speed"), rs_num(e, "max_width"), str_at(e, "max_speed"));
		fact(m, part, "%s %s%s", str_at(e, "id"), *str_at(e, "driver") ? str_at(e, "driver") : "no driver", link);
	}
	if (json_is_true(json_object_get(json_object_get(j, "bmc"), "present")))
		fact(m, "bmc", "firmware %s", *str_at(j, "bmc.firmware") ? str_at(j, "bmc.firmware") : "not read");
	else
		fact(m, "bmc", "none");
}

struct load_args {
	struct inv_set *set;
	FILE *errs;
};

static void load_one(const char *file, void *arg)
{
	struct load_args *a = arg;
	struct inv_set *set = a->set;
	const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	struct inv_machine m = { 0 };
	char buf[256];
	json_t *j;
	unsigned i;

	if (strcmp(base, "inventory.json"))
		return;
	if (!(j = rs_read_json(file))) {
		fprintf(a->errs, "%s\n", bb_err);
		set->bad++;
		return;
	}
	if (!inv_is_inventory(j) || rs_num(j, "format") > INVENTORY_FORMAT) {
		fprintf(a->errs, "%s: not an inventory bootbench reads (format %s)\n", file,
			rs_str(j, "format", buf, sizeof(buf)));
		set->bad++;
		json_decref(j);
		return;
	}
	set->files++;
	rs_str(j, "machine", m.machine, sizeof(m.machine));
	rs_str(j, "taken", m.taken, sizeof(m.taken));
	snprintf(m.model, sizeof(m.model), "%s %s", rs_str(j, "system.vendor", buf, sizeof(buf)),
		 rs_str(j, "system.product", buf + 128, 128));
	if (!strcmp(m.model, " "))
		snprintf(m.model, sizeof(m.model), "unknown model (no SMBIOS table)");
	snprintf(m.file, sizeof(m.file), "%s", file);
	printable_ascii(m.machine);
	printable_ascii(m.model);
	printable_ascii(m.taken);
	printable_ascii(m.file);
	facts_of(&m, j);
	json_decref(j);
	/* a machine seen again (another run's folder): its newest inventory counts */
	for (i = 0; i < set->n && strcmp(set->m[i].machine, m.machine); i++)
		;
	if (i < set->n) {
		set->repeats++;
		if (strcmp(m.taken, set->m[i].taken) > 0) {
			free(set->m[i].facts);
			free(set->m[i].slow);
			set->m[i] = m;
		} else {
			free(m.facts);
			free(m.slow);
		}
		return;
	}
	if (set->n == set->cap) {
		set->cap = set->cap ? set->cap * 2 : 16;
		set->m = xrealloc(set->m, set->cap * sizeof(*set->m));
	}
	set->m[set->n++] = m;
}

int inv_load_path(struct inv_set *set, const char *path, FILE *errs)
{
	struct load_args a = { set, errs };

	return rs_walk(path, load_one, &a);
}

static const char *value_of(const struct inv_machine *m, const char *part)
{
	unsigned i;

	for (i = 0; i < m->nfacts; i++)
		if (!strcmp(m->facts[i].part, part))
			return m->facts[i].value;
	return "absent";
}

static int by_machine(const void *a, const void *b)
{
	return strcmp((*(struct inv_machine *const *)a)->machine, (*(struct inv_machine *const *)b)->machine);
}

static void add_diff(struct inv_group *g, const struct inv_machine *m, const char *part, const char *value,
		     const char *majority)
{
	g->diffs = xrealloc(g->diffs, (g->ndiffs + 1) * sizeof(*g->diffs));
	g->diffs[g->ndiffs++] = (struct inv_diff){ .m = m, .part = part, .value = value, .majority = majority };
}

/*
 * Every part any machine of the group has: its majority value, and who
 * differs from it. Each part's values are counted once (a share may hold
 * hundreds of one model: no pass over every pair of machines).
 */
static void compare_group(struct inv_group *g)
{
	const char **parts = NULL, **vals = xcalloc(g->n, sizeof(*vals));
	unsigned *first = xcalloc(g->n, sizeof(*first)), *count = xcalloc(g->n, sizeof(*count));
	unsigned nparts = 0, p, a, f, x, d;

	for (a = 0; a < g->n; a++)
		for (f = 0; f < g->m[a]->nfacts; f++) {
			const char *part = g->m[a]->facts[f].part;

			for (p = 0; p < nparts && strcmp(parts[p], part); p++)
				;
			if (p == nparts) {
				parts = xrealloc(parts, (nparts + 1) * sizeof(*parts));
				parts[nparts++] = part;
			}
		}
	for (p = 0; p < nparts; p++) {
		const char *major = NULL;
		unsigned distinct = 0, best = 0;

		/* each distinct value: the first machine with it, and how many have it */
		for (x = 0; x < g->n; x++) {
			vals[x] = value_of(g->m[x], parts[p]);
			for (d = 0; d < distinct && strcmp(vals[first[d]], vals[x]); d++)
				;
			if (d == distinct) {
				first[distinct] = x;
				count[distinct++] = 0;
			}
			count[d]++;
		}
		for (d = 0; d < distinct; d++)
			if (count[d] > best) {
				best = count[d];
				major = vals[first[d]];
			}
		if (best == g->n)
			continue;
		if (best * 2 <= g->n) {
			major = NULL;
			g->split++;
		}
		for (x = 0; x < g->n; x++)
			if (!major || strcmp(vals[x], major))
				add_diff(g, g->m[x], parts[p], vals[x], major);
	}
	free(parts);
	free(vals);
	free(first);
	free(count);
}

static int diff_order(const void *a, const void *b)
{
	const struct inv_diff *x = a, *y = b;
	int c = strcmp(x->m->machine, y->m->machine);

	return c ? c : strcmp(x->part, y->part);
}

struct inv_group *inv_groups(const struct inv_set *set, unsigned *ng)
{
	struct inv_group *g = NULL;
	unsigned i, k;

	*ng = 0;
	for (i = 0; i < set->n; i++) {
		for (k = 0; k < *ng && strcmp(g[k].model, set->m[i].model); k++)
			;
		if (k == *ng) {
			g = xrealloc(g, (*ng + 1) * sizeof(*g));
			memset(&g[k], 0, sizeof(g[k]));
			snprintf(g[k].model, sizeof(g[k].model), "%s", set->m[i].model);
			(*ng)++;
		}
		g[k].m = xrealloc(g[k].m, (g[k].n + 1) * sizeof(*g[k].m));
		g[k].m[g[k].n++] = &set->m[i];
	}
	for (k = 0; k < *ng; k++) {
		qsort(g[k].m, g[k].n, sizeof(*g[k].m), by_machine);
		compare_group(&g[k]);
		if (g[k].ndiffs)
			qsort(g[k].diffs, g[k].ndiffs, sizeof(*g[k].diffs), diff_order);
	}
	return g;
}

void inv_groups_free(struct inv_group *g, unsigned ng)
{
	unsigned k;

	for (k = 0; k < ng; k++) {
		free(g[k].m);
		free(g[k].diffs);
	}
	free(g);
}

void inv_free(struct inv_set *set)
{
	unsigned i;

	for (i = 0; i < set->n; i++) {
		free(set->m[i].facts);
		free(set->m[i].slow);
	}
	free(set->m);
	memset(set, 0, sizeof(*set));
}
