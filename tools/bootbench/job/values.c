// SPDX-License-Identifier: MIT
/*
 * values.c - the parsers of option values, one per value type of the
 * option table (options.c): sizes with fio's suffixes, times, numbers,
 * booleans, percentages, block size splits and ranges, percentile lists,
 * random distributions, rates, output formats, CPU sets, buffer patterns.
 * Each returns 0, or -1 for a value it cannot take (the caller names the
 * option and what it expected).
 */
#include "job/values.h"

#include "job/options.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/rand.h"
#include "lib/util.h"

/*
 * The multiplier of a size suffix, as fio reads them: k m g t p, with an
 * optional b. kb_base 1024 (fio's default, "compatibility mode") takes
 * k and kB as powers of 1024 and KiB as powers of 1000; kb_base 1000
 * swaps them (SI and IEC as written). fio does exactly this: bs=4KiB is
 * 4000 bytes by default.
 */
static int suffix_mult(const char *s, unsigned kb_base, uint64_t *mult)
{
	static const char units[] = "kmgtp";
	const char *u;
	uint64_t base;
	int iec = 0;
	unsigned i;

	*mult = 1;
	if (!*s)
		return 0;
	u = strchr(units, tolower((unsigned char)*s));
	if (!u)
		return -1;
	s++;
	if (tolower((unsigned char)*s) == 'i') {
		iec = 1;
		s++;
	}
	if (tolower((unsigned char)*s) == 'b')
		s++;
	if (*s)
		return -1;
	base = (kb_base == 1000) == iec ? 1024 : 1000;
	for (i = 0; i <= (unsigned)(u - units); i++)
		*mult *= base;
	return 0;
}

int suffix_shift(const char *s, unsigned *shift)
{
	uint64_t m;

	/* plain integers (iodepth=1k): k is 1024 */
	if (suffix_mult(s, 1024, &m) || (m & (m - 1)))
		return -1;
	*shift = m > 1 ? (unsigned)__builtin_ctzll(m) : 0;
	return 0;
}

int parse_size_base(const char *s, unsigned kb_base, uint64_t *out)
{
	char *end;
	uint64_t mult;
	double d;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	if (strchr(s, '.')) {
		d = strtod(s, &end);
		if (suffix_mult(end, kb_base, &mult) || errno)
			return -1;
		d *= (double)mult;
		if (d >= 0x1p63 || d != floor(d))
			return -1;
		*out = (uint64_t)d;
		return 0;
	}
	*out = strtoull(s, &end, 10);
	if (errno || suffix_mult(end, kb_base, &mult))
		return -1;
	if (*out > UINT64_MAX / mult)
		return -1;
	*out *= mult;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	return parse_size_base(s, 1024, out);
}

int parse_time_us(const char *s, uint64_t default_unit_us, uint64_t *out)
{
	static const struct { const char *suffix; uint64_t us; } units[] = {
		{ "us", 1 }, { "usec", 1 }, { "ms", 1000 }, { "msec", 1000 }, { "s", 1000000 },
		{ "sec", 1000000 }, { "m", 60000000 }, { "min", 60000000 }, { "h", 3600000000ull },
		{ "d", 86400000000ull },
	};
	char *end;
	double v;
	uint64_t unit = default_unit_us;
	unsigned i;

	if (!isdigit((unsigned char)*s) && *s != '.')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || v < 0)
		return -1;
	if (*end) {
		for (i = 0; i < ARRAY_SIZE(units); i++)
			if (!strcasecmp(end, units[i].suffix))
				break;
		if (i == ARRAY_SIZE(units))
			return -1;
		unit = units[i].us;
	}
	v *= (double)unit;
	if (v >= 0x1p63)
		return -1;
	*out = (uint64_t)llround(v);
	return 0;
}

