// SPDX-License-Identifier: MIT
/*
 * loop.c - the I/O loop of one job clone. It keeps iodepth I/Os in flight,
 * measures submission, completion and total latency, and ends on bytes moved
 * (size x loops), on runtime, or on a stop request: each pass of the loop
 * queues at most the free slots it found at its top, so time and stop are
 * checked at least once per iodepth I/Os whatever the engine does. Ramp time
 * runs the same loop with the figures thrown away at its end.
 */
#include "job/worker.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "job/iolog.h"
#include "lib/util.h"

volatile sig_atomic_t stop_requested;
volatile int exit_all;

#define SAMPLE_NS 1000000000ull

/* A job that only reads (verify_only too) opens its targets read-only. */
static int open_flags(const struct job_opts *o)
{
	int flags = O_CLOEXEC;

	flags |= (o->rw == RW_READ || o->rw == RW_RANDREAD || o->verify_only) ? O_RDONLY : O_RDWR;
	if (o->direct)
		flags |= O_DIRECT;
	if (o->sync_mode == SYNC_SYNC)
		flags |= O_SYNC;
	else if (o->sync_mode == SYNC_DSYNC)
		flags |= O_DSYNC;
	return flags;
}

int worker_fail(struct worker *w, int err, const char *fmt, ...)
{
	va_list ap;

	if (w->stats.error)
		return -1;
	w->stats.error = err ? err : EIO;
	va_start(ap, fmt);
	vsnprintf(w->stats.errmsg, sizeof(w->stats.errmsg), fmt, ap);
	va_end(ap);
	return -1;
}

static const char *ddir_name[DDIR_NR] = { "read", "write", "trim" };

/* A block device whose size fell to 0 (or whose node went): pulled out, or
 * dropped by its driver. Its reads then end short, at 0 bytes. */
static int device_gone(const struct worker_file *f)
{
	uint64_t size = 0;

	return f->t->is_blk && (ioctl(f->fd, BLKGETSIZE64, &size) || !size || access(f->t->path, F_OK));
}

/*
 * An I/O that failed: a medium error is located to its exact LBAs first
 * (badlba.c); with continue_on_error for its direction it is counted and
 * the job goes on (it fails at its end), else the job ends here.
 */
static void io_error(struct worker *w, struct worker_file *f, struct io_unit *io)
{
	int err = -io->res, goes_on = medium_error(err) && (w->job->o.continue_on_error & (1 << io->ddir));
	struct bad_lbas bad = { .first_lba = UINT64_MAX };
	char what[32], lba[48] = "";

	snprintf(what, sizeof(what), "%s error", ddir_name[io->ddir]);
	if (io->ddir != DDIR_TRIM && medium_error(err) &&
	    !locate_bad_lbas(f, io->ddir, io->buf, io->offset, io->len, err, what, &bad))
		snprintf(lba, sizeof(lba), "; bad from LBA %llu", (unsigned long long)bad.first_lba);
	if (!goes_on) {
		worker_fail(w, err, "%s at offset %llu on %s: %s (errno %d)%s", what, (unsigned long long)io->offset,
			    f->t->path, strerror(err), err, lba);
		return;
	}
	if (!w->stats.total_err++) {
		w->stats.first_error = err;
		snprintf(w->first_err_msg, sizeof(w->first_err_msg), "%s at offset %llu on %s: %s (errno %d)%s", what,
			 (unsigned long long)io->offset, f->t->path, strerror(err), err, lba);
	}
}

