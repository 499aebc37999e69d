/* SPDX-License-Identifier: MIT */
/*
 * rand.h - the random sources of a job: xoshiro256** for data and choices,
 * a seeded permutation that visits every block once per loop in O(1) memory
 * (a bijection on the next power of two, walked until it lands inside), and
 * fio's zipf (Gray et al., "Quickly generating billion-record synthetic
 * databases") and pareto distributions, scattered over the range by the same
 * permutation so the hot blocks are not all at the start of the device.
 */
#ifndef BB_RAND_H
#define BB_RAND_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);

static inline uint64_t rotl64(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl64(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl64(s[3], 45);
	return result;
}

/* Uniform in [0, n), without modulo bias (Lemire's method). */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)rng_next(r) * n;
	uint64_t low = (uint64_t)m;

	if (low < n) {
		uint64_t threshold = -n % n;

		while (low < threshold) {
			m = (unsigned __int128)rng_next(r) * n;
			low = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

/* Uniform in [0, 1). */
static inline double rng_double(struct rng *r)
{
	return (rng_next(r) >> 11) * 0x1.0p-53;
}

struct permutation {
	uint64_t n;		/* the domain: 0 .. n-1 */
	uint64_t mask;		/* next power of two minus one */
	unsigned shift;
	uint64_t add[3], mul[3];
	uint64_t counter;	/* position in the walk */
};

void perm_init(struct permutation *p, uint64_t n, uint64_t seed);
/* The block at position i of the permutation, for any i < n. */
uint64_t perm_map(const struct permutation *p, uint64_t x);
/* The next block of this loop; call perm_rewind for the next loop. */
uint64_t perm_next(struct permutation *p);
static inline void perm_rewind(struct permutation *p)
{
	p->counter = 0;
}

enum dist_kind { DIST_RANDOM, DIST_ZIPF, DIST_PARETO, DIST_NORMAL, DIST_ZONED, DIST_ZONED_ABS };

#define DIST_ZONES 16

struct distribution {
	enum dist_kind kind;
	uint64_t n;		/* blocks in the range */
	uint64_t gen_n;		/* values generated before scaling (zipf is capped) */
	double theta, alpha, zetan, eta, zeta2;
	double pareto_pow;
	double sigma;		/* normal: the deviation, in blocks */
	/* zoned: the cumulative share of I/O (0-1) that ends in each zone, and its blocks */
	unsigned nzones;
	double zone_until[DIST_ZONES];
	uint64_t zone_first[DIST_ZONES], zone_blocks[DIST_ZONES];
	struct permutation scatter;
};

int dist_init(struct distribution *d, enum dist_kind kind, double param, uint64_t n, uint64_t seed);
/* zoned, zoned_abs: after dist_init, the zones (share of I/O in percent, first block, blocks) */
int dist_set_zones(struct distribution *d, unsigned n, const double *access_pct, const uint64_t *first,
		   const uint64_t *blocks);
uint64_t dist_next(struct distribution *d, struct rng *r);

#endif
