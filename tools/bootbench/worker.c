// SPDX-License-Identifier: MIT
/*
 * worker.c - the I/O loop of one job clone. It keeps iodepth I/Os in flight,
 * picks direction, size and offset for each, measures submission, completion
 * and total latency, and ends on bytes moved (size x loops) or on runtime.
 * Ramp time runs the same loop with the figures thrown away at its end.
 */
#include "worker.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "crc32c.h"
#include "util.h"

volatile sig_atomic_t stop_requested;
uint64_t run_size_max;

#define SAMPLE_NS 1000000000ull
#define STAMP_STRIDE 512

static int ddir_of(int rw)
{
	switch (rw) {
	case RW_WRITE: case RW_RANDWRITE: return DDIR_WRITE;
	case RW_TRIM: case RW_RANDTRIM: return DDIR_TRIM;
	default: return DDIR_READ;
	}
}

static int is_random(int rw)
{
	return rw == RW_RANDREAD || rw == RW_RANDWRITE || rw == RW_RANDTRIM || rw == RW_RANDRW;
}

static int is_mixed(int rw)
{
	return rw == RW_RW || rw == RW_RANDRW;
}

static int open_flags(const struct job_opts *o)
{
	int flags = O_CLOEXEC;

	flags |= (o->rw == RW_READ || o->rw == RW_RANDREAD) ? O_RDONLY : O_RDWR;
	if (o->direct)
		flags |= O_DIRECT;
	if (o->sync_mode == SYNC_SYNC)
		flags |= O_SYNC;
	else if (o->sync_mode == SYNC_DSYNC)
		flags |= O_DSYNC;
	return flags;
}

/* Random data, with zeros in the compressible share of each 4 KiB. */
static void fill_buffer(struct worker *w, unsigned char *buf, size_t len)
{
	const struct job_opts *o = &w->job->o;
	size_t chunk, i;

	if (o->zero_buffers) {
		memset(buf, 0, len);
		return;
	}
	for (chunk = 0; chunk < len; chunk += 4096) {
		size_t n = len - chunk < 4096 ? len - chunk : 4096;
		size_t random_len = n - n * o->compress_pct / 100;

		for (i = 0; i + 8 <= random_len; i += 8) {
			uint64_t v = rng_next(&w->rng);

			memcpy(buf + chunk + i, &v, 8);
		}
		memset(buf + chunk + i, 0, n - i);
	}
}

/*
 * Makes each 512-byte sector of a write unique (a sequence number and a
 * random word) so that deduplicating storage cannot skip it, without the
 * cost of refilling the whole buffer.
 */
static void stamp_buffer(struct worker *w, struct io_unit *io)
{
	const struct job_opts *o = &w->job->o;
	size_t random_len = STAMP_STRIDE - STAMP_STRIDE * o->compress_pct / 100, off;

	if (o->zero_buffers || random_len < 16)
		return;
	if (o->refill_buffers) {
		fill_buffer(w, io->buf, io->len);
		return;
	}
	for (off = 0; off + 16 <= io->len; off += STAMP_STRIDE) {
		uint64_t stamp[2] = { w->write_seq++ ^ ((uint64_t)w->clone << 48), rng_next(&w->rng) };

		memcpy((char *)io->buf + off, stamp, sizeof(stamp));
	}
}

/*
 * verify=crc32c: each written block starts with this header; the CRC covers
 * the whole block with the crc field zero. A block read back must carry its
 * own offset, the job's seed and the last pass, and the right CRC: so a
 * misdirected, lost, stale or corrupted write is told apart.
 */
struct verify_header {
	char magic[4];
	uint32_t crc;
	uint64_t offset;
	uint64_t seed;
	uint32_t pass;
	uint32_t len;
};