static void complete_io(struct worker *w, struct io_unit *io, uint64_t now)
{
	struct dir_stats *ds = &w->stats.dir[io->ddir];
	uint64_t clat = now - io->t_issue, lat = now - io->t_start;

	if (io->res != (int32_t)io->len) {
		struct worker_file *f = &w->files[io->file];

		if (io->res < 0)
			io_error(w, f, io);
		else
			worker_fail(w, EIO, "short %s at offset %llu on %s: %d of %u bytes%s", ddir_name[io->ddir],
			     (unsigned long long)io->offset, f->t->path, io->res, io->len,
			     device_gone(f) ? ": the device is gone (removed, or dropped by its controller)" : "");
		if (io->res >= 0 && io->measured)
			ds->short_ios++;
	} else if (io->measured && w->measuring) {
		const struct job_opts *o = &w->job->o;
		uint64_t slat = io->t_issue - io->t_start;

		if ((w->eng->flags & ENGINE_F_ASYNC) && !o->disable_slat)
			hist_add(&ds->slat, slat);
		if (!o->disable_clat)
			hist_add(&ds->clat, clat);
		if (!o->disable_lat)
			hist_add(&ds->lat, lat);
		iolog_io(w, io, now, slat, clat, lat);
		ds->bytes += io->len;
		ds->ios++;
		w->cur.ios[io->ddir]++;
		w->cur.bytes[io->ddir] += io->len;
		w->cur.lat_sum_ns[io->ddir] += lat;
	}
	if (io->ddir == DDIR_WRITE && io->res == (int32_t)io->len)
		verify_backlog_note(w, io);
	w->free_ios[w->nfree++] = io;
}

/* rate_min: a whole second below the floor fails the job, as fio's */
static void check_rate_min(struct worker *w)
{
	const struct rate *min = &w->job->o.rate_min;
	unsigned d;

	if (w->cur.dur_ms < 900)
		return;	/* the last, short interval says too little */
	for (d = 0; d < DDIR_NR; d++) {
		uint64_t bps = w->cur.bytes[d] * 1000 / w->cur.dur_ms;

		if (min->iops[d] && job_does(w->job->o.rw, (int)d) && bps < min->iops[d]) {
			worker_fail(w, EIO, "%s bandwidth %llu bytes/s in second %llu is below rate_min %llu",
				    ddir_name[d], (unsigned long long)bps, (unsigned long long)(w->cur.t_ms / 1000),
				    (unsigned long long)min->iops[d]);
			return;
		}
	}
}

/*
 * fio's bandwidth and IOPS samples: a window of bwavgtime (iopsavgtime)
 * ms ends when that much has passed, within fio's slack of 1 ms; each
 * direction that moved something in it adds its rate, and the next
 * window starts from now (as fio's, not from the last end).
 */
static void avg_windows(struct worker *w, uint64_t now)
{
	const struct job_opts *o = &w->job->o;
	uint64_t spent = (now - w->t_bw) / 1000000;
	unsigned d;

	if (spent + 1 >= o->bwavgtime) {
		for (d = 0; d < DDIR_NR; d++) {
			uint64_t delta = w->stats.dir[d].bytes - w->bw_seen[d];

			if (!delta)
				continue;
			avg_stat_add(&w->stats.bw[d], spent ? delta * 1000 / spent / 1024 : 0);
			w->bw_seen[d] = w->stats.dir[d].bytes;
		}
		w->t_bw = now;
	}
	spent = (now - w->t_iops) / 1000000;
	if (spent + 1 >= o->iopsavgtime) {
		for (d = 0; d < DDIR_NR; d++) {
			uint64_t delta = w->stats.dir[d].ios - w->iops_seen[d];

			if (!delta)
				continue;
			avg_stat_add(&w->stats.iops[d], spent ? delta * 1000 / spent : 0);
			w->iops_seen[d] = w->stats.dir[d].ios;
		}
		w->t_iops = now;
	}
}

static void take_sample(struct worker *w, uint64_t now)
{
	w->cur.t_ms = (now - w->t_measure) / 1000000;
	w->cur.dur_ms = (now - w->t_last_sample) / 1000000;
	/* a job shorter than a millisecond still has its one sample (rates 0: unknown) */
	if (w->cur.dur_ms || !w->stats.nsamples)
		stats_add_sample(&w->stats, &w->cur);
	check_rate_min(w);
	memset(&w->cur, 0, sizeof(w->cur));
	w->t_last_sample = now;
	w->t_next_sample = now + SAMPLE_NS;
}

