// SPDX-License-Identifier: MIT
/*
 * options.c - the option table, its value parsers, defaults and help text.
 * Longer than 500 lines on purpose: the table is one table (STYLE.md 3:
 * it drives parsing, --help, README's list and options_documented.sh), and
 * each value type's parser sits beside the rows that use it.
 */
#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rand.h"
#include "util.h"

enum opt_type {
	T_STR, T_UINT, T_U64, T_SIZE, T_SIZEPCT, T_BOOL, T_BOOL_INV, T_TIME_S,
	T_TIME_US, T_ENUM, T_PCT_INV, T_BSSPLIT, T_PLIST, T_DIST, T_RATE, T_FORMATS,
};

struct enum_val {
	const char *name;
	int value;
};

static const struct enum_val rw_values[] = {
	{ "read", RW_READ }, { "write", RW_WRITE }, { "trim", RW_TRIM },
	{ "randread", RW_RANDREAD }, { "randwrite", RW_RANDWRITE }, { "randtrim", RW_RANDTRIM },
	{ "rw", RW_RW }, { "readwrite", RW_RW }, { "randrw", RW_RANDRW }, { NULL, 0 },
};

static const struct enum_val engine_values[] = {
	{ "io_uring", ENGINE_IO_URING }, { "psync", ENGINE_PSYNC }, { "sync", ENGINE_SYNC },
	{ "null", ENGINE_NULL }, { NULL, 0 },
};

static const struct enum_val sync_values[] = {
	{ "0", SYNC_NONE }, { "none", SYNC_NONE }, { "1", SYNC_SYNC }, { "sync", SYNC_SYNC },
	{ "dsync", SYNC_DSYNC }, { NULL, 0 },
};

static const struct enum_val verify_values[] = {
	{ "0", VERIFY_NONE }, { "none", VERIFY_NONE }, { "crc32c", VERIFY_CRC32C }, { NULL, 0 },
};

static const struct enum_val falloc_values[] = {
	{ "none", FALLOC_NONE }, { "0", FALLOC_NONE }, { "native", FALLOC_NATIVE },
	{ "posix", FALLOC_POSIX }, { "1", FALLOC_POSIX }, { "keep", FALLOC_KEEP },
	{ "truncate", FALLOC_TRUNCATE }, { NULL, 0 },
};

#define J(field) SCOPE_JOB, offsetof(struct job_opts, field)
#define R(field) SCOPE_RUN, offsetof(struct run_opts, field)

