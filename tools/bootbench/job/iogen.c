// SPDX-License-Identifier: MIT
/*
 * iogen.c - the next I/O of a job: its direction (rwmixread), size (bs or
 * bssplit) and offset (sequential, a random permutation that covers every
 * block once per loop, or a random distribution), and the byte range a job
 * uses in each of its targets.
 */
#include "job/worker.h"

#include <fcntl.h>

#include <string.h>

#include "lib/util.h"

static uint64_t pick_bs(struct worker *w, int ddir)
{
	const struct job_opts *o = &w->job->o;
	const struct bssplit *b = &o->bssplit;
	unsigned r, i, acc = 0;

	if (o->bsrange.min[0]) {
		/* a random multiple of the smallest size, up to the largest (fio's, unless bs_unaligned) */
		uint64_t lo = o->bsrange.min[ddir], steps = o->bsrange.max[ddir] / lo;

		return lo * (1 + rng_below(&w->rng, steps));
	}
	if (!b->n)
		return o->bs;
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

void rewind_files(struct worker *w)
{
	unsigned i;

	for (i = 0; i < w->nfiles; i++) {
		w->files[i].seq_pos = 0;
		w->files[i].issued = 0;
		w->files[i].zone_start = w->files[i].zone_bytes = w->files[i].zone_pos = 0;
		perm_rewind(&w->files[i].perm);
	}
	w->loop_issued = 0;
}

/*
 * zonemode=strided, as fio's: zonesize bytes in a zone of zonerange (a
 * random job at random offsets in it, a sequential one in order, round
 * again when zonesize is the longer), then zoneskip on, from the start
 * again past the target's end. size is the bytes moved, as fio counts it
 * (the skipped ones are not).
 */
static int pick_strided(struct worker *w, struct worker_file *f, uint64_t *len, uint64_t *off)
{
	const struct job_opts *o = &w->job->o;
	uint64_t end = f->t->size > f->start ? f->t->size - f->start : f->len, range = o->zonerange;

	if (f->zone_bytes >= o->zonesize) {
		f->zone_bytes = f->zone_pos = 0;
		f->zone_start += range + o->zoneskip;
		if (f->zone_start >= end)
			f->zone_start = 0;
	}
	if (*len > f->len - f->issued)
		*len = f->len - f->issued;
	if (*len > range)
		*len = range;
	if (f->zone_start + range > end && f->zone_start + *len > end)
		f->zone_start = 0;	/* a last zone past the end: from the start, as fio wraps */
	if (is_random(o->rw)) {
		*off = f->zone_start + rng_below(&w->rng, range / *len ? range / *len : 1) * *len;
	} else {
		if (f->zone_pos + *len > range)
			f->zone_pos = 0;
		*off = f->zone_start + f->zone_pos;
		f->zone_pos += *len;
	}
	if (*off + *len > end)
		*off = end - *len;
	*off += f->start;
	f->zone_bytes += *len;
	f->issued += *len;
	return 0;
}

/* The next offset in a file with room left; len may be cut at the range end. */
static int pick_offset(struct worker *w, struct worker_file *f, uint64_t *len, uint64_t *off)
{
	const struct job_opts *o = &w->job->o;
	uint64_t left = f->len > f->issued ? f->len - f->issued : 0, blocks;

	if (!left)
		return -1;
	if (o->zonemode == ZONEMODE_STRIDED)
		return pick_strided(w, f, len, off);
	if (*len > left)
		*len = left;
	f->issued += *len;
	if (!is_random(o->rw)) {
		/* rw=write:SIZE skips SIZE after each I/O (back with -SIZE); at the range's ends it wraps, as fio */
		if (f->seq_pos + *len > f->len)
			f->seq_pos = 0;
		*off = f->start + f->seq_pos;
		if (o->rw_skip < 0 && (uint64_t)-o->rw_skip > f->seq_pos + *len)
			f->seq_pos = (f->len - *len) / *len * *len;
		else
			f->seq_pos += *len + (uint64_t)o->rw_skip;
		return 0;
	}
	/* rw=randread:N: N I/Os in a row from each random offset */
	if (o->rw_skip > 1 && f->run_left && f->run_end + *len <= f->start + f->len) {
		f->run_left--;
		*off = f->run_end;
		f->run_end += *len;
		return 0;
	}
	if (o->rw_skip > 1)
		f->run_left = (unsigned)o->rw_skip - 1;
	if (!o->norandommap && !o->bssplit.n && !o->bsrange.min[0] && o->dist.kind == DIST_RANDOM &&
	    (!o->blockalign || o->blockalign == o->bs)) {
		/* every block exactly once per loop */
		*off = f->start + perm_next(&f->perm) * o->bs;
		f->run_end = *off + *len;
		return 0;
	}
	if (o->dist.kind != DIST_RANDOM) {
		*off = dist_next(&f->dist, &w->rng) * w->min_bs / *len * *len;
	} else {
		/* as fio: offsets on blockalign (ba), the smallest block size unless given */
		uint64_t align = o->blockalign ? o->blockalign : w->min_bs;

		blocks = *len <= f->len ? (f->len - *len) / align + 1 : 1;
		*off = rng_below(&w->rng, blocks) * align;
	}
	if (*off + *len > f->len)
		*off = f->len - *len;
	*off += f->start;
	f->run_end = *off + *len;
	return 0;
}

/* Prepares the next I/O, or returns NULL when the job has moved all it should. */
struct io_unit *next_io(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	struct io_unit *io;
	uint64_t len, off = 0;	/* set by pick_offset unless every file is used up, which returns first */
	unsigned tries;
	int ddir;

	/* io_size: this many bytes, over as many passes of the range as that takes (fio's io_limit) */
	if (o->io_size && w->measuring && !o->time_based &&
	    w->issued_bytes[DDIR_READ] + w->issued_bytes[DDIR_WRITE] + w->issued_bytes[DDIR_TRIM] >= o->io_size) {
		w->out_of_work = 1;
		return NULL;
	}
	if (w->loop_issued >= w->loop_bytes) {
		if (w->measuring && !o->time_based && ++w->loops_done >= o->loops && !o->io_size) {
			w->out_of_work = 1;
			return NULL;
		}
		rewind_files(w);
		/*
		 * fio closes and reopens a job's files for each pass, and
		 * invalidate=1 drops their cached pages again each time: a
		 * buffered time_based job over a small range reads the disk, not
		 * the cache (fio's 4k random reads over 16 MiB on a loop device:
		 * 71k IOPS so, 586k with invalidate=0).
		 */
		if (o->invalidate && !o->direct)
			for (unsigned i = 0; i < w->nfiles; i++)
				if (w->files[i].fd >= 0)
					posix_fadvise(w->files[i].fd, (off_t)w->files[i].start, (off_t)w->files[i].len,
						      POSIX_FADV_DONTNEED);
	}
	ddir = rate_ddir(w, pick_ddir(w));
	len = pick_bs(w, ddir);
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
	io->ddir = (uint8_t)ddir;
	io->measured = (uint8_t)w->measuring;
	w->loop_issued += len;
	if (io->ddir == DDIR_WRITE)
		stamp_buffer(w, io);
	if (io->ddir == DDIR_WRITE && o->verify)
		verify_stamp(w, io);
	return io;
}

/*
 * filesize=MIN-MAX: each file its own size in that range, the same for
 * every caller and run (a hash of its path, not the job's random state).
 */
static uint64_t file_size(const struct job_opts *o, const struct target *t)
{
	uint64_t h = 0x9e3779b97f4a7c15ull, span = o->filesize_max - o->filesize_min;
	const char *p;

	for (p = t->path; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
	return o->filesize_min + (span ? h % (span + 1) : 0);
}

int job_range(const struct job_opts *o, const struct target *t, unsigned nfiles, unsigned clone, uint64_t size_max,
	      uint64_t *start, uint64_t *len)
{
	uint64_t unit, min_bs, off, l, i, step;

	job_bs_bounds(o, &min_bs, &unit);
	if ((o->offset.pct || o->size.pct || o->offset_increment.pct) && !t->exists)
		return set_err("job '%s': a size or offset in %% needs an existing target, %s is new", o->name,
			       t->path);
	off = o->offset.pct ? (uint64_t)(t->size * o->offset.pct / 100) / unit * unit : o->offset.bytes;
	/* offset_increment: each clone (numjobs) further on by this, as fio's subjobs */
	step = o->offset_increment.pct ? (uint64_t)(t->size * o->offset_increment.pct / 100) / unit * unit
				       : o->offset_increment.bytes;
	off += clone * step;
	if (o->size.pct)
		l = (uint64_t)(t->size * o->size.pct / 100);
	else if (o->filesize_min)
		l = file_size(o, t);
	else if (o->size.bytes)
		l = o->size.bytes / nfiles;
	else if (!t->exists)
		return set_err("job '%s': size is needed to create %s", o->name, t->path);
	else if (off >= t->size)
		return set_err("job '%s': offset %llu is beyond the end of %s (%llu bytes)", o->name,
			       (unsigned long long)off, t->path, (unsigned long long)t->size);
	else
		l = t->size - off;
	if (size_max && l > size_max)
		l = size_max;
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
		if (o->bsrange.min[0] && min_bs % t->lbs)
			return set_err("job '%s': bsrange's smallest size %llu is not a multiple of the logical "
				       "block size %u of %s (direct=1)", o->name, (unsigned long long)min_bs, t->lbs,
				       t->path);
		if (!is_random(o->rw) && o->rw_skip % (int64_t)t->lbs)
			return set_err("job '%s': the rw offset modifier %lld is not a multiple of the logical "
				       "block size %u of %s (direct=1)", o->name, (long long)o->rw_skip, t->lbs,
				       t->path);
	}
	*start = off;
	*len = l;
	return 0;
}

