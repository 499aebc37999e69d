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
 * compared with what the method leaves: a pattern, or random data made
 * again from the pass's seed (fill.c), in every byte up to the last logical
 * block. Reads go past the page cache (O_DIRECT), 1 MiB at a time, 16 in
 * flight on io_uring; a MiB the device will not read is read again block
 * by block, and each block it still will not read counts as not erased.
 * The markers' places and the fingerprints live in the job: disks are
 * erased side by side, each in a thread of its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/ioctl.h>

#include "erase/erase.h"
#include "lib/crc32c.h"
#include "lib/rand.h"
#include "lib/util.h"
#include "safety/consent.h"

#define BLOCK ERASE_BLOCK
#define CHUNK (1u << 20)
#define DEPTH 16
#define SAMPLE_SHARE 0.10

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
	uint64_t size = e->disk.size, fp_span = size & ~(uint64_t)(BLOCK - 1), nonce;
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
	erase_progress_set(e, PHASE_MARKING, 0);
	if (getrandom(&nonce, sizeof(nonce), 0) != sizeof(nonce))
		nonce = now_ns() ^ (uint64_t)getpid() << 32;
	snprintf(e->marker_id, sizeof(e->marker_id), "%016llx", (unsigned long long)nonce);
	/* the marker: the disk's serial, the time and the nonce, over and over */
	n = (size_t)snprintf(line, sizeof(line), "BOOTBENCH-ERASE-MARKER serial=%.40s time=%lld nonce=%s\n",
			     e->disk.serial[0] ? e->disk.serial : "-", (long long)time(NULL), e->marker_id);
	for (at = 0; at < BLOCK; at += n)
		memcpy(e->marker + at, line, at + n <= BLOCK ? n : BLOCK - at);
	/* the last marker ends at the last byte (a disk's size is a whole number of logical blocks) */
	e->marker_at[0] = 0;
	e->marker_at[1] = (size / 2) & ~(uint64_t)(CHUNK - 1);
	e->marker_at[2] = size - BLOCK;
	/* the old data's fingerprints, and the blocks the markers replace, read before anything is written */
	rfd = open(e->dev, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (rfd < 0) {
		free(buf);
		return set_err("%s: %s", e->dev, strerror(errno));
	}
	free(e->saved);
	e->saved = aligned_block(3 * BLOCK);
	for (unsigned i = 0; e->saved && i < 3; i++)
		if (read_at(rfd, e->saved + i * BLOCK, BLOCK, e->marker_at[i])) {
			free(e->saved);
			e->saved = NULL;
		}
	rng_seed(&r, nonce);
	e->old_blocks = 0;
	for (unsigned i = 0; i < ERASE_FINGERPRINTS; i++) {
		uint64_t stratum = fp_span / ERASE_FINGERPRINTS, off;

		off = (i * stratum + rng_next(&r) % stratum) & ~(uint64_t)(BLOCK - 1);
		/* an unwritten block (zeros) proves nothing when it reads zeros again */
		if (read_at(rfd, buf, BLOCK, off) || all_zero(buf, BLOCK))
			continue;
		e->old_at[e->old_blocks] = off;
		e->old_crc[e->old_blocks++] = crc32c(0, buf, BLOCK);
	}
	close(rfd);
	memcpy(buf, e->marker, BLOCK);
	fd = consent_open(e->dev, O_WRONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0) {
		free(buf);
		return -1;
	}
	for (unsigned i = 0; i < 3; i++) {
		if (pwrite(fd, buf, BLOCK, (off_t)e->marker_at[i]) != BLOCK) {
			set_err("%s: cannot write the marker at byte %llu: %s", e->dev,
				(unsigned long long)e->marker_at[i], strerror(errno));
			close(fd);
			free(buf);
			return -1;
		}
		e->marked = i + 1;
		e->markers_written = i + 1;
	}
	fsync(fd);
	close(fd);
	free(buf);
	return 0;
}

