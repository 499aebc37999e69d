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
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"
#include "results/inventory.h"
#include "results/load.h"
#include "sys/machine.h"

/* One buffer a thread for the files read, grown to the largest: not an allocation (with musl, a mapping) a file. */
static __thread char *file_buf;
static __thread size_t file_cap;

static void file_buf_free(void)
{
	free(file_buf);
	file_buf = NULL;
	file_cap = 0;
}

/* rs_read_json, its error into ERR (any thread may call it: bb_err is one for all). */
static json_t *read_json(const char *path, char *err, size_t len)
{
	char *buf = file_buf;
	size_t cap = file_cap;
	json_error_t e;
	json_t *j = NULL;
	struct stat st;
	size_t got = 0;
	ssize_t n = 0;
	/* from a share: no link followed, and a pipe or a device is not a file (it would never end) */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);

	/* read whole, then parsed from memory: jansson's file reader takes a character at a time */
	if (fd < 0 || fstat(fd, &st)) {
		snprintf(err, len, "%s: cannot read it: %s", path, errno == ELOOP ? "a link (no link is followed)" :
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, len, "%s: cannot read it: not a regular file", path);
		close(fd);
		return NULL;
	}
	/* larger than any result: a share's damaged file (a sparse terabyte) is said, never read into memory */
	if (st.st_size > RS_FILE_MAX) {
		snprintf(err, len, "%s: cannot read it: %lld MiB, larger than any result (%d MiB at most)", path,
			 (long long)(st.st_size >> 20), RS_FILE_MAX >> 20);
		close(fd);
		return NULL;
	}
	if ((size_t)st.st_size + 1 > cap) {
		cap = (size_t)st.st_size + 1 > 2 * cap ? (size_t)st.st_size + 1 : 2 * cap;
		file_buf = buf = xrealloc(buf, cap);
		file_cap = cap;
	}
	while (got < (size_t)st.st_size && (n = read(fd, buf + got, (size_t)st.st_size - got)) > 0)
		got += (size_t)n;
	close(fd);
	if (n < 0) {
		snprintf(err, len, "%s: cannot read it: %s", path, strerror(errno));
		return NULL;
	}
	/* a key twice: which one a reader takes is its own choice (jansson's the last), so neither is believed */
	j = json_loadb(buf, got, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &e);
	if (!j)
		snprintf(err, len, "%s: not JSON, or cut short (line %d, column %d: %s)", path, e.line, e.column, e.text);
	return j;
}

json_t *rs_read_json(const char *path)
{
	char err[PATH_MAX + 200];
	json_t *j = read_json(path, err, sizeof(err));

	if (!j)
		set_err("%s", err);
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

/* A disk as a share names it (a serial, a model), to be shown on a terminal */
static void shown_disk(struct rs_disk *d)
{
	printable_ascii(d->machine);
	printable_ascii(d->serial);
	printable_ascii(d->model);
	printable_ascii(d->firmware);
	printable_ascii(d->slot);
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
		shown_disk(&disk);
		for (d = 0; d < ARRAY_SIZE(dirs); d++) {
			json_t *dir = json_object_get(job, dirs[d]);
			struct rs_figure *f;
			char test[160];

			if (rs_num(dir, "io_bytes") <= 0)
				continue;
			snprintf(test, sizeof(test), "%s %s", rs_str(job, "jobname", buf, sizeof(buf)), dirs[d]);
			printable_ascii(test);
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
			printable_ascii(l->test);
			printable_ascii(l->level);
			printable_ascii(l->machine);
			l->vs_baseline = rs_num(cell, "vs_baseline");
			l->clat_p99_ns = rs_num(cell, "clat_p99_us") * 1000;
			l->failed = rs_num(lv, "status") != 0;
			snprintf(l->file, sizeof(l->file), "%s", file);
		}
	}
}

/* A result folder's verdicts and identities hold no figure: not read (fleet reads them); disks.json is read once a folder. */
static int has_figures(const char *path)
{
	static const char *const none[] = { "status.json", "burnin.json", "inventory.json", "sysinfo.json", "disks.json" };

	for (size_t i = 0; i < ARRAY_SIZE(none); i++)
		if (!strcmp(file_name(path), none[i]))
			return 0;
	return 1;
}

