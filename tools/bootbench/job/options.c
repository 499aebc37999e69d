// SPDX-License-Identifier: MIT
/*
 * options.c - the option table, its value parsers, defaults and help text.
 * Longer than 500 lines on purpose: the table is one table (STYLE.md 3:
 * it drives parsing, --help, README's list and options_documented.sh), and
 * each value type's parser sits beside the rows that use it.
 */
#include "job/options.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "job/values.h"
#include "lib/rand.h"
#include "lib/util.h"

enum opt_type {
	T_STR, T_UINT, T_U64, T_SIZE, T_SIZEPCT, T_BOOL, T_BOOL_INV, T_TIME_S,
	T_TIME_US, T_ENUM, T_PCT_INV, T_BSSPLIT, T_PLIST, T_DIST, T_RATE, T_FORMATS,
	T_INT, T_PREFIX, T_RW, T_BSRANGE, T_SIZERANGE, T_PATTERN, T_CPULIST, T_CPUMASK, T_BW,
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
	{ "io_uring", ENGINE_IO_URING }, { "libaio", ENGINE_LIBAIO }, { "psync", ENGINE_PSYNC }, { "sync", ENGINE_SYNC },
	{ "pvsync2", ENGINE_PVSYNC2 }, { "mmap", ENGINE_MMAP }, { "io_uring_cmd", ENGINE_IO_URING_CMD },
	{ "null", ENGINE_NULL }, { NULL, 0 },
};

/* fio's other engines: named as fio's, refused as not in bootbench */
static const char *const fio_only_engines[] = {
	"vsync", "pvsync", "posixaio", "solarisaio", "windowsaio", "splice", "sg",
	"net", "netsplice", "cpuio", "rdma", "falloc", "e4defrag", "rbd", "http",
	"gfapi", "gfapi_async", "libhdfs", "mtd", "dev-dax", "external", "filecreate", "filestat",
	"filedelete", "dircreate", "dirstat", "dirdelete", "libpmem", "ime_psync", "ime_psyncv",
	"ime_aio", "libiscsi", "nbd", "libcufile", "dfs", "nfs", "exec", "xnvme", "libblkio", "guasi",
	NULL,
};

static const struct enum_val cmd_type_values[] = { { "nvme", 0 }, { NULL, 0 } };

static const struct enum_val cpus_policy_values[] = {
	{ "shared", CPUS_SHARED }, { "split", CPUS_SPLIT }, { NULL, 0 },
};

/* fio's generators; bootbench has one (rand.h), and a random map for "each block once" */
static const struct enum_val generator_values[] = {
	{ "tausworthe", 0 }, { "lfsr", 1 }, { "tausworthe64", 2 }, { NULL, 0 },
};

static const struct enum_val zonemode_values[] = {
	{ "none", ZONEMODE_NONE }, { "strided", ZONEMODE_STRIDED }, { "zbd", ZONEMODE_ZBD }, { NULL, 0 },
};

/*
 * Why some of fio's engines are not here, where the answer is more than
 * "not a disk": the passthrough engines go around the block layer that
 * bootbench measures, and the image's fio (bootbench fio-server, or fio
 * itself in the shell) has them.
 */
static const char *engine_why(const char *name)
{
	if (!strcmp(name, "sg"))
		return " (SCSI commands through SG_IO bypass the block layer bootbench measures; the image's "
		       "fio has it: fio --ioengine=sg)";
	if (!strcmp(name, "cpuio"))
		return " (a CPU burner, no I/O: the image's fio has it: fio --ioengine=cpuio --cpuload=N)";
	return "";
}

static const struct enum_val sync_values[] = {
	{ "0", SYNC_NONE }, { "none", SYNC_NONE }, { "1", SYNC_SYNC }, { "sync", SYNC_SYNC },
	{ "dsync", SYNC_DSYNC }, { NULL, 0 },
};

static const struct enum_val verify_values[] = {
	{ "0", VERIFY_NONE }, { "none", VERIFY_NONE }, { "crc32c", VERIFY_CRC32C }, { NULL, 0 },
};

