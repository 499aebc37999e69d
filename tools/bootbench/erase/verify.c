// SPDX-License-Identifier: MIT
/*
 * verify.c - the proof of an erase (erase.h). Before it: a marker at the
 * start, the middle and the end of the disk (MAAS's wipe check: a marker
 * must be gone after), and fingerprints (CRC-32C) of 64 blocks of old data
 * spread over the disk. After it: each marker read back, each fingerprinted
 * block read back (old data found again is a FAIL, whatever the method),
 * then every byte of the disk, or NIST's representative sample (the first
 * and last MiB, and the LBA space cut into as many equal strata as make
 * 10% of it in 1 MiB stripes, one stripe at a random place in each),
 * compared with what the method leaves. Reads go past the page
 * cache (O_DIRECT), 1 MiB at a time, 16 in flight on io_uring.
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "erase/erase.h"
#include "lib/crc32c.h"
#include "lib/rand.h"
#include "lib/util.h"
#include "safety/consent.h"

#define BLOCK 4096u
#define CHUNK (1u << 20)
#define DEPTH 16
#define FINGERPRINTS 64
#define SAMPLE_SHARE 0.10

/* What erase_mark leaves for erase_verify, per disk (one erase at a time in a process). */
static struct {
	uint64_t marker_at[3];
	char marker[BLOCK];
	uint64_t old_at[FINGERPRINTS];
	uint32_t old_crc[FINGERPRINTS];
	unsigned nold;
} mark;

static void *aligned_block(size_t len)
{
	void *p = NULL;

	return posix_memalign(&p, BLOCK, len) ? NULL : p;
}

static int read_at(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n = pread(fd, buf, len, (off_t)off);

	return n == (ssize_t)len ? 0 : -1;
}

static int all_zero(const unsigned char *p, size_t len)
{
	return !p[0] && !memcmp(p, p + 1, len - 1);
}

