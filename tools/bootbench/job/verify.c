// SPDX-License-Identifier: MIT
/*
 * verify.c - verify=crc32c: the header each written block carries and the
 * read-back that checks every block a job wrote (see verify_files for which
 * blocks and which pass each must show).
 */
#include "job/worker.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "lib/crc32c.h"
#include "lib/util.h"

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

/* The bytes each header covers: verify_interval, else the whole block. */
static uint32_t interval_of(const struct job_opts *o, uint32_t len)
{
	return o->verify_interval && o->verify_interval < len ? (uint32_t)o->verify_interval : len;
}

void verify_stamp(struct worker *w, struct io_unit *io)
{
	uint32_t step = interval_of(&w->job->o, io->len), at;

	for (at = 0; at < io->len; at += step) {
		struct verify_header *h = (void *)((char *)io->buf + at);

		memcpy(h->magic, VERIFY_MAGIC, 4);
		h->offset = io->offset + at;
		h->seed = w->seed;
		h->pass = w->loops_done;
		h->len = step;
		h->crc = block_crc(h, step);
	}
}

/* What is wrong with one interval read back, or NULL if it is right. */
static const char *verify_check(struct worker *w, void *buf, uint32_t len, uint64_t off, uint32_t pass,
				char *why, size_t n)
{
	const struct verify_header *h = buf;

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

struct verify_state {
	uint64_t first_bad;
	char first[128];
	/* the bad intervals being gathered into one line: same block, same reason */
	uint64_t run_off, run_len;
	const char *run_why;
	char run_buf[128];
};

static void flush_bad(struct worker *w, struct worker_file *f, struct verify_state *vs)
{
	unsigned lbs = f->t->lbs ? f->t->lbs : 512;
	uint64_t first = vs->run_off / lbs, last = (vs->run_off + vs->run_len - 1) / lbs;

	if (!vs->run_len)
		return;
	if (first == last)
		note("verify: %s LBA %llu (offset %llu): %s", f->t->path, (unsigned long long)first,
		     (unsigned long long)vs->run_off, vs->run_why);
	else
		note("verify: %s LBA %llu-%llu (offset %llu, %llu bytes): %s", f->t->path, (unsigned long long)first,
		     (unsigned long long)last, (unsigned long long)vs->run_off, (unsigned long long)vs->run_len,
		     vs->run_why);
	vs->run_len = 0;
	(void)w;
}

static void bad_interval(struct worker *w, struct worker_file *f, struct verify_state *vs, uint64_t off,
			 uint32_t len, const char *why)
{
	unsigned lbs = f->t->lbs ? f->t->lbs : 512;

	if (vs->first_bad == UINT64_MAX) {
		vs->first_bad = off / lbs;
		snprintf(vs->first, sizeof(vs->first), "%s", why);
	}
	if (w->stats.verify_bad >= VERIFY_REPORT_MAX)
		return;
	if (vs->run_len && vs->run_off + vs->run_len == off && !strcmp(vs->run_why, why)) {
		vs->run_len += len;
		return;
	}
	flush_bad(w, f, vs);
	snprintf(vs->run_buf, sizeof(vs->run_buf), "%s", why);
	vs->run_why = vs->run_buf;
	vs->run_off = off;
	vs->run_len = len;
}

/*
 * One block read back and checked interval by interval. A read that fails
 * with a medium error is located to its bad LBAs (badlba.c names them);
 * the block counts as bad once, whatever is wrong in it.
 */
/*
 * verify_dump: a bad block as it was read, in FILE.OFFSET.received in the
 * working folder, as fio names it. fio writes FILE.OFFSET.expected beside
 * it; bootbench keeps no copy of what it wrote (each block's header says
 * what it should be), so there is none.
 */
static void dump_received(const struct worker_file *f, uint64_t off, const void *buf, uint32_t len)
{
	const char *base = strrchr(f->t->path, '/') ? strrchr(f->t->path, '/') + 1 : f->t->path;
	char name[512];
	int fd;

	snprintf(name, sizeof(name), "%s.%llu.received", base, (unsigned long long)off);
	/* a new regular file of its own: never through a link someone left there, symbolic or hard
	 * (truncating a hard link writes its other name: /etc's file, a loop device's image) */
	unlink(name);
	fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);	/* consent: a dump file beside the run */
	if (fd < 0 || write(fd, buf, len) != (ssize_t)len)
		note("verify_dump: cannot write %s: %s", name, strerror(errno));
	else
		note("verify_dump: the block read at offset %llu is in %s", (unsigned long long)off, name);
	if (fd >= 0)
		close(fd);
}

static void check_block(struct worker *w, struct worker_file *f, uint64_t off, uint32_t pass,
			struct verify_state *vs)
{
	const struct job_opts *o = &w->job->o;
	struct io_unit *io = &w->ios[0];
	uint32_t step = interval_of(o, (uint32_t)o->bs), at;
	ssize_t n = pread(f->fd, io->buf, o->bs, (off_t)off);
	uint64_t bad_before = w->stats.verify_bad;
	char why[128];