/* The file at PATH: J its tree when parsed already (NULL: ERR says why), PARSED 0 when not. */
static int load_parsed(struct rs_set *set, const char *path, FILE *errs, int parsed, json_t *j, const char *err)
{
	if (!has_figures(path) && strcmp(file_name(path), "disks.json"))
		return 0;
	if (!strcmp(file_name(path), "disks.json")) {
		/* names disks, read once for the runs beside it */
		if (!disks_json_of(path) && disks_cache.failed) {
			fprintf(errs, "%s\n", disks_cache.why);
			set->bad++;
		}
		return 0;
	}
	if (!parsed) {
		j = rs_read_json(path);
		err = bb_err;
	}
	if (!j) {
		fprintf(errs, "%s\n", err);
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

static int load_file(struct rs_set *set, const char *path, FILE *errs)
{
	return load_parsed(set, path, errs, 0, NULL, NULL);
}

/* how deep a walk goes below the folder given: a folder deeper is said, not searched */
#define WALK_DEPTH 16
#define STR_(x) #x
#define STR(x) STR_(x)

struct walk_calls {
	void (*each)(const char *file, void *arg);
	void (*unreadable)(const char *dir, const char *why, void *arg);
	void *arg;
	const char *const *wanted;	/* the files a folder's prefetch reads; NULL: every .json */
	int links_said;		/* a link is said to unreadable (a share's), not passed over (a results tree's) */
	const char *const *named;	/* names given to each whatever they are (a FIFO, a folder), NULL: none */
};

/*
 * A share's folders read ahead, many at a time. With a cold cache, a walk
 * of 10,000 result folders is 10,000 folders and their files read one after
 * another, each waiting for the disk (or the file server); threads that
 * list each folder and read its files ahead of the walk keep many reads in
 * flight. They only warm the cache: the walk reads everything again itself,
 * in its order, with its checks.
 */
#define PREFETCH_THREADS 16
#define PREFETCH_MIN 32		/* fewer subfolders than this: not worth threads */

struct prefetch {
	char **dirs;
	unsigned n;
	unsigned next;		/* the next folder a thread takes (atomic) */
	const char *const *wanted;
	int stat_all;		/* a share's: every other file's inode read too (fleet looks for what a manifest lists) */
};

static int wanted_file(const char *name, const char *const *wanted)
{
	size_t len = strlen(name);

	if (!wanted)
		return len > 5 && !strcmp(name + len - 5, ".json");
	for (; *wanted; wanted++)
		if (!strcmp(name, *wanted))
			return 1;
	return 0;
}

static void *prefetch_thread(void *arg)
{
	struct prefetch *pf = arg;
	char *buf = malloc(65536);	/* what is read is only for the cache */
	unsigned i;

	if (!buf)
		return NULL;

	while ((i = __atomic_fetch_add(&pf->next, 1, __ATOMIC_RELAXED)) < pf->n) {
		DIR *d = opendir(pf->dirs[i]);
		struct dirent *e;

		while (d && (e = readdir(d))) {
			char p[PATH_MAX];
			int fd;

			if (e->d_name[0] != '.' && e->d_type == DT_REG && pf->stat_all && !wanted_file(e->d_name, pf->wanted)) {
				struct stat st;

				fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW);
				continue;
			}
			if (e->d_name[0] == '.' || e->d_type != DT_REG || !wanted_file(e->d_name, pf->wanted) ||
			    snprintf(p, sizeof(p), "%s/%s", pf->dirs[i], e->d_name) >= (int)sizeof(p))
				continue;
			fd = open(p, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
			if (fd >= 0) {
				/* no further than the walk reads (RS_FILE_MAX): a sparse terabyte is not read ahead */
				for (off_t got = 0; got <= RS_FILE_MAX && read(fd, buf, 65536) == 65536; got += 65536)
					;
				close(fd);
			}
		}
		if (d)
			closedir(d);
	}
	free(buf);
	return NULL;
}

/* Starts reading DIRS ahead (taken over, freed by prefetch_end); 0 threads when there are few. */
static unsigned prefetch_start(struct prefetch *pf, pthread_t *t, char **dirs, unsigned n, const char *const *wanted,
			       int stat_all)
{
	unsigned k = 0;

	*pf = (struct prefetch){ .dirs = dirs, .n = n, .wanted = wanted, .stat_all = stat_all };
	if (n >= PREFETCH_MIN)
		for (; k < PREFETCH_THREADS && !pthread_create(&t[k], NULL, prefetch_thread, pf); k++)
			;
	return k;
}

static void prefetch_end(struct prefetch *pf, pthread_t *t, unsigned k)
{
	/* the walk is done with them: the threads stop at their next folder */
	__atomic_store_n(&pf->next, pf->n, __ATOMIC_RELAXED);
	while (k)
		pthread_join(t[--k], NULL);
	for (unsigned i = 0; i < pf->n; i++)
		free(pf->dirs[i]);
	free(pf->dirs);
}

/* Names kept with their d_type before them, sorted by name. */
static int by_name_typed(const void *a, const void *b)
{
	return strcmp(*(char *const *)a + 1, *(char *const *)b + 1);
}

static int walk_tree(const char *dir, int depth, const struct walk_calls *w)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL, **sub = NULL, p[PATH_MAX];
	unsigned n = 0, i, nsub = 0, threads;
	struct prefetch pf;
	pthread_t t[PREFETCH_THREADS];
	struct stat st;

	if (!d) {
		int why = errno;

		set_err("%s: cannot read it: %s", dir, strerror(why));
		errno = why;	/* for the caller's unreadable() */
		return -1;
	}
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (e->d_name[0] == '.')	/* ., .., a share's .NAME.partial */
			continue;
		/* the directory's own word on what each is: no stat of a share's every file (a cold
		 * cache reads an inode for each); a file system that does not say is asked (lstat) */
		if (e->d_type != DT_DIR && e->d_type != DT_UNKNOWN && !(e->d_type == DT_LNK && w->links_said) &&
		    (e->d_type != DT_REG || len <= 5 || strcmp(e->d_name + len - 5, ".json")) &&
		    !(w->named && wanted_file(e->d_name, w->named)))
			continue;
		if (!(n & (n - 1)))
			names = xrealloc(names, (n ? 2 * n : 1) * sizeof(*names));
		names[n] = xcalloc(1, len + 2);
		names[n][0] = (char)e->d_type;
		memcpy(names[n++] + 1, e->d_name, len);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), by_name_typed);
	for (i = 0; i < n; i++)
		if ((unsigned char)names[i][0] == DT_DIR && depth < WALK_DEPTH) {
			if (!(nsub & (nsub - 1)))
				sub = xrealloc(sub, (nsub ? 2 * nsub : 1) * sizeof(*sub));
			sub[nsub] = xcalloc(1, strlen(dir) + strlen(names[i] + 1) + 2);
			sprintf(sub[nsub++], "%s/%s", dir, names[i] + 1);
		}
	threads = prefetch_start(&pf, t, sub, nsub, w->wanted, w->links_said);
	for (i = 0; i < n; i++) {
		const char *name = names[i] + 1;
		size_t len = strlen(name);
		int rc = snprintf(p, sizeof(p), "%s/%s", dir, name);
		int type = (unsigned char)names[i][0];

		/*
		 * A run's file, whatever it is (a FIFO, a folder named status.json,
		 * a log that is not JSON): its folder is a run's, and its reader
		 * says what is wrong with it. A link is said below as every link is.
		 */
		if (rc < (int)sizeof(p) && w->named && wanted_file(name, w->named) && type != DT_LNK &&
		    (type != DT_UNKNOWN || (!lstat(p, &st) && !S_ISLNK(st.st_mode)))) {
			w->each(p, w->arg);
			if (type == DT_UNKNOWN)
				type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_FIFO;
			if (type != DT_DIR) {
				free(names[i]);
				continue;
			}
		}
		/* below the folders named: a results tree may be a share's, and no link in it is followed */
		if (rc >= (int)sizeof(p)) {
			if (w->unreadable)
				w->unreadable(dir, "a name in it is too long to open", w->arg);
		} else if (type == DT_UNKNOWN && lstat(p, &st)) {
			if (w->unreadable)
				w->unreadable(p, strerror(errno), w->arg);
		} else if (type == DT_DIR || (type == DT_UNKNOWN && S_ISDIR(st.st_mode))) {
			/* a folder that cannot be read is said, never taken for one with nothing in it; nor is
			 * one below the walk's depth (a run there may be a machine's newest) */
			if (depth >= WALK_DEPTH) {
				if (w->unreadable)
					w->unreadable(p, "deeper than " STR(WALK_DEPTH) " folders below the folder "
						      "given: not searched", w->arg);
			} else if (walk_tree(p, depth + 1, w) && w->unreadable) {
				w->unreadable(p, strerror(errno), w->arg);
			}
		} else if (w->links_said && (type == DT_LNK || (type == DT_UNKNOWN && S_ISLNK(st.st_mode)))) {
			/* a share's link (a run folder linked from elsewhere): never followed, never passed over */
			if (w->unreadable)
				w->unreadable(p, RS_LINK_WHY, w->arg);
		} else if ((type == DT_REG || (type == DT_UNKNOWN && S_ISREG(st.st_mode))) && len > 5 &&
			   !strcmp(name + len - 5, ".json")) {
			w->each(p, w->arg);
		}
		free(names[i]);
	}
	prefetch_end(&pf, t, threads);
	free(names);
	return 0;
}

