// SPDX-License-Identifier: MIT
/*
 * run.c - run_jobs(): the order of work, so that bad input changes nothing:
 * plan every job's targets, inspect each without side effects, check sizes,
 * alignment, verify rules and consent (safety/consent.h), claim written
 * block devices with O_EXCL; only then create files and run the groups one
 * after another (jobs of a group side by side, one thread per clone). A stop
 * request ends the workers; the results so far are kept and marked
 * interrupted.
 */
#include "job/run.h"

#include <errno.h>
#include <signal.h>
#include <limits.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <unistd.h>

#include "job/confined.h"
#include "job/iolog.h"
#include "job/target.h"
#include "job/worker.h"
#include "lib/util.h"
#include "safety/consent.h"
#include "safety/syscalls.h"
#include "safety/writable.h"
#include "save/metrics.h"
#include "sys/disks.h"
#include "sys/iosched.h"
#include "sys/machine.h"

struct job_plan {
	struct target **targets;	/* per clone: ntargets entries */
	unsigned ntargets;
	struct worker *workers;
};

static int writes(const struct job_opts *o)
{
	return o->rw != RW_READ && o->rw != RW_RANDREAD && !o->verify_only;
}

static int reads(const struct job_opts *o)
{
	return o->rw == RW_READ || o->rw == RW_RANDREAD || o->rw == RW_RW || o->rw == RW_RANDRW;
}

/*
 * A job file's name in directory, by filename_format (fio's
 * $jobname.$jobnum.$filenum by default); $clientuid is fio's client's
 * number, 0 here.
 */
static void format_name(const struct job_opts *o, unsigned clone, unsigned filenum, char *buf, size_t len)
{
	static const char *const vars[] = { "$jobname", "$jobnum", "$filenum", "$clientuid" };
	const char *f = o->filename_format ? o->filename_format : "$jobname.$jobnum.$filenum";
	size_t used = 0;

	while (*f && used + 1 < len) {
		unsigned v;

		for (v = 0; v < ARRAY_SIZE(vars); v++)
			if (!strncmp(f, vars[v], strlen(vars[v])))
				break;
		if (v == ARRAY_SIZE(vars)) {
			buf[used++] = *f++;
			continue;
		}
		f += strlen(vars[v]);
		if (v == 0)
			used += (size_t)snprintf(buf + used, len - used, "%s", o->name);
		else
			used += (size_t)snprintf(buf + used, len - used, "%u", v == 1 ? clone : v == 2 ? filenum : 0);
		if (used >= len)
			used = len - 1;
	}
	buf[used] = 0;
}

/*
 * filename='s names, split as fio splits them (filename_next: "\:" is a
 * ':' in a name), so that a job names the same files on both engines.
 * Returns how many; with T, each one's target (beside directory when
 * relative).
 */
static unsigned filename_targets(const struct job_opts *o, struct target **t)
{
	char *list = xstrdup(o->filename), *cursor = list, *name, path[4096];
	unsigned n = 0;

	/* fio stops at an empty name ("a:" ends the list) */
	while ((name = filename_next(&cursor)) && *name) {
		if (t) {
			if (o->directory && name[0] != '/')
				snprintf(path, sizeof(path), "%s/%s", o->directory, name);
			else
				snprintf(path, sizeof(path), "%s", name);
			t[n] = target_get(path);
		}
		n++;
	}
	free(list);
	return n;
}

/* The targets of one clone: its filename list, or nrfiles files named by filename_format in directory. */
static void plan_targets(struct job_plan *p, const struct job *j)
{
	const struct job_opts *o = &j->o;
	unsigned clone, n = 0;
	char path[4096];

	if (o->filename) {
		n = filename_targets(o, NULL);
	} else {
		n = o->nrfiles ? o->nrfiles : 1;
	}
	p->ntargets = n;
	p->targets = xcalloc((size_t)n * o->numjobs, sizeof(*p->targets));
	for (clone = 0; clone < o->numjobs; clone++) {
		struct target **t = &p->targets[clone * n];

		if (o->filename) {
			filename_targets(o, t);
		} else {
			unsigned f;

			for (f = 0; f < n; f++) {
				char name[1024];

				format_name(o, clone, f, name, sizeof(name));
				snprintf(path, sizeof(path), "%s/%s", o->directory ? o->directory : ".", name);
				t[f] = target_get(path);
			}
		}
	}
}