int parse_uint(const char *s, int64_t min, int64_t max, uint64_t *out)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 0);
	/* fio accepts size suffixes on plain integers too (iodepth=1k is rare, but legal) */
	if (*end) {
		unsigned shift;

		if (suffix_shift(end, &shift) || (*out >> (64 - (shift ? shift : 1))))
			return -1;
		*out <<= shift;
	}
	if (errno)
		return -1;
	if (max > min && ((int64_t)*out < min || *out > (uint64_t)max))
		return -1;
	return 0;
}

int parse_bool(const char *s, int *out)
{
	if (!*s || !strcmp(s, "1") || !strcasecmp(s, "true") || !strcasecmp(s, "yes") || !strcasecmp(s, "on"))
		*out = 1;
	else if (!strcmp(s, "0") || !strcasecmp(s, "false") || !strcasecmp(s, "no") || !strcasecmp(s, "off"))
		*out = 0;
	else
		return -1;
	return 0;
}

int parse_sizepct(const char *s, unsigned kb_base, struct sizepct *out)
{
	size_t len = strlen(s);
	char *end;

	if (len && s[len - 1] == '%') {
		errno = 0;
		out->pct = strtod(s, &end);
		if (errno || end != s + len - 1 || !(out->pct > 0 && out->pct <= 100))
			return -1;
		out->bytes = 0;
		return 0;
	}
	out->pct = 0;
	return parse_size_base(s, kb_base, &out->bytes);
}

int parse_bssplit(const char *s, unsigned kb_base, struct bssplit *b)
{
	char buf[512], *save, *tok;
	unsigned total = 0, empty = 0, seen = 0, share, i;

	if (strlen(s) >= sizeof(buf) || strchr(s, ','))
		return -1;
	strcpy(buf, s);
	b->n = 0;
	for (tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(tok, '/');
		uint64_t pct = 0;

		if (b->n == BSSPLIT_MAX)
			return -1;
		if (slash)
			*slash = 0;
		/* as bs: at most 1 GiB (an I/O's length is 32 bits: 4g was a zero-byte I/O) */
		if (parse_size_base(tok, kb_base, &b->bs[b->n]) || !b->bs[b->n] || b->bs[b->n] > (1ull << 30))
			return -1;
		if (slash && slash[1]) {
			if (parse_uint(slash + 1, 0, 100, &pct))
				return -1;
			b->pct[b->n] = (unsigned)pct;
			total += (unsigned)pct;
		} else {
			b->pct[b->n] = ~0u;	/* filled in below */
			empty++;
		}
		b->n++;
	}
	if (!b->n || total > 100 || (!empty && total != 100))
		return -1;
	/* entries without a share split what is left equally, as in fio */
	share = empty ? (100 - total) / empty : 0;
	for (i = 0; i < b->n; i++)
		if (b->pct[i] == ~0u)
			b->pct[i] = ++seen == empty ? 100 - total - share * (empty - 1) : share;
	return 0;
}

int parse_plist(const char *s, struct plist *p)
{
	char buf[512], *save, *tok, *end;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	p->n = 0;
	for (tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		if (p->n == PLIST_MAX)
			return -1;
		errno = 0;
		p->p[p->n] = strtod(tok, &end);
		if (errno || *end || !(p->p[p->n] > 0 && p->p[p->n] <= 100))
			return -1;
		p->n++;
	}
	return p->n ? 0 : -1;
}

/*
 * zoned:A/S:A/S...: A% of the I/O goes to the next S% of the range;
 * zoned_abs:A/SIZE:...: the same with zone sizes in bytes.
 */
