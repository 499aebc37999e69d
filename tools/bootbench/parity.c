// SPDX-License-Identifier: MIT
/*
 * parity.c - P and Q generation. Q is evaluated by Horner's rule from the
 * last data block to the first: Q = Q * 2 ^ D[i]; multiplying every byte by
 * 2 in GF(2^8) is a shift left and, for bytes whose top bit was set, an XOR
 * with 0x1d, which vector units do 16 (SSE2) or 32 (AVX2) bytes at a time
 * with a signed compare for the mask. Any length works: the tail after the
 * last whole vector goes through the scalar code.
 */
#include <immintrin.h>
#include <stdlib.h>
#include <string.h>

#include "parity.h"
#include "util.h"

static inline uint8_t gf_mul2(uint8_t x)
{
	return (uint8_t)((x << 1) ^ (x & 0x80 ? 0x1d : 0));
}

static void gen_scalar_range(unsigned n, size_t from, size_t len, uint8_t *const *data, uint8_t *p, uint8_t *q)
{
	size_t k;
	unsigned i;

	for (k = from; k < len; k++) {
		uint8_t pp = 0, qq = 0;

		for (i = n; i-- > 0;) {
			pp ^= data[i][k];
			qq = gf_mul2(qq) ^ data[i][k];
		}
		p[k] = pp;
		if (q)
			q[k] = qq;
	}
}

static void gen_scalar(unsigned n, size_t len, uint8_t *const *data, uint8_t *p, uint8_t *q)
{
	gen_scalar_range(n, 0, len, data, p, q);
}

static int always(void)
{
	return 1;
}

__attribute__((target("sse2"))) static void gen_sse2(unsigned n, size_t len, uint8_t *const *data, uint8_t *p,
						      uint8_t *q)
{
	const __m128i poly = _mm_set1_epi8(0x1d), zero = _mm_setzero_si128();
	size_t k, whole = len & ~(size_t)15;
	unsigned i;

	for (k = 0; k < whole; k += 16) {
		__m128i pp = zero, qq = zero;

		for (i = n; i-- > 0;) {
			__m128i d = _mm_loadu_si128((const __m128i *)(data[i] + k));
			__m128i hi = _mm_cmpgt_epi8(zero, qq);

			pp = _mm_xor_si128(pp, d);
			qq = _mm_xor_si128(_mm_xor_si128(_mm_add_epi8(qq, qq), _mm_and_si128(hi, poly)), d);
		}
		_mm_storeu_si128((__m128i *)(p + k), pp);
		if (q)
			_mm_storeu_si128((__m128i *)(q + k), qq);
	}
	gen_scalar_range(n, whole, len, data, p, q);
}

static int have_sse2(void)
{
	return __builtin_cpu_supports("sse2");
}

__attribute__((target("avx2"))) static void gen_avx2(unsigned n, size_t len, uint8_t *const *data, uint8_t *p,
						      uint8_t *q)
{
	const __m256i poly = _mm256_set1_epi8(0x1d), zero = _mm256_setzero_si256();
	size_t k, whole = len & ~(size_t)31;
	unsigned i;

	for (k = 0; k < whole; k += 32) {
		__m256i pp = zero, qq = zero;

		for (i = n; i-- > 0;) {
			__m256i d = _mm256_loadu_si256((const __m256i *)(data[i] + k));
			__m256i hi = _mm256_cmpgt_epi8(zero, qq);

			pp = _mm256_xor_si256(pp, d);
			qq = _mm256_xor_si256(_mm256_xor_si256(_mm256_add_epi8(qq, qq), _mm256_and_si256(hi, poly)), d);
		}
		_mm256_storeu_si256((__m256i *)(p + k), pp);
		if (q)
			_mm256_storeu_si256((__m256i *)(q + k), qq);
	}
	gen_scalar_range(n, whole, len, data, p, q);
}

static int have_avx2(void)
{
	return __builtin_cpu_supports("avx2");
}

/* Slowest first: parity_best() takes the last one the CPU runs. */
const struct parity_impl parity_impls[] = {
	{ "scalar", always, gen_scalar },
	{ "sse2", have_sse2, gen_sse2 },
	{ "avx2", have_avx2, gen_avx2 },
};

const unsigned parity_impl_count = ARRAY_SIZE(parity_impls);

const struct parity_impl *parity_best(void)
{
	unsigned i = parity_impl_count;

	__builtin_cpu_init();
	while (i-- > 1)
		if (parity_impls[i].available())
			return &parity_impls[i];
	return &parity_impls[0];
}

/* GF(2^8) log and exp tables for the recovery (not on any hot path). */
static uint8_t gf_exp[510], gf_log[256];

static void gf_tables(void)
{
	unsigned i;
	uint8_t x = 1;

	if (gf_exp[0])
		return;
	for (i = 0; i < 255; i++) {
		gf_exp[i] = gf_exp[i + 255] = x;
		gf_log[x] = (uint8_t)i;
		x = gf_mul2(x);
	}
}

static uint8_t gf_mul(uint8_t a, uint8_t b)
{
	return a && b ? gf_exp[gf_log[a] + gf_log[b]] : 0;
}

static uint8_t gf_div(uint8_t a, uint8_t b)
{
	return a ? gf_exp[gf_log[a] + 255 - gf_log[b]] : 0;
}

/*
 * With the two lost blocks taken as zero, P' and Q' are the syndromes of the
 * rest; then px = P ^ P' = Da ^ Db and qx = Q ^ Q' = g^a Da ^ g^b Db, so
 * Da = (qx ^ g^b px) / (g^a ^ g^b) and Db = Da ^ px.
 */
void raid6_recover2(unsigned n, size_t len, uint8_t *const *data, unsigned a, unsigned b, const uint8_t *p,
		    const uint8_t *q)
{
	uint8_t *pz = xcalloc(1, len), *qz = xcalloc(1, len), ga, gb, den;
	size_t k;

	gf_tables();
	memset(data[a], 0, len);
	memset(data[b], 0, len);
	parity_best()->gen(n, len, data, pz, qz);
	ga = gf_exp[a];
	gb = gf_exp[b];
	den = ga ^ gb;
	for (k = 0; k < len; k++) {
		uint8_t px = p[k] ^ pz[k], qx = q[k] ^ qz[k];
		uint8_t da = gf_div(qx ^ gf_mul(gb, px), den);

		data[a][k] = da;
		data[b][k] = da ^ px;
	}
	free(pz);
	free(qz);
}