static int walk_start(const char *path, const struct walk_calls *w)
{
	struct stat st;

	if (stat(path, &st))
		return set_err("%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return walk_tree(path, 0, w);
	w->each(path, w->arg);
	return 0;
}

int rs_walk_share(const char *path, void (*each)(const char *file, void *arg),
		  void (*unreadable)(const char *dir, const char *why, void *arg), const char *const *prefetch,
		  const char *const *named, void *arg)
{
	struct walk_calls w = { each, unreadable, arg, prefetch, 1, named };

	return walk_start(path, &w);
}

int rs_walk_all(const char *path, void (*each)(const char *file, void *arg),
		void (*unreadable)(const char *dir, const char *why, void *arg), const char *const *prefetch, void *arg)
{
	struct walk_calls w = { each, unreadable, arg, prefetch, 0, NULL };

	return walk_start(path, &w);
}

int rs_walk(const char *path, void (*each)(const char *file, void *arg), void *arg)
{
	return rs_walk_all(path, each, NULL, NULL, arg);
}

/*
 * The files of a share parsed by threads, taken in the walk's order by
 * the one that adds their figures: jansson's parsing is most of what
 * compare does, and each file's is its own. The threads stay at most
 * PARSE_AHEAD files ahead, so a share's trees are never all in memory.
 */
#define PARSE_THREADS 4
#define PARSE_AHEAD 128

struct parse_pipe {
	char **files;
	unsigned n, next, consumed;
	struct parsed {
		json_t *j;
		char *err;
		int done;
	} *p;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

static void *parse_thread(void *arg)
{
	struct parse_pipe *pp = arg;

	for (;;) {
		char err[PATH_MAX + 200] = "";
		json_t *j = NULL;
		unsigned i;

		pthread_mutex_lock(&pp->mu);
		while (pp->next < pp->n && pp->next >= pp->consumed + PARSE_AHEAD)
			pthread_cond_wait(&pp->cv, &pp->mu);
		i = pp->next < pp->n ? pp->next++ : pp->n;
		pthread_mutex_unlock(&pp->mu);
		if (i == pp->n) {
			file_buf_free();
			return NULL;
		}
		if (has_figures(pp->files[i]))
			j = read_json(pp->files[i], err, sizeof(err));
		pthread_mutex_lock(&pp->mu);
		pp->p[i].j = j;
		pp->p[i].err = err[0] ? xstrdup(err) : NULL;
		pp->p[i].done = 1;
		pthread_cond_broadcast(&pp->cv);
		pthread_mutex_unlock(&pp->mu);
	}
}

struct load_args {
	struct rs_set *set;
	FILE *errs;
	char **files;
	unsigned n;
};

static void note_file(const char *file, void *arg)
{
	struct load_args *a = arg;

	if (!(a->n & (a->n - 1)))
		a->files = xrealloc(a->files, (a->n ? 2 * a->n : 1) * sizeof(*a->files));
	a->files[a->n++] = xstrdup(file);
}

static void load_unreadable(const char *dir, const char *why, void *arg)
{
	struct load_args *a = arg;

	fprintf(a->errs, "%s: cannot read it: %s\n", dir, why);
	a->set->bad++;
}

int rs_load_path(struct rs_set *set, const char *path, FILE *errs)
{
	struct load_args a = { set, errs, NULL, 0 };
	struct parse_pipe pp = { .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER };
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	pthread_t t[PARSE_THREADS];
	unsigned i, k = 0;

	/* the walk reads the folders ahead, not the files: the parsing threads read those, each when it
	 * comes, and reading them twice costs more than it saves */
	static const char *const no_file[] = { NULL };

	if (rs_walk_all(path, note_file, load_unreadable, no_file, &a))
		return -1;
	pp.files = a.files;
	pp.n = a.n;
	pp.p = xcalloc(a.n ? a.n : 1, sizeof(*pp.p));
	json_object_seed(0);	/* jansson's hash seed made once, before any thread parses */
	if (a.n >= 64 && cores > 1)
		for (; k < (cores < PARSE_THREADS ? (unsigned)cores : PARSE_THREADS) &&
		       !pthread_create(&t[k], NULL, parse_thread, &pp); k++)
			;
	for (i = 0; i < a.n; i++) {
		if (k) {
			pthread_mutex_lock(&pp.mu);
			while (!pp.p[i].done)
				pthread_cond_wait(&pp.cv, &pp.mu);
			pthread_mutex_unlock(&pp.mu);
			load_parsed(set, a.files[i], errs, 1, pp.p[i].j, pp.p[i].err);
			free(pp.p[i].err);
			pthread_mutex_lock(&pp.mu);
			pp.consumed = i + 1;
			pthread_cond_broadcast(&pp.cv);
			pthread_mutex_unlock(&pp.mu);
		} else {
			load_file(set, a.files[i], errs);
		}
	}
	while (k)
		pthread_join(t[--k], NULL);
	for (i = 0; i < a.n; i++)
		free(a.files[i]);
	free(a.files);
	free(pp.p);
	return 0;
}

void rs_free(struct rs_set *set)
{
	file_buf_free();
	json_decref(disks_cache.j);
	memset(&disks_cache, 0, sizeof(disks_cache));
	free(set->fig);
	free(set->lv);
	memset(set, 0, sizeof(*set));
}