static int parse_zones(const char *s, int abs, unsigned kb_base, struct dist_spec *d)
{
	char buf[512], *save, *tok;
	double access = 0, range = 0;
	unsigned missing = 0;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	d->nzones = 0;
	for (tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(tok, '/'), *end;
		struct dist_zone *z = &d->zones[d->nzones];

		if (!slash || d->nzones == DIST_ZONES_MAX)
			return -1;
		*slash = 0;
		errno = 0;
		z->access_pct = strtod(tok, &end);
		if (errno || *end || end == tok || !(z->access_pct >= 0))
			return -1;
		if (abs) {
			if (parse_size_base(slash + 1, kb_base, &z->bytes) || !z->bytes)
				return -1;
		} else if (!slash[1]) {
			z->range_pct = -1;	/* "A/": the range left, shared with the others without one */
			missing++;
		} else {
			z->range_pct = strtod(slash + 1, &end);
			if (errno || *end || end == slash + 1 || !(z->range_pct > 0))
				return -1;
			range += z->range_pct;
		}
		access += z->access_pct;
		d->nzones++;
	}
	/* as fio: the zones without a range share what the others left */
	if (missing) {
		if (range >= 100)
			return -1;
		for (unsigned i = 0; i < d->nzones; i++)
			if (d->zones[i].range_pct < 0)
				d->zones[i].range_pct = (100 - range) / missing;
		range = 100;
	}
	/* as fio: the shares add up to 100 (a little rounding is let through) */
	if (!d->nzones || fabs(access - 100) > 0.01 || (!abs && fabs(range - 100) > 0.01))
		return -1;
	return 0;
}

int parse_dist(const char *s, unsigned kb_base, struct dist_spec *d)
{
	const char *colon = strchr(s, ':');
	char *end;

	memset(d, 0, sizeof(*d));
	if (!strcmp(s, "random")) {
		d->kind = DIST_RANDOM;
		return 0;
	}
	if (!colon)
		return -1;
	if (!strncmp(s, "zoned:", 6)) {
		d->kind = DIST_ZONED;
		return parse_zones(s + 6, 0, kb_base, d);
	}
	if (!strncmp(s, "zoned_abs:", 10)) {
		d->kind = DIST_ZONED_ABS;
		return parse_zones(s + 10, 1, kb_base, d);
	}
	if (!strncmp(s, "zipf:", 5))
		d->kind = DIST_ZIPF;
	else if (!strncmp(s, "pareto:", 7))
		d->kind = DIST_PARETO;
	else if (!strncmp(s, "normal:", 7) || !strncmp(s, "gauss:", 6))
		d->kind = DIST_NORMAL;
	else
		return -1;
	errno = 0;
	d->param = strtod(colon + 1, &end);
	if (errno || *end || end == colon + 1)
		return -1;
	if (d->kind == DIST_ZIPF && (!(d->param > 0) || d->param == 1.0))
		return -1;
	if (d->kind == DIST_PARETO && !(d->param > 0 && d->param < 1))
		return -1;
	/* the deviation, in percent of the range */
	if (d->kind == DIST_NORMAL && !(d->param > 0 && d->param <= 100))
		return -1;
	return 0;
}

int parse_formats(const char *s, unsigned *out)
{
	char buf[128], *save, *tok;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	*out = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "normal"))
			*out |= FMT_NORMAL;
		else if (!strcmp(tok, "json"))
			*out |= FMT_JSON;
		else if (!strcmp(tok, "json+"))
			*out |= FMT_JSONPLUS;
		else
			return -1;
	}
	return *out ? 0 : -1;
}


/* MIN-MAX (or one size: MIN=MAX), for reads, then writes and trims after a comma. */
int parse_bsrange(const char *s, unsigned kb_base, struct bsrange *r)
{
	char buf[128], *parts[DDIR_NR] = { NULL }, *dash;
	unsigned n = 0, d;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	for (char *save, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == DDIR_NR)
			return -1;
		parts[n++] = tok;
	}
	if (!n)
		return -1;
	for (d = 0; d < DDIR_NR; d++) {
		char *p = parts[d < n ? d : n - 1];
		char one[64];

		snprintf(one, sizeof(one), "%s", p);
		dash = strchr(one, '-');
		if (dash)
			*dash = 0;
		if (parse_size_base(one, kb_base, &r->min[d]) ||
		    parse_size_base(dash ? dash + 1 : one, kb_base, &r->max[d]))
			return -1;
		if (!r->min[d] || r->min[d] > r->max[d] || r->max[d] > (1ull << 30))
			return -1;
	}
	return 0;
}

