// SPDX-License-Identifier: MIT
/*
 * parity.c - P and Q generation. Q is evaluated by Horner's rule from the
 * last data block to the first: Q = Q * 2 ^ D[i]; multiplying every byte by
 * 2 in GF(2^8) is a shift left and, for bytes whose top bit was set, an XOR
 * with 0x1d, which vector units do 16 (SSE2) or 32 (AVX2) bytes at a time
 * with a signed compare for the mask. Any length works: the tail after the
 * last whole vector goes through the scalar code.
 */
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

/*
 * One body for every vector width, in GCC's vector extensions: x < 0 is the
 * top-bit mask, x + x the shift. Q's Horner chain is one long dependency per
 * vector, so four vectors go side by side (as the kernel's x4 variants do)
 * to keep the unit busy; then single vectors, then the scalar tail.
 * Compiled once per instruction set, picked at run time.
 */
#define UNROLL 4
/* Four vectors from or to SRC .. SRC + 3 * WIDTH, named V0..V3. */
#define LOAD4(v, src, width)                                                                        \
	do {                                                                                        \
		memcpy(&v##0, (src), width);                                                        \
		memcpy(&v##1, (src) + (width), width);                                              \
		memcpy(&v##2, (src) + 2 * (width), width);                                          \
		memcpy(&v##3, (src) + 3 * (width), width);                                          \
	} while (0)
#define STORE4(dst, v, width)                                                                       \
	do {                                                                                        \
		memcpy((dst), &v##0, width);                                                        \
		memcpy((dst) + (width), &v##1, width);                                              \
		memcpy((dst) + 2 * (width), &v##2, width);                                          \
		memcpy((dst) + 3 * (width), &v##3, width);                                          \
	} while (0)
/* Q = Q * 2 ^ D in GF(2^8), on four vectors. */
#define MUL2_XOR4(q, d)                                                                             \
	do {                                                                                        \
		q##0 = (q##0 + q##0) ^ ((q##0 < 0) & poly) ^ d##0;                                  \
		q##1 = (q##1 + q##1) ^ ((q##1 < 0) & poly) ^ d##1;                                  \
		q##2 = (q##2 + q##2) ^ ((q##2 < 0) & poly) ^ d##2;                                  \
		q##3 = (q##3 + q##3) ^ ((q##3 < 0) & poly) ^ d##3;                                  \
	} while (0)
#define XOR4(p, d)                                                                                  \
	do {                                                                                        \
		p##0 ^= d##0;                                                                       \
		p##1 ^= d##1;                                                                       \
		p##2 ^= d##2;                                                                       \
		p##3 ^= d##3;                                                                       \
	} while (0)

#define GEN_VECTOR(fn, isa, width)                                                                  \
	__attribute__((target(isa))) static void fn(unsigned n, size_t len, uint8_t *const *data,     \
						     uint8_t *p, uint8_t *q)                          \
	{                                                                                           \
		typedef int8_t vec __attribute__((vector_size(width)));                              \
		const vec poly = (vec){ 0 } + 0x1d;                                                 \
		size_t k = 0, wide = len / (UNROLL * width) * (UNROLL * width);                     \
		size_t whole = len & ~(size_t)(width - 1);                                          \
		unsigned i;                                                                         \
                                                                                                    \
		/* RAID5: P alone, without Q's multiplications */                               \
		for (; !q && k < wide; k += UNROLL * width) {                                       \
			vec p0 = { 0 }, p1 = { 0 }, p2 = { 0 }, p3 = { 0 }, d0, d1, d2, d3;         \
                                                                                                    \
			for (i = n; i-- > 0;) {                                                     \
				LOAD4(d, data[i] + k, width);                                       \
				XOR4(p, d);                                                         \
			}                                                                           \
			STORE4(p + k, p, width);                                                    \
		}                                                                                   \
		for (; k < wide; k += UNROLL * width) {                                             \
			vec p0 = { 0 }, p1 = { 0 }, p2 = { 0 }, p3 = { 0 };                         \
			vec q0 = { 0 }, q1 = { 0 }, q2 = { 0 }, q3 = { 0 }, d0, d1, d2, d3;         \
                                                                                                    \
			for (i = n; i-- > 0;) {                                                     \
				LOAD4(d, data[i] + k, width);                                       \
				XOR4(p, d);                                                         \
				MUL2_XOR4(q, d);                                                    \
			}                                                                           \
			STORE4(p + k, p, width);                                                    \
			if (q)                                                                      \
				STORE4(q + k, q, width);                                            \
		}                                                                                   \
		for (; k < whole; k += width) {                                                     \
			vec pp = { 0 }, qq = { 0 }, d;                                              \
                                                                                                    \
			for (i = n; i-- > 0;) {                                                     \
				memcpy(&d, data[i] + k, width);                                     \
				pp ^= d;                                                            \
				qq = (qq + qq) ^ ((qq < 0) & poly) ^ d;                             \
			}                                                                           \
			memcpy(p + k, &pp, width);                                                  \
			if (q)                                                                      \
				memcpy(q + k, &qq, width);                                          \
		}                                                                                   \
		gen_scalar_range(n, whole, len, data, p, q);                                        \
	}

GEN_VECTOR(gen_sse2, "sse2", 16)
GEN_VECTOR(gen_avx2, "avx2", 32)
GEN_VECTOR(gen_avx512, "avx512f,avx512bw", 64)

static int have_sse2(void)
{
	return __builtin_cpu_supports("sse2");
}

static int have_avx2(void)
{
	return __builtin_cpu_supports("avx2");
}

/* Byte compares in 512-bit registers need AVX-512BW, not just F. */
static int have_avx512(void)
{
	return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
}

/* Slowest first: parity_best() takes the last one the CPU runs. */
const struct parity_impl parity_impls[] = {
	{ "scalar", always, gen_scalar },
	{ "sse2", have_sse2, gen_sse2 },
	{ "avx2", have_avx2, gen_avx2 },
	{ "avx512", have_avx512, gen_avx512 },
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
