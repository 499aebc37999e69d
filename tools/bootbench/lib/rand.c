// SPDX-License-Identifier: MIT
/* rand.c - seeding, the block permutation, zipf and pareto. */
#include "lib/rand.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

void perm_init(struct permutation *p, uint64_t n, uint64_t seed)
{
	unsigned bits = 1, i;

	while (bits < 64 && (1ull << bits) < n)
		bits++;
	p->n = n;
	p->mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
	p->shift = bits / 2 + 1;
	for (i = 0; i < 3; i++) {
		p->add[i] = splitmix64(&seed) & p->mask;
		p->mul[i] = (splitmix64(&seed) | 1) & p->mask;	/* odd: invertible */
	}
	p->counter = 0;
}

/* A bijection on [0, mask]: each step (add, odd multiply, xorshift) is invertible. */
static uint64_t perm_mix(const struct permutation *p, uint64_t x)
{
	unsigned i;

	for (i = 0; i < 3; i++) {
		x = (x + p->add[i]) & p->mask;
		x = (x * p->mul[i]) & p->mask;
		x ^= x >> p->shift;
	}
	return x;
}

uint64_t perm_map(const struct permutation *p, uint64_t x)
{
	/* cycle walking keeps a bijection of [0, mask] a bijection of [0, n) */
	do
		x = perm_mix(p, x);
	while (x >= p->n);
	return x;
}

uint64_t perm_next(struct permutation *p)
{
	uint64_t x;

	do
		x = perm_mix(p, p->counter++ & p->mask);
	while (x >= p->n);
	return x;
}

/* fio caps the zipf generator the same way: zeta(n) costs O(n) to compute */
#define ZIPF_MAX_GEN 10000000ull

int dist_init(struct distribution *d, enum dist_kind kind, double param, uint64_t n, uint64_t seed)
{
	uint64_t i;

	d->kind = kind;
	d->n = n ? n : 1;
	perm_init(&d->scatter, d->n, seed ^ 0x5ca77e5ull);
	switch (kind) {
	case DIST_RANDOM:
		return 0;
	case DIST_ZIPF:
		if (!(param > 0.0) || param == 1.0)
			return -1;
		d->gen_n = d->n < ZIPF_MAX_GEN ? d->n : ZIPF_MAX_GEN;
		d->theta = param;
		d->alpha = 1.0 / (1.0 - param);
		d->zetan = 0;
		for (i = 1; i <= d->gen_n; i++)
			d->zetan += pow((double)i, -param);
		d->zeta2 = 1.0 + pow(2.0, -param);
		d->eta = (1.0 - pow(2.0 / d->gen_n, 1.0 - param)) / (1.0 - d->zeta2 / d->zetan);
		return 0;
	case DIST_PARETO:
		if (!(param > 0.0 && param < 1.0))
			return -1;
		d->pareto_pow = log(param) / log(1.0 - param);
		return 0;
	case DIST_NORMAL:
		if (!(param > 0.0 && param <= 100.0))
			return -1;
		d->sigma = (double)d->n * param / 100.0;
		return 0;
	case DIST_ZONED:
	case DIST_ZONED_ABS:
		d->nzones = 0;	/* dist_set_zones gives them */
		return 0;
	}
	return -1;
}

int dist_set_zones(struct distribution *d, unsigned n, const double *access_pct, const uint64_t *first,
		   const uint64_t *blocks)
{
	double sum = 0;
	unsigned i;

	if (!n || n > DIST_ZONES)
		return -1;
	for (i = 0; i < n; i++) {
		if (!blocks[i] || first[i] + blocks[i] > d->n)
			return -1;
		sum += access_pct[i] / 100.0;
		d->zone_until[i] = sum;
		d->zone_first[i] = first[i];
		d->zone_blocks[i] = blocks[i];
	}
	d->zone_until[n - 1] = 1.0;	/* rounding: the last zone takes what is left */
	d->nzones = n;
	return 0;
}

uint64_t dist_next(struct distribution *d, struct rng *r)
{
	double u = rng_double(r), uz;
	uint64_t v;

	switch (d->kind) {
	case DIST_ZIPF:
		uz = u * d->zetan;
		if (uz < 1.0)
			v = 0;
		else if (uz < 1.0 + pow(0.5, d->theta))
			v = 1;
		else
			v = (uint64_t)((double)d->gen_n * pow(d->eta * u - d->eta + 1.0, d->alpha));
		if (v >= d->gen_n)
			v = d->gen_n - 1;
		if (d->gen_n < d->n)
			v = v * (d->n / d->gen_n);
		break;
	case DIST_PARETO:
		v = (uint64_t)((double)(d->n - 1) * pow(u, d->pareto_pow));
		break;
	case DIST_NORMAL: {
		/* Box-Muller about the middle of the range; the tails fold back in */
		double u2 = rng_double(r), z = sqrt(-2.0 * log(u > 0 ? u : 0x1p-53)) * cos(2 * M_PI * u2);
		double x = (double)d->n / 2 + z * d->sigma;

		while (x < 0 || x >= (double)d->n)
			x = x < 0 ? -x : 2.0 * (double)d->n - x - 1;
		v = (uint64_t)x;
		break;
	}
	case DIST_ZONED:
	case DIST_ZONED_ABS: {
		/* no scatter: a zone is a contiguous part of the range, as in fio */
		unsigned i = 0;

		while (i + 1 < d->nzones && u >= d->zone_until[i])
			i++;
		return d->zone_first[i] + rng_below(r, d->zone_blocks[i]);
	}
	default:
		return rng_below(r, d->n);
	}
	if (v >= d->n)
		v = d->n - 1;
	return perm_map(&d->scatter, v);
}
