// SPDX-License-Identifier: MIT
/*
 * fill.c - what a clear pass writes, made again by the read-back (erase.h).
 * A pattern repeats from byte 0 of the disk. Random data is a stream that
 * depends only on the seed, the pass and the 4 KiB block: each block's
 * xoshiro256** is seeded from those three, so the read-back regenerates
 * any block on its own and compares every byte (as nwipe does), and a
 * block written by anything else cannot pass for it.
 */
#include <errno.h>
#include <liburing.h>
#include <string.h>

#include "erase/erase.h"
#include "lib/rand.h"
#include "lib/util.h"

static void random_block(uint64_t seed, unsigned pass, uint64_t block, unsigned char *out)
{
	struct rng r;

	rng_seed(&r, seed ^ (uint64_t)pass << 56 ^ block * 0x9e3779b97f4a7c15ull);
	for (unsigned i = 0; i < ERASE_BLOCK; i += 8) {
		uint64_t v = rng_next(&r);

		memcpy(out + i, &v, 8);
	}
}

void erase_fill(const struct erase_job *e, unsigned pass, uint64_t off, unsigned char *buf, size_t len)
{
	if (!e->pattern_len) {
		/* OFF is 4 KiB aligned; a last part block is cut from a whole one */
		for (size_t at = 0; at < len; at += ERASE_BLOCK) {
			if (len - at >= ERASE_BLOCK) {
				random_block(e->seed, pass, (off + at) / ERASE_BLOCK, buf + at);
			} else {
				unsigned char tmp[ERASE_BLOCK];

				random_block(e->seed, pass, (off + at) / ERASE_BLOCK, tmp);
				memcpy(buf + at, tmp, len - at);
			}
		}
		return;
	}
	if (e->pattern_len == 1) {
		memset(buf, e->pattern[0], len);
		return;
	}
	for (size_t i = 0; i < len; i++)
		buf[i] = e->pattern[(off + i) % e->pattern_len];
}

void erase_lba_add(uint64_t *list, uint64_t n, uint64_t lba)
{
	uint64_t kept = n < ERASE_MISMATCH_MAX ? n : ERASE_MISMATCH_MAX, i;

	/* N is how many were added before this one; the list keeps the lowest, in order */
	if (kept == ERASE_MISMATCH_MAX && lba >= list[kept - 1])
		return;
	i = kept == ERASE_MISMATCH_MAX ? kept - 1 : kept;
	while (i > 0 && list[i - 1] > lba) {
		list[i] = list[i - 1];
		i--;
	}
	list[i] = lba;
}

void erase_progress_set(struct erase_job *e, enum erase_phase phase, uint64_t total)
{
	__atomic_store_n(&e->progress.done, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&e->progress.total, total, __ATOMIC_RELAXED);
	__atomic_store_n(&e->progress.phase_ns, now_ns(), __ATOMIC_RELAXED);
	/* release: what was set before (the verdict, at the end) is seen with the phase */
	__atomic_store_n(&e->progress.phase, (int)phase, __ATOMIC_RELEASE);
}

void erase_progress_add(struct erase_job *e, uint64_t bytes)
{
	__atomic_fetch_add(&e->progress.done, bytes, __ATOMIC_RELAXED);
}

int erase_submit_wait(struct io_uring *ring, struct io_uring_cqe **cqe)
{
	int rc;

	io_uring_submit(ring);
	/* a stop and a go (Ctrl-Z and fg) interrupts the wait: nothing failed */
	while ((rc = io_uring_wait_cqe(ring, cqe)) == -EINTR || rc == -EAGAIN)
		;
	return rc;
}
