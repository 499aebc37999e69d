// SPDX-License-Identifier: MIT
/*
 * buffers.c - the data a job writes: random bytes with a settable compressible
 * share (buffer_compress_percentage), zeros, or a stamp per 512-byte sector
 * so that deduplicating storage cannot skip a rewritten buffer; or exactly
 * buffer_pattern, repeated from the start of each I/O's buffer, as fio.
 */
#include "job/worker.h"

#include <string.h>

static void fill_pattern(const struct pattern *p, unsigned char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i += p->len)
		memcpy(buf + i, p->bytes, len - i < p->len ? len - i : p->len);
}

/* Random data, with zeros in the compressible share of each 4 KiB. */
void fill_buffer(struct worker *w, unsigned char *buf, size_t len)
{
	const struct job_opts *o = &w->job->o;
	size_t chunk, i;

	if (o->buffer_pattern.len) {
		/* the buffers are max_bs apart: each starts with the pattern's first byte */
		for (i = 0; i < len; i += w->max_bs)
			fill_pattern(&o->buffer_pattern, buf + i, len - i < w->max_bs ? len - i : w->max_bs);
		return;
	}
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
void stamp_buffer(struct worker *w, struct io_unit *io)
{
	const struct job_opts *o = &w->job->o;
	size_t random_len = STAMP_STRIDE - STAMP_STRIDE * o->compress_pct / 100, off;

	if (o->buffer_pattern.len) {
		/* a read into this buffer (a mixed job) left other data in it */
		if (is_mixed(o->rw))
			fill_pattern(&o->buffer_pattern, io->buf, io->len);
		return;
	}
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

