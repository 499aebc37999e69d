// SPDX-License-Identifier: MIT
/*
 * mempatterns.c - memtester's patterns (Charles Cazabon's memtester 4.x,
 * tests.c), in its order and with its counts of sweeps: stuck address,
 * random value, compare XOR/SUB/MUL/DIV/OR/AND, solid bits, checkerboard,
 * bit spread, bit flip, walking 1s and 0s, block sequential. Over a loop
 * each bit of each word holds 0 and 1 (solid bits alone does it), each
 * next to words that hold the opposite.
 *
 * memtester writes two halves and compares one with the other; here each
 * word's value is computed again when it is read back, so a mismatch names
 * the word, what it should hold and what it held. A pattern is a function
 * over one slice, run by one of the memory component's threads; it looks
 * for a stop (burnin_stop, its deadline) every 8 MiB and says how far it
 * got. Reads are volatile: the compiler may not answer them from what it
 * just wrote.
 *
 * BOOTBENCH_BURNIN_STUCK_BIT=OFFSET:BIT[:VALUE] plants a stuck cell, for
 * tests: after every write over that word, the bit is put back to VALUE
 * (default 0) before anything reads it, as a cell stuck there would hold.
 */
#include <stdlib.h>
#include <string.h>

#include "burnin/burnin.h"
#include "burnin/mempatterns.h"
#include "lib/util.h"

#define CHUNK ((size_t)1 << 20)		/* words between looks for a stop: 8 MiB */
#define ONES (~(uint64_t)0)

enum gen_kind {
	G_ALT,		/* even words A, odd words B */
	G_ADDR,		/* the word's own address, its complement on every other word (A: the sweep) */
	G_RAND,		/* a random word from the seed A and the word's place */
	G_OP,		/* G_RAND with A, then OP with B */
};
enum op { OP_XOR, OP_SUB, OP_MUL, OP_DIV, OP_OR, OP_AND };

struct gen {
	enum gen_kind kind;
	uint64_t a, b;
	enum op op;
};

/* splitmix64: a different, reproducible random word for each place */
static inline uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static inline uint64_t apply(enum op op, uint64_t v, uint64_t q)
{
	switch (op) {
	case OP_XOR: return v ^ q;
	case OP_SUB: return v - q;
	case OP_MUL: return v * q;
	case OP_DIV: return v / q;	/* q is never 0 */
	case OP_OR: return v | q;
	case OP_AND: return v & q;
	}
	return v;
}

/* what word I of the slice holds after a sweep of G */
static inline uint64_t gen_word(const struct gen *g, const struct mp_slice *s, size_t i)
{
	uint64_t gi = s->base + i, addr;

	switch (g->kind) {
	case G_ALT:
		return gi & 1 ? g->b : g->a;
	case G_ADDR:
		addr = (uint64_t)(uintptr_t)&s->words[i];
		return (g->a + gi) & 1 ? ~addr : addr;
	case G_RAND:
		return mix(g->a + gi);
	case G_OP:
		return apply(g->op, mix(g->a + gi), g->b);
	}
	return 0;
}

static int over(const struct mp_slice *s)
{
	return burnin_stop || (s->deadline && now_ns() >= s->deadline);
}

/* the test hook's stuck cell, where a sweep that ended at word DONE wrote it */
static void stuck(struct mp_slice *s, size_t done)
{
	if (s->stuck_at < done)
		s->words[s->stuck_at] = (s->words[s->stuck_at] & ~s->stuck_mask) | s->stuck_val;
}

static void swept(struct mp_slice *s, size_t done, int wrote)
{
	if (wrote) {
		s->written += done;
		if (done > s->wrote_once)
			s->wrote_once = done;
		stuck(s, done);
	} else {
		s->read += done;
		if (done > s->read_once)
			s->read_once = done;
	}
}

/* The slice written with G: 0, or -1 when stopped first. */
static int write_sweep(struct mp_slice *s, const struct gen *g)
{
	size_t i = 0;

	while (i < s->n && !over(s))
		for (size_t end = i + CHUNK < s->n ? i + CHUNK : s->n; i < end; i++)
			s->words[i] = gen_word(g, s, i);
	swept(s, i, 1);
	return i < s->n ? -1 : 0;
}

/* Each word of the slice changed in place by OP with Q (memtester's
 * compare tests): 0, or -1 when stopped first. */
static int op_sweep(struct mp_slice *s, enum op op, uint64_t q)
{
	size_t i = 0;

	while (i < s->n && !over(s))
		for (size_t end = i + CHUNK < s->n ? i + CHUNK : s->n; i < end; i++)
			s->words[i] = apply(op, ((volatile uint64_t *)s->words)[i], q);
	swept(s, i, 1);
	return i < s->n ? -1 : 0;
}

/* The slice read back and compared with G; a word that differs counted,
 * the first kept: 0, or -1 when stopped first. */
static int read_sweep(struct mp_slice *s, const struct gen *g)
{
	const volatile uint64_t *w = s->words;
	size_t i = 0;

	while (i < s->n && !over(s))
		for (size_t end = i + CHUNK < s->n ? i + CHUNK : s->n; i < end; i++) {
			uint64_t got = w[i], want = gen_word(g, s, i);

			if (__builtin_expect(got != want, 0) && !s->mismatches++) {
				s->first_at = i;
				s->first_want = want;
				s->first_got = got;
			}
		}
	swept(s, i, 0);
	return i < s->n ? -1 : 0;
}

/* even words EVEN, odd words ODD, written and read back */
static int alt(struct mp_slice *s, uint64_t even, uint64_t odd)
{
	struct gen g = { .kind = G_ALT, .a = even, .b = odd };

	return write_sweep(s, &g) || read_sweep(s, &g) ? -1 : 0;
}