void erase_unmark(struct erase_job *e)
{
	size_t n = strlen(e->notes);
	int fd;

	if (!e->marked)
		return;
	fd = e->saved ? consent_open(e->dev, O_WRONLY | O_DIRECT | O_CLOEXEC) : -1;
	for (unsigned i = 0; fd >= 0 && i < e->marked; i++)
		if (pwrite(fd, e->saved + i * BLOCK, BLOCK, (off_t)e->marker_at[i]) != BLOCK) {
			close(fd);
			fd = -1;
		}
	if (fd >= 0 && !fsync(fd))
		snprintf(e->notes + n, sizeof(e->notes) - n, "%snothing was erased: the %u blocks the markers had "
			 "replaced were written back as they were", n ? "; " : "", e->marked);
	else
		snprintf(e->notes + n, sizeof(e->notes) - n, "%snothing was erased, but the blocks the markers replaced "
			 "could not be written back: bytes %llu, %llu and %llu hold markers now", n ? "; " : "",
			 (unsigned long long)e->marker_at[0], (unsigned long long)e->marker_at[1],
			 (unsigned long long)e->marker_at[2]);
	if (fd >= 0)
		close(fd);
	e->marked = 0;
}

/* Whether BLEN bytes at OFF hold what the method leaves (EXPECT: the same bytes made again, for random data). */
static int block_ok(const struct erase_job *e, const unsigned char *p, uint64_t off, size_t blen, unsigned char *expect)
{
	if (e->leaves == LEAVES_UNKNOWN)
		return memcmp(p, e->marker, blen < 64 ? blen : 64) != 0;	/* the marker's first line is the tell */
	if (!e->pattern_len) {
		/* random data of the last pass: every byte compared with the stream made again */
		erase_fill(e, e->passes_done ? e->passes_done : 1, off, expect, blen);
		return !memcmp(p, expect, blen);
	}
	if (e->pattern_len == 1)
		return p[0] == e->pattern[0] && (blen == 1 || !memcmp(p, p + 1, blen - 1));
	for (size_t i = 0; i < blen; i++)
		if (p[i] != e->pattern[(off + i) % e->pattern_len])
			return 0;
	return 1;
}

/* The offset in a block that is not as expected of its first byte that differs (0 when not known). */
static size_t first_difference(const struct erase_job *e, const unsigned char *p, uint64_t off, size_t blen,
			       const unsigned char *expect)
{
	for (size_t i = 0; e->leaves == LEAVES_PATTERN && i < blen; i++)
		if (p[i] != (!e->pattern_len ? expect[i] : e->pattern[(off + i) % e->pattern_len]))
			return i;
	return 0;
}

static void not_as_expected(struct erase_job *e, uint64_t off)
{
	erase_lba_add(e->mismatch_lba, e->mismatches, off / (e->disk.lbs ? e->disk.lbs : 512));
	e->mismatches++;
	__atomic_fetch_add(&e->progress.errors, 1, __ATOMIC_RELAXED);
}

static void check_chunk(struct erase_job *e, const unsigned char *p, uint64_t off, size_t len, unsigned char *expect)
{
	for (size_t b = 0; b < len; b += BLOCK) {
		size_t blen = len - b < BLOCK ? len - b : BLOCK;

		if (!block_ok(e, p + b, off + b, blen, expect))
			not_as_expected(e, off + b + first_difference(e, p + b, off + b, blen, expect));
	}
}

/* A MiB the device would not read: block by block, each one it still will not read is not erased. */
static void reread_by_block(struct erase_job *e, int fd, unsigned char *buf, uint64_t off, size_t len,
			    unsigned char *expect)
{
	for (size_t b = 0; b < len; b += BLOCK) {
		size_t blen = len - b < BLOCK ? len - b : BLOCK;

		if (pread(fd, buf, blen, (off_t)(off + b)) != (ssize_t)blen) {
			e->unreadable++;
			not_as_expected(e, off + b);
		} else if (!block_ok(e, buf, off + b, blen, expect)) {
			not_as_expected(e, off + b + first_difference(e, buf, off + b, blen, expect));
		}
	}
}

/*
 * The byte offsets read back, a MiB each (the last one cut to the end), in
 * order: all of them, or the first MiB, one stripe in each stratum, and the
 * last MiB (the disk's last 1 MiB, whole, whatever its size).
 */