/*
 * A verifying job reads back what it wrote: another clone or job of the same
 * group writing the same blocks meanwhile would make healthy blocks read as
 * stale. Refused up front rather than reported as a failure.
 */
static int check_verify_overlap(const struct jobset *js, struct job_plan *plans)
{
	unsigned i, k, c, i2, c2, k2;

	for (i = 0; i < js->n; i++) {
		const struct job_opts *o = &js->jobs[i].o;

		if (!o->verify || o->verify_only || o->ioengine == ENGINE_NULL)
			continue;
		for (c = 0; c < o->numjobs; c++)
			for (k = 0; k < plans[i].ntargets; k++) {
				struct target *t = plans[i].targets[c * plans[i].ntargets + k];
				uint64_t s, l;

				job_range(o, t, plans[i].ntargets, c, js->size_max, &s, &l);
				for (i2 = 0; i2 < js->n; i2++) {
					const struct job_opts *o2 = &js->jobs[i2].o;

					if (js->jobs[i2].groupid != js->jobs[i].groupid || !writes(o2) ||
					    o2->ioengine == ENGINE_NULL)
						continue;
					for (c2 = 0; c2 < o2->numjobs; c2++)
						for (k2 = 0; k2 < plans[i2].ntargets; k2++) {
							struct target *t2 = plans[i2].targets[c2 * plans[i2].ntargets + k2];
							uint64_t s2, l2;

							if (t2 != t || (i2 == i && c2 == c))
								continue;
							job_range(o2, t2, plans[i2].ntargets, c2, js->size_max, &s2, &l2);
							if (s < s2 + l2 && s2 < s + l)
								return set_err("job '%s': verify: %s is written by %s at the "
									       "same time, so its blocks would read back as "
									       "stale; give each clone a file of its own "
									       "(leave filename unset) or verify in a job "
									       "of its own", o->name, t->path,
									       i2 == i ? "another clone of it" : js->jobs[i2].o.name);
						}
				}
			}
	}
	return 0;
}

