// SPDX-License-Identifier: MIT
/* test_rand.c - the block permutation visits every block once; zipf and pareto stay in range and skew. */
#include <stdlib.h>
#include <string.h>

#include "lib/rand.h"
#include "unit.h"

static void coverage(void)
{
	static const uint64_t sizes[] = { 1, 2, 3, 7, 64, 1000, 4097, 65537, 1 << 20 };
	unsigned s, loop;

	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		uint64_t n = sizes[s], i, first = 0, seq = 0;
		unsigned char *seen = calloc(n, 1);
		struct permutation p;
		int dup = 0, missing = 0;

		perm_init(&p, n, 1234 + s);
		for (loop = 0; loop < 2; loop++) {
			memset(seen, 0, n);
			for (i = 0; i < n; i++) {
				uint64_t b = perm_next(&p);

				if (b >= n || seen[b]++)
					dup++;
				if (!loop && i == 0)
					first = b;
				if (i && b == i)
					seq++;
			}
			for (i = 0; i < n; i++)
				missing += !seen[i];
			perm_rewind(&p);
		}
		CHECK(!dup && !missing, "n=%llu: %d repeats, %d blocks missed", (unsigned long long)n, dup, missing);
		CHECK(perm_next(&p) == first, "n=%llu: a rewound loop repeats the order", (unsigned long long)n);
		/* a permutation that is mostly the identity is no random order */
		CHECK(n < 64 || seq < n / 8, "n=%llu: %llu blocks in place", (unsigned long long)n,
		      (unsigned long long)seq);
		free(seen);
	}
}

static int by_count_desc(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

static void skew(enum dist_kind kind, double param)
{
	const uint64_t n = 100000;
	unsigned *hits = calloc(n, sizeof(*hits));
	struct distribution d;
	struct rng r;
	uint64_t i, in_top = 0, distinct = 0, top_count;
	unsigned *sorted;
	int out = 0;

	CHECK(dist_init(&d, kind, param, n, 9) == 0, "init");
	rng_seed(&r, 5);
	for (i = 0; i < 1000000; i++) {
		uint64_t b = dist_next(&d, &r);

		if (b >= n)
			out++;
		else
			hits[b]++;
	}
	CHECK(!out, "%d values out of range", out);
	/* the hottest 10% of blocks take most accesses: the counts sorted, the top n/10 summed */
	sorted = malloc(n * sizeof(*sorted));
	memcpy(sorted, hits, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), by_count_desc);
	for (i = 0; i < n; i++)
		distinct += hits[i] > 0;
	for (i = 0, top_count = n / 10; i < top_count; i++)
		in_top += sorted[i];
	CHECK(in_top > 500000, "kind %d: top 10%% of blocks took %llu of 1000000", kind, (unsigned long long)in_top);
	CHECK(distinct > 100, "kind %d: only %llu distinct blocks", kind, (unsigned long long)distinct);
	free(sorted);
	free(hits);
}

int main(void)
{
	coverage();
	skew(DIST_ZIPF, 1.2);
	skew(DIST_PARETO, 0.9);
	return unit_done();
}