static uint64_t *chunks_to_read(const struct erase_job *e, uint64_t size, uint64_t nchunks, uint64_t *n)
{
	uint64_t *c, want, k;
	struct rng r;

	if (e->full_verify || nchunks <= 20) {
		c = xcalloc(nchunks, sizeof(*c));
		for (k = 0; k < nchunks; k++)
			c[k] = k * CHUNK;
		*n = nchunks;
		return c;
	}
	want = (uint64_t)((double)nchunks * SAMPLE_SHARE + 0.999999);
	c = xcalloc(want + 2, sizeof(*c));
	rng_seed(&r, strtoull(e->marker_id, NULL, 16) ^ now_ns() ^ 0x5eed);
	*n = 0;
	c[(*n)++] = 0;
	/* the strata between the first and last chunk, each with one stripe at a random place in it */
	for (k = 0; k < want; k++) {
		uint64_t lo = 1 + k * (nchunks - 2) / want, hi = 1 + (k + 1) * (nchunks - 2) / want;

		if (hi > lo)
			c[(*n)++] = (lo + rng_next(&r) % (hi - lo)) * CHUNK;
	}
	c[(*n)++] = size - CHUNK;
	return c;
}

/* Reads the chunks through io_uring, DEPTH in flight, checking each. */
static int read_back(struct erase_job *e, int fd, const uint64_t *chunk, uint64_t n, uint64_t size)
{
	struct io_uring ring;
	unsigned char *buf[DEPTH], *expect = aligned_block(BLOCK);
	uint64_t next = 0, done = 0, at[DEPTH];
	unsigned free_slot[DEPTH], nfree = DEPTH, inflight = 0, i;
	int rc = 0, werr;

	if (!expect)
		return set_err("no memory");
	if (io_uring_queue_init(DEPTH, &ring, 0)) {
		free(expect);
		return set_err("io_uring: cannot be set up");
	}
	for (i = 0; i < DEPTH; i++) {
		buf[i] = aligned_block(CHUNK);
		free_slot[i] = i;
		if (!buf[i]) {
			while (i--)
				free(buf[i]);
			io_uring_queue_exit(&ring);
			free(expect);
			return set_err("no memory");
		}
	}
	erase_progress_set(e, PHASE_VERIFYING, n * CHUNK > size ? size : n * CHUNK);
	while (done < n && !rc) {
		struct io_uring_cqe *cqe;

		while (nfree && next < n && !(e->stop && *e->stop)) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
			unsigned s = free_slot[--nfree];
			uint64_t off = chunk[next++];
			unsigned len = off + CHUNK > size ? (unsigned)(size - off) : CHUNK;

			at[s] = off;
			io_uring_prep_read(sqe, fd, buf[s], len, off);
			io_uring_sqe_set_data64(sqe, s);
			inflight++;
		}
		if (!inflight)
			break;
		if ((werr = erase_submit_wait(&ring, &cqe))) {
			rc = set_err("%s: io_uring: %s", e->dev, strerror(-werr));
			break;
		}
		{
			unsigned s = (unsigned)io_uring_cqe_get_data64(cqe);
			uint64_t off = at[s];
			size_t want = off + CHUNK > size ? (size_t)(size - off) : CHUNK;

			if (cqe->res != (int)want)
				reread_by_block(e, fd, buf[s], off, want, expect);
			else
				check_chunk(e, buf[s], off, want, expect);
			e->verified_bytes += want;
			erase_progress_add(e, want);
			io_uring_cqe_seen(&ring, cqe);
			free_slot[nfree++] = s;
			inflight--;
			done++;
		}
	}
	while (inflight) {
		struct io_uring_cqe *cqe;

		if (io_uring_wait_cqe(&ring, &cqe))
			break;
		io_uring_cqe_seen(&ring, cqe);
		inflight--;
	}
	for (i = 0; i < DEPTH; i++)
		free(buf[i]);
	free(expect);
	io_uring_queue_exit(&ring);
	if (!rc && done < n) {
		e->interrupted = 1;
		rc = set_err("%s: the read-back was stopped by a signal", e->dev);
	}
	return rc;
}

/* A disk that grew or shrank under the erase holds what the read-back did not see. */
static int same_size(const struct erase_job *e, int fd)
{
	uint64_t now = 0;

	if (ioctl(fd, BLKGETSIZE64, &now))
		return set_err("%s: its size cannot be read again after the read-back: %s", e->dev, strerror(errno));
	if (now != e->disk.size)
		return set_err("%s changed size during the erase (%llu bytes, %llu when it began): what is past "
			       "the old end was not read", e->dev, (unsigned long long)now,
			       (unsigned long long)e->disk.size);
	return 0;
}