static int fail(struct worker *w, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#define VERIFY_MAGIC "bbv1"
#define VERIFY_REPORT_MAX 1000	/* mismatch lines printed; all are counted */

static uint32_t block_crc(void *buf, uint32_t len)
{
	struct verify_header *h = buf;
	uint32_t saved = h->crc, crc;

	h->crc = 0;
	crc = crc32c(0, buf, len);
	h->crc = saved;
	return crc;
}

static void verify_stamp(struct worker *w, struct io_unit *io)
{
	struct verify_header *h = io->buf;

	memcpy(h->magic, VERIFY_MAGIC, 4);
	h->offset = io->offset;
	h->seed = w->seed;
	h->pass = w->loops_done;
	h->len = io->len;
	h->crc = block_crc(io->buf, io->len);
}

/* What is wrong with a block read back, or NULL if it is right. */
static const char *verify_check(struct worker *w, void *buf, uint32_t len, uint64_t off, char *why, size_t n)
{
	const struct verify_header *h = buf;
	uint32_t pass = w->job->o.loops ? w->job->o.loops - 1 : 0;

	if (memcmp(h->magic, VERIFY_MAGIC, 4))
		return "no verify header (never written, or overwritten by something else)";
	if (h->offset != off) {
		snprintf(why, n, "header of offset %llu: a misdirected write", (unsigned long long)h->offset);
		return why;
	}
	if (h->seed != w->seed || h->pass != pass || h->len != len)
		return "header of another run or pass: a lost (stale) write";
	if (block_crc(buf, len) != h->crc)
		return "CRC-32C mismatch: data corrupted";
	return NULL;
}

/*
 * The read-back of verify=: every block of every file, in order, one at a
 * time (a whole-device pass reads at the device's sequential speed). Every
 * mismatch and read error is named with its LBA (logical block address).
 */
static void verify_files(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	struct io_unit *io = &w->ios[0];
	uint64_t first_bad = UINT64_MAX;
	const char *first_why = NULL;
	char why[128], first[128] = "";
	unsigned i;

	for (i = 0; i < w->nfiles && !stop_requested; i++) {
		struct worker_file *f = &w->files[i];
		unsigned lbs = f->t->lbs ? f->t->lbs : 512;
		uint64_t off;

		for (off = f->start; off + o->bs <= f->start + f->len && !stop_requested; off += o->bs) {
			ssize_t n = pread(f->fd, io->buf, o->bs, (off_t)off);
			const char *bad;

			w->stats.verify_blocks++;
			if (n != (ssize_t)o->bs) {
				snprintf(why, sizeof(why), "read failed: %s", n < 0 ? strerror(errno) : "short read");
				bad = why;
			} else {
				bad = verify_check(w, io->buf, (uint32_t)o->bs, off, why, sizeof(why));
			}
			if (!bad)
				continue;
			if (w->stats.verify_bad++ < VERIFY_REPORT_MAX)
				note("verify: %s LBA %llu (offset %llu): %s", f->t->path,
				     (unsigned long long)(off / lbs), (unsigned long long)off, bad);
			if (first_bad == UINT64_MAX) {
				first_bad = off / lbs;
				snprintf(first, sizeof(first), "%s", bad);
				first_why = first;
			}
		}
	}
	if (w->stats.verify_bad)
		fail(w, EILSEQ, "verify: %llu of %llu blocks bad; first at LBA %llu: %s",
		     (unsigned long long)w->stats.verify_bad, (unsigned long long)w->stats.verify_blocks,
		     (unsigned long long)first_bad, first_why);
}

static uint64_t pick_bs(struct worker *w)
{
	const struct bssplit *b = &w->job->o.bssplit;
	unsigned r, i, acc = 0;

	if (!b->n)
		return w->job->o.bs;
	r = (unsigned)rng_below(&w->rng, 100);
	for (i = 0; i < b->n; i++) {
		acc += b->pct[i];
		if (r < acc)
			return b->bs[i];
	}
	return b->bs[b->n - 1];
}

static int pick_ddir(struct worker *w)
{
	const struct job_opts *o = &w->job->o;

	if (!is_mixed(o->rw))
		return ddir_of(o->rw);
	return rng_below(&w->rng, 100) < o->rwmixread ? DDIR_READ : DDIR_WRITE;
}

static void rewind_files(struct worker *w)
{
	unsigned i;

	for (i = 0; i < w->nfiles; i++) {
		w->files[i].seq_pos = 0;
		w->files[i].issued = 0;
		perm_rewind(&w->files[i].perm);
	}
	w->loop_issued = 0;
}

/* The next offset in a file with room left; len may be cut at the range end. */
static int pick_offset(struct worker *w, struct worker_file *f, uint64_t *len, uint64_t *off)
{
	const struct job_opts *o = &w->job->o;
	uint64_t left = f->len - f->issued, blocks;

	if (!left)
		return -1;
	if (*len > left)
		*len = left;
	f->issued += *len;
	if (!is_random(o->rw)) {
		*off = f->start + f->seq_pos;
		f->seq_pos += *len;
		return 0;
	}
	if (!o->norandommap && !o->bssplit.n && o->dist.kind == DIST_RANDOM) {
		/* every block exactly once per loop */
		*off = f->start + perm_next(&f->perm) * o->bs;
		return 0;
	}
	blocks = f->len / *len;
	if (o->dist.kind != DIST_RANDOM)
		*off = dist_next(&f->dist, &w->rng) * w->min_bs / *len * *len;
	else
		*off = rng_below(&w->rng, blocks ? blocks : 1) * *len;
	if (*off + *len > f->len)
		*off = f->len - *len;
	*off += f->start;
	return 0;
}

/* Prepares the next I/O, or returns NULL when the job has moved all it should. */
static struct io_unit *next_io(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	struct io_unit *io;
	uint64_t len, off;
	unsigned tries;

	if (w->loop_issued >= w->loop_bytes) {
		if (w->measuring && !o->time_based && ++w->loops_done >= o->loops) {
			w->out_of_work = 1;
			return NULL;
		}
		rewind_files(w);
	}
	len = pick_bs(w);
	for (tries = 0; tries < w->nfiles; tries++) {
		struct worker_file *f = &w->files[w->next_file];

		w->next_file = w->next_file + 1 == w->nfiles ? 0 : w->next_file + 1;
		if (!pick_offset(w, f, &len, &off))
			break;
	}
	if (tries == w->nfiles) {
		/* every file is used up: the loop is done */
		w->loop_issued = w->loop_bytes;
		return next_io(w);
	}
	io = w->free_ios[--w->nfree];
	io->file = (uint16_t)(w->next_file ? w->next_file - 1 : w->nfiles - 1);
	io->offset = off;
	io->len = (uint32_t)len;
	io->ddir = (uint8_t)pick_ddir(w);
	io->measured = (uint8_t)w->measuring;
	w->loop_issued += len;
	if (io->ddir == DDIR_WRITE)
		stamp_buffer(w, io);
	if (io->ddir == DDIR_WRITE && o->verify)
		verify_stamp(w, io);
	return io;
}

static int fail(struct worker *w, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(struct worker *w, int err, const char *fmt, ...)
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

static void complete_io(struct worker *w, struct io_unit *io, uint64_t now)
{
	struct dir_stats *ds = &w->stats.dir[io->ddir];
	uint64_t clat = now - io->t_issue, lat = now - io->t_start;

	if (io->res != (int32_t)io->len) {
		struct worker_file *f = &w->files[io->file];

		if (io->res < 0)
			fail(w, -io->res, "%s error at offset %llu on %s: %s (errno %d)", ddir_name[io->ddir],
			     (unsigned long long)io->offset, f->t->path, strerror(-io->res), -io->res);
		else
			fail(w, EIO, "short %s at offset %llu on %s: %d of %u bytes", ddir_name[io->ddir],
			     (unsigned long long)io->offset, f->t->path, io->res, io->len);
		if (io->res >= 0 && io->measured)
			ds->short_ios++;
	} else if (io->measured && w->measuring) {
		if (w->eng->flags & ENGINE_F_ASYNC)
			hist_add(&ds->slat, io->t_issue - io->t_start);
		hist_add(&ds->clat, clat);
		hist_add(&ds->lat, lat);
		ds->bytes += io->len;
		ds->ios++;
		w->cur.ios[io->ddir]++;
		w->cur.bytes[io->ddir] += io->len;
		w->cur.lat_sum_ns[io->ddir] += lat;
	}
	w->free_ios[w->nfree++] = io;
}

static void take_sample(struct worker *w, uint64_t now)
{
	w->cur.t_ms = (now - w->t_measure) / 1000000;
	w->cur.dur_ms = (now - w->t_last_sample) / 1000000;
	/* a job shorter than a millisecond still has its one sample (rates 0: unknown) */
	if (w->cur.dur_ms || !w->stats.nsamples)
		stats_add_sample(&w->stats, &w->cur);
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
		return fail(w, -rc, "%s engine: submit failed: %s", w->eng->name, strerror(-rc));
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
			return fail(w, -rc, "%s failed on %s: %s", datasync ? "fdatasync" : "fsync",
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
	rewind_files(w);
	w->loops_done = 0;
	w->measuring = 1;
	w->t_measure = w->t_last_sample = now;
	w->t_next_sample = now + SAMPLE_NS;
	cpu_snapshot(&s->usr_us, &s->sys_us, &s->ctx, &s->majf, &s->minf);
}

static void end_measure(struct worker *w, uint64_t now)
{
	struct job_stats *s = &w->stats;
	uint64_t usr, sys, ctx, majf, minf;

	if (now - w->t_last_sample >= SAMPLE_NS / 10 || !s->nsamples)
		take_sample(w, now);
	cpu_snapshot(&usr, &sys, &ctx, &majf, &minf);
	s->runtime_ns = now - w->t_measure;
	s->usr_us = usr - s->usr_us;
	s->sys_us = sys - s->sys_us;
	s->ctx = ctx - s->ctx;
	s->majf = majf - s->majf;
	s->minf = minf - s->minf;
}

/* rate_iops: how long to wait before the next I/O of this direction may go. */
static uint64_t rate_wait(struct worker *w, int ddir)
{
	uint64_t rate = w->job->o.rate.iops[ddir], due, now;

	if (!rate || !w->measuring)
		return 0;
	now = now_ns();
	due = w->t_measure + w->issued_ios[ddir] * 1000000000ull / rate;
	return due > now ? due - now : 0;
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
		int need_sync = 0;

		if (stop_requested || w->stats.error)
			break;
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
		}
		while (w->inflight < o->iodepth && !w->out_of_work) {
			struct io_unit *io = next_io(w);
			uint64_t wait;
			int rc;

			if (!io)
				break;
			wait = rate_wait(w, io->ddir);
			if (wait) {
				drain(w);
				interruptible_sleep(wait);
			}
			w->issued_ios[io->ddir]++;
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
				fail(w, -rc, "%s engine: cannot queue I/O: %s", w->eng->name, strerror(-rc));
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

	interruptible_sleep(o->startdelay_us * 1000);
	for (i = 0; i < w->nfiles && !stop_requested; i++) {
		struct worker_file *f = &w->files[i];

		if (w->eng->flags & ENGINE_F_NOIO)
			continue;
		if (target_prepare(f->t) < 0) {
			fail(w, EIO, "%s", bb_err);
			goto out;
		}
		f->fd = open(f->t->path, open_flags(o));
		if (f->fd < 0) {
			fail(w, errno, "cannot open %s: %s", f->t->path, strerror(errno));
			goto out;
		}
		/* as fio's fadvise_hint: no readahead for random jobs, so buffered
		 * reads can complete inline instead of going to a kernel worker */
		if (!o->direct)
			posix_fadvise(f->fd, 0, 0, is_random(o->rw) ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL);
	}
	if (w->eng->init && w->eng->init(w) < 0) {
		fail(w, EIO, "%s", bb_err);
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
	if (w->eng->cleanup)
		w->eng->cleanup(w);
out:
	w->finished = 1;
	return NULL;
}

int job_range(const struct job_opts *o, const struct target *t, unsigned nfiles, uint64_t *start,
	      uint64_t *len)
{
	uint64_t unit = o->bs, off, l, i;

	for (i = 0; i < o->bssplit.n; i++)
		if (o->bssplit.bs[i] > unit || i == 0)
			unit = o->bssplit.bs[i];
	if ((o->offset.pct || o->size.pct) && !t->exists)
		return set_err("job '%s': a size or offset in %% needs an existing target, %s is new", o->name,
			       t->path);
	off = o->offset.pct ? (uint64_t)(t->size * o->offset.pct / 100) / unit * unit : o->offset.bytes;
	if (o->size.pct)
		l = (uint64_t)(t->size * o->size.pct / 100);
	else if (o->size.bytes)
		l = o->size.bytes / nfiles;
	else if (!t->exists)
		return set_err("job '%s': size is needed to create %s", o->name, t->path);
	else if (off >= t->size)
		return set_err("job '%s': offset %llu is beyond the end of %s (%llu bytes)", o->name,
			       (unsigned long long)off, t->path, (unsigned long long)t->size);
	else
		l = t->size - off;
	if (run_size_max && l > run_size_max)
		l = run_size_max;
	if (t->is_blk && off + l > t->size)
		return set_err("job '%s': offset+size %llu is beyond the end of %s (%llu bytes)", o->name,
			       (unsigned long long)(off + l), t->path, (unsigned long long)t->size);
	l = l / unit * unit;
	if (!l)
		return set_err("job '%s': size is smaller than the block size %llu", o->name,
			       (unsigned long long)unit);
	if (o->direct) {
		for (i = 0; i < (o->bssplit.n ? o->bssplit.n : 1); i++) {
			uint64_t bs = o->bssplit.n ? o->bssplit.bs[i] : o->bs;

			if (bs % t->lbs)
				return set_err("job '%s': bs %llu is not a multiple of the logical block size %u "
					       "of %s (direct=1)", o->name, (unsigned long long)bs, t->lbs,
					       t->path);
		}
		if (off % t->lbs)
			return set_err("job '%s': offset %llu is not a multiple of the logical block size %u "
				       "of %s (direct=1)", o->name, (unsigned long long)off, t->lbs, t->path);
	}
	*start = off;
	*len = l;
	return 0;
}

int worker_init(struct worker *w, const struct job *j, unsigned clone, struct target **targets,
		unsigned ntargets)
{
	const struct job_opts *o = &j->o;
	unsigned i, depth = o->iodepth;
	uint64_t seed;

	memset(w, 0, sizeof(*w));
	w->job = j;
	w->clone = clone;
	w->eng = engine_get(o->ioengine);
	if (engine_check(w->eng))
		return -1;
	w->max_bs = w->min_bs = o->bs;
	for (i = 0; i < o->bssplit.n; i++) {
		if (!i || o->bssplit.bs[i] > w->max_bs)
			w->max_bs = o->bssplit.bs[i];
		if (!i || o->bssplit.bs[i] < w->min_bs)
			w->min_bs = o->bssplit.bs[i];
	}
	/* randrepeat: the same sequence every run; each clone its own */
	seed = o->given[opt_find("randseed")] ? o->randseed : o->randrepeat ? 0x6a09e667f3bcc908ull : now_ns();
	/* each clone, and each reporting group (a burn-in pass), its own sequence */
	w->seed = seed + 0x9e3779b97f4a7c15ull * (clone + 1) + 0xbf58476d1ce4e5b9ull * j->groupid;
	rng_seed(&w->rng, w->seed);
	w->nfiles = ntargets;
	w->files = xcalloc(ntargets, sizeof(*w->files));
	for (i = 0; i < ntargets; i++) {
		struct worker_file *f = &w->files[i];

		f->t = targets[i];
		f->fd = -1;
		if (job_range(o, f->t, ntargets, &f->start, &f->len))
			return -1;
		f->nblocks = f->len / o->bs;
		perm_init(&f->perm, f->nblocks ? f->nblocks : 1, w->seed + i);
		if (o->dist.kind != DIST_RANDOM &&
		    dist_init(&f->dist, o->dist.kind, o->dist.param, f->len / w->min_bs, w->seed + i))
			return set_err("job '%s': bad random_distribution", o->name);
		w->loop_bytes += f->len;
	}
	w->ios = xcalloc(depth, sizeof(*w->ios));
	w->free_ios = xcalloc(depth, sizeof(*w->free_ios));
	w->pending = xcalloc(depth, sizeof(*w->pending));
	w->done = xcalloc(depth, sizeof(*w->done));
	/* page-aligned for O_DIRECT and for registering with io_uring */
	w->buf_size = (size_t)(depth * w->max_bs + 4095) & ~(size_t)4095;
	w->buf_base = mmap(NULL, w->buf_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (w->buf_base == MAP_FAILED)
		return set_err("job '%s': cannot allocate %zu bytes of buffers", o->name, w->buf_size);
	fill_buffer(w, w->buf_base, w->buf_size);
	for (i = 0; i < depth; i++) {
		w->ios[i].buf = (char *)w->buf_base + i * w->max_bs;
		w->ios[i].index = i;
		w->free_ios[w->nfree++] = &w->ios[i];
	}
	w->stats.clones = 1;
	return 0;
}

void worker_free(struct worker *w)
{
	unsigned i;

	for (i = 0; i < w->nfiles; i++)
		if (w->files[i].fd >= 0)
			close(w->files[i].fd);
	if (w->buf_base && w->buf_base != MAP_FAILED)
		munmap(w->buf_base, w->buf_size);
	free(w->files);
	free(w->ios);
	free(w->free_ios);
	free(w->pending);
	free(w->done);
	free(w->stats.samples);
}
