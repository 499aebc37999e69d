// SPDX-License-Identifier: MIT
/* test_options.c - size and time suffixes, and each option type's parser through the table. */
#include <string.h>

#include "job/options.h"
#include "lib/rand.h"
#include "unit.h"
#include "lib/util.h"

static void sizes(void)
{
	static const struct { const char *in; uint64_t want; } good[] = {
		/* fio's kb_base=1024: k and kB are 1024, KiB is 1000 (checked against fio 3.33) */
		{ "0", 0 }, { "512", 512 }, { "4k", 4096 }, { "4K", 4096 }, { "4KiB", 4000 }, { "4kb", 4096 },
		{ "1m", 1 << 20 }, { "1M", 1 << 20 }, { "2g", 2ull << 30 }, { "1t", 1ull << 40 },
		{ "1p", 1ull << 50 }, { "1.5k", 1536 }, { "0.5m", 512 << 10 },
	};
	static const char *const bad[] = { "", "k", "4x", "4kk", "-1", "1.3", "99999999999999999999", "16777216p" };
	unsigned i;
	uint64_t v;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		v = 12345;
		CHECK(parse_size(good[i].in, &v) == 0 && v == good[i].want, "'%s' gave %llu", good[i].in,
		      (unsigned long long)v);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(parse_size(bad[i], &v) < 0, "'%s' was accepted as %llu", bad[i], (unsigned long long)v);
	CHECK(!parse_size_base("4k", 1000, &v) && v == 4000, "kb_base=1000: 4k is 4000 (%llu)", (unsigned long long)v);
	CHECK(!parse_size_base("4KiB", 1000, &v) && v == 4096, "kb_base=1000: 4KiB is 4096");
	CHECK(!parse_size_base("1MiB", 1024, &v) && v == 1000000, "kb_base=1024: 1MiB is 10^6");
}

static void values(void)
{
	struct bsrange br;
	struct pattern p;
	struct cpus c;
	struct dist_spec d;
	struct rate r;
	uint64_t lo, hi;

	CHECK(!parse_bsrange("4k-64k", 1024, &br) && br.min[DDIR_READ] == 4096 && br.max[DDIR_WRITE] == 65536,
	      "bsrange 4k-64k for every direction");
	CHECK(!parse_bsrange("4k-8k,16k-32k", 1024, &br) && br.max[DDIR_READ] == 8192 && br.min[DDIR_WRITE] == 16384,
	      "bsrange R,W");
	CHECK(parse_bsrange("64k-4k", 1024, &br) < 0, "bsrange MIN above MAX refused");
	CHECK(!parse_sizerange("1m-4m", 1024, &lo, &hi) && lo == 1 << 20 && hi == 4 << 20, "filesize range");
	CHECK(!parse_pattern("0xdeadbeef", &p) && p.len == 4 && p.bytes[0] == 0xde && p.bytes[3] == 0xef, "pattern hex");
	CHECK(!parse_pattern("12345", &p) && p.len == 2 && p.bytes[0] == 0x39 && p.bytes[1] == 0x30,
	      "pattern decimal, least significant byte first (as fio writes it)");
	CHECK(!parse_pattern("\"ab\"|0x01", &p) && p.len == 3 && p.bytes[1] == 'b' && p.bytes[2] == 1, "pattern pieces");
	CHECK(parse_pattern("\"ab", &p) < 0 && parse_pattern("0x", &p) < 0 && parse_pattern("zz", &p) < 0,
	      "bad patterns refused");
	CHECK(!parse_cpulist("0-2,5", &c) && c.bits[0] == 0x27, "cpus_allowed list");
	CHECK(!parse_cpumask("0x0f", &c) && c.bits[0] == 0x0f, "cpumask");
	CHECK(parse_cpulist("3-1", &c) < 0 && parse_cpumask("0", &c) < 0, "bad CPU sets refused");
	CHECK(!parse_dist("zoned:60/10:30/20:10/70", 1024, &d) && d.kind == DIST_ZONED && d.nzones == 3 &&
	      d.zones[1].range_pct == 20, "zoned");
	CHECK(parse_dist("zoned:60/10:30/20", 1024, &d) < 0, "zoned shares not summing to 100 refused");
	CHECK(!parse_dist("zoned_abs:80/1m:20/10m", 1024, &d) && d.kind == DIST_ZONED_ABS &&
	      d.zones[0].bytes == 1 << 20, "zoned_abs");
	CHECK(!parse_dist("normal:10", 1024, &d) && d.kind == DIST_NORMAL && d.param == 10, "normal");
	CHECK(parse_dist("normal:0", 1024, &d) < 0, "normal:0 refused");
	CHECK(!parse_rate("10m", 1024, 1, &r) && r.iops[DDIR_READ] == 10 << 20 && r.iops[DDIR_WRITE] == 10 << 20, "rate");
	CHECK(!parse_rate(",1m", 1024, 1, &r) && r.iops[DDIR_READ] == 0 && r.iops[DDIR_WRITE] == 1 << 20, "rate ,W");
	CHECK(!parse_rate("1m,", 1024, 1, &r) && r.iops[DDIR_READ] == 1 << 20 && r.iops[DDIR_WRITE] == 0, "rate R,");
}