/* A size, or a range of sizes MIN-MAX (filesize). */
int parse_sizerange(const char *s, unsigned kb_base, uint64_t *min, uint64_t *max)
{
	char one[64], *dash;

	if (strlen(s) >= sizeof(one))
		return -1;
	strcpy(one, s);
	dash = strchr(one, '-');
	if (dash)
		*dash = 0;
	if (parse_size_base(one, kb_base, min) || parse_size_base(dash ? dash + 1 : one, kb_base, max))
		return -1;
	return *min && *min <= *max ? 0 : -1;
}

/*
 * fio's buffer_pattern: pieces joined by '|', each 0x and hex digits (the
 * bytes as written), a decimal number (its bytes, least significant first,
 * as fio writes them) or a string in double quotes.
 */
int parse_pattern(const char *s, struct pattern *p)
{
	p->len = 0;
	while (*s) {
		if (*s == '"') {
			const char *end = strchr(s + 1, '"');

			if (!end || end == s + 1 || p->len + (size_t)(end - s - 1) > PATTERN_MAX)
				return -1;
			memcpy(p->bytes + p->len, s + 1, (size_t)(end - s - 1));
			p->len += (unsigned)(end - s - 1);
			s = end + 1;
		} else if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
			size_t digits = strspn(s + 2, "0123456789abcdefABCDEF"), i;
			const char *h = s + 2;

			if (!digits)
				return -1;
			/* an odd count: the first digit is a byte of its own */
			for (i = 0; i < digits; ) {
				unsigned v = 0, take = (i == 0 && digits % 2) ? 1 : 2, k;

				for (k = 0; k < take; k++) {
					char c = h[i + k];

					v = v * 16 + (unsigned)(isdigit((unsigned char)c) ? c - '0' : tolower((unsigned char)c) - 'a' + 10);
				}
				if (p->len == PATTERN_MAX)
					return -1;
				p->bytes[p->len++] = (unsigned char)v;
				i += take;
			}
			s = h + digits;
		} else if (isdigit((unsigned char)*s)) {
			char *end;
			uint64_t v;

			errno = 0;
			v = strtoull(s, &end, 10);
			if (errno)
				return -1;
			do {
				if (p->len == PATTERN_MAX)
					return -1;
				p->bytes[p->len++] = (unsigned char)(v & 0xff);
				v >>= 8;
			} while (v);
			s = end;
		} else {
			return -1;
		}
		if (*s == '|')
			s++;
		else if (*s)
			return -1;
	}
	return p->len ? 0 : -1;
}

static int set_cpu(struct cpus *c, uint64_t cpu)
{
	if (cpu >= CPUS_MAX)
		return -1;
	c->bits[cpu / 64] |= 1ull << (cpu % 64);
	return 0;
}

/* cpus_allowed: 0-3,6,8-9 */
int parse_cpulist(const char *s, struct cpus *c)
{
	char buf[512], *save, *tok, *end;

	memset(c, 0, sizeof(*c));
	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t lo, hi;

		if (!isdigit((unsigned char)*tok))
			return -1;
		lo = strtoull(tok, &end, 10);
		hi = lo;
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				return -1;
			hi = strtoull(end + 1, &end, 10);
		}
		if (*end || lo > hi || hi >= CPUS_MAX)
			return -1;
		for (; lo <= hi; lo++)
			set_cpu(c, lo);
	}
	c->set = 1;
	return 0;
}

/* numa_cpu_nodes: "all", or nodes as CPUs are listed (0-1,3) */
int parse_numa_nodes(const char *s, struct cpus *nodes)
{
	if (!strcmp(s, "all")) {
		memset(nodes->bits, 0xff, sizeof(nodes->bits));
		nodes->set = 1;
		return 0;
	}
	return parse_cpulist(s, nodes);
}