/* The read-back proper: every byte up to the capacity, or the sample. */
static int read_all(struct erase_job *e, int fd)
{
	uint64_t size = e->disk.size, nchunks = (size + CHUNK - 1) / CHUNK, n;
	uint64_t *chunks = chunks_to_read(e, size, nchunks, &n);
	int rc;

	e->verified_bytes = 0;
	e->mismatches = 0;
	e->unreadable = 0;
	rc = read_back(e, fd, chunks, n, size);
	free(chunks);
	e->verified_share = size ? (double)e->verified_bytes / (double)size : 0;
	return rc;
}

/* The disk opened for the read-back (past the page cache) and a block's buffer; -1 with bb_err. */
static int open_for_reading(const struct erase_job *e, unsigned char **buf)
{
	int fd;

	if (!(*buf = aligned_block(BLOCK)))
		return set_err("no memory");
	fd = open(e->dev, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0) {
		free(*buf);
		return set_err("%s: %s", e->dev, strerror(errno));
	}
	return fd;
}

int erase_verify(struct erase_job *e)
{
	unsigned char *buf, *expect;
	int fd = open_for_reading(e, &buf), rc;

	if (fd < 0)
		return -1;
	/* what a purge or a cache kept back reaches the media before it is read */
	fsync(fd);
	e->markers_left = 0;
	for (unsigned i = 0; i < 3; i++)
		if (read_at(fd, buf, BLOCK, e->marker_at[i]) || !memcmp(buf, e->marker, BLOCK))
			e->markers_left++;	/* a marker that cannot be read back is not proven gone */
	e->old_left = 0;
	expect = aligned_block(BLOCK);
	for (unsigned i = 0; i < e->old_blocks; i++)
		/* old data found again is left over, unless it is exactly what the method writes there (a disk
		 * that held the pattern already): that block proves nothing either way, and the read-back judges it */
		if (read_at(fd, buf, BLOCK, e->old_at[i]) ||
		    (crc32c(0, buf, BLOCK) == e->old_crc[i] && !(expect && e->leaves == LEAVES_PATTERN &&
								 block_ok(e, buf, e->old_at[i], BLOCK, expect))))
			e->old_left++;
	free(expect);
	free(buf);
	rc = read_all(e, fd);
	if (!rc)
		rc = same_size(e, fd);
	close(fd);
	return rc;
}

int erase_verify_only(struct erase_job *e, int pattern_given)
{
	unsigned lbs = e->disk.lbs ? e->disk.lbs : 512;
	unsigned char *buf;
	int fd = open_for_reading(e, &buf), rc;

	if (fd < 0)
		return -1;
	e->leaves = LEAVES_PATTERN;
	if (read_at(fd, buf, lbs, 0)) {
		rc = set_err("%s: its first block cannot be read", e->dev);
	} else {
		/* what it holds is named by its first block, then every byte (or the sample) must agree */
		if (!pattern_given || !e->pattern_len) {
			if (all_zero(buf, lbs))
				e->pattern[0] = 0;
			else if (buf[0] == 0xff && !memcmp(buf, buf + 1, lbs - 1))
				e->pattern[0] = 0xff;
			else
				e->pattern[0] = buf[0];
			e->pattern_len = 1;
		}
		if (e->pattern_len == 1)
			snprintf(e->holds, sizeof(e->holds), !e->pattern[0] ? "zeros" : e->pattern[0] == 0xff ?
				 "ones (0xff)" : "the byte 0x%02x in every byte", e->pattern[0]);
		else
			snprintf(e->holds, sizeof(e->holds), "the pattern 0x%02x%02x%02x%02x", e->pattern[0],
				 e->pattern[1], e->pattern[e->pattern_len == 4 ? 2 : 0], e->pattern[e->pattern_len == 4 ? 3 : 1]);
		if (e->pattern_len == 2)
			e->holds[sizeof("the pattern 0x0000") - 1] = 0;
		rc = read_all(e, fd);
		if (!rc)
			rc = same_size(e, fd);
		/* found, not named: a disk of one byte other than zeros or ones holds data */
		if (!rc && !pattern_given && e->pattern[0] && e->pattern[0] != 0xff)
			rc = set_err("%s holds data (its first block is neither zeros nor ones; name the pattern with "
				     "--pattern=0xHEX if it is one)", e->dev);
	}
	close(fd);
	free(buf);
	return rc;
}
