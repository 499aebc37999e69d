// SPDX-License-Identifier: MIT
/*
 * load.c - result files read back (load.h). The JSON is jansson's to read;
 * what is here is where each kind keeps its figures and its identities:
 *   fio's JSON: jobs[] with read/write/trim {iops, bw_bytes, clat_ns
 *     percentiles} and sync {lat_ns percentiles}; ours adds "bootbench":
 *     the machine (system.dmi, system.nics) and each job's targets (model,
 *     serial, firmware_rev, size); fio's own has "hostname" (client/server
 *     runs) and the filename option.
 *   raid.json: each level's cells relative to one disk (levels[].results);
 *     its single-disk baselines are the baseline-DISK.json files beside
 *     it, read as any run's figures.
 *   sysinfo.json, disks.json: the machine and its disks; disks.json also
 *     fills in what a result file did not say about a disk it names.
 *   status.json, burnin.json, inventory.json: known, no figures in them.
 * Clones of one job on one disk (numjobs without group_reporting) are one
 * figure: their IOPS and bytes added up, their latencies the worst.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"
#include "results/inventory.h"
#include "results/load.h"
#include "sys/machine.h"

json_t *rs_read_json(const char *path)
{
	json_error_t e;
	json_t *j = json_load_file(path, JSON_DECODE_ANY, &e);

	if (!j) {
		if (e.line < 0 || !strncmp(e.text, "unable to open", 14))
			set_err("%s: cannot read it: %s", path, e.text);
		else
			set_err("%s: not JSON, or cut short (line %d, column %d: %s)", path, e.line, e.column,
				e.text);
	}
	return j;
}

static json_t *at(json_t *obj, const char *path)
{
	char key[128];
	const char *dot;

	while (obj && *path) {
		dot = strchr(path, '.');
		snprintf(key, sizeof(key), "%.*s", dot ? (int)(dot - path) : (int)strlen(path), path);
		obj = json_is_object(obj) ? json_object_get(obj, key) : NULL;
		path = dot ? dot + 1 : "";
	}
	return obj;
}

const char *rs_str(json_t *obj, const char *path, char *buf, size_t len)
{
	json_t *v = at(obj, path);

	buf[0] = 0;
	if (json_is_string(v))
		snprintf(buf, len, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, len, "%g", json_real_value(v));
	return buf;
}

double rs_num(json_t *obj, const char *path)
{
	json_t *v = at(obj, path);

	return json_is_number(v) ? json_number_value(v) : 0;
}

int rs_is_fio(json_t *j)
{
	return json_is_object(j) && json_is_array(json_object_get(j, "jobs")) &&
	       (json_object_get(j, "fio version") || json_object_get(j, "bootbench"));
}

double rs_percentile(json_t *lat, double p)
{
	json_t *pct = at(lat, "percentile");
	const char *k;
	json_t *v;

	json_object_foreach(pct, k, v)
		if (strtod(k, NULL) == p && json_is_number(v))
			return json_number_value(v);
	return 0;
}

static void copy(char *dst, size_t len, const char *src)
{
	if (!dst[0] && src && src[0])
		snprintf(dst, len, "%s", src);
}

/*
 * The disks.json of one folder, parsed once: a folder's runs are read one
 * after the other (rs_walk's order), each job of each asks it, and the
 * walk meets the file itself too. NULL when the folder has none (or it is
 * not JSON: said once, when the walk meets it).
 */
static struct {
	char folder[PATH_MAX];
	json_t *j;
	int failed;
	char why[600];
} disks_cache;

static json_t *disks_json_of(const char *file)
{
	const char *slash = strrchr(file, '/');
	char folder[PATH_MAX], path[PATH_MAX + 16];

	snprintf(folder, sizeof(folder), "%.*s", slash ? (int)(slash - file) : 1, slash ? file : ".");
	if (!strcmp(folder, disks_cache.folder))
		return disks_cache.j;
	json_decref(disks_cache.j);
	snprintf(disks_cache.folder, sizeof(disks_cache.folder), "%s", folder);
	snprintf(path, sizeof(path), "%s/disks.json", folder);
	disks_cache.j = rs_read_json(path);
	disks_cache.failed = !disks_cache.j && access(path, F_OK) == 0;
	snprintf(disks_cache.why, sizeof(disks_cache.why), "%s", disks_cache.failed ? bb_err : "");
	return disks_cache.j;
}

