// SPDX-License-Identifier: MIT
/*
 * test_parity.c - every parity implementation the CPU runs gives the scalar
 * reference's P and Q (and P alone, RAID5's path) on random data, for 1 to
 * 16 data blocks, lengths from 0 to 4 KiB + 33 and offsets 0..31: with
 * every buffer 64-byte aligned (the vector code's aligned path), all at one
 * offset, and one of them 5 bytes off the rest (the unaligned path). Q is
 * checked once more against a straight GF(2^8) evaluation; RAID6 recovery
 * of every pair of lost blocks gives the data back.
 */
#include <stdlib.h>
#include <string.h>

#include "raid/parity.h"
#include "unit.h"

#define MAXN 16
#define MAXLEN (4096 + 33)
#define ROW ((MAXLEN + 40 + 63) / 64 * 64) /* room for the offsets, a multiple of 64 */

static uint8_t mul2(uint8_t x)
{
	return (uint8_t)((x << 1) ^ (x & 0x80 ? 0x1d : 0));
}

/* Q = sum over i of g^i * D_i, by repeated doubling: independent of Horner's rule. */
static uint8_t q_direct(unsigned n, uint8_t *const *data, size_t k)
{
	uint8_t q = 0;
	unsigned i, e;

	for (i = 0; i < n; i++) {
		uint8_t t = data[i][k];

		for (e = 0; e < i; e++)
			t = mul2(t);
		q ^= t;
	}
	return q;
}

int main(void)
{
	static _Alignas(64) uint8_t pool[MAXN][ROW], p0[ROW], q0[ROW], p1[ROW], q1[ROW];
	static uint8_t keep[MAXN][MAXLEN];
	uint8_t *data[MAXN];
	unsigned n, i, impl, a, b, off, odd;
	size_t len, k;
	int mismatch;

	srand(11);
	for (i = 0; i < MAXN; i++)
		for (k = 0; k < sizeof(pool[i]); k++)
			pool[i][k] = (uint8_t)rand();
	CHECK(parity_best()->available(), "the best implementation runs here");
	for (impl = 1; impl < parity_impl_count; impl++) {
		const struct parity_impl *im = &parity_impls[impl];

		if (!im->available())
			continue;
		for (n = 1; n <= MAXN; n += n < 3 ? 1 : 6)
			for (len = 0; len <= MAXLEN; len += len < 100 ? 1 : 397)
				for (off = 0; off < 32; off += len < 100 ? 31 : 3)
					for (odd = 0; odd < 5; odd++) {
						/*
						 * One buffer 5 bytes off the rest: none, the first,
						 * the last two data blocks (which the vector code
						 * starts from), P and Q.
						 */
						unsigned shifted[5] = { MAXN + 2, 0, n >= 2 ? n - 2 : 0, n - 1, n };
						unsigned s = shifted[odd], po = off + (s == n ? 5 : 0);

						for (i = 0; i < n; i++)
							data[i] = pool[i] + off + (i == s ? 5 : 0);
						parity_impls[0].gen(n, len, data, p0 + po, q0 + po);
						im->gen(n, len, data, p1 + po, q1 + po);
						CHECK(!memcmp(p0 + po, p1 + po, len) && !memcmp(q0 + po, q1 + po, len),
						      "%s: n %u len %zu offset %u shifted %u", im->name, n, len, off, s);
						/* RAID5: P alone (no Q buffer) has a path of its own */
						memset(p1, 0, sizeof(p1));
						im->gen(n, len, data, p1 + po, NULL);
						CHECK(!memcmp(p0 + po, p1 + po, len), "%s P only: n %u len %zu offset %u shifted %u",
						      im->name, n, len, off, s);
					}
	}
	for (i = 0; i < 6; i++)
		data[i] = pool[i];
	parity_impls[0].gen(6, 1000, data, p0, q0);
	mismatch = 0;
	for (k = 0; k < 1000; k++)
		mismatch |= q0[k] != q_direct(6, data, k);
	CHECK(!mismatch, "Q is the sum of 2^i * D_i");
	parity_impls[0].gen(6, 1000, data, p0, NULL);
	CHECK(p0[7] == (data[0][7] ^ data[1][7] ^ data[2][7] ^ data[3][7] ^ data[4][7] ^ data[5][7]), "P is XOR");
	for (n = 3; n <= 8; n += 5)
		for (a = 0; a < n; a++)
			for (b = a + 1; b < n; b++) {
				len = 512 + 3 * a + b;
				for (i = 0; i < n; i++) {
					data[i] = pool[i];
					memcpy(keep[i], pool[i], len);
				}
				parity_best()->gen(n, len, data, p0, q0);
				memset(data[a], 0xaa, len);
				memset(data[b], 0x55, len);
				raid6_recover2(n, len, data, a, b, p0, q0);
				CHECK(!memcmp(data[a], keep[a], len) && !memcmp(data[b], keep[b], len),
				      "recover blocks %u and %u of %u", a, b, n);
				for (i = 0; i < n; i++)
					memcpy(pool[i], keep[i], len);
			}
	return unit_done();
}
