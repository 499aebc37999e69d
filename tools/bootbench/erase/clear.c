// SPDX-License-Identifier: MIT
/*
 * clear.c - NIST's clear: every logical block up to the disk's capacity
 * overwritten, pass after pass: 1 MiB writes, 32 in flight on io_uring,
 * past the page cache (the disk's own sequential speed), the last write cut
 * to what is left (a disk's size is rarely a whole MiB). A write the disk
 * refuses does not stop the pass: its MiB is written again block by block
 * and the blocks that still fail are counted and named, as nwipe does. The
 * device is flushed after each pass (fsync: a flush the drive must honour,
 * NVMe's Flush, SCSI's SYNCHRONIZE CACHE), so the read-back reads the
 * media, not a cache. A signal stops it between writes: none is issued
 * after it, the ones in flight end, and the passes done are what is said.
 * So that they end within a second, the writes in flight are held to what
 * the disk writes in half a second (32 on a fast disk, 1 on a slow one):
 * more would not make it faster, only slower to stop.
 * The discard, when asked, comes after the read-back (erase_clear_discard):
 * a block only discarded must not be read back as if it had been written.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <unistd.h>

#include "erase/erase.h"
#include "lib/util.h"
#include "safety/consent.h"

#define CHUNK (1u << 20)
#define DEPTH 32

static int stopped(const struct erase_job *e)
{
	return e->stop && *e->stop;
}

static void *aligned(size_t len)
{
	void *p = NULL;

	return posix_memalign(&p, ERASE_BLOCK, len) ? NULL : p;
}

/* A MiB the disk refused, written again one logical block at a time: the blocks that fail are counted. */
static void rewrite_by_block(struct erase_job *e, int fd, const unsigned char *buf, uint64_t off, size_t len)
{
	unsigned lbs = e->disk.lbs ? e->disk.lbs : 512;

	for (size_t at = 0; at < len && !stopped(e); at += lbs)
		if (pwrite(fd, buf + at, lbs, (off_t)(off + at)) != (ssize_t)lbs) {
			erase_lba_add(e->bad_lba, e->bad_blocks, (off + at) / lbs);
			e->bad_blocks++;
			__atomic_fetch_add(&e->progress.errors, 1, __ATOMIC_RELAXED);
		}
}

/* One pass over the whole disk; 0 written to the end (bad blocks counted), -1 with e->failure. */
static int one_pass(struct erase_job *e, int fd, unsigned pass, unsigned char *bufs[DEPTH])
{
	struct io_uring ring;
	uint64_t size = e->disk.size, next = 0, at[DEPTH];
	unsigned len_of[DEPTH], free_slot[DEPTH], nfree = DEPTH, inflight = 0, depth = 4;
	uint64_t t0;
	int rc = 0, werr;

	if (io_uring_queue_init(DEPTH, &ring, 0))
		return snprintf(e->failure, sizeof(e->failure), "io_uring cannot be set up"), -1;
	for (unsigned i = 0; i < DEPTH; i++)
		free_slot[i] = i;
	/*
	 * A pattern is the same in every MiB (its length divides 1 MiB): each
	 * buffer is filled once a pass, a memory pass per write would cost a
	 * fast disk's speed. A layer below that scribbles on a buffer it was
	 * given (dm-flakey's corrupt_bio_byte) then carries that into later
	 * writes: the read-back finds them, and the verdict says so.
	 */
	if (e->pattern_len)
		for (unsigned i = 0; i < DEPTH; i++)
			erase_fill(e, pass, 0, bufs[i], CHUNK);
	erase_progress_set(e, PHASE_ERASING, size);
	t0 = now_ns();
	while (!rc) {
		struct io_uring_cqe *cqe;
		uint64_t elapsed = now_ns() - t0, written = __atomic_load_n(&e->progress.done, __ATOMIC_RELAXED);

		/* the depth that is half a second of the disk's rate so far (4 until a rate shows, 1 at least) */
		if (elapsed > 200000000ull) {
			double half_s = (double)written / ((double)elapsed / 1e9) / 2;

			depth = half_s >= (double)DEPTH * CHUNK ? DEPTH : half_s <= CHUNK ? 1 : (unsigned)(half_s / CHUNK) + 1;
		}
		while (nfree && inflight < depth && next < size && !stopped(e)) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
			unsigned s = free_slot[--nfree];
			unsigned len = size - next < CHUNK ? (unsigned)(size - next) : CHUNK;

			if (!e->pattern_len)
				erase_fill(e, pass, next, bufs[s], len);
			at[s] = next;
			len_of[s] = len;
			io_uring_prep_write(sqe, fd, bufs[s], len, next);
			io_uring_sqe_set_data64(sqe, s);
			inflight++;
			next += len;
		}
		if (!inflight)
			break;
		if ((werr = erase_submit_wait(&ring, &cqe))) {
			snprintf(e->failure, sizeof(e->failure), "io_uring: %s", strerror(-werr));
			rc = -1;
			break;
		}
		{
			unsigned s = (unsigned)io_uring_cqe_get_data64(cqe);
			int res = cqe->res;

			io_uring_cqe_seen(&ring, cqe);
			inflight--;
			if (res != (int)len_of[s])
				rewrite_by_block(e, fd, bufs[s], at[s], len_of[s]);
			erase_progress_add(e, len_of[s]);
			free_slot[nfree++] = s;
		}
	}
	while (inflight) {
		struct io_uring_cqe *cqe;

		if (io_uring_wait_cqe(&ring, &cqe))
			break;
		io_uring_cqe_seen(&ring, cqe);
		inflight--;
	}
	io_uring_queue_exit(&ring);
	if (rc)
		return -1;
	if (next < size || stopped(e)) {
		e->interrupted = 1;
		snprintf(e->failure, sizeof(e->failure), "stopped by a signal during pass %u of %u (%.1f%% of it "
			 "written)", pass, e->passes, size ? 100.0 * (double)next / (double)size : 0);
		return -1;
	}
	erase_progress_set(e, PHASE_FLUSHING, 0);
	if (fsync(fd))
		return snprintf(e->failure, sizeof(e->failure), "pass %u: the device's cache could not be flushed: %s",
				pass, strerror(errno)), -1;
	return 0;
}