/* What disks.json beside FILE says of the disk at SLOT (/dev/NAME). */
static void from_disks_json(const char *file, struct rs_disk *d)
{
	char buf[256];
	json_t *j = disks_json_of(file), *disk;
	size_t i;

	json_array_foreach(json_object_get(j, "disks"), i, disk) {
		if (strcmp(rs_str(disk, "path", buf, sizeof(buf)), d->slot) &&
		    strcmp(rs_str(disk, "name", buf, sizeof(buf)), d->slot))
			continue;
		copy(d->serial, sizeof(d->serial), rs_str(disk, "serial", buf, sizeof(buf)));
		copy(d->model, sizeof(d->model), rs_str(disk, "model", buf, sizeof(buf)));
		copy(d->firmware, sizeof(d->firmware), rs_str(disk, "firmware", buf, sizeof(buf)));
		if (!d->size)
			d->size = (uint64_t)rs_num(disk, "size");
		break;
	}
}

/* The machine a result came from: DMI serial, else the first MAC, else FALLBACK. */
static void machine_of(json_t *system, const char *fallback, char *out, size_t len)
{
	char buf[128];

	rs_str(system, "dmi.product_serial", out, len);
	if (serial_is_placeholder(out))
		out[0] = 0;
	if (!out[0])
		snprintf(out, len, "%s", rs_str(json_array_get(json_object_get(system, "nics"), 0), "mac", buf,
					      sizeof(buf)));
	if (!out[0])
		snprintf(out, len, "%s", fallback);
}

/* The folder a file is in, as a last name for the machine. */
static const char *folder_of(const char *file, char *buf, size_t len)
{
	const char *end = strrchr(file, '/'), *start;

	if (!end)
		return snprintf(buf, len, "."), buf;
	for (start = end; start > file && start[-1] != '/'; start--)
		;
	snprintf(buf, len, "%.*s", (int)(end - start), start);
	return buf;
}

/* The file's own name. */
static const char *file_name(const char *file)
{
	return strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
}

static struct rs_figure *add(struct rs_set *set)
{
	if (set->n == set->cap) {
		set->cap = set->cap ? set->cap * 2 : 64;
		set->fig = xrealloc(set->fig, set->cap * sizeof(*set->fig));
	}
	memset(&set->fig[set->n], 0, sizeof(*set->fig));
	return &set->fig[set->n++];
}

/* The figure of TEST on DISK from FILE, when an earlier clone made one. */
static struct rs_figure *find(struct rs_set *set, unsigned from, const char *test, const char *slot)
{
	unsigned i;

	for (i = from; i < set->n; i++)
		if (!strcmp(set->fig[i].test, test) && !strcmp(set->fig[i].disk.slot, slot))
			return &set->fig[i];
	return NULL;
}

