// SPDX-License-Identifier: MIT
/*
 * test_erase_lbas.c - the LBAs an erase certificate names are the disk's
 * order, whatever order the read-back found them in. The read-back keeps
 * 16 reads of 1 MiB in flight and checks each as it completes, so a later
 * chunk's mismatch can come first (erase_disks.sh once read
 * "mismatched_lbas": [20000,10000] from a list kept in completion order);
 * erase_lba_add keeps the lowest ERASE_MISMATCH_MAX, sorted, with N
 * counting all of them.
 */
#include <stdlib.h>

#include "erase/erase.h"
#include "lib/rand.h"
#include "unit.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Adds LBAS in the order given, as the read-back does, and compares with the lowest of them sorted. */
static void added(const char *what, const uint64_t *lbas, unsigned n)
{
	uint64_t list[ERASE_MISMATCH_MAX], *want = malloc(n * sizeof(*want));
	unsigned kept = n < ERASE_MISMATCH_MAX ? n : ERASE_MISMATCH_MAX, i, same = 1;

	for (i = 0; i < n; i++)
		erase_lba_add(list, i, lbas[i]);
	for (i = 0; i < n; i++)
		want[i] = lbas[i];
	qsort(want, n, sizeof(*want), cmp_u64);
	for (i = 0; i < kept; i++)
		same &= list[i] == want[i];
	CHECK(same, "%s: the %u lowest, in order (first %llu, want %llu)", what, kept,
	      (unsigned long long)list[0], (unsigned long long)want[0]);
	free(want);
}

int main(void)
{
	const uint64_t two[] = { 20000, 10000 }, same[] = { 7, 7, 3 };
	uint64_t many[1000];
	struct rng r;

	added("the second chunk's completion first (erase_disks.sh's dm-flakey blocks)", two, 2);
	added("the disk's order already", (const uint64_t[]){ 10000, 20000 }, 2);
	added("one LBA twice", same, 3);
	rng_seed(&r, 49);
	for (unsigned i = 0; i < 1000; i++)
		many[i] = rng_next(&r) % 1000000;
	added("1000 in random order: the lowest 16 kept", many, 1000);
	for (unsigned i = 0; i < 1000; i++)
		many[i] = 5000 - i;
	added("1000 descending: each new one the lowest", many, 1000);
	return unit_done();
}