/* K for sweep J of 128: 0 up to 63, then back down */
static unsigned there_and_back(unsigned j)
{
	return j < 64 ? j : 127 - j;
}

static void stuck_address(struct mp_slice *s)
{
	for (unsigned j = 0; j < 16; j++) {
		struct gen g = { .kind = G_ADDR, .a = j };

		if (write_sweep(s, &g) || read_sweep(s, &g))
			return;
	}
	s->finished = 1;
}

static void random_value(struct mp_slice *s)
{
	struct gen g = { .kind = G_RAND, .a = s->seed };

	s->finished = !write_sweep(s, &g) && !read_sweep(s, &g);
}

/* random words, changed by OP with a random Q, read back */
static void compare(struct mp_slice *s, enum op op)
{
	uint64_t a = mix(s->seed + 1 + op), q = mix(a) | (op == OP_DIV);
	struct gen fill = { .kind = G_RAND, .a = a }, want = { .kind = G_OP, .a = a, .b = q, .op = op };

	s->finished = !write_sweep(s, &fill) && !op_sweep(s, op, q) && !read_sweep(s, &want);
}

static void compare_xor(struct mp_slice *s) { compare(s, OP_XOR); }
static void compare_sub(struct mp_slice *s) { compare(s, OP_SUB); }
static void compare_mul(struct mp_slice *s) { compare(s, OP_MUL); }
static void compare_div(struct mp_slice *s) { compare(s, OP_DIV); }
static void compare_or(struct mp_slice *s) { compare(s, OP_OR); }
static void compare_and(struct mp_slice *s) { compare(s, OP_AND); }

static void solid_bits(struct mp_slice *s)
{
	for (unsigned j = 0; j < 64; j++) {
		uint64_t q = j % 2 ? 0 : ONES;

		if (alt(s, q, ~q))
			return;
	}
	s->finished = 1;
}

static void checkerboard(struct mp_slice *s)
{
	for (unsigned j = 0; j < 64; j++) {
		uint64_t q = j % 2 ? 0xaaaaaaaaaaaaaaaaull : 0x5555555555555555ull;

		if (alt(s, q, ~q))
			return;
	}
	s->finished = 1;
}

static void bit_spread(struct mp_slice *s)
{
	for (unsigned j = 0; j < 128; j++) {
		unsigned k = there_and_back(j);
		uint64_t q = (uint64_t)1 << k | (k + 2 < 64 ? (uint64_t)1 << (k + 2) : 0);

		if (alt(s, q, ~q))
			return;
	}
	s->finished = 1;
}

static void bit_flip(struct mp_slice *s)
{
	for (unsigned k = 0; k < 64; k++) {
		uint64_t q = (uint64_t)1 << k;

		for (unsigned j = 0; j < 8; j++) {
			q = ~q;
			if (alt(s, q, ~q))
				return;
		}
	}
	s->finished = 1;
}

static void walking_ones(struct mp_slice *s)
{
	for (unsigned j = 0; j < 128; j++) {
		uint64_t q = (uint64_t)1 << there_and_back(j);

		if (alt(s, q, q))
			return;
	}
	s->finished = 1;
}

static void walking_zeros(struct mp_slice *s)
{
	for (unsigned j = 0; j < 128; j++) {
		uint64_t q = ~((uint64_t)1 << there_and_back(j));

		if (alt(s, q, q))
			return;
	}
	s->finished = 1;
}

static void block_sequential(struct mp_slice *s)
{
	for (unsigned j = 0; j < 256; j++) {
		uint64_t q = j * 0x0101010101010101ull;

		if (alt(s, q, q))
			return;
	}
	s->finished = 1;
}

/* memtester's order: the stuck address test first, so that one that must
 * run to its end (memory.c) finds address lines and stuck bits at once */
const struct mempattern mempatterns[] = {
	{ "stuck address", 16, stuck_address },
	{ "random value", 1, random_value },
	{ "compare XOR", 2, compare_xor },
	{ "compare SUB", 2, compare_sub },
	{ "compare MUL", 2, compare_mul },
	{ "compare DIV", 2, compare_div },
	{ "compare OR", 2, compare_or },
	{ "compare AND", 2, compare_and },
	{ "solid bits", 64, solid_bits },
	{ "checkerboard", 64, checkerboard },
	{ "bit spread", 128, bit_spread },
	{ "bit flip", 512, bit_flip },
	{ "walking 1s", 128, walking_ones },
	{ "walking 0s", 128, walking_zeros },
	{ "block sequential", 256, block_sequential },
};
const unsigned nmempatterns = ARRAY_SIZE(mempatterns);

int mempatterns_stuck_bit(const char *spec, uint64_t bytes, size_t *word, uint64_t *mask, uint64_t *val)
{
	const char *all = spec;
	unsigned long long off, bit, v = 0;
	char *end;

	off = strtoull(spec, &end, 0);
	if (end == spec || *end != ':')
		goto out_bad;
	spec = end + 1;
	bit = strtoull(spec, &end, 10);
	if (end == spec || bit > 63 || (*end && *end != ':'))
		goto out_bad;
	if (*end) {
		spec = end + 1;
		v = strtoull(spec, &end, 10);
		if (end == spec || *end || v > 1)
			goto out_bad;
	}
	if (off >= bytes)
		return set_err("BOOTBENCH_BURNIN_STUCK_BIT: offset %llu is past the share of %llu bytes", off,
			       (unsigned long long)bytes);
	*word = off / sizeof(uint64_t);
	*mask = (uint64_t)1 << bit;
	*val = v ? *mask : 0;
	return 0;
out_bad:
	return set_err("BOOTBENCH_BURNIN_STUCK_BIT=%.60s: expected OFFSET:BIT[:VALUE] (bytes, 0-63, 0 or 1)", all);
}
