/* SPDX-License-Identifier: MIT */
/*
 * parity.h - RAID parity in our own C: P (XOR, RAID5) and Q (the RAID6
 * Reed-Solomon syndrome over GF(2^8), polynomial 0x11d, generator 2, as
 * md's raid6 uses), with scalar, SSE2, AVX2 and AVX-512 (arm64: NEON) paths picked at run time,
 * and the recovery of two lost data blocks from P and Q.
 */
#ifndef BB_PARITY_H
#define BB_PARITY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct parity_impl {
	const char *name;
	int (*available)(void);
	/* P = XOR of data[0..n); Q = sum of 2^i * data[i] (Q may be NULL: RAID5) */
	void (*gen)(unsigned n, size_t len, uint8_t *const *data, uint8_t *p, uint8_t *q);
};

extern const struct parity_impl parity_impls[];
extern const unsigned parity_impl_count;

/* The fastest implementation this CPU runs. */
const struct parity_impl *parity_best(void);

/* Rebuilds data[a] and data[b] (a < b < n) in place from the rest, P and Q. */
void raid6_recover2(unsigned n, size_t len, uint8_t *const *data, unsigned a, unsigned b, const uint8_t *p,
		    const uint8_t *q);

#endif