const struct option_def option_table[] = {
	{ "name", NULL, T_STR, J(name), NULL, 0, 0, NULL,
	  "job name; on the command line each --name starts a new job" },
	{ "description", NULL, T_STR, J(description), NULL, 0, 0, NULL, "free text describing the job" },
	{ "filename", NULL, T_STR, J(filename), NULL, 0, 0, NULL,
	  "file or block device to test; several separated by ':'" },
	{ "directory", NULL, T_STR, J(directory), NULL, 0, 0, NULL,
	  "directory for job files named NAME.JOB.FILE when filename is not given" },
	{ "size", NULL, T_SIZEPCT, J(size), NULL, 0, 0, NULL,
	  "bytes of I/O per loop (k/m/g/t suffixes, or N% of the target); split between files" },
	{ "offset", NULL, T_SIZEPCT, J(offset), "0", 0, 0, NULL, "start of the I/O range in each file (size or %)" },
	{ "rw", "readwrite", T_ENUM, J(rw), "read", 0, 0, rw_values,
	  "read, write, trim, randread, randwrite, randtrim, rw (readwrite), randrw" },
	{ "rwmixread", NULL, T_UINT, J(rwmixread), "50", 0, 100, NULL, "percentage of mixed I/O that reads" },
	{ "rwmixwrite", NULL, T_PCT_INV, J(rwmixread), NULL, 0, 100, NULL, "percentage of mixed I/O that writes" },
	{ "bs", "blocksize", T_SIZE, J(bs), "4k", 1, 1ll << 30, NULL, "block size of each I/O" },
	{ "bssplit", NULL, T_BSSPLIT, J(bssplit), NULL, 0, 0, NULL,
	  "mix of block sizes, e.g. 4k/50:64k/50 (an empty share takes the rest)" },
	/* io_uring's ring holds at most 32768 entries (IORING_MAX_ENTRIES) */
	{ "iodepth", NULL, T_UINT, J(iodepth), "1", 1, 32768, NULL, "I/Os kept in flight" },
	{ "iodepth_batch", "iodepth_batch_submit", T_UINT, J(iodepth_batch_submit), NULL, 0, 65536, NULL,
	  "submit every N prepared I/Os; 0: fill the queue, then submit and wait in one call "
	  "[unset: 16 if iodepth > 16, else 0]" },
	{ "iodepth_batch_complete_min", "iodepth_batch_complete", T_UINT, J(iodepth_batch_complete_min),
	  "1", 0, 65536, NULL, "completions to wait for when the queue is full" },
	{ "numjobs", NULL, T_UINT, J(numjobs), "1", 1, 4096, NULL, "clones of this job, run in parallel" },
	{ "ioengine", NULL, T_ENUM, J(ioengine), NULL, 0, 0, engine_values,
	  "io_uring (default; psync if io_uring is unavailable), psync, sync, null" },
	{ "direct", NULL, T_BOOL, J(direct), "0", 0, 0, NULL, "O_DIRECT: bypass the page cache" },
	{ "buffered", NULL, T_BOOL_INV, J(direct), NULL, 0, 0, NULL, "use the page cache (buffered=0 is direct=1)" },
	{ "fsync", NULL, T_UINT, J(fsync_every), "0", 0, UINT32_MAX, NULL, "fsync after every N writes" },
	{ "fdatasync", NULL, T_UINT, J(fdatasync_every), "0", 0, UINT32_MAX, NULL, "fdatasync after every N writes" },
	{ "sync", NULL, T_ENUM, J(sync_mode), "none", 0, 0, sync_values,
	  "open with O_SYNC (1, sync) or O_DSYNC (dsync); 0 or none: neither" },
	{ "end_fsync", NULL, T_BOOL, J(end_fsync), "0", 0, 0, NULL, "fsync each file when the job ends" },
	{ "runtime", "timeout", T_TIME_S, J(runtime_us), "0", 0, 0, NULL,
	  "stop after this long (seconds; us/ms/s/m/h suffixes)" },
	{ "time_based", NULL, T_BOOL, J(time_based), "0", 0, 0, NULL, "run for runtime, looping over the range" },
	{ "ramp_time", NULL, T_TIME_S, J(ramp_us), "0", 0, 0, NULL, "warm-up excluded from every figure" },
	{ "startdelay", NULL, T_TIME_S, J(startdelay_us), "0", 0, 0, NULL, "wait this long before starting" },
	{ "loops", NULL, T_UINT, J(loops), "1", 1, UINT32_MAX, NULL, "passes over the range" },
	{ "randrepeat", NULL, T_BOOL, J(randrepeat), "1", 0, 0, NULL, "same random sequence on every run" },
	{ "randseed", NULL, T_U64, J(randseed), "0", 0, 0, NULL, "seed of the random sequence" },
	{ "norandommap", NULL, T_BOOL, J(norandommap), "0", 0, 0, NULL,
	  "random offsets may repeat (default: each block once per loop)" },
	{ "random_distribution", NULL, T_DIST, J(dist), "random", 0, 0, NULL,
	  "random, zipf:THETA or pareto:H (these two allow repeats)" },
	{ "verify", NULL, T_ENUM, J(verify), "none", 0, 0, verify_values,
	  "crc32c: each written block carries a header (offset, pass, seed, CRC-32C), read back after" },
	{ "do_verify", NULL, T_BOOL, J(do_verify), "1", 0, 0, NULL, "run the read-back of verify= after writing" },
	{ "verify_only", NULL, T_BOOL, J(verify_only), "0", 0, 0, NULL,
	  "write nothing: read back and check what the same job wrote before" },
	{ "refill_buffers", NULL, T_BOOL, J(refill_buffers), "0", 0, 0, NULL,
	  "new random data in every write (default: random data, made unique per 512 bytes)" },
	{ "buffer_compress_percentage", NULL, T_UINT, J(compress_pct), "0", 0, 100, NULL,
	  "make write data this compressible (zeros in that share of each 4 KiB)" },
	{ "zero_buffers", NULL, T_BOOL, J(zero_buffers), "0", 0, 0, NULL, "write zeros" },
	{ "create_on_open", NULL, T_BOOL, J(create_on_open), "0", 0, 0, NULL,
	  "create job files when the job starts, not before all jobs" },
	{ "fallocate", NULL, T_ENUM, J(fallocate), "native", 0, 0, falloc_values,
	  "allocate new files: none, native, posix, keep, truncate" },
	{ "unlink", NULL, T_BOOL, J(unlink), "0", 0, 0, NULL, "remove the files this job created when it ends" },
	{ "rate_iops", NULL, T_RATE, J(rate), "0", 0, 0, NULL, "cap IOPS; R or R,W (per direction, as fio)" },
	{ "thinktime", NULL, T_TIME_US, J(thinktime_us), "0", 0, 0, NULL,
	  "pause after each I/O, in flight drained (microseconds)" },
	{ "group_reporting", NULL, T_BOOL, J(group_reporting), "0", 0, 0, NULL, "report the clones of a job as one" },
	{ "stonewall", "wait_for_previous", T_BOOL, J(stonewall), "0", 0, 0, NULL,
	  "wait for earlier jobs to finish; starts a new group" },
	{ "new_group", NULL, T_BOOL, J(new_group), "0", 0, 0, NULL, "start a new reporting group" },
	{ "percentile_list", NULL, T_PLIST, J(percentiles),
	  "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99", 0, 0, NULL,
	  "latency percentiles to report, ':' separated" },
	{ "fixedbufs", NULL, T_BOOL, J(fixedbufs), "1", 0, 0, NULL,
	  "io_uring: register buffers when the kernel allows (default on)" },
	{ "registerfiles", NULL, T_BOOL, J(registerfiles), "1", 0, 0, NULL,
	  "io_uring: register files when the kernel allows (default on)" },
	{ "sqthread_poll", NULL, T_BOOL, J(sqthread_poll), "0", 0, 0, NULL, "io_uring: kernel thread polls submissions" },
	{ "hipri", NULL, T_BOOL, J(hipri), "0", 0, 0, NULL, "io_uring: polled completions (needs direct=1 and poll queues)" },
	{ "output-format", NULL, T_FORMATS, R(formats), "normal", 0, 0, NULL,
	  "normal, json or json+ (comma-separated for several)" },
	{ "output", NULL, T_STR, R(output), NULL, 0, 0, NULL, "write the report to this file (atomically)" },
	{ "summary", NULL, T_STR, R(summary), NULL, 0, 0, NULL,
	  "also write the human summary to this file (atomically)" },
	{ "destroy", NULL, T_STR, R(destroy), NULL, 0, 0, NULL,
	  "consent to write block devices: /dev/X[,/dev/Y]" },
	{ "progress-fd", NULL, T_UINT, R(progress_fd), "0", 0, 1024, NULL,
	  "write a progress line each second to this file descriptor (for the menu's gauge)" },
	{ "metrics", NULL, T_STR, R(metrics), NULL, 0, 0, NULL,
	  "push live figures to this Prometheus Pushgateway (http://host:port) every 5 s and at the end; "
	  "BOOTBENCH_METRICS sets it too" },
	{ "parse-only", NULL, T_BOOL, R(parse_only), "0", 0, 0, NULL, "check job files and options; do no I/O" },
	{ "help", NULL, T_BOOL, R(help), "0", 0, 0, NULL, "print this list" },
};

