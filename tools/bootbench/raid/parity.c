// SPDX-License-Identifier: MIT
/*
 * parity.c - P and Q generation. Q is evaluated by Horner's rule from the
 * last data block to the first: Q = Q * 2 ^ D[i]; multiplying every byte by
 * 2 in GF(2^8) is a shift left and, for bytes whose top bit was set, an XOR
 * with 0x1d, which vector units do 16 (SSE2) or 32 (AVX2) bytes at a time
 * with a signed compare for the mask. Any length works: the tail after the
 * last whole vector goes through the scalar code. On arm64 the vector unit
 * is Advanced SIMD (NEON), 16 bytes, which every AArch64 CPU has.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "raid/parity.h"

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
 * top-bit mask, x + x the shift. Compiled once per instruction set and
 * picked at run time; each is compiled twice more, for when every buffer is
 * vector-aligned (page-aligned stripes always are: SSE may then fold a load
 * into its XOR as a memory operand) and for when one is not.
 *
 * The loops follow what the instruction count says, which is also what an
 * emulated CPU (QEMU's TCG, where the kernel's figures are measured here)
 * runs at: P and Q start as the last data block itself rather than as
 * zero, which saves a block's worth of work (a sixth with six data blocks);
 * P alone (RAID5) takes eight vectors per step and the first two blocks in
 * one go; P and Q take four vectors side by side, since Q's Horner chain is
 * one long dependency per vector (the kernel's x4 variants do the same),
 * lane by lane so that each temporary dies at once: twelve vector registers,
 * no copies or spills with two-operand SSE. Then single vectors, then the
 * scalar tail.
 */
/* Whether every buffer starts on a WIDTH boundary. */
static int all_aligned(unsigned n, uint8_t *const *data, const uint8_t *p, const uint8_t *q, size_t width)
{
	uintptr_t bits = (uintptr_t)p | (uintptr_t)q;
	unsigned i;

	for (i = 0; i < n; i++)
		bits |= (uintptr_t)data[i];
	return !(bits & (width - 1));
}

/*
 * The lanes of a step, unrolled by hand so that their vectors live in
 * registers: X(j) for each lane J. The lane macros below are parts of the
 * body and use its names: W, aligned, last, next, src, p, q, d, poly, all
 * pointing at the current step.
 */
