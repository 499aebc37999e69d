// SPDX-License-Identifier: MIT
/*
 * cmd_run.c - `bootbench run`: fio's job language on io_uring.
 *
 * usage: bootbench run [--option=value ...] [jobfile ...]
 *
 * Order of work, so that bad input changes nothing: parse every job, inspect
 * every target without side effects, check sizes, alignment and consent,
 * claim written block devices with O_EXCL; only then create files and run
 * the groups one after another (jobs of a group side by side, one thread
 * per clone). Ctrl-C stops the workers; the results so far are printed and
 * marked interrupted.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <unistd.h>

#include "disks.h"
#include "jobs.h"
#include "report.h"
#include "target.h"
#include "util.h"
#include "worker.h"

struct job_plan {
	struct target **targets;	/* per clone: ntargets entries */
	unsigned ntargets;
	struct worker *workers;
};

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static int writes(const struct job_opts *o)
{
	return o->rw != RW_READ && o->rw != RW_RANDREAD;
}

static int reads(const struct job_opts *o)
{
	return o->rw == RW_READ || o->rw == RW_RANDREAD || o->rw == RW_RW || o->rw == RW_RANDRW;
}

/* The targets of one clone: its filename list, or NAME.CLONE.0 in directory. */
static void plan_targets(struct job_plan *p, const struct job *j)
{
	const struct job_opts *o = &j->o;
	unsigned clone, n = 0;
	char path[4096];

	if (o->filename) {
		char *list = xstrdup(o->filename), *save, *tok;

		for (tok = strtok_r(list, ":", &save); tok; tok = strtok_r(NULL, ":", &save))
			n++;
		free(list);
	} else {
		n = 1;
	}
	p->ntargets = n;
	p->targets = xcalloc((size_t)n * o->numjobs, sizeof(*p->targets));
	for (clone = 0; clone < o->numjobs; clone++) {
		struct target **t = &p->targets[clone * n];

		if (o->filename) {
			char *list = xstrdup(o->filename), *save, *tok;
			unsigned i = 0;

			for (tok = strtok_r(list, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
				if (o->directory && tok[0] != '/')
					snprintf(path, sizeof(path), "%s/%s", o->directory, tok);
				else
					snprintf(path, sizeof(path), "%s", tok);
				t[i++] = target_get(path);
			}
			free(list);
		} else {
			snprintf(path, sizeof(path), "%s/%s.%u.0", o->directory ? o->directory : ".", o->name, clone);
			t[0] = target_get(path);
		}
	}
}

static int check_destroy_list(const char *destroy)
{
	char *list, *save, *tok;
	int rc = 0;

	if (!destroy)
		return 0;
	list = xstrdup(destroy);
	for (tok = strtok_r(list, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		struct stat st;

		if (stat(tok, &st) < 0 || !S_ISBLK(st.st_mode))
			rc = set_err("--destroy names %s, which is not a block device", tok);
	}
	free(list);
	return rc;
}

/* Everything that can be wrong with the input is found here, before any write. */
static int check_targets(struct jobset *js, struct job_plan *plans)
{
	unsigned i, k, nt;
	struct target **all;

	if (check_destroy_list(js->run.destroy))
		return -1;
	all = target_list(&nt);
	for (i = 0; i < nt; i++)
		if (target_inspect(all[i]))
			return -1;
	for (i = 0; i < js->n; i++) {
		const struct job_opts *o = &js->jobs[i].o;
		struct job_plan *p = &plans[i];

		if (o->ioengine == ENGINE_NULL)
			continue;
		for (k = 0; k < p->ntargets * o->numjobs; k++) {
			struct target *t = p->targets[k];
			uint64_t start, len;

			if (job_range(o, t, p->ntargets, &start, &len))
				return -1;
			t->used = 1;
			if (start + len > t->need_end)
				t->need_end = start + len;
			if (writes(o) && !o->verify_only)
				t->written = 1;
			if (reads(o) || o->verify_only)
				t->needs_data = 1;
			if (o->unlink)
				t->unlink = 1;
			if (!t->exists && !t->falloc)
				t->falloc = o->fallocate;
			if (o->create_on_open)
				t->on_open = 1;
		}
	}
	for (i = 0; i < nt; i++) {
		struct target *t = all[i];
		char why[128];

		/* the one place every write passes: the CLI, profiles, the menu, unattended runs */
		if (t->is_blk && t->written && disk_is_our_medium(t->rdev, why, sizeof(why)))
			return set_err("refusing to write %s: %s (consent cannot override this)", t->path, why);
		if (t->is_blk && t->written && !destroy_list_has(js->run.destroy, t->rdev)) {
			char holds[256] = "";
			int fd = open(t->path, O_RDONLY | O_CLOEXEC);

			if (fd >= 0) {
				target_describe(fd, holds, sizeof(holds));
				close(fd);
			}
			return set_err("refusing to write %s (%s): name it in --destroy=%s to consent", t->path,
				       holds[0] ? holds : "no partition table or filesystem found", t->path);
		}
		if (!t->is_blk && t->exists && t->needs_data && !t->written && t->need_end > t->size)
			return set_err("%s is %llu bytes; the jobs read up to byte %llu", t->path,
				       (unsigned long long)t->size, (unsigned long long)t->need_end);
	}
	for (i = 0; i < nt; i++)
		if (all[i]->written && target_claim(all[i]))
			return -1;
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

/*
 * One line a second on --progress-fd while a group runs:
 *   progress PCT ELAPSED_S LEFT_S READ_IOPS WRITE_IOPS MB_S JOB
 * Counters are read without locks: a figure a few I/Os stale is fine here.
 */
static void watch_group(const struct jobset *js, struct job_plan *plans, unsigned group, unsigned last_group,
			uint64_t run_start)
{
	uint64_t prev_ios[DDIR_NR] = { 0 }, prev_bytes = 0, prev_t = now_ns(), t_group = prev_t;
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
		dprintf(fd, "progress %.0f %.0f %.0f %.0f %.0f %.1f %s\n", pct, (now - run_start) / 1e9, left,
			(ios[DDIR_READ] - prev_ios[DDIR_READ]) / dt, (ios[DDIR_WRITE] - prev_ios[DDIR_WRITE]) / dt,
			(bytes - prev_bytes) / dt / 1e6, name);
		memcpy(prev_ios, ios, sizeof(ios));
		prev_bytes = bytes;
		prev_t = now;
	}
}

static void run_group(struct jobset *js, struct job_plan *plans, unsigned group, unsigned last_group,
		      uint64_t run_start)
{
	unsigned i, c;

	for (i = 0; i < js->n; i++) {
		if (js->jobs[i].groupid != group)
			continue;
		for (c = 0; c < js->jobs[i].o.numjobs; c++) {
			struct worker *w = &plans[i].workers[c];

			if (pthread_create(&w->thread, NULL, worker_main, w))
				w->thread = 0;
		}
	}
	if (js->run.progress_fd)
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

/* The readable summary beside a JSON report, for saved results. */
static int emit_summary(const struct run_result *r, const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f)
		return set_err("out of memory");
	report_human(f, r);
	fclose(f);
	rc = write_file_atomic(path, buf, len);
	free(buf);
	return rc;
}

/* A profile's own table replaces the report on stdout (cmd_profile.c). */
void (*run_summary)(FILE *f, const struct run_result *r);

static int emit(const struct run_result *r, const struct run_opts *run)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc = 0;

	if (!f)
		return set_err("out of memory");
	if (run->formats & FMT_NORMAL)
		report_human(f, r);
	if (run->formats & (FMT_JSON | FMT_JSONPLUS))
		report_json(f, r, !!(run->formats & FMT_JSONPLUS));
	fclose(f);
	if (run->output)
		rc = write_file_atomic(run->output, buf, len);
	else if (!run_summary)
		fwrite(buf, 1, len, stdout);
	if (run_summary)
		run_summary(stdout, r);
	free(buf);
	if (!rc && run->summary)
		rc = emit_summary(r, run->summary);
	return rc;
}

static void usage(void)
{
	printf("usage: bootbench run [--option=value ...] [jobfile ...]\n\n"
	       "Runs fio-style jobs on io_uring. Options before the first --name, and in [global]\n"
	       "sections, apply to the jobs after them. Exit status: 0 ok, 1 I/O error or\n"
	       "interrupted, 2 bad input (nothing written).\n\n");
	opts_help(stdout);
}

int cmd_run(int argc, char **argv)
{
	static struct jobset js;
	struct job_plan *plans;
	struct run_result r = { 0 };
	struct sigaction sa = { .sa_handler = on_signal };
	struct timeval tv;
	unsigned i, c, group, last_group = 0;
	int uring_err = 0, status = EXIT_OK;

	if (jobset_parse_args(&js, argc, argv))
		die_usage("%s", bb_err);
	if (js.run.help) {
		usage();
		return EXIT_OK;
	}
	if (!js.n)
		die_usage("no jobs: give --name=NAME with options, or a job file (see 'bootbench run --help')");
	if (jobset_finish(&js))
		die_usage("%s", bb_err);
	if (js.run.parse_only)
		return EXIT_OK;
	plans = xcalloc(js.n, sizeof(*plans));
	for (i = 0; i < js.n; i++)
		plan_targets(&plans[i], &js.jobs[i]);
	if (check_targets(&js, plans))
		die_usage("%s", bb_err);
	for (i = 0; i < js.n; i++) {
		struct job *j = &js.jobs[i];

		if (j->o.ioengine == ENGINE_DEFAULT) {
			if (io_uring_available(&uring_err)) {
				j->o.ioengine = ENGINE_IO_URING;
			} else {
				j->o.ioengine = ENGINE_PSYNC;
				if (!r.nnotes) {
					static char msg[160];

					snprintf(msg, sizeof(msg), "io_uring is unavailable (%s): jobs use psync",
						 strerror(uring_err));
					r.notes[r.nnotes++] = msg;
					note("%s", msg);
				}
			}
		}
		plans[i].workers = xcalloc(j->o.numjobs, sizeof(*plans[i].workers));
		for (c = 0; c < j->o.numjobs; c++)
			if (worker_init(&plans[i].workers[c], j, c, &plans[i].targets[c * plans[i].ntargets],
					plans[i].ntargets))
				die_usage("%s", bb_err);
		if (j->groupid > last_group)
			last_group = j->groupid;
	}
	{
		unsigned nt;
		struct target **all = target_list(&nt);

		for (i = 0; i < nt; i++)
			if (all[i]->used && !all[i]->on_open && target_prepare(all[i])) {
				note("%s", bb_err);
				target_cleanup_all();
				return EXIT_FAIL;
			}
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	gettimeofday(&tv, NULL);
	r.timestamp_ms = tv.tv_sec * 1000ull + tv.tv_usec / 1000;
	r.js = &js;
	disk_util_begin(&r);
	{
		uint64_t run_start = now_ns();

		for (group = 0; group <= last_group && !stop_requested; group++)
			run_group(&js, plans, group, last_group, run_start);
		if (js.run.progress_fd)
			dprintf((int)js.run.progress_fd, "progress 100 %.0f 0 0 0 0 done\n",
				(now_ns() - run_start) / 1e9);
	}
	disk_util_end(&r);
	r.interrupted = stop_requested;
	collect(&r, &js, plans);
	for (i = 0; i < r.nreports; i++)
		if (r.reports[i].st.error) {
			note("job '%s': %s", r.reports[i].job->o.name, r.reports[i].st.errmsg);
			status = EXIT_FAIL;
		}
	if (emit(&r, &js.run)) {
		note("%s", bb_err);
		status = EXIT_FAIL;
	}
	if (r.interrupted) {
		note("interrupted: results cover the run until then");
		status = EXIT_FAIL;
	}
	target_cleanup_all();
	for (i = 0; i < js.n; i++)
		for (c = 0; c < js.jobs[i].o.numjobs; c++)
			worker_free(&plans[i].workers[c]);
	return status;
}