	w->stats.verify_blocks++;
	if (n != (ssize_t)o->bs) {
		struct bad_lbas bad;
		int err = n < 0 ? errno : 0;

		flush_bad(w, f, vs);
		w->stats.verify_bad++;
		if (err && medium_error(err) && w->stats.verify_bad <= VERIFY_REPORT_MAX &&
		    !locate_bad_lbas(f, DDIR_READ, io->buf, off, o->bs, err, "verify: read failed", &bad)) {
			if (vs->first_bad == UINT64_MAX) {
				vs->first_bad = bad.first_lba;
				snprintf(vs->first, sizeof(vs->first), "read failed: %s", strerror(err));
			}
			return;
		}
		snprintf(why, sizeof(why), "read failed: %s", err ? strerror(err) : "short read");
		bad_interval(w, f, vs, off, (uint32_t)o->bs, why);
		flush_bad(w, f, vs);
		return;
	}
	for (at = 0; at < o->bs; at += step) {
		const char *wrong = verify_check(w, (char *)io->buf + at, step, off + at, pass, why, sizeof(why));

		if (wrong)
			bad_interval(w, f, vs, off + at, step, wrong);
		else
			flush_bad(w, f, vs);
		if (wrong && w->stats.verify_bad == bad_before)
			w->stats.verify_bad++;
	}
	flush_bad(w, f, vs);
	if (o->verify_dump && w->stats.verify_bad != bad_before && w->stats.verify_bad <= VERIFY_REPORT_MAX)
		dump_received(f, off, io->buf, (uint32_t)o->bs);
}

/*
 * A job whose runtime ended its writes part-way through a pass (P) wrote
 * the first ISSUED bytes of this pass (in order, or the first blocks of its
 * permutation) with pass P, and left the rest as pass P-1 wrote them, or
 * unwritten when P is the first pass: those are not checked. As fio, only
 * what was written is verified.
 */
static void verify_partial(struct worker *w, struct worker_file *f, struct verify_state *vs)
{
	const struct job_opts *o = &w->job->o;
	uint64_t nblocks = f->len / o->bs, done = f->issued / o->bs, b;
	uint32_t pass = w->loops_done;

	if (!is_random(o->rw)) {
		for (b = 0; b < nblocks && !stop_requested; b++)
			if (b < done || pass)
				check_block(w, f, f->start + b * o->bs, b < done ? pass : pass - 1, vs);
		return;
	}
	/* the permutation replayed: the same blocks in the same order as written */
	perm_rewind(&f->perm);
	for (b = 0; b < nblocks && !stop_requested; b++) {
		uint64_t blk = perm_next(&f->perm);

		if (b < done || pass)
			check_block(w, f, f->start + blk * o->bs, b < done ? pass : pass - 1, vs);
	}
}

/*
 * The read-back of verify=: every block every file had written, one at a
 * time. A job that ran its loops to the end (and verify_only) reads every
 * block in order (a whole-device pass reads at the device's sequential
 * speed) and expects the last pass everywhere. Every mismatch and read
 * error is named with its LBA (logical block address).
 */
void verify_files(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	uint32_t last_pass = o->loops ? o->loops - 1 : 0;
	struct verify_state vs = { .first_bad = UINT64_MAX };
	int whole = w->out_of_work || o->verify_only;
	unsigned i;

	for (i = 0; i < w->nfiles && !stop_requested; i++) {
		struct worker_file *f = &w->files[i];
		uint64_t off;

		if (!whole) {
			verify_partial(w, f, &vs);
			continue;
		}
		for (off = f->start; off + o->bs <= f->start + f->len && !stop_requested; off += o->bs)
			check_block(w, f, off, last_pass, &vs);
	}
	if (!whole && !w->stats.verify_bad) {
		char msg[sizeof(w->engine_note_buf)];

		/* after a note the engine left, if any */
		snprintf(msg, sizeof(msg), "%s%sverify: the runtime ended the writes in pass %u; checked the "
			 "%llu blocks written", w->engine_note ? w->engine_note : "", w->engine_note ? "; " : "",
			 w->loops_done + 1, (unsigned long long)w->stats.verify_blocks);
		memcpy(w->engine_note_buf, msg, sizeof(msg));
		w->engine_note = w->engine_note_buf;
	}
	if (w->stats.verify_bad)
		worker_fail(w, EILSEQ, "verify: %llu of %llu blocks bad; first at LBA %llu: %s",
			    (unsigned long long)w->stats.verify_bad, (unsigned long long)w->stats.verify_blocks,
			    (unsigned long long)vs.first_bad, vs.first);
}

void verify_backlog_note(struct worker *w, const struct io_unit *io)
{
	const struct verify_header *h = io->buf;
	struct backlog_entry *e;

	if (!w->backlog || w->nbacklog >= w->job->o.verify_backlog)
		return;
	e = &w->backlog[w->nbacklog++];
	e->file = io->file;
	e->offset = io->offset;
	e->pass = h->pass;	/* the pass it was written in, as its header says (a pass may end meanwhile) */
}

/*
 * verify_backlog: once N blocks are written (the writes drained), the
 * first verify_backlog_batch of them (all, unless it says fewer) are read
 * back and checked as the read-back at the end checks them; a bad one ends
 * the job now, naming its LBA.
 */
int verify_backlog_check(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	uint64_t n = o->verify_backlog_batch && o->verify_backlog_batch < w->nbacklog ? o->verify_backlog_batch
										   : w->nbacklog;
	struct verify_state vs = { .first_bad = UINT64_MAX };

	for (uint64_t i = 0; i < n && !stop_requested; i++) {
		const struct backlog_entry *e = &w->backlog[i];

		check_block(w, &w->files[e->file], e->offset, e->pass, &vs);
	}
	w->nbacklog = 0;
	if (!w->stats.verify_bad)
		return 0;
	worker_fail(w, EILSEQ, "verify (verify_backlog): %llu of %llu blocks bad; first at LBA %llu: %s",
		    (unsigned long long)w->stats.verify_bad, (unsigned long long)w->stats.verify_blocks,
		    (unsigned long long)vs.first_bad, vs.first);
	return -1;
}