/* numa_mem_policy: default, local, prefer:NODE, bind:NODES, interleave:NODES (fio's names) */
int parse_numa_policy(const char *s, int *mode, struct cpus *nodes)
{
	static const struct {
		const char *name;
		int mode, needs_nodes;
	} modes[] = {
		{ "default", MEMPOL_DEFAULT, 0 }, { "prefer", MEMPOL_PREFERRED, 1 }, { "bind", MEMPOL_BIND, 1 },
		{ "interleave", MEMPOL_INTERLEAVE, 1 }, { "local", MEMPOL_LOCAL, 0 },
	};
	const char *colon = strchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);

	memset(nodes, 0, sizeof(*nodes));
	for (unsigned i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (strlen(modes[i].name) != n || strncmp(modes[i].name, s, n))
			continue;
		*mode = modes[i].mode;
		if (!modes[i].needs_nodes)
			return colon ? -1 : 0;
		if (!colon || parse_numa_nodes(colon + 1, nodes))
			return -1;
		/* prefer names one node */
		if (modes[i].mode == MEMPOL_PREFERRED) {
			unsigned count = 0;

			for (unsigned w = 0; w < CPUS_MAX / 64; w++)
				count += (unsigned)__builtin_popcountll(nodes->bits[w]);
			return count == 1 ? 0 : -1;
		}
		return 0;
	}
	return -1;
}

/* cpumask: a number whose bit N is CPU N (0x or decimal) */
int parse_cpumask(const char *s, struct cpus *c)
{
	char *end;
	uint64_t m;
	unsigned i;

	memset(c, 0, sizeof(*c));
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	m = strtoull(s, &end, 0);
	if (errno || *end || !m)
		return -1;
	for (i = 0; i < 64; i++)
		if (m & (1ull << i))
			set_cpu(c, i);
	c->set = 1;
	return 0;
}

/* A signed whole number in [min, max] (nice). */
int parse_int(const char *s, int64_t min, int64_t max, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = (int)v;
	return 0;
}

/*
 * A value per direction, fio's way: R sets every direction, R,W reads and
 * writes apart, "R," reads only, ",W" writes only. IOPS (rate_iops) are
 * plain numbers; bandwidths (rate, rate_min) sizes a second.
 */
int parse_rate(const char *s, unsigned kb_base, int sizes, struct rate *r)
{
	char buf[64], *comma;
	uint64_t v;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	comma = strchr(buf, ',');
	if (comma)
		*comma = 0;
	memset(r, 0, sizeof(*r));
	if (*buf) {
		if (sizes ? parse_size_base(buf, kb_base, &v) : parse_uint(buf, 0, 0, &v))
			return -1;
		r->iops[DDIR_READ] = r->iops[DDIR_WRITE] = r->iops[DDIR_TRIM] = v;
	}
	if (comma) {
		/* R,W or, as fio, R,W,T: the trims' own */
		char *third = strchr(comma + 1, ',');

		if (third)
			*third = 0;
		v = 0;
		if (comma[1] && (sizes ? parse_size_base(comma + 1, kb_base, &v) : parse_uint(comma + 1, 0, 0, &v)))
			return -1;
		r->iops[DDIR_WRITE] = r->iops[DDIR_TRIM] = v;
		if (third) {
			v = 0;
			if (strchr(third + 1, ',') ||
			    (third[1] && (sizes ? parse_size_base(third + 1, kb_base, &v) : parse_uint(third + 1, 0, 0, &v))))
				return -1;
			r->iops[DDIR_TRIM] = v;
		}
	}
	return *buf || comma ? 0 : -1;
}

/* options.h: fio's get_next_str, so that both read a filename= list as the same files */
char *filename_next(char **cursor)
{
	char *str = *cursor, *start, *colon;

	if (!str || !*str)
		return NULL;
	start = str;
	for (;;) {
		colon = strchr(str, ':');
		if (!colon) {
			*cursor = NULL;
			break;
		}
		if (colon == start) {	/* an empty name: skipped */
			str = ++start;
			continue;
		}
		if (colon[-1] != '\\') {
			*colon = 0;
			*cursor = colon + 1;
			break;
		}
		/* "\:": a ':' of the name, its '\' taken out */
		memmove(colon - 1, colon, strlen(colon) + 1);
		str = colon;
	}
	return start;
}