const unsigned option_count = ARRAY_SIZE(option_table);
_Static_assert(ARRAY_SIZE(option_table) <= OPT_MAX, "raise OPT_MAX");

int opt_find(const char *name)
{
	unsigned i;

	for (i = 0; i < option_count; i++) {
		const struct option_def *d = &option_table[i];

		if (!strcmp(d->name, name) || (d->alias && !strcmp(d->alias, name)))
			return (int)i;
	}
	return -1;
}

static int suffix_shift(const char *s, unsigned *shift)
{
	static const char units[] = "kmgtp";
	const char *u;

	*shift = 0;
	if (!*s)
		return 0;
	u = strchr(units, tolower((unsigned char)*s));
	if (!u)
		return -1;
	*shift = 10 * (unsigned)(u - units + 1);
	s++;
	/* k, K, kb, KiB, KB: all powers of 1024, as fio's default kb_base */
	if (tolower((unsigned char)*s) == 'i')
		s++;
	if (tolower((unsigned char)*s) == 'b')
		s++;
	return *s ? -1 : 0;
}

int parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned shift;
	double d;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	if (strchr(s, '.')) {
		d = strtod(s, &end);
		if (suffix_shift(end, &shift) || errno)
			return -1;
		d = ldexp(d, (int)shift);
		if (d >= 0x1p63 || d != floor(d))
			return -1;
		*out = (uint64_t)d;
		return 0;
	}
	*out = strtoull(s, &end, 10);
	if (errno || suffix_shift(end, &shift))
		return -1;
	if (shift && *out > (UINT64_MAX >> shift))
		return -1;
	*out <<= shift;
	return 0;
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