int erase_mark(struct erase_job *e)
{
	uint64_t size = e->disk.size & ~(uint64_t)(BLOCK - 1), nonce;
	unsigned char *buf = aligned_block(BLOCK);
	struct rng r;
	char line[160];
	size_t n, at;
	int fd, rfd;

	if (!buf)
		return set_err("no memory");
	if (size < 4 * CHUNK) {
		free(buf);
		return set_err("%s: %llu bytes: too small to erase and prove (4 MiB at least)", e->dev,
			       (unsigned long long)e->disk.size);
	}
	if (getrandom(&nonce, sizeof(nonce), 0) != sizeof(nonce))
		nonce = now_ns() ^ (uint64_t)getpid() << 32;
	snprintf(e->marker_id, sizeof(e->marker_id), "%016llx", (unsigned long long)nonce);
	/* the old data's fingerprints, read before the markers are written */
	rfd = open(e->dev, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (rfd < 0) {
		free(buf);
		return set_err("%s: %s", e->dev, strerror(errno));
	}
	rng_seed(&r, nonce);
	mark.nold = 0;
	for (unsigned i = 0; i < FINGERPRINTS; i++) {
		uint64_t stratum = size / FINGERPRINTS, off;

		off = (i * stratum + rng_next(&r) % stratum) & ~(uint64_t)(BLOCK - 1);
		/* an unwritten block (zeros) proves nothing when it reads zeros again */
		if (read_at(rfd, buf, BLOCK, off) || all_zero(buf, BLOCK))
			continue;
		mark.old_at[mark.nold] = off;
		mark.old_crc[mark.nold++] = crc32c(0, buf, BLOCK);
	}
	close(rfd);
	e->old_blocks = mark.nold;
	/* the marker: the disk's serial, the time and the nonce, over and over */
	n = (size_t)snprintf(line, sizeof(line), "BOOTBENCH-ERASE-MARKER serial=%.40s time=%lld nonce=%s\n",
			     e->disk.serial[0] ? e->disk.serial : "-", (long long)time(NULL), e->marker_id);
	for (at = 0; at < BLOCK; at += n)
		memcpy(mark.marker + at, line, at + n <= BLOCK ? n : BLOCK - at);
	memcpy(buf, mark.marker, BLOCK);
	mark.marker_at[0] = 0;
	mark.marker_at[1] = (size / 2) & ~(uint64_t)(CHUNK - 1);
	mark.marker_at[2] = size - BLOCK;
	fd = consent_open(e->dev, O_WRONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0) {
		free(buf);
		return -1;
	}
	for (unsigned i = 0; i < 3; i++)
		if (pwrite(fd, buf, BLOCK, (off_t)mark.marker_at[i]) != BLOCK) {
			set_err("%s: cannot write the marker at byte %llu: %s", e->dev,
				(unsigned long long)mark.marker_at[i], strerror(errno));
			close(fd);
			free(buf);
			return -1;
		}
	fsync(fd);
	close(fd);
	free(buf);
	return 0;
}

/* Whether a block holds what the method leaves. */
static int block_ok(const struct erase_job *e, const unsigned char *p, uint64_t off)
{
	if (e->leaves == LEAVES_UNKNOWN)
		return memcmp(p, mark.marker, 64) != 0;	/* the marker's first line is the tell */
	if (e->pattern_len == 1)
		return p[0] == e->pattern[0] && !memcmp(p, p + 1, BLOCK - 1);
	for (unsigned i = 0; i < BLOCK; i++)
		if (p[i] != e->pattern[(off + i) % e->pattern_len])
			return 0;
	return 1;
}

static void check_chunk(struct erase_job *e, const unsigned char *p, uint64_t off, size_t len)
{
	for (size_t b = 0; b < len; b += BLOCK) {
		if (block_ok(e, p + b, off + b))
			continue;
		if (e->mismatches < ERASE_MISMATCH_MAX)
			e->mismatch_lba[e->mismatches] = (off + b) / (e->disk.lbs ? e->disk.lbs : 512);
		e->mismatches++;
	}
}

/* The chunks read back, in order: all of them, or the first, the last, and one in each stratum. */
static uint64_t *chunks_to_read(const struct erase_job *e, uint64_t nchunks, uint64_t *n)
{
	uint64_t *c, want, k;
	struct rng r;

	if (e->full_verify || nchunks <= 20) {
		c = xcalloc(nchunks, sizeof(*c));
		for (k = 0; k < nchunks; k++)
			c[k] = k;
		*n = nchunks;
		return c;
	}
	want = (uint64_t)((double)nchunks * SAMPLE_SHARE + 0.999999);
	c = xcalloc(want + 2, sizeof(*c));
	rng_seed(&r, strtoull(e->marker_id, NULL, 16) ^ 0x5eed);
	*n = 0;
	c[(*n)++] = 0;
	/* the strata between the first and last chunk, each with one stripe at a random place in it */
	for (k = 0; k < want; k++) {
		uint64_t lo = 1 + k * (nchunks - 2) / want, hi = 1 + (k + 1) * (nchunks - 2) / want;

		if (hi > lo)
			c[(*n)++] = lo + rng_next(&r) % (hi - lo);
	}
	c[(*n)++] = nchunks - 1;
	return c;
}

/* Reads the chunks through io_uring, DEPTH in flight, checking each. */
static int read_back(struct erase_job *e, int fd, const uint64_t *chunk, uint64_t n, uint64_t size)
{
	struct io_uring ring;
	unsigned char *buf[DEPTH];
	uint64_t next = 0, done = 0, at[DEPTH];
	unsigned free_slot[DEPTH], nfree = DEPTH, inflight = 0, i;
	int rc = 0;

	if (io_uring_queue_init(DEPTH, &ring, 0))
		return set_err("io_uring: cannot be set up");
	for (i = 0; i < DEPTH; i++) {
		buf[i] = aligned_block(CHUNK);
		free_slot[i] = i;
		if (!buf[i]) {
			while (i--)
				free(buf[i]);
			io_uring_queue_exit(&ring);
			return set_err("no memory");
		}
	}
	while (done < n && !rc) {
		struct io_uring_cqe *cqe;

		while (nfree && next < n && !(e->stop && *e->stop)) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
			unsigned s = free_slot[--nfree];
			uint64_t off = chunk[next++] * CHUNK;
			unsigned len = off + CHUNK > size ? (unsigned)(size - off) : CHUNK;

			at[s] = off;
			io_uring_prep_read(sqe, fd, buf[s], len, off);
			io_uring_sqe_set_data64(sqe, s);
			inflight++;
		}
		if (!inflight)
			break;
		io_uring_submit(&ring);
		if (io_uring_wait_cqe(&ring, &cqe))
			continue;
		{
			unsigned s = (unsigned)io_uring_cqe_get_data64(cqe);
			uint64_t off = at[s];
			size_t want = off + CHUNK > size ? (size_t)(size - off) : CHUNK;

			if (cqe->res != (int)want)
				rc = set_err("%s: read back at byte %llu: %s", e->dev, (unsigned long long)off,
					     cqe->res < 0 ? strerror(-cqe->res) : "short read");
			else
				check_chunk(e, buf[s], off, want);
			e->verified_bytes += want;
			io_uring_cqe_seen(&ring, cqe);
			free_slot[nfree++] = s;
			inflight--;
			done++;
		}
	}
	while (inflight--) {
		struct io_uring_cqe *cqe;

		if (!io_uring_wait_cqe(&ring, &cqe))
			io_uring_cqe_seen(&ring, cqe);
	}
	for (i = 0; i < DEPTH; i++)
		free(buf[i]);
	io_uring_queue_exit(&ring);
	if (!rc && done < n)
		rc = set_err("%s: the read-back was stopped", e->dev);
	return rc;
}

int erase_verify(struct erase_job *e)
{
	uint64_t size = e->disk.size & ~(uint64_t)(BLOCK - 1), nchunks = (size + CHUNK - 1) / CHUNK, n;
	unsigned char *buf = aligned_block(BLOCK);
	uint64_t *chunks;
	int fd, rc;

	if (!buf)
		return set_err("no memory");
	fd = open(e->dev, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0) {
		free(buf);
		return set_err("%s: %s", e->dev, strerror(errno));
	}
	e->markers_left = 0;
	for (unsigned i = 0; i < 3; i++)
		if (!read_at(fd, buf, BLOCK, mark.marker_at[i]) && !memcmp(buf, mark.marker, BLOCK))
			e->markers_left++;
	e->old_left = 0;
	for (unsigned i = 0; i < mark.nold; i++)
		if (!read_at(fd, buf, BLOCK, mark.old_at[i]) && crc32c(0, buf, BLOCK) == mark.old_crc[i])
			e->old_left++;
	free(buf);
	chunks = chunks_to_read(e, nchunks, &n);
	e->verified_bytes = 0;
	e->mismatches = 0;
	rc = read_back(e, fd, chunks, n, size);
	free(chunks);
	close(fd);
	e->verified_share = size ? (double)e->verified_bytes / (double)size : 0;
	return rc;
}