/* Everything that can be wrong with the input is found here, before any write. */
static int check_targets(struct jobset *js, struct job_plan *plans)
{
	unsigned i, k, nt;
	struct target **all;

	if (consent_allow(js->run.destroy))
		return -1;
	if (writable_init(js->run.workdir, js->run.write_fs))
		return -1;
	/* the run works in its working folder: the jobs' relative names are in it */
	if (js->run.workdir && chdir(js->run.workdir))
		return set_err("--workdir=%s: %s", js->run.workdir, strerror(errno));
	all = target_list(&nt);
	for (i = 0; i < nt; i++)
		if (target_inspect(all[i]))
			return -1;
	/* the logs a job writes: under the same rule as its files (PREFIX_bw.1.log beside PREFIX) */
	for (i = 0; i < js->n; i++) {
		const struct job_opts *o = &js->jobs[i].o;
		const char *const logs[] = { o->lat_log, o->bw_log, o->iops_log, o->hist_log };

		for (k = 0; k < ARRAY_SIZE(logs); k++) {
			char log[PATH_MAX], why[600];

			if (!logs[k])
				continue;
			snprintf(log, sizeof(log), "%s_log", logs[k][0] ? logs[k] : o->name);
			if (!writable_file(log, why, sizeof(why)))
				return set_err("job '%s': refusing to write its log: %s", o->name, why);
		}
	}
	for (i = 0; i < js->n; i++) {
		const struct job_opts *o = &js->jobs[i].o;
		struct job_plan *p = &plans[i];

		if (o->ioengine == ENGINE_NULL)
			continue;
		for (k = 0; k < p->ntargets * o->numjobs; k++) {
			struct target *t = p->targets[k];
			uint64_t start, len;

			/* an NVMe generic char device takes commands, not reads and writes */
			if ((o->ioengine == ENGINE_IO_URING_CMD) != t->nvme_chr)
				return set_err("job '%s': %s", o->name, t->nvme_chr ?
					       "an NVMe generic char device (/dev/ngXnY) needs ioengine=io_uring_cmd" :
					       "ioengine=io_uring_cmd needs an NVMe generic char device (/dev/ngXnY)");
			/* a disk's scheduler is a setting of the system (/sys): switched only for a consented disk */
			if (o->ioscheduler && !((t->is_blk || t->nvme_chr) && consent_named(t->rdev)))
				return set_err("job '%s': ioscheduler=%s switches the scheduler of %s's disk, a setting of "
					       "the system: only for a disk named in --destroy", o->name, o->ioscheduler,
					       t->path);
			if (job_range(o, t, p->ntargets, k / p->ntargets, js->size_max, &start, &len))
				return -1;
			t->used = 1;
			if (start + len > t->need_end)
				t->need_end = start + len;
			if (writes(o))
				t->written = 1;
			if (reads(o) || o->verify_only)
				t->needs_data = 1;
			if (o->unlink)
				t->unlink = 1;
			if (!t->exists && !o->allow_file_create)
				return set_err("job '%s': %s is not there, and allow_file_create=0", o->name, t->path);
			if (!t->exists && !t->falloc)
				t->falloc = o->fallocate;
			if (o->create_on_open)
				t->on_open = 1;
		}
	}
	if (check_verify_overlap(js, plans))
		return -1;
	for (i = 0; i < nt; i++) {
		struct target *t = all[i];

		/* the one gate every write passes: the CLI, profiles, the menu, unattended runs */
		if (t->is_blk && t->written && consent_check(t->dev_path))
			return -1;
		/* a file a job writes or makes: where the rule lets a job write (safety/writable.h) */
		if (!t->is_blk && !t->nvme_chr && (t->written || !t->exists)) {
			char why[600];

			if (!writable_file(t->path, why, sizeof(why)))
				return set_err("refusing to write a file: %s", why);
		}
		if (!t->is_blk && t->exists && t->needs_data && !t->written && t->need_end > t->size)
			return set_err("%s is %llu bytes; the jobs read up to byte %llu", t->path,
				       (unsigned long long)t->size, (unsigned long long)t->need_end);
	}
	return 0;
}

static void read_diskstats(struct disk_util *u, uint64_t *vals)
{
	char path[128], line[512];

	snprintf(path, sizeof(path), "/sys/class/block/%s/stat", u->name);
	memset(vals, 0, DISKSTAT_FIELDS * sizeof(*vals));
	if (read_attr(path, line, sizeof(line)))
		return;
	sscanf(line, "%lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu", &vals[0], &vals[1], &vals[2], &vals[3],
	       &vals[4], &vals[5], &vals[6], &vals[7], &vals[8], &vals[9], &vals[10]);
}

/* The block devices under the targets, for fio's disk_util section. */
static void disk_util_begin(struct run_result *r)
{
	unsigned i, k, nt;
	struct target **all = target_list(&nt);

	r->du = xcalloc(nt ? nt : 1, sizeof(*r->du));
	for (i = 0; i < nt; i++) {
		dev_t dev = all[i]->is_blk ? all[i]->rdev : all[i]->st_dev;
		char link[128], path[512], name[64];
		ssize_t n;

		if (!major(dev))
			continue;
		snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
		n = readlink(link, path, sizeof(path) - 1);
		if (n <= 0)
			continue;
		path[n] = 0;
		snprintf(name, sizeof(name), "%s", strrchr(path, '/') + 1);
		for (k = 0; k < r->ndu; k++)
			if (!strcmp(r->du[k].name, name))
				break;
		if (k < r->ndu)
			continue;
		snprintf(r->du[r->ndu].name, sizeof(r->du[0].name), "%s", name);
		read_diskstats(&r->du[r->ndu], r->du[r->ndu].before);
		r->du[r->ndu].t_before_ns = now_ns();
		r->ndu++;
	}
}

static void disk_util_end(struct run_result *r)
{
	unsigned i;

	for (i = 0; i < r->ndu; i++) {
		read_diskstats(&r->du[i], r->du[i].after);
		r->du[i].t_after_ns = now_ns();
	}
}