/* Submits what is queued and waits for wait_nr completions, then handles them. */
static int submit_and_reap(struct worker *w, unsigned wait_nr)
{
	uint64_t now;
	unsigned i, n;
	int rc;

	if (!(w->eng->flags & ENGINE_F_ASYNC))
		return 0;
	if (w->npending) {
		now = now_ns();
		for (i = 0; i < w->npending; i++)
			w->pending[i]->t_issue = now;
		if (w->measuring)
			w->stats.submit[batch_bucket(w->npending)]++;
	}
	rc = w->eng->commit(w, wait_nr);
	w->npending = 0;
	if (rc < 0)
		return worker_fail(w, -rc, "%s engine: submit failed: %s", w->eng->name, strerror(-rc));
	n = w->eng->reap(w, w->done, w->inflight);
	if (!n)
		return 0;
	now = now_ns();
	if (w->measuring)
		w->stats.complete[batch_bucket(n)]++;
	w->inflight -= n;
	for (i = 0; i < n; i++)
		complete_io(w, w->done[i], now);
	return 0;
}

static void drain(struct worker *w)
{
	while (w->inflight || w->npending)
		if (submit_and_reap(w, w->inflight) < 0 && w->inflight && !w->npending) {
			/* the ring failed: nothing more will complete */
			w->inflight = 0;
		}
}

static int sync_files(struct worker *w, int datasync, int measured)
{
	unsigned i;

	drain(w);
	for (i = 0; i < w->nfiles; i++) {
		uint64_t start = now_ns();
		int rc = w->eng->sync(w, i, datasync);

		if (rc < 0)
			return worker_fail(w, -rc, "%s failed on %s: %s", datasync ? "fdatasync" : "fsync",
				    w->files[i].t->path, strerror(-rc));
		if (measured && w->measuring)
			hist_add(&w->stats.sync, now_ns() - start);
	}
	return 0;
}

static void cpu_snapshot(uint64_t *usr, uint64_t *sys, uint64_t *ctx, uint64_t *majf, uint64_t *minf)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	*usr = ru.ru_utime.tv_sec * 1000000ull + ru.ru_utime.tv_usec;
	*sys = ru.ru_stime.tv_sec * 1000000ull + ru.ru_stime.tv_usec;
	*ctx = ru.ru_nvcsw + ru.ru_nivcsw;
	*majf = ru.ru_majflt;
	*minf = ru.ru_minflt;
}

static void begin_measure(struct worker *w, uint64_t now)
{
	struct job_stats *s = &w->stats;

	memset(s->dir, 0, sizeof(s->dir));
	hist_reset(&s->sync);
	memset(s->depth, 0, sizeof(s->depth));
	memset(s->submit, 0, sizeof(s->submit));
	memset(s->complete, 0, sizeof(s->complete));
	s->nsamples = 0;
	memset(&w->cur, 0, sizeof(w->cur));
	memset(w->issued_ios, 0, sizeof(w->issued_ios));
	memset(w->issued_bytes, 0, sizeof(w->issued_bytes));
	rewind_files(w);
	w->loops_done = 0;
	w->measuring = 1;
	w->t_measure = w->t_last_sample = now;
	w->t_next_sample = now + SAMPLE_NS;
	w->t_bw = w->t_iops = now;
	memset(w->poisson_due, 0, sizeof(w->poisson_due));
	rng_seed(&w->rate_rng, w->seed ^ 0x9e3779b97f4a7c15ull);
	memset(w->bw_seen, 0, sizeof(w->bw_seen));
	memset(w->iops_seen, 0, sizeof(w->iops_seen));
	cpu_snapshot(&s->usr_us, &s->sys_us, &s->ctx, &s->majf, &s->minf);
}

static void end_measure(struct worker *w, uint64_t now)
{
	struct job_stats *s = &w->stats;
	uint64_t usr, sys, ctx, majf, minf;

	if (now - w->t_last_sample >= SAMPLE_NS / 10 || !s->nsamples)
		take_sample(w, now);
	iolog_end(w, now);
	cpu_snapshot(&usr, &sys, &ctx, &majf, &minf);
	s->runtime_ns = s->total_runtime_ns = now - w->t_measure;
	s->usr_us = usr - s->usr_us;
	s->sys_us = sys - s->sys_us;
	s->ctx = ctx - s->ctx;
	s->majf = majf - s->majf;
	s->minf = minf - s->minf;
}

