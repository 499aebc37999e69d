// SPDX-License-Identifier: MIT
/*
 * verify.c - verify=crc32c: the header each written block carries and the
 * read-back that checks every block a job wrote (see verify_files for which
 * blocks and which pass each must show).
 */
#include "worker.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "crc32c.h"
#include "util.h"

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

void verify_stamp(struct worker *w, struct io_unit *io)
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
void verify_files(struct worker *w)
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
		worker_fail(w, EILSEQ, "verify: %llu of %llu blocks bad; first at LBA %llu: %s",
		     (unsigned long long)w->stats.verify_bad, (unsigned long long)w->stats.verify_blocks,
		     (unsigned long long)first_bad, first_why);
}