static int parse_uint(const char *s, int64_t min, int64_t max, uint64_t *out)
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

static int parse_bool(const char *s, int *out)
{
	if (!*s || !strcmp(s, "1") || !strcasecmp(s, "true") || !strcasecmp(s, "yes") || !strcasecmp(s, "on"))
		*out = 1;
	else if (!strcmp(s, "0") || !strcasecmp(s, "false") || !strcasecmp(s, "no") || !strcasecmp(s, "off"))
		*out = 0;
	else
		return -1;
	return 0;
}

static int parse_enum(const struct enum_val *v, const char *s, int *out)
{
	for (; v->name; v++)
		if (!strcmp(v->name, s)) {
			*out = v->value;
			return 0;
		}
	return -1;
}

static int parse_sizepct(const char *s, struct sizepct *out)
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
	return parse_size(s, &out->bytes);
}

static int parse_bssplit(const char *s, struct bssplit *b)
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
		if (parse_size(tok, &b->bs[b->n]) || !b->bs[b->n] || b->bs[b->n] > (1ull << 30))
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

static int parse_plist(const char *s, struct plist *p)
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

static int parse_dist(const char *s, struct dist_spec *d)
{
	const char *colon = strchr(s, ':');
	char *end;

	if (!strcmp(s, "random")) {
		d->kind = DIST_RANDOM;
		d->param = 0;
		return 0;
	}
	if (!colon)
		return -1;
	if (!strncmp(s, "zipf:", 5))
		d->kind = DIST_ZIPF;
	else if (!strncmp(s, "pareto:", 7))
		d->kind = DIST_PARETO;
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
	return 0;
}

static int parse_rate(const char *s, struct rate *r)
{
	char buf[64], *comma;
	uint64_t v;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	comma = strchr(buf, ',');
	if (comma)
		*comma = 0;
	if (parse_uint(buf, 0, 0, &v))
		return -1;
	r->iops[DDIR_READ] = r->iops[DDIR_WRITE] = r->iops[DDIR_TRIM] = v;
	if (comma) {
		if (parse_uint(comma + 1, 0, 0, &v))
			return -1;
		r->iops[DDIR_WRITE] = v;
	}
	return 0;
}

static int parse_formats(const char *s, unsigned *out)
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

static const char *expected(int type)
{
	switch (type) {
	case T_UINT: case T_U64: return "a whole number";
	case T_SIZE: return "a size such as 4k, 1m or 10g";
	case T_SIZEPCT: return "a size such as 1g, or a percentage such as 50%";
	case T_BOOL: case T_BOOL_INV: return "0 or 1";
	case T_TIME_S: return "a time such as 30, 30s, 500ms or 2m";
	case T_TIME_US: return "a time in microseconds, or with a unit (10ms)";
	case T_PCT_INV: return "a percentage 0-100";
	case T_BSSPLIT: return "SIZE/PCT:SIZE/PCT... summing to 100";
	case T_PLIST: return "percentiles in (0,100] separated by ':'";
	case T_DIST: return "random, zipf:THETA (THETA > 0, not 1) or pareto:H (0 < H < 1)";
	case T_RATE: return "IOPS, or READ,WRITE";
	case T_FORMATS: return "normal, json or json+";
	default: return "a value";
	}
}

static void enum_list(const struct enum_val *v, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = 0;
	for (; v->name && used < len; v++)
		used += snprintf(buf + used, len - used, "%s%s", used ? ", " : "", v->name);
}