static void interruptible_sleep(uint64_t ns)
{
	while (ns && !stop_requested) {
		uint64_t step = ns < 100000000ull ? ns : 100000000ull;

		sleep_ns(step);
		ns -= step;
	}
}

static void run_loop(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	uint64_t ramp_end = w->t_begin + o->ramp_us * 1000, runtime_ns = o->runtime_us * 1000;

	for (;;) {
		uint64_t now = now_ns();
		unsigned room;
		int need_sync = 0;

		if (stop_requested || w->stats.error || exit_all)
			break;
		/* verify_backlog: N blocks written, read back before more are */
		if (w->backlog && w->nbacklog >= o->verify_backlog) {
			drain(w);
			if (verify_backlog_check(w) < 0)
				break;
			continue;
		}
		if (!w->measuring && now >= ramp_end) {
			drain(w);
			begin_measure(w, now_ns());
			continue;
		}
		if (w->measuring) {
			if (runtime_ns && now - w->t_measure >= runtime_ns)
				break;
			if (now >= w->t_next_sample)
				take_sample(w, now);
			avg_windows(w, now);
		}
		/*
		 * At most the slots free now: a submit in the middle of the refill
		 * may reap at once (the null engine always does), and a refill that
		 * went on while slots kept freeing would never get back up here to
		 * see the time or a stop request.
		 */
		for (room = o->iodepth - w->inflight; room && !w->out_of_work; room--) {
			struct io_unit *io;
			uint64_t wait;
			int rc;

			/* number_ios: this many and no more, as fio counts them (the measured ones) */
			if (o->number_ios && w->measuring &&
			    w->issued_ios[DDIR_READ] + w->issued_ios[DDIR_WRITE] + w->issued_ios[DDIR_TRIM] >= o->number_ios) {
				w->out_of_work = 1;
				break;
			}
			io = next_io(w);
			if (!io)
				break;
			wait = rate_wait(w, io->ddir);
			if (wait) {
				uint64_t end = w->t_measure + runtime_ns, now2;

				drain(w);
				now2 = now_ns();
				/* due after the runtime: the job ends on time without it, as fio's */
				if (w->measuring && runtime_ns && now2 + wait >= end) {
					w->free_ios[w->nfree++] = io;
					if (end > now2)
						interruptible_sleep(end - now2);
					break;
				}
				interruptible_sleep(wait);
			}
			w->issued_ios[io->ddir]++;
			w->issued_bytes[io->ddir] += io->len;
			poisson_next(w, io->ddir);
			io->t_start = io->t_issue = now_ns();
			if (io->ddir == DDIR_TRIM) {
				io->res = target_trim(w->files[io->file].fd, w->files[io->file].t->is_blk,
						      io->offset, io->len);
				if (!io->res)
					io->res = (int32_t)io->len;
				rc = Q_COMPLETED;
			} else {
				rc = w->eng->queue(w, io);
			}
			if (rc == Q_COMPLETED) {
				complete_io(w, io, now_ns());
			} else if (rc == Q_QUEUED) {
				w->pending[w->npending++] = io;
				w->inflight++;
				if (w->measuring)
					w->stats.depth[depth_bucket(w->inflight)]++;
			} else {
				worker_fail(w, -rc, "%s engine: cannot queue I/O: %s", w->eng->name, strerror(-rc));
				break;
			}
			if (io->ddir == DDIR_WRITE && (o->fsync_every || o->fdatasync_every)) {
				unsigned every = o->fsync_every ? o->fsync_every : o->fdatasync_every;

				if (++w->writes_since_sync >= every) {
					w->writes_since_sync = 0;
					need_sync = 1;
					break;
				}
			}
			/* back to the top after a synchronous I/O: time and errors are checked there */
			if (rc == Q_COMPLETED)
				break;
			if (o->iodepth_batch_submit && w->npending >= o->iodepth_batch_submit)
				submit_and_reap(w, 0);
			if (o->thinktime_us) {
				drain(w);
				interruptible_sleep(o->thinktime_us * 1000);
				break;
			}
		}
		if (need_sync) {
			sync_files(w, !o->fsync_every, 1);
			continue;
		}
		if (w->inflight || w->npending) {
			unsigned want = o->iodepth_batch_complete_min;

			submit_and_reap(w, want < w->inflight ? want : w->inflight);
		} else if (w->out_of_work) {
			break;
		}
	}
	drain(w);
}