static const struct enum_val continue_values[] = {
	{ "none", CONTINUE_NONE }, { "0", CONTINUE_NONE }, { "read", CONTINUE_READ },
	{ "write", CONTINUE_WRITE }, { "io", CONTINUE_IO }, { "verify", CONTINUE_VERIFY },
	{ "all", CONTINUE_ALL }, { "1", CONTINUE_ALL }, { NULL, 0 },
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
	{ "rw", "readwrite", T_RW, J(rw), "read", 0, 0, rw_values,
	  "read, write, trim, randread, randwrite, randtrim, rw (readwrite), randrw; with :SIZE a "
	  "sequential job skips SIZE after each I/O (back with -SIZE), with :N a random one takes a new "
	  "offset every N I/Os" },
	{ "rwmixread", NULL, T_UINT, J(rwmixread), "50", 0, 100, NULL, "percentage of mixed I/O that reads" },
	{ "rwmixwrite", NULL, T_PCT_INV, J(rwmixread), NULL, 0, 100, NULL, "percentage of mixed I/O that writes" },
	{ "bs", "blocksize", T_SIZE, J(bs), "4k", 1, 1ll << 30, NULL, "block size of each I/O" },
	{ "bssplit", NULL, T_BSSPLIT, J(bssplit), NULL, 0, 0, NULL,
	  "mix of block sizes, e.g. 4k/50:64k/50 (an empty share takes the rest)" },
	{ "bsrange", "blocksize_range", T_BSRANGE, J(bsrange), NULL, 0, 0, NULL,
	  "block sizes MIN-MAX, each I/O a random multiple of MIN in that range (R,W per direction)" },
	{ "nrfiles", NULL, T_UINT, J(nrfiles), "1", 1, 65536, NULL,
	  "files per job clone in directory (named by filename_format), size split between them" },
	{ "filesize", NULL, T_SIZERANGE, J(filesize_min), NULL, 0, 0, NULL,
	  "size of each of the nrfiles files, or MIN-MAX for random sizes in that range [size/nrfiles]" },
	{ "filename_format", NULL, T_STR, J(filename_format), NULL, 0, 0, NULL,
	  "names of job files in directory: $jobname, $jobnum, $filenum, $clientuid [$jobname.$jobnum.$filenum]" },
	/* io_uring's ring holds at most 32768 entries (IORING_MAX_ENTRIES) */
	{ "iodepth", NULL, T_UINT, J(iodepth), "1", 1, 32768, NULL, "I/Os kept in flight" },
	{ "iodepth_batch", "iodepth_batch_submit", T_UINT, J(iodepth_batch_submit), NULL, 0, 65536, NULL,
	  "submit every N prepared I/Os; 0: fill the queue, then submit and wait in one call "
	  "[unset: 16 if iodepth > 16, else 0]" },
	{ "iodepth_batch_complete_min", "iodepth_batch_complete", T_UINT, J(iodepth_batch_complete_min),
	  "1", 0, 65536, NULL, "completions to wait for when the queue is full" },
	{ "numjobs", NULL, T_UINT, J(numjobs), "1", 1, 4096, NULL, "clones of this job, run in parallel" },
	{ "thread", NULL, T_BOOL, J(thread), "0", 0, 0, NULL,
	  "accepted for fio's job files: bootbench's clones are always threads" },
	{ "ioengine", NULL, T_ENUM, J(ioengine), NULL, 0, 0, engine_values,
	  "io_uring (default; psync if io_uring is unavailable), libaio (Linux native AIO), psync, sync, "
	  "pvsync2 (preadv2/pwritev2; hipri polls), mmap, io_uring_cmd (NVMe passthrough on /dev/ngXnY), null" },
	{ "cmd_type", NULL, T_ENUM, J(cmd_type), "nvme", 0, 0, cmd_type_values,
	  "io_uring_cmd: the passthrough command set (nvme)" },
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
	{ "verify_interval", NULL, T_SIZE, J(verify_interval), "0", 0, 1ll << 30, NULL,
	  "a verify header (and CRC) every this many bytes of a block, so a bad sector is named "
	  "exactly; a multiple of 512 that divides bs [0: bs]" },
	{ "continue_on_error", NULL, T_ENUM, J(continue_on_error), "none", 0, 0, continue_values,
	  "count medium errors (EIO, EILSEQ, ENODATA) and go on: none, read, write, io, verify, all; "
	  "each bad LBA is named, the job still fails at its end" },
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
	{ "rate", NULL, T_BW, J(rate_bw), NULL, 0, 0, NULL,
	  "cap bandwidth in bytes a second (10m); R or R,W, ',W' writes only" },
	{ "rate_min", NULL, T_BW, J(rate_min), NULL, 0, 0, NULL,
	  "fail the job when its bandwidth falls below this, per second (R or R,W)" },
	{ "buffer_pattern", NULL, T_PATTERN, J(buffer_pattern), NULL, 0, 0, NULL,
	  "fill write buffers with this: 0xHEX, a decimal number or \"a string\", joined by |" },
	{ "thinktime", NULL, T_TIME_US, J(thinktime_us), "0", 0, 0, NULL,
	  "pause after each I/O, in flight drained (microseconds)" },
	{ "group_reporting", NULL, T_BOOL, J(group_reporting), "0", 0, 0, NULL, "report the clones of a job as one" },
	{ "stonewall", "wait_for_previous", T_BOOL, J(stonewall), "0", 0, 0, NULL,
	  "wait for earlier jobs to finish; starts a new group" },
	{ "new_group", NULL, T_BOOL, J(new_group), "0", 0, 0, NULL, "start a new reporting group" },
	{ "lat_percentiles", NULL, T_BOOL, J(lat_percentiles), "0", 0, 0, NULL,
	  "report percentiles of the total latency (lat) too" },
	{ "clat_percentiles", NULL, T_BOOL, J(clat_percentiles), "1", 0, 0, NULL,
	  "report percentiles of the completion latency (clat)" },
	{ "significant_figures", NULL, T_UINT, J(significant_figures), "4", 1, 10, NULL,
	  "significant figures of the latency percentiles in the normal output" },
	{ "kb_base", NULL, T_UINT, J(kb_base), "1024", 1000, 1024, NULL,
	  "1024: k, kB are 1024 and KiB 1000 (fio's default); 1000: k, kB are 1000 and KiB 1024; "
	  "it applies to the sizes after it" },
	{ "unit_base", NULL, T_UINT, J(unit_base), "0", 0, 8, NULL,
	  "bandwidth in the normal output: 0 or 8 bytes, 1 bits" },
	{ "gtod_reduce", NULL, T_BOOL, J(gtod_reduce), "0", 0, 0, NULL,
	  "no latency measured (disable_lat, disable_clat, disable_slat): bandwidth and IOPS only" },
	{ "disable_lat", NULL, T_BOOL, J(disable_lat), "0", 0, 0, NULL, "do not measure the total latency" },
	{ "disable_clat", NULL, T_BOOL, J(disable_clat), "0", 0, 0, NULL, "do not measure the completion latency" },
	{ "disable_slat", NULL, T_BOOL, J(disable_slat), "0", 0, 0, NULL, "do not measure the submission latency" },
	{ "exitall", NULL, T_BOOL, J(exitall), "0", 0, 0, NULL, "when this job ends, stop every other job" },
	{ "invalidate", NULL, T_BOOL, J(invalidate), "1", 0, 0, NULL,
	  "drop the target's cached pages before the job (buffered I/O starts cold)" },
	{ "allow_mounted_write", NULL, T_BOOL, J(allow_mounted_write), "0", 0, 0, NULL,
	  "accepted for fio's job files; the consent gate still refuses a mounted device" },
	{ "nice", NULL, T_INT, J(nice), "0", -20, 19, NULL, "the job threads' nice value" },
	{ "prio", NULL, T_UINT, J(prio), "4", 0, 7, NULL, "I/O priority level within its class (0 highest)" },
	{ "prioclass", NULL, T_UINT, J(prioclass), "0", 0, 3, NULL,
	  "I/O priority class: 1 realtime, 2 best effort, 3 idle; 0 leaves it (unless prio is given: 2)" },
	{ "cpus_allowed", NULL, T_CPULIST, J(cpus_allowed), NULL, 0, 0, NULL, "CPUs the job may run on: 0-3,6" },
	{ "cpumask", NULL, T_CPUMASK, J(cpus_allowed), NULL, 0, 0, NULL, "CPUs as a mask: bit N is CPU N (0x0f)" },
	{ "cpus_allowed_policy", NULL, T_ENUM, J(cpus_allowed_policy), "shared", 0, 0, cpus_policy_values,
	  "shared: each clone may use all of cpus_allowed; split: each its own CPU of them" },
	{ "random_generator", NULL, T_ENUM, J(random_generator), "tausworthe", 0, 0, generator_values,
	  "fio's names are taken; bootbench has one generator (xoshiro256**) and keeps a random map "
	  "for each-block-once (lfsr's property)" },
	{ "zonemode", NULL, T_ENUM, J(zonemode), "none", 0, 0, zonemode_values,
	  "none; strided and zbd (zoned block devices) are refused: bootbench does not follow zones" },
	{ "ioscheduler", NULL, T_STR, J(ioscheduler), NULL, 0, 0, NULL,
	  "switch the target disk's I/O scheduler for the job (put back after)" },
	{ "write_lat_log", NULL, T_PREFIX, J(lat_log), NULL, 0, 0, NULL,
	  "fio's latency logs PREFIX_lat.N.log, _clat, _slat (empty: the job's name)" },
	{ "write_bw_log", NULL, T_PREFIX, J(bw_log), NULL, 0, 0, NULL, "fio's bandwidth log PREFIX_bw.N.log (KiB/s)" },
	{ "write_iops_log", NULL, T_PREFIX, J(iops_log), NULL, 0, 0, NULL, "fio's IOPS log PREFIX_iops.N.log" },
	{ "write_hist_log", NULL, T_PREFIX, J(hist_log), NULL, 0, 0, NULL,
	  "fio's completion latency histogram log PREFIX_clat_hist.N.log (every log_hist_msec)" },
	{ "log_avg_msec", NULL, T_U64, J(log_avg_msec), "0", 0, 0, NULL,
	  "average log entries over this many ms (0: one entry per I/O)" },
	{ "log_hist_msec", NULL, T_U64, J(log_hist_msec), "0", 0, 0, NULL,
	  "one histogram entry every this many ms (0: none)" },
	{ "log_offset", NULL, T_BOOL, J(log_offset), "0", 0, 0, NULL, "each log entry carries the I/O's offset" },
	{ "per_job_logs", NULL, T_BOOL, J(per_job_logs), "1", 0, 0, NULL,
	  "one log file per job clone (.N in the name); 0: one file for all" },
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

static int parse_enum(const struct enum_val *v, const char *s, int *out)
{
	for (; v->name; v++)
		if (!strcmp(v->name, s)) {
			*out = v->value;
			return 0;
		}
	return -1;
}

/* rw=MODE[:MODIFIER]: a size (signed) for sequential modes, a count for random ones */
static int parse_rw(const char *val, struct job_opts *jo)
{
	char mode[32];
	const char *colon = strchr(val, ':');
	uint64_t v = 0;
	int neg = 0;

	snprintf(mode, sizeof(mode), "%.*s", colon ? (int)(colon - val) : (int)strlen(val), val);
	if (parse_enum(rw_values, mode, &jo->rw))
		return -1;
	jo->rw_skip = 0;
	if (!colon)
		return 0;
	colon++;
	if (*colon == '-') {
		neg = 1;
		colon++;
	}
	if (parse_size_base(colon, jo->kb_base, &v) || v > (1ull << 40))
		return -1;
	jo->rw_skip = neg ? -(int64_t)v : (int64_t)v;
	return 0;
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
	case T_DIST: return "random, zipf:THETA (THETA > 0, not 1), pareto:H (0 < H < 1), normal:DEV% (0-100), "
			     "zoned:A/R:... or zoned_abs:A/SIZE:... (shares summing to 100)";
	case T_RATE: return "IOPS, or READ,WRITE";
	case T_FORMATS: return "normal, json or json+";
	case T_INT: return "a whole number";
	case T_RW: return "read, write, trim, randread, randwrite, randtrim, rw, randrw, with :SIZE or :N after";
	case T_BSRANGE: return "MIN-MAX (4k-64k), or R,W ranges";
	case T_SIZERANGE: return "a size, or MIN-MAX";
	case T_PATTERN: return "0xHEX, a decimal number or \"a string\", joined by |";
	case T_CPULIST: return "CPU numbers and ranges: 0-3,6";
	case T_CPUMASK: return "a mask above 0 (0x0f)";
	case T_BW: return "a bandwidth such as 10m (a second), or R,W";
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
		rc = parse_size_base(val, jo->kb_base, &u);
		if (!rc && d->max > d->min && (u < (uint64_t)d->min || u > (uint64_t)d->max))
			rc = -1;
		if (!rc)
			*(uint64_t *)field = u;
		break;
	case T_SIZEPCT:
		rc = parse_sizepct(val, jo->kb_base, field);
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
			for (const char *const *e = fio_only_engines; d->values == engine_values && *e; e++)
				if (!strcmp(*e, val))
					return set_err("ioengine=%s is fio's, not available in bootbench%s: use one of %s",
						       val, engine_why(val), list);
			return set_err("invalid value '%s' for option '%s': expected one of %s", val, d->name, list);
		}
		break;
	case T_PCT_INV:
		rc = parse_uint(val, 0, 100, &u);
		if (!rc)
			*(unsigned *)field = 100 - (unsigned)u;
		break;
	case T_BSSPLIT:
		rc = parse_bssplit(val, jo->kb_base, field);
		break;
	case T_PLIST:
		rc = parse_plist(val, field);
		break;
	case T_DIST:
		rc = parse_dist(val, jo->kb_base, field);
		break;
	case T_RATE:
		rc = parse_rate(val, jo->kb_base, 0, field);
		break;
	case T_FORMATS:
		rc = parse_formats(val, field);
		break;
	case T_INT:
		rc = parse_int(val, d->min, d->max, field);
		break;
	case T_PREFIX:
		*(char **)field = xstrdup(val);	/* empty: the job's name, when the job is complete */
		break;
	case T_RW:
		rc = parse_rw(val, jo);
		break;
	case T_BSRANGE:
		rc = parse_bsrange(val, jo->kb_base, field);
		break;
	case T_SIZERANGE:
		rc = parse_sizerange(val, jo->kb_base, &jo->filesize_min, &jo->filesize_max);
		break;
	case T_PATTERN:
		rc = parse_pattern(val, field);
		break;
	case T_CPULIST:
		rc = parse_cpulist(val, field);
		break;
	case T_CPUMASK:
		rc = parse_cpumask(val, field);
		break;
	case T_BW:
		rc = parse_rate(val, jo->kb_base, 1, field);
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
