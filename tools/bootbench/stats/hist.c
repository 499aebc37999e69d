// SPDX-License-Identifier: MIT
/* hist.c - the latency histogram's slow-path helpers: merge, moments, percentiles. */
#include "stats/hist.h"

#include <math.h>
#include <string.h>

void hist_reset(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned i;

	if (!src->n)
		return;
	if (!dst->n || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->n += src->n;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	for (i = 0; i < HIST_NR; i++)
		dst->bucket[i] += src->bucket[i];
}

uint64_t hist_bucket_value(unsigned idx)
{
	unsigned error_bits, k;
	uint64_t base;

	if (idx < 2 * HIST_VAL)
		return idx;
	error_bits = (idx >> HIST_BITS) - 1;
	base = 1ull << (error_bits + HIST_BITS);
	k = idx % HIST_VAL;
	return base + (((uint64_t)k << error_bits) + (1ull << error_bits) / 2);
}

double hist_mean(const struct hist *h)
{
	return h->n ? (double)h->sum / h->n : 0.0;
}

double hist_stddev(const struct hist *h)
{
	double mean, var;

	if (h->n < 2)
		return 0.0;
	mean = hist_mean(h);
	/* sample standard deviation, as fio reports it */
	var = (h->sumsq - mean * (double)h->sum) / (h->n - 1);
	return var > 0 ? sqrt(var) : 0.0;
}

uint64_t hist_percentile(const struct hist *h, double pct)
{
	uint64_t rank, cum = 0;
	unsigned i;

	if (!h->n)
		return 0;
	rank = (uint64_t)ceil(pct / 100.0 * (double)h->n);
	if (rank < 1)
		rank = 1;
	if (rank > h->n)
		rank = h->n;
	for (i = 0; i < HIST_NR; i++) {
		cum += h->bucket[i];
		if (cum >= rank)
			return hist_bucket_value(i);
	}
	return h->max;
}

uint64_t hist_count_below(const struct hist *h, uint64_t limit)
{
	uint64_t count = 0;
	unsigned i;

	for (i = 0; i < HIST_NR; i++)
		if (hist_bucket_value(i) < limit)
			count += h->bucket[i];
	return count;
}