void *worker_main(void *arg)
{
	struct worker *w = arg;
	const struct job_opts *o = &w->job->o;
	unsigned i;

	w->stats.started = 1;
	if (place_thread(w) < 0) {
		worker_fail(w, errno, "%s", bb_err);
		goto out;
	}
	/* wait_for: after every clone of the job named has ended */
	for (struct worker **p = w->waitees; p && *p; p++)
		while (!(*p)->finished && !stop_requested && !exit_all)
			sleep_ns(10000000);
	interruptible_sleep(o->startdelay_us * 1000);
	for (i = 0; i < w->nfiles && !stop_requested; i++) {
		struct worker_file *f = &w->files[i];

		if (w->eng->flags & ENGINE_F_NOIO)
			continue;
		if (target_prepare(f->t) < 0) {
			worker_fail(w, EIO, "%s", bb_err);
			goto out;
		}
		f->fd = target_open(f->t, open_flags(o));
		if (f->fd < 0) {
			worker_fail(w, errno, "cannot open %s: %s", f->t->path,
				    errno == ELOOP ? "a link is on its way (a job's file is opened through none)" :
				    errno == EMLINK ? "it has another name now (a hard link) or backs a loop device: "
						      "not written" : strerror(errno));
			goto out;
		}
		/* invalidate=1 (fio's default): the job starts with nothing of its range cached */
		if (o->invalidate)
			posix_fadvise(f->fd, (off_t)f->start, (off_t)f->len, POSIX_FADV_DONTNEED);
		/* as fio's fadvise_hint: no readahead for random jobs, so buffered
		 * reads can complete inline instead of going to a kernel worker */
		if (!o->direct)
			posix_fadvise(f->fd, 0, 0, is_random(o->rw) ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL);
	}
	if (w->eng->init && w->eng->init(w) < 0) {
		worker_fail(w, EIO, "%s", bb_err);
		goto out;
	}
	w->t_begin = now_ns();
	if (!o->ramp_us)
		begin_measure(w, w->t_begin);
	if (!stop_requested && !o->verify_only)
		run_loop(w);
	if (!w->measuring)
		begin_measure(w, now_ns());	/* interrupted during ramp: report nothing measured */
	if (o->end_fsync && !w->stats.error && !stop_requested)
		sync_files(w, 0, 0);
	end_measure(w, now_ns());
	/* after the figures: the read-back is not part of the write's speed */
	if (o->verify && (o->do_verify || o->verify_only) && !w->stats.error && !stop_requested)
		verify_files(w);
	/* continue_on_error: the errors counted fail the job now, after its read-back */
	if (w->stats.total_err) {
		size_t len = strlen(w->stats.errmsg);
		char *end = w->stats.errmsg + len;

		if (!w->stats.error)
			worker_fail(w, w->stats.first_error, "%llu I/O error%s counted (continue_on_error), the first: %s",
				    (unsigned long long)w->stats.total_err, w->stats.total_err > 1 ? "s" : "",
				    w->first_err_msg);
		else
			snprintf(end, sizeof(w->stats.errmsg) - len, "; %llu I/O error%s counted (continue_on_error), "
				 "the first: %s", (unsigned long long)w->stats.total_err,
				 w->stats.total_err > 1 ? "s" : "", w->first_err_msg);
	}
	if (w->eng->cleanup)
		w->eng->cleanup(w);
	if (o->exitall)
		exit_all = o->exit_what == EXIT_WHAT_ALL ? EXIT_ALL_RUN : EXIT_ALL_GROUP;
out:
	w->finished = 1;
	return NULL;
}