/* Expected seconds of a group (ramp + runtime of its longest job), 0 if bytes decide. */
static double group_seconds(const struct jobset *js, unsigned group)
{
	double s = 0;
	unsigned i;

	for (i = 0; i < js->n; i++) {
		const struct job_opts *o = &js->jobs[i].o;
		double t = (o->startdelay_us + o->ramp_us + o->runtime_us) / 1e6;

		if (js->jobs[i].groupid == group && o->runtime_us && t > s)
			s = t;
	}
	return s;
}

/* The run's Pushgateway, when --metrics or BOOTBENCH_METRICS names one. */
static struct metrics metrics;
static char metrics_disk[128];	/* the disk whose temperature is read: "" for files */
#define METRICS_PERIOD_NS 5000000000ull
#define TEMPERATURE_PERIOD_NS 30000000000ull

/* What the pushes say of the disk: model and firmware read at the start,
 * temperature and error counters again every TEMPERATURE_PERIOD_NS. */
static char metrics_model[DISK_STR], metrics_firmware[DISK_STR];
static struct metrics_disk metrics_reading;

/* The reading from D as disk_find gave it; NULL: the disk is gone. */
static void take_reading(const struct disk *d)
{
	struct metrics_disk *m = &metrics_reading;

	*m = (struct metrics_disk){ .model = metrics_model, .firmware = metrics_firmware, .temperature_c = -1000,
				    .media_errors = -1, .reallocated = -1, .pending = -1,
				    .offline_uncorrectable = -1, .crc_errors = -1 };
	if (!d)
		return;
	if (d->health.valid) {
		/* not reported: -1000, the series left out */
		m->temperature_c = d->health.temperature_reported ? d->health.temperature_c : -1000;
		m->media_errors = (long long)d->health.media_errors;
	} else if (d->smart.valid) {
		m->temperature_c = d->smart.temperature_reported ? d->smart.temperature_c : -1000;
		m->reallocated = d->smart.reallocated;
		m->pending = d->smart.pending;
		m->offline_uncorrectable = d->smart.offline_uncorrectable;
		m->crc_errors = d->smart.crc_errors;
	}
}

static void read_disk(void)
{
	struct disk d;

	if (metrics_disk[0])
		take_reading(disk_find(metrics_disk, &d) ? NULL : &d);
}

/* The disk's part of a sample: NULL for a file. */
static const struct metrics_disk *sample_disk(void)
{
	return metrics_disk[0] ? &metrics_reading : NULL;
}

/* The pushed figures' group: this machine, and the first target's disk by serial. */
static int metrics_setup(struct jobset *js, struct job_plan *plans)
{
	const char *url = js->run.metrics && *js->run.metrics ? js->run.metrics : getenv("BOOTBENCH_METRICS");
	char machine[128], disk[200] = "none";
	struct disk d;

	metrics.url[0] = 0;
	metrics_disk[0] = 0;
	if (!url || !*url)
		return 0;
	machine_id(machine, sizeof(machine));
	if (js->n && plans[0].ntargets) {
		const char *path = plans[0].targets[0]->path;
		struct stat st;

		snprintf(disk, sizeof(disk), "%s", path);
		if (!stat(path, &st) && S_ISBLK(st.st_mode) && !disk_find(path, &d)) {
			snprintf(metrics_disk, sizeof(metrics_disk), "%s", d.name);
			snprintf(metrics_model, sizeof(metrics_model), "%s", d.model);
			snprintf(metrics_firmware, sizeof(metrics_firmware), "%s", d.firmware);
			take_reading(&d);
			if (d.serial[0])
				snprintf(disk, sizeof(disk), "%s", d.serial);
		}
	}
	return metrics_init(&metrics, url, machine, disk);
}

/*
 * One line a second on --progress-fd while a group runs:
 *   progress PCT ELAPSED_S LEFT_S READ_IOPS WRITE_IOPS MB_S JOB
 * Counters are read without locks: a figure a few I/Os stale is fine here.
 */
