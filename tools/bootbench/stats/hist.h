/* SPDX-License-Identifier: MIT */
/*
 * hist.h - log-linear latency histogram, the layout fio uses (io_u_plat):
 * 64 linear buckets per power of two, so a bucket's middle is within 1/128
 * (0.78%) of any value in it, values below 128 ns are exact, and the range
 * reaches 2^37 ns (137 s) before values share the last bucket.
 * Recording is O(1): a bit scan, a shift and four adds; no allocation.
 */
#ifndef BB_HIST_H
#define BB_HIST_H

#include <stdint.h>

#define HIST_BITS 6
#define HIST_VAL (1u << HIST_BITS)
#define HIST_GROUPS 32
#define HIST_NR (HIST_GROUPS * HIST_VAL)

struct hist {
	uint64_t n;
	uint64_t min, max;
	uint64_t sum;
	double sumsq;
	uint64_t bucket[HIST_NR];
};

static inline unsigned hist_index(uint64_t v)
{
	unsigned msb, error_bits, idx;

	if (v < 2 * HIST_VAL)
		return (unsigned)v;
	msb = 63 - __builtin_clzll(v);
	error_bits = msb - HIST_BITS;
	idx = ((error_bits + 1) << HIST_BITS) + ((v >> error_bits) & (HIST_VAL - 1));
	return idx < HIST_NR ? idx : HIST_NR - 1;
}

static inline void hist_add(struct hist *h, uint64_t v)
{
	h->bucket[hist_index(v)]++;
	if (v < h->min || !h->n)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->n++;
	h->sum += v;
	h->sumsq += (double)v * (double)v;
}

void hist_reset(struct hist *h);
void hist_merge(struct hist *dst, const struct hist *src);
/* The value a bucket stands for: its middle (exact below 128). */
uint64_t hist_bucket_value(unsigned idx);
double hist_mean(const struct hist *h);
double hist_stddev(const struct hist *h);
/* The smallest bucket value at which at least pct% of samples lie. */
uint64_t hist_percentile(const struct hist *h, double pct);
/* How many samples lie in buckets standing for values below limit. */
uint64_t hist_count_below(const struct hist *h, uint64_t limit);

#endif