static void load_fio(struct rs_set *set, json_t *j, const char *file)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	json_t *ours = json_object_get(j, "bootbench"), *job;
	unsigned first = set->n;
	char machine[128], folder[128], buf[256];
	size_t i;

	machine_of(at(ours, "system"), "", machine, sizeof(machine));
	folder_of(file, folder, sizeof(folder));
	json_array_foreach(json_object_get(j, "jobs"), i, job) {
		/* ours: "bootbench".jobs[] runs beside jobs[], one entry each */
		json_t *target = json_array_get(at(json_array_get(at(ours, "jobs"), i), "targets"), 0);
		struct rs_disk disk = { 0 };
		unsigned d;

		if (target) {
			rs_str(target, "path", disk.slot, sizeof(disk.slot));
			rs_str(target, "serial", disk.serial, sizeof(disk.serial));
			rs_str(target, "model", disk.model, sizeof(disk.model));
			rs_str(target, "firmware_rev", disk.firmware, sizeof(disk.firmware));
			disk.size = (uint64_t)rs_num(target, "size");
			/* an md array of `bootbench raid`: its level, from raid's file name (raid5.json) */
			if (!strncmp(disk.slot, "/dev/md", 7))
				snprintf(disk.model, sizeof(disk.model), "md array %.*s",
					 (int)(strlen(file_name(file)) - 5), file_name(file));
		} else {
			rs_str(job, "job options.filename", disk.slot, sizeof(disk.slot));
			if (!disk.slot[0])
				rs_str(j, "global options.filename", disk.slot, sizeof(disk.slot));
		}
		snprintf(disk.machine, sizeof(disk.machine), "%.127s",
			 machine[0] ? machine : rs_str(job, "hostname", buf, sizeof(buf))[0] ? buf : folder);
		from_disks_json(file, &disk);
		for (d = 0; d < ARRAY_SIZE(dirs); d++) {
			json_t *dir = json_object_get(job, dirs[d]);
			struct rs_figure *f;
			char test[160];

			if (rs_num(dir, "io_bytes") <= 0)
				continue;
			snprintf(test, sizeof(test), "%s %s", rs_str(job, "jobname", buf, sizeof(buf)), dirs[d]);
			f = find(set, first, test, disk.slot);
			if (!f) {
				f = add(set);
				snprintf(f->test, sizeof(f->test), "%s", test);
				f->disk = disk;
				snprintf(f->file, sizeof(f->file), "%s", file);
				f->when = rs_num(j, "timestamp");
			}
			f->iops += rs_num(dir, "iops");
			f->bw_bytes += rs_num(dir, "bw_bytes");
			if (rs_percentile(at(dir, "clat_ns"), 50) > f->clat_p50_ns)
				f->clat_p50_ns = rs_percentile(at(dir, "clat_ns"), 50);
			if (rs_percentile(at(dir, "clat_ns"), 99) > f->clat_p99_ns)
				f->clat_p99_ns = rs_percentile(at(dir, "clat_ns"), 99);
			if (rs_percentile(at(job, "sync.lat_ns"), 50) > f->sync_p50_ns)
				f->sync_p50_ns = rs_percentile(at(job, "sync.lat_ns"), 50);
			if (rs_percentile(at(job, "sync.lat_ns"), 99) > f->sync_p99_ns)
				f->sync_p99_ns = rs_percentile(at(job, "sync.lat_ns"), 99);
		}
	}
}

static void load_raid(struct rs_set *set, json_t *j, const char *file)
{
	char machine[128], folder[128], a[128], b[32];
	json_t *lv, *cell;
	size_t i, k;

	machine_of(json_object_get(j, "system"), folder_of(file, folder, sizeof(folder)), machine,
		   sizeof(machine));
	json_array_foreach(json_object_get(j, "levels"), i, lv) {
		json_array_foreach(json_object_get(lv, "results"), k, cell) {
			struct rs_level *l;

			if (set->nlv == set->lvcap) {
				set->lvcap = set->lvcap ? set->lvcap * 2 : 64;
				set->lv = xrealloc(set->lv, set->lvcap * sizeof(*set->lv));
			}
			l = memset(&set->lv[set->nlv++], 0, sizeof(*l));
			snprintf(l->test, sizeof(l->test), "%s %s", rs_str(cell, "test", a, sizeof(a)),
				 rs_str(cell, "dir", b, sizeof(b)));
			rs_str(lv, "level", l->level, sizeof(l->level));
			snprintf(l->machine, sizeof(l->machine), "%s", machine);
			l->vs_baseline = rs_num(cell, "vs_baseline");
			l->clat_p99_ns = rs_num(cell, "clat_p99_us") * 1000;
			l->failed = rs_num(lv, "status") != 0;
			snprintf(l->file, sizeof(l->file), "%s", file);
		}
	}
}