static void watch_group(const struct jobset *js, struct job_plan *plans, unsigned group, unsigned last_group,
			uint64_t run_start)
{
	uint64_t prev_ios[DDIR_NR] = { 0 }, prev_bytes = 0, prev_t = now_ns(), t_group = prev_t, temp_ns = prev_t;
	struct hist *lat = metrics.url[0] ? xcalloc(1, sizeof(*lat)) : NULL;
	double later = 0;
	unsigned i, c, g;
	int fd = (int)js->run.progress_fd;

	for (g = group + 1; g <= last_group; g++)
		later += group_seconds(js, g);
	for (;;) {
		uint64_t ios[DDIR_NR] = { 0 }, bytes = 0, planned = 0, now;
		double dt, left, elapsed, gsec = group_seconds(js, group), pct;
		int running = 0, d;
		const char *name = "";

		sleep_ns(100000000);
		now = now_ns();
		for (i = 0; i < js->n; i++) {
			if (js->jobs[i].groupid != group)
				continue;
			for (c = 0; c < js->jobs[i].o.numjobs; c++) {
				const struct worker *w = &plans[i].workers[c];

				running |= w->thread && !w->finished;
				for (d = 0; d < DDIR_NR; d++) {
					ios[d] += w->stats.dir[d].ios;
					bytes += w->stats.dir[d].bytes;
				}
				planned += w->loop_bytes * (js->jobs[i].o.loops ? js->jobs[i].o.loops : 1);
				name = js->jobs[i].o.name;
			}
		}
		if (!running || stop_requested)
			break;
		if (now - prev_t < 1000000000ull)
			continue;
		dt = (now - prev_t) / 1e9;
		elapsed = (now - t_group) / 1e9;
		if (gsec)
			left = gsec > elapsed ? gsec - elapsed : 0;
		else
			left = bytes && planned > bytes ? (planned - bytes) * elapsed / bytes : 0;
		left += later;
		pct = 100.0 * ((now - run_start) / 1e9) / ((now - run_start) / 1e9 + left);
		if (fd)
			dprintf(fd, "progress %.0f %.0f %.0f %.0f %.0f %.1f %s\n", pct, (now - run_start) / 1e9, left,
				(ios[DDIR_READ] - prev_ios[DDIR_READ]) / dt,
				(ios[DDIR_WRITE] - prev_ios[DDIR_WRITE]) / dt, (bytes - prev_bytes) / dt / 1e6, name);
		if (metrics.url[0] && now - metrics.last_ns >= METRICS_PERIOD_NS) {
			struct metrics_sample ms = { .profile = js->run.profile ? js->run.profile : "run", .job = name,
						     .read_iops = (ios[DDIR_READ] - prev_ios[DDIR_READ]) / dt,
						     .write_iops = (ios[DDIR_WRITE] - prev_ios[DDIR_WRITE]) / dt,
						     .bytes_per_s = (bytes - prev_bytes) / dt, .progress = pct / 100,
						     .seconds_left = left, .state = "running", .disk = sample_disk() };

			/* the group's completion latency so far (counters read without locks: a live view) */
			hist_reset(lat);
			for (i = 0; i < js->n; i++)
				for (c = 0; js->jobs[i].groupid == group && c < js->jobs[i].o.numjobs; c++)
					for (d = 0; d < DDIR_NR; d++)
						hist_merge(lat, &plans[i].workers[c].stats.dir[d].clat);
			ms.p50_s = lat->n ? hist_percentile(lat, 50) / 1e9 : -1;
			ms.p99_s = lat->n ? hist_percentile(lat, 99) / 1e9 : -1;
			ms.p999_s = lat->n ? hist_percentile(lat, 99.9) / 1e9 : -1;
			if (now - temp_ns >= TEMPERATURE_PERIOD_NS) {
				read_disk();
				temp_ns = now;
			}
			metrics_push(&metrics, &ms, 0);
		}
		memcpy(prev_ios, ios, sizeof(ios));
		prev_bytes = bytes;
		prev_t = now;
	}
	free(lat);
}

