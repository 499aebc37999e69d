/* SPDX-License-Identifier: MIT */
/*
 * mempatterns.h - memtester's patterns (memtester 4.x, tests.c) as a
 * table: each one a function over a slice of the memory under test, run
 * by the memory component's threads (memory.c), a slice a CPU. A pattern
 * says how far it got: one stopped (Ctrl-C, its time up) did less.
 */
#ifndef BB_MEMPATTERNS_H
#define BB_MEMPATTERNS_H

#include <stddef.h>
#include <stdint.h>

struct mp_slice {
	uint64_t *words;
	size_t n;
	size_t base;		/* the slice's first word, counted in the share */
	uint64_t seed;		/* the random patterns' */
	uint64_t deadline;	/* now_ns() past which the pattern stops; 0: none */
	/* BOOTBENCH_BURNIN_STUCK_BIT: this word of the slice (SIZE_MAX: none)
	 * keeps the bits of MASK at VAL after every write over it */
	size_t stuck_at;
	uint64_t stuck_mask, stuck_val;
	/* what the pattern did */
	int finished;		/* ran to its end */
	uint64_t written, read;	/* words, all sweeps */
	size_t wrote_once, read_once;	/* the most words one sweep wrote, read back */
	uint64_t mismatches, first_want, first_got;
	size_t first_at;	/* in the slice */
};

struct mempattern {
	const char *name;	/* as the results name it: "stuck address" */
	unsigned sweeps;	/* writes over the slice, each read back */
	void (*run)(struct mp_slice *s);
};

extern const struct mempattern mempatterns[];
extern const unsigned nmempatterns;

/*
 * BOOTBENCH_BURNIN_STUCK_BIT=OFFSET:BIT[:VALUE] (SPEC) for a share of
 * BYTES: the word at byte OFFSET (rounded down to a word) gets bit BIT
 * (0-63) stuck at VALUE (0 or 1; default 0, what freshly faulted memory
 * holds). 0 with *WORD, *MASK, *VAL set; -1 with bb_err when SPEC is not
 * that or OFFSET is past the share.
 */
int mempatterns_stuck_bit(const char *spec, uint64_t bytes, size_t *word, uint64_t *mask, uint64_t *val);

#endif