static int load_file(struct rs_set *set, const char *path, FILE *errs)
{
	json_t *j;

	if (!strcmp(file_name(path), "disks.json")) {
		/* names disks, read once for the runs beside it */
		if (!disks_json_of(path) && disks_cache.failed) {
			fprintf(errs, "%s\n", disks_cache.why);
			set->bad++;
		}
		return 0;
	}
	j = rs_read_json(path);

	if (!j) {
		fprintf(errs, "%s\n", bb_err);
		set->bad++;
		return 0;
	}
	if (rs_is_fio(j)) {
		load_fio(set, j, path);
		set->files++;
	} else if (json_is_object(j) && json_object_get(j, "levels") && json_object_get(j, "disks")) {
		load_raid(set, j, path);
		set->files++;
	} else if (json_is_object(j) && (json_object_get(j, "cpu") || json_object_get(j, "disks") ||
					 inv_is_inventory(j) || json_object_get(j, "bootbench_status") ||
					 json_object_get(j, "bootbench_burnin"))) {
		/* sysinfo.json, disks.json, inventory.json: identities, read beside the results;
		 * status.json, burnin.json: verdicts, bootbench fleet's and report's */
	} else {
		fprintf(errs, "%s: JSON, but not a result (neither fio's layout nor raid.json)\n", path);
		set->bad++;
	}
	json_decref(j);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct walk_calls {
	void (*each)(const char *file, void *arg);
	void (*unreadable)(const char *dir, const char *why, void *arg);
	void *arg;
};

static int walk_tree(const char *dir, int depth, const struct walk_calls *w)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL, p[PATH_MAX];
	unsigned n = 0, i;
	struct stat st;

	if (!d) {
		int why = errno;

		set_err("%s: cannot read it: %s", dir, strerror(why));
		errno = why;	/* for the caller's unreadable() */
		return -1;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')	/* ., .., a share's .NAME.partial */
			continue;
		names = xrealloc(names, (n + 1) * sizeof(*names));
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		size_t len = strlen(names[i]);
		int rc = snprintf(p, sizeof(p), "%s/%s", dir, names[i]);

		/* below the folders named: a results tree may be a share's, and no link in it is followed */
		if (rc >= (int)sizeof(p)) {
			if (w->unreadable)
				w->unreadable(dir, "a name in it is too long to open", w->arg);
		} else if (lstat(p, &st)) {
			if (w->unreadable)
				w->unreadable(p, strerror(errno), w->arg);
		} else if (S_ISDIR(st.st_mode) && depth < 16) {
			/* a folder that cannot be read is said, never taken for one with nothing in it */
			if (walk_tree(p, depth + 1, w) && w->unreadable)
				w->unreadable(p, strerror(errno), w->arg);
		} else if (S_ISREG(st.st_mode) && len > 5 && !strcmp(names[i] + len - 5, ".json")) {
			w->each(p, w->arg);
		}
		free(names[i]);
	}
	free(names);
	return 0;
}

int rs_walk_all(const char *path, void (*each)(const char *file, void *arg),
		void (*unreadable)(const char *dir, const char *why, void *arg), void *arg)
{
	struct walk_calls w = { each, unreadable, arg };
	struct stat st;

	if (stat(path, &st))
		return set_err("%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return walk_tree(path, 0, &w);
	each(path, arg);
	return 0;
}

int rs_walk(const char *path, void (*each)(const char *file, void *arg), void *arg)
{
	return rs_walk_all(path, each, NULL, arg);
}

struct load_args {
	struct rs_set *set;
	FILE *errs;
};

static void load_one(const char *file, void *arg)
{
	struct load_args *a = arg;

	load_file(a->set, file, a->errs);
}

static void load_unreadable(const char *dir, const char *why, void *arg)
{
	struct load_args *a = arg;

	fprintf(a->errs, "%s: cannot read it: %s\n", dir, why);
	a->set->bad++;
}

int rs_load_path(struct rs_set *set, const char *path, FILE *errs)
{
	struct load_args a = { set, errs };

	return rs_walk_all(path, load_one, load_unreadable, &a);
}

void rs_free(struct rs_set *set)
{
	json_decref(disks_cache.j);
	memset(&disks_cache, 0, sizeof(disks_cache));
	free(set->fig);
	free(set->lv);
	memset(set, 0, sizeof(*set));
}