/* wait_for: each clone waits for every clone of the earlier job it names (jobset_finish found it) */
static void link_waitees(struct jobset *js, struct job_plan *plans)
{
	unsigned i, k, c, n;

	for (i = 0; i < js->n; i++) {
		const char *name = js->jobs[i].o.wait_for;

		if (!name)
			continue;
		for (k = 0; k < i && strcmp(js->jobs[k].o.name, name); k++)
			;
		if (k == i)
			continue;
		for (c = 0; c < js->jobs[i].o.numjobs; c++) {
			struct worker *w = &plans[i].workers[c];

			w->waitees = xcalloc(js->jobs[k].o.numjobs + 1, sizeof(*w->waitees));
			for (n = 0; n < js->jobs[k].o.numjobs; n++)
				w->waitees[n] = &plans[k].workers[n];
		}
	}
}

static void run_group(struct jobset *js, struct job_plan *plans, unsigned group, unsigned last_group,
		      uint64_t run_start)
{
	unsigned i, c;
	int rc;

	for (i = 0; i < js->n; i++) {
		if (js->jobs[i].groupid != group)
			continue;
		for (c = 0; c < js->jobs[i].o.numjobs; c++) {
			struct worker *w = &plans[i].workers[c];

			rc = confined_thread(&w->thread, worker_main, w);
			if (rc) {
				/* a clone that never ran is an error, not a smaller result */
				w->thread = 0;
				w->finished = 1;
				w->stats.error = rc;
				snprintf(w->stats.errmsg, sizeof(w->stats.errmsg),
					 "cannot start the thread of clone %u: %s", c, strerror(rc));
			}
		}
	}
	if (js->run.progress_fd || metrics.url[0])
		watch_group(js, plans, group, last_group, run_start);
	for (i = 0; i < js->n; i++) {
		if (js->jobs[i].groupid != group)
			continue;
		for (c = 0; c < js->jobs[i].o.numjobs; c++)
			if (plans[i].workers[c].thread)
				pthread_join(plans[i].workers[c].thread, NULL);
	}
}

static void collect(struct run_result *r, struct jobset *js, struct job_plan *plans)
{
	unsigned i, c, n = 0;

	for (i = 0; i < js->n; i++)
		n += js->jobs[i].o.group_reporting ? 1 : js->jobs[i].o.numjobs;
	r->reports = xcalloc(n, sizeof(*r->reports));
	for (i = 0; i < js->n; i++) {
		const struct job_opts *o = &js->jobs[i].o;

		for (c = 0; c < o->numjobs; c++) {
			struct worker *w = &plans[i].workers[c];
			struct report *rep = &r->reports[r->nreports];

			if (!o->group_reporting || !c) {
				rep->job = &js->jobs[i];
				rep->targets = &plans[i].targets[c * plans[i].ntargets];
				rep->ntargets = plans[i].ntargets;
				r->nreports++;
			} else {
				rep = &r->reports[r->nreports - 1];
			}
			stats_merge(&rep->st, &w->stats);
			if (w->engine_note)
				rep->engine_note = w->engine_note;
		}
	}
}

static void free_plans(struct jobset *js, struct job_plan *plans)
{
	unsigned i, c;

	for (i = 0; i < js->n; i++) {
		if (plans[i].workers)
			for (c = 0; c < js->jobs[i].o.numjobs; c++)
				worker_free(&plans[i].workers[c]);
		free(plans[i].workers);
		free(plans[i].targets);
	}
	free(plans);
}

static const char *default_engine_note(struct jobset *js)
{
	static char msg[160];
	int uring_err = 0, noted = 0;
	unsigned i;

	for (i = 0; i < js->n; i++) {
		struct job *j = &js->jobs[i];

		if (j->o.ioengine != ENGINE_DEFAULT)
			continue;
		if (io_uring_available(&uring_err)) {
			j->o.ioengine = ENGINE_IO_URING;
			continue;
		}
		j->o.ioengine = ENGINE_PSYNC;
		if (!noted++)
			snprintf(msg, sizeof(msg), "io_uring is unavailable (%s): jobs use psync", strerror(uring_err));
	}
	return noted ? msg : NULL;
}