int opt_apply(struct job_opts *jo, struct run_opts *ro, int idx, const char *val)
{
	const struct option_def *d = &option_table[idx];
	char *base = d->scope == SCOPE_RUN ? (char *)ro : (char *)jo;
	void *field = base + d->off;
	uint64_t u;
	int b, rc = 0;

	switch (d->type) {
	case T_STR:
		if (!*val)
			rc = -1;
		else
			*(char **)field = xstrdup(val);
		break;
	case T_UINT:
		rc = parse_uint(val, d->min, d->max, &u);
		if (!rc)
			*(unsigned *)field = (unsigned)u;
		break;
	case T_U64:
		rc = parse_uint(val, 0, 0, &u);
		if (!rc)
			*(uint64_t *)field = u;
		break;
	case T_SIZE:
		rc = parse_size(val, &u);
		if (!rc && d->max > d->min && (u < (uint64_t)d->min || u > (uint64_t)d->max))
			rc = -1;
		if (!rc)
			*(uint64_t *)field = u;
		break;
	case T_SIZEPCT:
		rc = parse_sizepct(val, field);
		break;
	case T_BOOL:
	case T_BOOL_INV:
		rc = parse_bool(val, &b);
		if (!rc)
			*(int *)field = d->type == T_BOOL ? b : !b;
		break;
	case T_TIME_S:
	case T_TIME_US:
		rc = parse_time_us(val, d->type == T_TIME_S ? 1000000 : 1, &u);
		if (!rc)
			*(uint64_t *)field = u;
		break;
	case T_ENUM:
		rc = parse_enum(d->values, val, field);
		if (rc) {
			char list[256];

			enum_list(d->values, list, sizeof(list));
			return set_err("invalid value '%s' for option '%s': expected one of %s", val, d->name, list);
		}
		break;
	case T_PCT_INV:
		rc = parse_uint(val, 0, 100, &u);
		if (!rc)
			*(unsigned *)field = 100 - (unsigned)u;
		break;
	case T_BSSPLIT:
		rc = parse_bssplit(val, field);
		break;
	case T_PLIST:
		rc = parse_plist(val, field);
		break;
	case T_DIST:
		rc = parse_dist(val, field);
		break;
	case T_RATE:
		rc = parse_rate(val, field);
		break;
	case T_FORMATS:
		rc = parse_formats(val, field);
		break;
	}
	if (rc && d->type == T_UINT && d->max)
		return set_err("invalid value '%s' for option '%s': expected a whole number from %lld to %lld", val,
			       d->name, (long long)d->min, (long long)d->max);
	if (rc)
		return set_err("invalid value '%s' for option '%s': expected %s", val, d->name, expected(d->type));
	if (d->scope == SCOPE_JOB)
		jo->given[idx] = 1;
	return 0;
}

void opts_defaults(struct job_opts *jo, struct run_opts *ro)
{
	unsigned i;

	memset(jo, 0, sizeof(*jo));
	memset(ro, 0, sizeof(*ro));
	jo->ioengine = ENGINE_DEFAULT;
	for (i = 0; i < option_count; i++)
		if (option_table[i].def && opt_apply(jo, ro, (int)i, option_table[i].def))
			abort();	/* a default the table cannot parse is a bug */
	memset(jo->given, 0, sizeof(jo->given));
}

void opts_help(FILE *f)
{
	unsigned i;

	fprintf(f, "Options (as --name=value on the command line, name=value in job files):\n");
	for (i = 0; i < option_count; i++) {
		const struct option_def *d = &option_table[i];
		char name[64];

		snprintf(name, sizeof(name), "%s%s%s", d->name, d->alias ? "/" : "", d->alias ? d->alias : "");
		fprintf(f, "  %-34s %s%s%s%s\n", name, d->help, d->def ? " [" : "", d->def ? d->def : "",
			d->def ? "]" : "");
	}
}

static const char *enum_name(const struct enum_val *v, int value)
{
	for (; v->name; v++)
		if (v->value == value)
			return v->name;
	return "?";
}

const char *rw_name(int rw)
{
	return enum_name(rw_values, rw);
}

const char *engine_name(int id)
{
	return id == ENGINE_DEFAULT ? "io_uring" : enum_name(engine_values, id);
}
