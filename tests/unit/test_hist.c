// SPDX-License-Identifier: MIT
/* test_hist.c - the histogram's error bound, and percentiles against exact sorted values. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/hist.h"
#include "lib/rand.h"
#include "unit.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void error_bound(void)
{
	struct rng r;
	uint64_t v;
	unsigned i, worst_fail = 0;
	double worst = 0;

	for (v = 0; v < 128; v++)
		CHECK(hist_bucket_value(hist_index(v)) == v, "%llu is not exact", (unsigned long long)v);
	rng_seed(&r, 1);
	for (i = 0; i < 2000000; i++) {
		/* log-uniform over 128 ns .. 2^37 ns, the range docs/run.md claims */
		v = (uint64_t)exp2(7 + 30 * rng_double(&r));
		double err = fabs((double)hist_bucket_value(hist_index(v)) - (double)v) / (double)v;

		if (err > worst)
			worst = err;
		if (err > 1.0 / 128 && !worst_fail++)
			CHECK(0, "value %llu off by %.4f%%", (unsigned long long)v, err * 100);
	}
	CHECK(worst <= 1.0 / 128, "worst relative error %.5f%%", worst * 100);
	/* the top bucket also holds everything above 2^37 ns */
	CHECK(hist_index((1ull << 36) + 12345) < HIST_NR - 1, "2^36 ns is inside the range");
	CHECK(hist_index(1ull << 37) == HIST_NR - 1, "2^37 ns is past the range");
	CHECK(hist_index(~0ull) == HIST_NR - 1, "huge values land in the last bucket");
}

static void percentiles(void)
{
	static const double pcts[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 100 };
	static struct hist h;
	struct rng r;
	unsigned round, i, n;

	rng_seed(&r, 42);
	for (round = 0; round < 20; round++) {
		uint64_t *vals;
		double sum = 0, sumsq = 0, mean, sd;

		n = 1 + (unsigned)rng_below(&r, 200000);
		vals = malloc(n * sizeof(*vals));
		hist_reset(&h);
		for (i = 0; i < n; i++) {
			/* a mix: some tiny exact values, most in a wide log-normal-like spread */
			vals[i] = rng_below(&r, 10) == 0 ? rng_below(&r, 128)
							 : (uint64_t)exp2(10 + 12 * rng_double(&r) * rng_double(&r));
			hist_add(&h, vals[i]);
			sum += vals[i];
			sumsq += (double)vals[i] * vals[i];
		}
		qsort(vals, n, sizeof(*vals), cmp_u64);
		CHECK(h.n == n && h.min == vals[0] && h.max == vals[n - 1], "count, min, max");
		mean = sum / n;
		sd = n > 1 ? sqrt((sumsq - n * mean * mean) / (n - 1)) : 0;
		CHECK(fabs(hist_mean(&h) - mean) <= 1e-9 * mean + 1e-9, "mean %f vs %f", hist_mean(&h), mean);
		CHECK(fabs(hist_stddev(&h) - sd) <= 1e-6 * sd + 1e-6, "stddev %f vs %f", hist_stddev(&h), sd);
		for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
			uint64_t rank = (uint64_t)ceil(pcts[i] / 100.0 * n), exact, got;

			if (rank < 1)
				rank = 1;
			exact = vals[rank - 1];
			got = hist_percentile(&h, pcts[i]);
			if (exact < 128)
				CHECK(got == exact, "p%.2f: %llu, exact %llu", pcts[i], (unsigned long long)got,
				      (unsigned long long)exact);
			else
				CHECK(fabs((double)got - exact) / exact <= 1.0 / 128, "p%.2f: %llu, exact %llu (n=%u)",
				      pcts[i], (unsigned long long)got, (unsigned long long)exact, n);
		}
		free(vals);
	}
}

static void merge(void)
{
	static struct hist a, b, all;
	unsigned i;

	hist_reset(&a);
	hist_reset(&b);
	hist_reset(&all);
	for (i = 1; i <= 1000; i++) {
		hist_add(i % 2 ? &a : &b, i * 37);
		hist_add(&all, i * 37);
	}
	hist_merge(&a, &b);
	CHECK(!memcmp(&a, &all, sizeof(a)), "merging two halves equals recording all");
	hist_reset(&b);
	hist_merge(&a, &b);
	CHECK(!memcmp(&a, &all, sizeof(a)), "merging an empty histogram changes nothing");
}

int main(void)
{
	error_bound();
	percentiles();
	merge();
	return unit_done();
}