static void times(void)
{
	uint64_t v;

	CHECK(!parse_time_us("30", 1000000, &v) && v == 30000000, "30 s");
	CHECK(!parse_time_us("500ms", 1000000, &v) && v == 500000, "500ms");
	CHECK(!parse_time_us("2m", 1000000, &v) && v == 120000000, "2m is minutes");
	CHECK(!parse_time_us("1h", 1000000, &v) && v == 3600000000ull, "1h");
	CHECK(!parse_time_us("10", 1, &v) && v == 10, "thinktime default unit us");
	CHECK(!parse_time_us("0.5", 1000000, &v) && v == 500000, "0.5 s");
	CHECK(parse_time_us("10x", 1, &v) < 0, "10x refused");
	CHECK(parse_time_us("abc", 1, &v) < 0, "abc refused");
}

static int set(struct job_opts *o, struct run_opts *r, const char *name, const char *val)
{
	int idx = opt_find(name);

	CHECK(idx >= 0, "option %s exists", name);
	return idx < 0 ? -1 : opt_apply(o, r, idx, val);
}

static void table(void)
{
	struct job_opts o;
	struct run_opts r;
	unsigned i;

	opts_defaults(&o, &r);
	CHECK(o.bs == 4096 && o.iodepth == 1 && o.rwmixread == 50 && o.loops == 1, "defaults");
	CHECK(o.percentiles.n == 17 && o.percentiles.p[16] == 99.99, "fio's default percentiles");
	CHECK(r.formats == FMT_NORMAL, "default output is normal");
	for (i = 0; i < option_count; i++)
		CHECK(option_table[i].help && strlen(option_table[i].help) > 5, "%s has help", option_table[i].name);

	CHECK(!set(&o, &r, "readwrite", "randrw") && o.rw == RW_RANDRW, "alias readwrite");
	CHECK(set(&o, &r, "rw", "randtrimwrite") < 0 && strstr(bb_err, "'rw'") && strstr(bb_err, "randread"),
	      "bad rw names the option and the choices: %s", bb_err);
	CHECK(!set(&o, &r, "rwmixwrite", "30") && o.rwmixread == 70, "rwmixwrite sets the read share");
	CHECK(!set(&o, &r, "buffered", "0") && o.direct == 1, "buffered=0 is direct=1");
	CHECK(!set(&o, &r, "direct", "") && o.direct == 1, "a bare flag is 1");
	CHECK(set(&o, &r, "iodepth", "0") < 0, "iodepth 0 refused");
	CHECK(set(&o, &r, "bs", "0") < 0, "bs 0 refused");
	CHECK(!set(&o, &r, "size", "50%") && o.size.pct == 50, "size in percent");
	CHECK(set(&o, &r, "size", "150%") < 0, "size over 100%% refused");
	CHECK(!set(&o, &r, "bssplit", "4k/50:64k/30:1m") && o.bssplit.n == 3 && o.bssplit.pct[2] == 20,
	      "bssplit remainder");
	CHECK(!set(&o, &r, "bssplit", "4k:8k:16k") && o.bssplit.pct[0] + o.bssplit.pct[1] + o.bssplit.pct[2] == 100,
	      "bssplit equal shares sum to 100");
	CHECK(set(&o, &r, "bssplit", "4k/50:8k/20") < 0, "bssplit not summing to 100 refused");
	CHECK(!set(&o, &r, "percentile_list", "50:99.9") && o.percentiles.n == 2, "percentile_list");
	CHECK(set(&o, &r, "percentile_list", "50:101") < 0, "percentile over 100 refused");
	CHECK(!set(&o, &r, "random_distribution", "zipf:1.2") && o.dist.kind == DIST_ZIPF && o.dist.param == 1.2,
	      "zipf");
	CHECK(set(&o, &r, "random_distribution", "zipf:1") < 0, "zipf:1 refused");
	CHECK(set(&o, &r, "random_distribution", "pareto:1.5") < 0, "pareto:1.5 refused");
	CHECK(!set(&o, &r, "rw", "write:112k") && o.rw == RW_WRITE && o.rw_skip == 112 << 10, "rw=write:112k");
	CHECK(!set(&o, &r, "rw", "read:-8k") && o.rw == RW_READ && o.rw_skip == -(8 << 10), "rw=read:-8k");
	CHECK(!set(&o, &r, "rw", "randread:8") && o.rw == RW_RANDREAD && o.rw_skip == 8, "rw=randread:8");
	CHECK(!set(&o, &r, "rw", "read") && o.rw_skip == 0, "rw without a modifier clears it");
	CHECK(set(&o, &r, "rw", "write:x") < 0, "rw=write:x refused");
	CHECK(!set(&o, &r, "kb_base", "1000") && !set(&o, &r, "bs", "4k") && o.bs == 4000,
	      "kb_base=1000 applies to the sizes after it");
	CHECK(!set(&o, &r, "kb_base", "1024") && !set(&o, &r, "bs", "4k") && o.bs == 4096, "kb_base=1024");
	CHECK(!set(&o, &r, "nice", "-5") && o.nice == -5, "nice takes negative numbers");
	CHECK(set(&o, &r, "nice", "20") < 0, "nice 20 refused");
	CHECK(!set(&o, &r, "write_bw_log", "") && o.bw_log && !*o.bw_log, "write_bw_log without a prefix");
	opt_fio_may_have = 0;
	CHECK(set(&o, &r, "ioengine", "rdma") < 0 && strstr(bb_err, "ioengine=rdma: a network engine") &&
	      !opt_fio_may_have, "an engine that needs a network: refused for good, saying why: %s", bb_err);
	CHECK(set(&o, &r, "ioengine", "sg") < 0 && strstr(bb_err, "ioengine=sg is fio's, not in bootbench's engine") &&
	      opt_fio_may_have, "fio's other engines are named as such, for fio to run: %s", bb_err);
	opt_fio_may_have = 0;
	CHECK(set(&o, &r, "verify", "md5") < 0 && opt_fio_may_have, "a choice of fio's bootbench lacks: for fio");
	opt_fio_may_have = 0;
	CHECK(set(&o, &r, "size", "12q") < 0 && !opt_fio_may_have, "a bad size: refused for good");
	CHECK(!set(&o, &r, "rate_iops", "100,50") && o.rate.iops[DDIR_READ] == 100 && o.rate.iops[DDIR_WRITE] == 50,
	      "rate_iops R,W");
	CHECK(!set(&o, &r, "output-format", "json+,normal") && r.formats == (FMT_JSONPLUS | FMT_NORMAL), "formats");
	CHECK(set(&o, &r, "output-format", "terse") < 0, "terse unsupported");
	CHECK(!set(&o, &r, "sync", "dsync") && o.sync_mode == SYNC_DSYNC, "sync=dsync");
	CHECK(!set(&o, &r, "runtime", "1m") && o.runtime_us == 60000000, "runtime 1m");
	CHECK(!set(&o, &r, "thinktime", "250") && o.thinktime_us == 250, "thinktime us");
	CHECK(set(&o, &r, "name", "") < 0, "empty string refused");
	CHECK(opt_find("no_such_option") < 0, "unknown option");
}

int main(void)
{
	sizes();
	values();
	times();
	table();
	return unit_done();
}