int erase_clear_run(struct erase_job *e)
{
	unsigned char *bufs[DEPTH] = { 0 };
	uint64_t t0;
	int fd, rc = 0;

	snprintf(e->command, sizeof(e->command), "%u overwrite pass(es) of %s, 1 MiB writes, up to 32 in flight, "
		 "flushed after each", e->passes, !e->pattern_len ? "random data" :
		 e->pattern_len == 1 && !e->pattern[0] ? "zeros" : e->pattern_len == 1 && e->pattern[0] == 0xff ?
		 "ones" : "a pattern");
	if (!e->pattern_len && !e->seed && getrandom(&e->seed, sizeof(e->seed), 0) != sizeof(e->seed))
		e->seed = now_ns() ^ (uint64_t)getpid() << 32;
	if (erase_ata_open_hpa(e))
		return -1;
	fd = consent_open(e->dev, O_WRONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0)
		return snprintf(e->failure, sizeof(e->failure), "%s", bb_err), -1;
	for (unsigned i = 0; i < DEPTH; i++)
		if (!(bufs[i] = aligned(CHUNK))) {
			snprintf(e->failure, sizeof(e->failure), "no memory for the write buffers");
			rc = -1;
			break;
		}
	t0 = now_ns();
	for (unsigned p = 1; p <= e->passes && !rc; p++) {
		__atomic_store_n(&e->progress.pass, p, __ATOMIC_RELAXED);
		if (stopped(e)) {
			e->interrupted = 1;
			snprintf(e->failure, sizeof(e->failure), "stopped by a signal before pass %u of %u", p, e->passes);
			rc = -1;
		} else if (one_pass(e, fd, p, bufs)) {
			rc = -1;
		} else {
			e->passes_done = p;
		}
	}
	if (e->passes_done)
		e->write_mbs = (double)e->disk.size * e->passes_done / ((double)(now_ns() - t0) / 1e9) / 1e6;
	if (!rc && e->bad_blocks)
		snprintf(e->failure, sizeof(e->failure), "%llu block(s) could not be written",
			 (unsigned long long)e->bad_blocks);
	for (unsigned i = 0; i < DEPTH; i++)
		free(bufs[i]);
	close(fd);
	return rc;
}

/* Whether the kernel takes discards for the disk (its queue says how big one may be). */
static int discards(const struct erase_job *e)
{
	char path[160], v[32];

	snprintf(path, sizeof(path), "/sys/class/block/%s/queue/discard_max_bytes", e->disk.name);
	return !read_attr(path, v, sizeof(v)) && strtoull(v, NULL, 10) > 0;
}

void erase_clear_discard(struct erase_job *e)
{
	uint64_t range[2] = { 0, e->disk.size };
	int fd;

	if (!e->trim)
		return;
	if (!(e->pattern_len == 1 && !e->pattern[0])) {
		snprintf(e->discard, sizeof(e->discard), "not done: the last pass did not write zeros");
		return;
	}
	if (!discards(e)) {
		snprintf(e->discard, sizeof(e->discard), "not done: the device takes no discards");
		return;
	}
	erase_progress_set(e, PHASE_DISCARDING, 0);
	fd = consent_open(e->dev, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, BLKDISCARD, range))
		snprintf(e->discard, sizeof(e->discard), "failed: %.200s (the read-back before it stands)",
			 fd < 0 ? bb_err : strerror(errno));
	else
		snprintf(e->discard, sizeof(e->discard), "the whole disk discarded after the read-back");
	if (fd >= 0)
		close(fd);
}