/* ioscheduler=: the disks of each job's targets, switched for the run */
static int set_schedulers(struct jobset *js, struct job_plan *plans, struct iosched_saved *saved)
{
	unsigned i, k;

	for (i = 0; i < js->n; i++) {
		const struct job_opts *o = &js->jobs[i].o;

		for (k = 0; o->ioscheduler && k < plans[i].ntargets * o->numjobs; k++) {
			const struct target *t = plans[i].targets[k];

			if (iosched_set(t->is_blk ? t->rdev : t->st_dev, o->ioscheduler, saved)) {
				iosched_restore(saved);
				return -1;
			}
		}
	}
	return 0;
}

/* The log prefixes of a job, as one key: clones with the same key share files (per_job_logs=0). */
static void log_key(const struct job_opts *o, char *buf, size_t len)
{
	snprintf(buf, len, "%s|%s|%s|%s|%d", o->lat_log ? o->lat_log : "-", o->bw_log ? o->bw_log : "-",
		 o->iops_log ? o->iops_log : "-", o->hist_log ? o->hist_log : "-", o->per_job_logs);
}

/* fio's log files, each clone numbered from 1 across the run in job order. */
static void write_logs(struct jobset *js, struct job_plan *plans)
{
	unsigned i, c, i2, c2, n = 0;
	char key[4200], key2[4200];

	for (i = 0; i < js->n; i++)
		for (c = 0; c < js->jobs[i].o.numjobs; c++) {
			int first = 1, last = 1;

			n++;
			if (!plans[i].workers[c].logs)
				continue;
			log_key(&js->jobs[i].o, key, sizeof(key));
			for (i2 = 0; i2 < js->n; i2++)
				for (c2 = 0; c2 < js->jobs[i2].o.numjobs; c2++) {
					int before = i2 < i || (i2 == i && c2 < c), after = i2 > i || (i2 == i && c2 > c);

					if (!(before || after) || !plans[i2].workers[c2].logs)
						continue;
					log_key(&js->jobs[i2].o, key2, sizeof(key2));
					if (strcmp(key, key2))
						continue;
					first &= !before;
					last &= !after;
				}
			if (iolog_write(&plans[i].workers[c], n, first, last))
				note("%s", bb_err);
		}
}

/*
 * BOOTBENCH_RUN_HOLD=sandbox: the process stops itself (SIGSTOP) once its
 * files are checked and laid out, before the sandbox is made: a test
 * changes what a job names there (a folder swapped for a link), then
 * SIGCONT goes on. Nothing is weakened by it.
 */
static void hold_before_sandbox(void)
{
	const char *hold = getenv("BOOTBENCH_RUN_HOLD");

	if (!hold || strcmp(hold, "sandbox"))
		return;
	printf("run: held before the sandbox is made (BOOTBENCH_RUN_HOLD=sandbox); SIGCONT goes on\n");
	fflush(stdout);
	raise(SIGSTOP);
}