#define LANES4(X) X(0) X(1) X(2) X(3)
#define LANES8(X) LANES4(X) X(4) X(5) X(6) X(7)
/* SRC, with the alignment the compiler may assume for it */
#define AT(src) (aligned ? __builtin_assume_aligned((src), W) : (void *)(src))
#define LOAD(v, src, j) memcpy(&(v), AT((src) + (j) * W), W)
#define STORE(dst, j, v) memcpy(AT((dst) + (j) * W), &(v), W)
/* P alone: the first two blocks, every further one, the result */
#define P_START(j)                                                                                  \
	vec p##j;                                                                                   \
	LOAD(p##j, last, j);                                                                        \
	LOAD(d, next, j);                                                                           \
	p##j ^= d;
#define P_ADD(j)                                                                                    \
	LOAD(d, src, j);                                                                            \
	p##j ^= d;
#define P_STORE(j) STORE(p, j, p##j);
/* P and Q: both start as the last block; then P ^= D and Q = Q * 2 ^ D */
#define PQ_START(j)                                                                                 \
	vec p##j, q##j;                                                                             \
	LOAD(p##j, last, j);                                                                        \
	q##j = p##j;
#define PQ_ADD(j)                                                                                   \
	{                                                                                           \
		vec m;                                                                              \
                                                                                                    \
		LOAD(d, src, j);                                                                    \
		__asm__("" : "+" VEC_REG(d)); /* one load in a register, not one per use */     \
		p##j ^= d;                                                                          \
		m = (q##j < 0) & poly;                                                              \
		q##j = DOUBLE(q##j);                                                                \
		q##j ^= m;                                                                          \
		q##j ^= d;                                                                          \
	}
#define PQ_STORE(j) STORE(p, j, p##j); STORE(q, j, q##j);
/* the asm constraint of a vector register */
#if defined(__aarch64__)
#define VEC_REG "w"
#else
#define VEC_REG "v"
#endif
/* 2V: the shift left, in unsigned lanes (a signed lane's overflow is undefined; UBSan said so) */
#define DOUBLE(v) ((vec)((uvec)(v) + (uvec)(v)))

#define GEN_VECTOR(fn, isa, width)                                                                  \
	__attribute__((target(isa), always_inline)) static inline void fn##_body(                    \
		unsigned n, size_t len, uint8_t *const *data, uint8_t *p, uint8_t *q, const int aligned) \
	{                                                                                           \
		typedef int8_t vec __attribute__((vector_size(width)));                              \
		typedef uint8_t uvec __attribute__((vector_size(width)));                            \
		enum { W = width };                                                                 \
		const vec poly = (vec){ 0 } + 0x1d;                                                 \
		const uint8_t *last = data[n - 1], *next = data[n - 2], *src;                       \
		size_t k = 0, whole = len & ~(size_t)(W - 1);                                       \
		unsigned i;                                                                         \
		vec d;                                                                              \
                                                                                                    \
		for (; !q && k + 8 * W <= len; k += 8 * W, last += 8 * W, next += 8 * W, p += 8 * W) { \
			LANES8(P_START)                                                             \
			for (i = n - 2; i-- > 0;) {                                                 \
				src = data[i] + k;                                                  \
				LANES8(P_ADD)                                                       \
			}                                                                           \
			LANES8(P_STORE)                                                             \
		}                                                                                   \
		for (; q && k + 4 * W <= len; k += 4 * W, last += 4 * W, p += 4 * W, q += 4 * W) {  \
			LANES4(PQ_START)                                                            \
			for (i = n - 1; i-- > 0;) {                                                 \
				src = data[i] + k;                                                  \
				LANES4(PQ_ADD)                                                      \
			}                                                                           \
			LANES4(PQ_STORE)                                                            \
		}                                                                                   \
		/* the steps walked p and q along (fewer registers than an index each) */        \
		p -= k;                                                                             \
		if (q)                                                                              \
			q -= k;                                                                     \
		for (; k < whole; k += width) {                                                     \
			vec pp = { 0 }, qq = { 0 };                                                 \
                                                                                                    \
			for (i = n; i-- > 0;) {                                                     \
				memcpy(&d, data[i] + k, width);                                     \
				pp ^= d;                                                            \
				qq = DOUBLE(qq) ^ ((qq < 0) & poly) ^ d;                            \
			}                                                                           \
			memcpy(p + k, &pp, width);                                                  \
			if (q)                                                                      \
				memcpy(q + k, &qq, width);                                          \
		}                                                                                   \
		gen_scalar_range(n, whole, len, data, p, q);                                        \
	}                                                                                           \
	__attribute__((target(isa))) static void fn(unsigned n, size_t len, uint8_t *const *data,     \
						     uint8_t *p, uint8_t *q)                          \
	{                                                                                           \
		if (n < 2)                                                                          \
			gen_scalar(n, len, data, p, q);                                             \
		else if (all_aligned(n, data, p, q, width))                                         \
			fn##_body(n, len, data, p, q, 1);                                           \
		else                                                                                \
			fn##_body(n, len, data, p, q, 0);                                           \
	}

#if defined(__x86_64__)
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
#elif defined(__aarch64__)
GEN_VECTOR(gen_neon, "+simd", 16)
#endif

/* Slowest first: parity_best() takes the last one the CPU runs. */
const struct parity_impl parity_impls[] = {
	{ "scalar", always, gen_scalar },
#if defined(__x86_64__)
	{ "sse2", have_sse2, gen_sse2 },
	{ "avx2", have_avx2, gen_avx2 },
	{ "avx512", have_avx512, gen_avx512 },
#elif defined(__aarch64__)
	{ "neon", always, gen_neon },
#endif
};

const unsigned parity_impl_count = ARRAY_SIZE(parity_impls);

const struct parity_impl *parity_best(void)
{
	unsigned i = parity_impl_count;

#if defined(__x86_64__)
	__builtin_cpu_init();
#endif
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