int run_jobs(struct jobset *js, const struct run_hooks *hooks, struct run_result *r)
{
	struct iosched_saved schedulers = { 0 };
	struct job_plan *plans;
	struct timeval tv;
	unsigned i, c, nt, group, last_group = 0;
	struct target **all;
	const char *engine_note;
	int status = EXIT_OK;
	unsigned refused;
	long refused_last = 0;

	memset(r, 0, sizeof(*r));
	r->js = js;
	js->size_max = hooks ? hooks->size_max : 0;
	targets_forget();
	plans = xcalloc(js->n, sizeof(*plans));
	for (i = 0; i < js->n; i++)
		plan_targets(&plans[i], &js->jobs[i]);
	if (check_targets(js, plans) || metrics_setup(js, plans))
		goto out_usage;
	if (hooks && hooks->check_only) {
		free_plans(js, plans);
		return EXIT_OK;
	}
	/* the claims: each written block device is ours alone from here to the end */
	all = target_list(&nt);
	for (i = 0; i < nt; i++)
		if (all[i]->written && target_claim(all[i]))
			goto out_usage;
	engine_note = default_engine_note(js);
	if (engine_note) {
		r->notes[r->nnotes++] = engine_note;
		note("%s", engine_note);
	}
	for (i = 0; i < js->n; i++) {
		struct job *j = &js->jobs[i];

		plans[i].workers = xcalloc(j->o.numjobs, sizeof(*plans[i].workers));
		for (c = 0; c < j->o.numjobs; c++)
			if (worker_init(&plans[i].workers[c], j, c, &plans[i].targets[c * plans[i].ntargets],
					plans[i].ntargets, js->size_max))
				goto out_usage;
		if (j->groupid > last_group)
			last_group = j->groupid;
	}
	link_waitees(js, plans);
	for (i = 0; i < nt; i++)
		if (all[i]->used && !all[i]->on_open && target_prepare(all[i])) {
			note("%s", bb_err);
			target_cleanup_all();
			free_plans(js, plans);
			return EXIT_FAIL;
		}
	if (set_schedulers(js, plans, &schedulers)) {
		note("%s", bb_err);
		target_cleanup_all();
		free_plans(js, plans);
		return EXIT_FAIL;
	}
	/* the engine's threads in the sandbox (job/confined.h), made before the first of them */
	hold_before_sandbox();
	if (confined_begin()) {
		note("%s", bb_err);
		iosched_restore(&schedulers);
		target_cleanup_all();
		free_plans(js, plans);
		return EXIT_FAIL;
	}
	exit_all = EXIT_ALL_NONE;
	gettimeofday(&tv, NULL);
	r->timestamp_ms = tv.tv_sec * 1000ull + tv.tv_usec / 1000;
	disk_util_begin(r);
	{
		uint64_t run_start = now_ns();

		for (group = 0; group <= last_group && !stop_requested; group++) {
			/* exitall stops its own group; with exit_what=all, the later ones too (they do not start) */
			if (exit_all == EXIT_ALL_RUN)
				break;
			exit_all = EXIT_ALL_NONE;
			run_group(js, plans, group, last_group, run_start);
		}
		if (js->run.progress_fd)
			dprintf((int)js->run.progress_fd, "progress 100 %.0f 0 0 0 0 done\n",
				(now_ns() - run_start) / 1e9);
	}
	refused = confined_end(&refused_last);
	disk_util_end(r);
	iosched_restore(&schedulers);
	write_logs(js, plans);
	r->interrupted = stop_requested;
	collect(r, js, plans);
	for (i = 0; i < r->nreports; i++)
		if (r->reports[i].st.error) {
			note("job '%s': %s", r->reports[i].job->o.name, r->reports[i].st.errmsg);
			status = EXIT_FAIL;
		}
	if (r->interrupted)
		status = EXIT_FAIL;
	if (refused) {
		/* a call the sandbox refused failed under a job: its figures are not the disk's */
		note("the sandbox refused %u system call(s) of the engine's threads (the last: %s): the run failed",
		     refused, syscall_name(refused_last) ? syscall_name(refused_last) : "another");
		status = EXIT_FAIL;
	}
	if (metrics.url[0]) {
		struct metrics_sample ms = { .profile = js->run.profile ? js->run.profile : "run", .job = "",
					     .p50_s = -1, .p99_s = -1, .p999_s = -1, .progress = 1, .seconds_left = 0,
					     .state = r->interrupted ? "interrupted" : status ? "fail" : "pass",
					     .disk = sample_disk() };

		read_disk();
		metrics_push(&metrics, &ms, 1);
	}
	target_cleanup_all();
	/* the reports point into the plans (targets, engine notes): freed with them */
	r->plans = plans;
	return status;
out_usage:
	target_release_all();
	free_plans(js, plans);
	return EXIT_USAGE;
}

void run_result_free(struct run_result *r)
{
	unsigned i;

	for (i = 0; i < r->nreports; i++)
		free(r->reports[i].st.samples);
	if (r->plans)
		free_plans((struct jobset *)r->js, r->plans);
	free(r->reports);
	free(r->du);
	memset(r, 0, sizeof(*r));
}

int run_write_reports(const struct run_opts *run, const char *report, size_t len, const char *summary,
		      size_t summary_len)
{
	int rc = 0;

	if (run->output)
		rc = write_file_atomic(run->output, report, len);
	else
		fwrite(report, 1, len, stdout);
	if (!rc && run->summary)
		rc = write_file_atomic(run->summary, summary ? summary : "", summary ? summary_len : 0);
	return rc;
}
