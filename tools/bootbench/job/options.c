// SPDX-License-Identifier: MIT
/*
 * options.c - the option table, its value parsers, defaults and help text.
 * Longer than 500 lines on purpose: the table is one table (STYLE.md 3:
 * it drives parsing, --help, docs/run.md's list and options_documented.sh), and
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

/*
 * fio's other engines. Those the image's fio has and that stay on this
 * machine's disks and files run there (job/delegate.h: fio in the sandbox);
 * the rest are refused for good, with the reason.
 */
static const struct fio_engine {
	const char *name;
	const char *why;	/* NULL: the image's fio runs it; else why nothing does */
} fio_engines[] = {
	{ "vsync", NULL }, { "pvsync", NULL }, { "posixaio", NULL }, { "splice", NULL }, { "sg", NULL },
	{ "cpuio", NULL }, { "falloc", NULL }, { "e4defrag", NULL }, { "mtd", NULL }, { "ftruncate", NULL },
	{ "filecreate", NULL }, { "filestat", NULL }, { "filedelete", NULL },
	{ "exec", "it runs programs, and nothing bootbench starts may run another program" },
	{ "net", "a network engine: a benchmark of disks, in a sandbox without a network" },
	{ "netsplice", "a network engine: a benchmark of disks, in a sandbox without a network" },
	{ "rdma", "a network engine (RDMA): a benchmark of disks, in a sandbox without a network" },
	{ "http", "an object store over HTTP: not a local disk" },
	{ "nbd", "a network block device: not a local disk" },
	{ "libiscsi", "iSCSI over the network: not a local disk" },
	{ "nfs", "an NFS server: not a local disk" },
	{ "rbd", "a Ceph cluster: not a local disk" }, { "rados", "a Ceph cluster: not a local disk" },
	{ "gfapi", "a GlusterFS cluster: not a local disk" }, { "gfapi_async", "a GlusterFS cluster: not a local disk" },
	{ "libhdfs", "an HDFS cluster: not a local disk" }, { "dfs", "a DAOS cluster: not a local disk" },
	{ "ime_psync", "a DDN IME cluster: not a local disk" }, { "ime_psyncv", "a DDN IME cluster: not a local disk" },
	{ "ime_aio", "a DDN IME cluster: not a local disk" },
	{ "librpma_apm_client", "persistent memory over RDMA: not a local disk" },
	{ "librpma_apm_server", "persistent memory over RDMA: not a local disk" },
	{ "librpma_gpspm_client", "persistent memory over RDMA: not a local disk" },
	{ "librpma_gpspm_server", "persistent memory over RDMA: not a local disk" },
	{ "libcufile", "GPU storage (NVIDIA cuFile): no such library on the image" },
	{ "libpmem", "persistent memory (PMDK): no such library on the image" },
	{ "pmemblk", "persistent memory (PMDK): no such library on the image" },
	{ "dev-dax", "persistent memory (PMDK): no such library on the image" },
	{ "xnvme", "xNVMe: no such library on the image (io_uring_cmd reaches NVMe namespaces)" },
	{ "libblkio", "libblkio: no such library on the image" },
	{ "windowsaio", "Windows only" }, { "solarisaio", "Solaris only" }, { "guasi", "no longer in fio" },
	{ "cpp_null", "an example of an engine built apart from fio" },
	{ "external", "an engine built apart from fio: no program may be loaded" },
	{ NULL, NULL },
};

/*
 * fio 3.33's other built-in engines: left out of the table above, so
 * bootbench's own parse refuses them as unknown, yet named as fio's for
 * engine_known (libzbc: zoned disks through libzbc, which the image's fio
 * is built without; fio says so when it gets such a job).
 */
static const char *const fio_engines_unlisted[] = { "libzbc", NULL };

int opt_fio_may_have;

/* One of fio's engines bootbench does not have */
static int fio_engine(const char *name)
{
	for (const struct fio_engine *e = fio_engines; e->name; e++)
		if (!strcmp(e->name, name) || (!strcmp(e->name, "external") && !strncmp(name, "external:", 9)))
			return 1;
	return 0;
}

const char *engine_refusal(const char *name)
{
	for (const struct fio_engine *e = fio_engines; e->name; e++)
		if (!strcmp(e->name, name) || (!strcmp(e->name, "external") && !strncmp(name, "external:", 9)))
			return e->why;
	return NULL;
}

static const struct enum_val submit_values[] = {
	{ "inline", SUBMIT_INLINE }, { "offload", SUBMIT_OFFLOAD }, { NULL, 0 },
};

static const struct enum_val rate_process_values[] = {
	{ "linear", RATE_LINEAR }, { "poisson", RATE_POISSON }, { NULL, 0 },
};

static const struct enum_val exit_what_values[] = {
	{ "group", EXIT_WHAT_GROUP }, { "stonewall", EXIT_WHAT_STONEWALL }, { "all", EXIT_WHAT_ALL }, { NULL, 0 },
};

static const struct enum_val eor_values[] = { { "bootbench", EOR_BOOTBENCH }, { "fio", EOR_FIO }, { NULL, 0 } };

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

/* where a row's value goes: a job's options, or the run's */
#define J(field) .scope = SCOPE_JOB, .off = offsetof(struct job_opts, field)
#define R(field) .scope = SCOPE_RUN, .off = offsetof(struct run_opts, field)

const struct option_def option_table[] = {
	{ .name = "name", .type = T_STR, J(name),
	  .help = "job name; on the command line each --name starts a new job" },
	{ .name = "description", .type = T_STR, J(description),
	  .help = "free text describing the job" },
	{ .name = "filename", .type = T_STR, J(filename),
	  .help = "file or block device to test; several separated by ':'" },
	{ .name = "directory", .type = T_STR, J(directory),
	  .help = "directory for job files named NAME.JOB.FILE when filename is not given" },
	{ .name = "size", .type = T_SIZEPCT, J(size),
	  .help = "bytes of I/O per loop (k/m/g/t suffixes, or N% of the target); split between files" },
	{ .name = "offset", .type = T_SIZEPCT, J(offset), .def = "0",
	  .help = "start of the I/O range in each file (size or %)" },
	{ .name = "io_size", .alias = "io_limit", .type = T_SIZE, J(io_size), .def = "0", .max = 1ll << 60,
	  .help = "bytes of I/O to do, within the range size sets (fewer, or more: over it again) [size]" },
	{ .name = "offset_increment", .type = T_SIZEPCT, J(offset_increment), .def = "0",
	  .help = "each clone (numjobs) starts this much further on than the one before: a size, or N% of the target" },
	{ .name = "rw", .alias = "readwrite", .type = T_RW, J(rw), .def = "read", .values = rw_values,
	  .help = "read, write, trim, randread, randwrite, randtrim, rw (readwrite), randrw; with :SIZE a "
		  "sequential job skips SIZE after each I/O (back with -SIZE), with :N a random one takes a new "
		  "offset every N I/Os" },
	{ .name = "rwmixread", .type = T_UINT, J(rwmixread), .def = "50", .max = 100,
	  .help = "percentage of mixed I/O that reads" },
	{ .name = "rwmixwrite", .type = T_PCT_INV, J(rwmixread), .max = 100,
	  .help = "percentage of mixed I/O that writes" },
	{ .name = "bs", .alias = "blocksize", .type = T_SIZE, J(bs), .def = "4k", .min = 1, .max = 1ll << 30,
	  .help = "block size of each I/O" },
	{ .name = "bssplit", .type = T_BSSPLIT, J(bssplit),
	  .help = "mix of block sizes, e.g. 4k/50:64k/50 (an empty share takes the rest)" },
	{ .name = "bsrange", .alias = "blocksize_range", .type = T_BSRANGE, J(bsrange),
	  .help = "block sizes MIN-MAX, each I/O a random multiple of MIN in that range (R,W per direction)" },
	{ .name = "nrfiles", .type = T_UINT, J(nrfiles), .def = "1", .min = 1, .max = 65536,
	  .help = "files per job clone in directory (named by filename_format), size split between them" },
	{ .name = "filesize", .type = T_SIZERANGE, J(filesize_min),
	  .help = "size of each of the nrfiles files, or MIN-MAX for random sizes in that range [size/nrfiles]" },
	{ .name = "filename_format", .type = T_STR, J(filename_format),
	  .help = "names of job files in directory: $jobname, $jobnum, $filenum, $clientuid [$jobname.$jobnum.$filenum]" },
	/* io_uring's ring holds at most 32768 entries (IORING_MAX_ENTRIES) */
	{ .name = "iodepth", .type = T_UINT, J(iodepth), .def = "1", .min = 1, .max = 32768,
	  .help = "I/Os kept in flight" },
	{ .name = "iodepth_batch", .alias = "iodepth_batch_submit", .type = T_UINT, J(iodepth_batch_submit), .max = 65536,
	  .help = "submit every N prepared I/Os; 0: fill the queue, then submit and wait in one call "
		  "[unset: 16 if iodepth > 16, else 0]" },
	{ .name = "iodepth_batch_complete_min", .alias = "iodepth_batch_complete", .type = T_UINT, J(iodepth_batch_complete_min), .def = "1", .max = 65536,
	  .help = "completions to wait for when the queue is full" },
	{ .name = "numjobs", .type = T_UINT, J(numjobs), .def = "1", .min = 1, .max = 4096,
	  .help = "clones of this job, run in parallel" },
	{ .name = "thread", .type = T_BOOL, J(thread), .def = "0",
	  .help = "accepted for fio's job files: bootbench's clones are always threads" },
	{ .name = "ioengine", .type = T_ENUM, J(ioengine), .values = engine_values,
	  .help = "io_uring (default; psync if io_uring is unavailable), libaio (Linux native AIO), psync, sync, "
		  "pvsync2 (preadv2/pwritev2; hipri polls), mmap, io_uring_cmd (NVMe passthrough on /dev/ngXnY), null" },
	{ .name = "cmd_type", .type = T_ENUM, J(cmd_type), .def = "nvme", .values = cmd_type_values,
	  .help = "io_uring_cmd: the passthrough command set (nvme)" },
	{ .name = "direct", .type = T_BOOL, J(direct), .def = "0",
	  .help = "O_DIRECT: bypass the page cache" },
	{ .name = "buffered", .type = T_BOOL_INV, J(direct),
	  .help = "use the page cache (buffered=0 is direct=1)" },
	{ .name = "fsync", .type = T_UINT, J(fsync_every), .def = "0", .max = UINT32_MAX,
	  .help = "fsync after every N writes" },
	{ .name = "fdatasync", .type = T_UINT, J(fdatasync_every), .def = "0", .max = UINT32_MAX,
	  .help = "fdatasync after every N writes" },
	{ .name = "sync", .type = T_ENUM, J(sync_mode), .def = "none", .values = sync_values,
	  .help = "open with O_SYNC (1, sync) or O_DSYNC (dsync); 0 or none: neither" },
	{ .name = "end_fsync", .type = T_BOOL, J(end_fsync), .def = "0",
	  .help = "fsync each file when the job ends" },
	{ .name = "runtime", .alias = "timeout", .type = T_TIME_S, J(runtime_us), .def = "0",
	  .help = "stop after this long (seconds; us/ms/s/m/h suffixes)" },
	{ .name = "time_based", .type = T_BOOL, J(time_based), .def = "0",
	  .help = "run for runtime, looping over the range" },
	{ .name = "ramp_time", .type = T_TIME_S, J(ramp_us), .def = "0",
	  .help = "warm-up excluded from every figure" },
	{ .name = "startdelay", .type = T_TIME_S, J(startdelay_us), .def = "0",
	  .help = "wait this long before starting" },
	{ .name = "loops", .type = T_UINT, J(loops), .def = "1", .min = 1, .max = UINT32_MAX,
	  .help = "passes over the range" },
	{ .name = "randrepeat", .type = T_BOOL, J(randrepeat), .def = "1",
	  .help = "same random sequence on every run" },
	{ .name = "randseed", .type = T_U64, J(randseed), .def = "0",
	  .help = "seed of the random sequence" },
	{ .name = "norandommap", .type = T_BOOL, J(norandommap), .def = "0",
	  .help = "random offsets may repeat (default: each block once per loop)" },
	{ .name = "random_distribution", .type = T_DIST, J(dist), .def = "random",
	  .help = "random, zipf:THETA or pareto:H (these two allow repeats)" },
	{ .name = "verify", .type = T_ENUM, J(verify), .def = "none", .values = verify_values,
	  .help = "crc32c: each written block carries a header (offset, pass, seed, CRC-32C), read back after" },
	{ .name = "do_verify", .type = T_BOOL, J(do_verify), .def = "1",
	  .help = "run the read-back of verify= after writing" },
	{ .name = "verify_only", .type = T_BOOL, J(verify_only), .def = "0",
	  .help = "write nothing: read back and check what the same job wrote before" },
	{ .name = "verify_backlog", .type = T_U64, J(verify_backlog), .def = "0", .max = 1 << 22,
	  .help = "verify=: after every N blocks written, read those N back and check them while the job writes "
		  "(the read-back at the end still checks every block)" },
	{ .name = "verify_backlog_batch", .type = T_U64, J(verify_backlog_batch), .def = "0", .max = 1 << 22,
	  .help = "verify_backlog: check this many of the N (fewer: the rest are not checked then) [N]" },
	{ .name = "verify_dump", .type = T_BOOL, J(verify_dump), .def = "0",
	  .help = "each bad block as read back into FILE.OFFSET.received in the working folder (fio's .expected has "
		  "no counterpart: the block's header says what it should be)" },
	{ .name = "verify_interval", .type = T_SIZE, J(verify_interval), .def = "0", .max = 1ll << 30,
	  .help = "a verify header (and CRC) every this many bytes of a block, so a bad sector is named "
		  "exactly; a multiple of 512 that divides bs [0: bs]" },
	{ .name = "continue_on_error", .type = T_ENUM, J(continue_on_error), .def = "none", .values = continue_values,
	  .help = "count medium errors (EIO, EILSEQ, ENODATA) and go on: none, read, write, io, verify, all; "
		  "each bad LBA is named, the job still fails at its end" },
	{ .name = "refill_buffers", .type = T_BOOL, J(refill_buffers), .def = "0",
	  .help = "new random data in every write (default: random data, made unique per 512 bytes)" },
	{ .name = "buffer_compress_percentage", .type = T_UINT, J(compress_pct), .def = "0", .max = 100,
	  .help = "make write data this compressible (zeros in that share of each 4 KiB)" },
	{ .name = "zero_buffers", .type = T_BOOL, J(zero_buffers), .def = "0",
	  .help = "write zeros" },
	{ .name = "create_serialize", .type = T_BOOL, J(create_serialize), .def = "1",
	  .help = "accepted for fio's job files: bootbench lays its files out one at a time, before the jobs" },
	{ .name = "create_on_open", .type = T_BOOL, J(create_on_open), .def = "0",
	  .help = "create job files when the job starts, not before all jobs" },
	{ .name = "fallocate", .type = T_ENUM, J(fallocate), .def = "native", .values = falloc_values,
	  .help = "allocate new files: none, native, posix, keep, truncate" },
	{ .name = "unlink", .type = T_BOOL, J(unlink), .def = "0",
	  .help = "remove the files this job created when it ends" },
	{ .name = "rate_iops", .type = T_RATE, J(rate), .def = "0",
	  .help = "cap IOPS; R or R,W (per direction, as fio)" },
	{ .name = "rate", .type = T_BW, J(rate_bw),
	  .help = "cap bandwidth in bytes a second (10m); R or R,W, ',W' writes only" },
	{ .name = "rate_process", .type = T_ENUM, J(rate_process), .def = "linear", .values = rate_process_values,
	  .help = "linear: a capped job's I/Os at even gaps; poisson: at a Poisson process's (exponential gaps of "
		  "the same mean), as real requests arrive" },
	{ .name = "rate_min", .alias = "ratemin", .type = T_BW, J(rate_min),
	  .help = "fail the job when its bandwidth falls below this, per second (R or R,W)" },
	{ .name = "buffer_pattern", .type = T_PATTERN, J(buffer_pattern),
	  .help = "fill write buffers with this: 0xHEX, a decimal number or \"a string\", joined by |" },
	{ .name = "thinktime", .type = T_TIME_US, J(thinktime_us), .def = "0",
	  .help = "pause after each I/O, in flight drained (microseconds)" },
	{ .name = "group_reporting", .type = T_BOOL, J(group_reporting), .def = "0",
	  .help = "report the clones of a job as one" },
	{ .name = "stonewall", .alias = "wait_for_previous", .type = T_BOOL, J(stonewall), .def = "0",
	  .help = "wait for earlier jobs to finish; starts a new group" },
	{ .name = "new_group", .type = T_BOOL, J(new_group), .def = "0",
	  .help = "start a new reporting group" },
	{ .name = "lat_percentiles", .type = T_BOOL, J(lat_percentiles), .def = "0",
	  .help = "report percentiles of the total latency (lat) too" },
	{ .name = "clat_percentiles", .type = T_BOOL, J(clat_percentiles), .def = "1",
	  .help = "report percentiles of the completion latency (clat)" },
	{ .name = "significant_figures", .type = T_UINT, J(significant_figures), .def = "4", .min = 1, .max = 10,
	  .help = "significant figures of the latency percentiles in the normal output" },
	{ .name = "kb_base", .type = T_UINT, J(kb_base), .def = "1024", .min = 1000, .max = 1024,
	  .help = "1024: k, kB are 1024 and KiB 1000 (fio's default); 1000: k, kB are 1000 and KiB 1024; "
		  "it applies to the sizes after it" },
	{ .name = "unit_base", .type = T_UINT, J(unit_base), .def = "0", .max = 8,
	  .help = "bandwidth in the normal output: 0 or 8 bytes, 1 bits" },
	{ .name = "gtod_reduce", .type = T_BOOL, J(gtod_reduce), .def = "0",
	  .help = "no latency measured (disable_lat, disable_clat, disable_slat): bandwidth and IOPS only" },
	{ .name = "disable_lat", .type = T_BOOL, J(disable_lat), .def = "0",
	  .help = "do not measure the total latency" },
	{ .name = "disable_clat", .type = T_BOOL, J(disable_clat), .def = "0",
	  .help = "do not measure the completion latency" },
	{ .name = "disable_slat", .type = T_BOOL, J(disable_slat), .def = "0",
	  .help = "do not measure the submission latency" },
	{ .name = "exitall", .type = T_BOOL, J(exitall), .def = "0",
	  .help = "when this job ends, stop the others (exit_what says which)" },
	{ .name = "exit_what", .type = T_ENUM, J(exit_what), .def = "group", .values = exit_what_values,
	  .help = "which jobs exitall stops: group (those started with it), stonewall (the same: groups run one "
		  "after another), all (those and every later group)" },
	{ .name = "wait_for", .type = T_STR, J(wait_for),
	  .help = "start when every clone of this job, defined before, has ended" },
	{ .name = "invalidate", .type = T_BOOL, J(invalidate), .def = "1",
	  .help = "drop the target's cached pages before the job (buffered I/O starts cold)" },
	{ .name = "allow_mounted_write", .type = T_BOOL, J(allow_mounted_write), .def = "0",
	  .help = "accepted for fio's job files; the consent gate still refuses a mounted device" },
	{ .name = "nice", .type = T_INT, J(nice), .def = "0", .min = -20, .max = 19,
	  .help = "the job threads' nice value" },
	{ .name = "prio", .type = T_UINT, J(prio), .def = "4", .max = 7,
	  .help = "I/O priority level within its class (0 highest)" },
	{ .name = "prioclass", .type = T_UINT, J(prioclass), .def = "0", .max = 3,
	  .help = "I/O priority class: 1 realtime, 2 best effort, 3 idle; 0 leaves it (unless prio is given: 2)" },
	{ .name = "cpus_allowed", .type = T_CPULIST, J(cpus_allowed),
	  .help = "CPUs the job may run on: 0-3,6" },
	{ .name = "cpumask", .type = T_CPUMASK, J(cpus_allowed),
	  .help = "CPUs as a mask: bit N is CPU N (0x0f)" },
	{ .name = "cpus_allowed_policy", .type = T_ENUM, J(cpus_allowed_policy), .def = "shared", .values = cpus_policy_values,
	  .help = "shared: each clone may use all of cpus_allowed; split: each its own CPU of them" },
	{ .name = "random_generator", .type = T_ENUM, J(random_generator), .def = "tausworthe", .values = generator_values,
	  .help = "fio's names are taken; bootbench has one generator (xoshiro256**) and keeps a random map "
		  "for each-block-once (lfsr's property)" },
	{ .name = "zonemode", .type = T_ENUM, J(zonemode), .def = "none", .values = zonemode_values,
	  .help = "none; strided: zonesize bytes in each zone of zonerange, then zoneskip on; zbd (zoned block "
		  "devices): the image's fio runs it" },
	{ .name = "zonesize", .type = T_SIZE, J(zonesize), .def = "0", .max = 1ll << 50,
	  .help = "zonemode=strided: bytes moved in a zone before the next" },
	{ .name = "zonerange", .type = T_SIZE, J(zonerange), .def = "0", .max = 1ll << 50,
	  .help = "zonemode=strided: a zone's length [zonesize]" },
	{ .name = "zoneskip", .type = T_SIZE, J(zoneskip), .def = "0", .max = 1ll << 50,
	  .help = "zonemode=strided: bytes skipped after a zone (size counts the bytes moved, as fio's)" },
	{ .name = "threads", .type = T_UINT, J(tiobench_threads), .def = "0", .max = 65536,
	  .help = "fio's tiobench profile's thread count: fio ignores it without profile=tiobench, and so does bootbench" },
	{ .name = "number_ios", .type = T_U64, J(number_ios), .def = "0",
	  .help = "stop after this many I/Os, if the size or runtime has not ended the job first" },
	{ .name = "ba", .alias = "blockalign", .type = T_SIZE, J(blockalign), .def = "0", .max = 1ll << 30,
	  .help = "random offsets are multiples of this [the smallest block size]" },
	{ .name = "allow_file_create", .type = T_BOOL, J(allow_file_create), .def = "1",
	  .help = "0: a file that is not there is an error, not created" },
	{ .name = "io_submit_mode", .type = T_ENUM, J(io_submit_mode), .def = "inline", .values = submit_values,
	  .help = "inline; offload (fio hands submissions to a thread pool) is taken as inline: the same I/O, "
		  "submitted by the job's own thread" },
	{ .name = "log_prio", .type = T_BOOL, J(log_prio), .def = "0",
	  .help = "the logs' last column is the I/O priority (0xCCLL) rather than 1 for the realtime class" },
	{ .name = "numa_cpu_nodes", .type = T_STR, J(numa_cpu_nodes),
	  .help = "run on the CPUs of these NUMA nodes: 0-1,3 or all" },
	{ .name = "numa_mem_policy", .type = T_STR, J(numa_mem_policy),
	  .help = "memory from: default, local, prefer:NODE, bind:NODES or interleave:NODES" },
	{ .name = "ioscheduler", .type = T_STR, J(ioscheduler),
	  .help = "switch the target disk's I/O scheduler for the job, put back after (a disk in --destroy only)" },
	{ .name = "write_lat_log", .type = T_PREFIX, J(lat_log),
	  .help = "fio's latency logs PREFIX_lat.N.log, _clat, _slat (empty: the job's name)" },
	{ .name = "write_bw_log", .type = T_PREFIX, J(bw_log),
	  .help = "fio's bandwidth log PREFIX_bw.N.log (KiB/s)" },
	{ .name = "write_iops_log", .type = T_PREFIX, J(iops_log),
	  .help = "fio's IOPS log PREFIX_iops.N.log" },
	{ .name = "write_hist_log", .type = T_PREFIX, J(hist_log),
	  .help = "fio's completion latency histogram log PREFIX_clat_hist.N.log (every log_hist_msec)" },
	{ .name = "log_avg_msec", .type = T_U64, J(log_avg_msec), .def = "0",
	  .help = "average log entries over this many ms (0: one entry per I/O)" },
	{ .name = "log_hist_msec", .type = T_U64, J(log_hist_msec), .def = "0",
	  .help = "one histogram entry every this many ms (0: none)" },
	{ .name = "bwavgtime", .type = T_U64, J(bwavgtime), .def = "500", .min = 1, .max = 3600000,
	  .help = "bandwidth figures (bw_min, bw_max, bw_mean, bw_dev) from windows of this many ms" },
	{ .name = "iopsavgtime", .type = T_U64, J(iopsavgtime), .def = "500", .min = 1, .max = 3600000,
	  .help = "IOPS figures (iops_min, iops_max, iops_mean, iops_stddev) from windows of this many ms" },
	{ .name = "log_offset", .type = T_BOOL, J(log_offset), .def = "0",
	  .help = "each log entry carries the I/O's offset" },
	{ .name = "per_job_logs", .type = T_BOOL, J(per_job_logs), .def = "1",
	  .help = "one log file per job clone (.N in the name); 0: one file for all" },
	{ .name = "percentile_list", .type = T_PLIST, J(percentiles), .def = "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99",
	  .help = "latency percentiles to report, ':' separated" },
	{ .name = "fixedbufs", .type = T_BOOL, J(fixedbufs), .def = "1",
	  .help = "io_uring: register buffers when the kernel allows (default on)" },
	{ .name = "registerfiles", .type = T_BOOL, J(registerfiles), .def = "1",
	  .help = "io_uring: register files when the kernel allows (default on)" },
	{ .name = "sqthread_poll", .type = T_BOOL, J(sqthread_poll), .def = "0",
	  .help = "io_uring: kernel thread polls submissions" },
	{ .name = "sqthread_poll_cpu", .type = T_UINT, J(sqthread_poll_cpu), .def = "0", .max = CPUS_MAX - 1,
	  .help = "io_uring: the polling kernel thread of sqthread_poll on this CPU" },
	{ .name = "nonvectored", .type = T_INT, J(nonvectored), .def = "-1", .min = -1, .max = 1,
	  .help = "io_uring: fio's choice of plain or vectored reads and writes; bootbench's are always plain "
		  "(IORING_OP_READ, IORING_OP_WRITE), which every kernel it runs on has" },
	{ .name = "hipri", .type = T_BOOL, J(hipri), .def = "0",
	  .help = "io_uring: polled completions (needs direct=1 and poll queues)" },
	{ .name = "output-format", .type = T_FORMATS, R(formats), .def = "normal",
	  .help = "normal, json or json+ (comma-separated for several)" },
	{ .name = "output", .type = T_STR, R(output),
	  .help = "write the report to this file (atomically)" },
	{ .name = "summary", .type = T_STR, R(summary),
	  .help = "also write the human summary to this file (atomically)" },
	{ .name = "destroy", .type = T_STR, R(destroy),
	  .help = "consent to write block devices: /dev/X[,/dev/Y]" },
	{ .name = "write", .type = T_STR, R(write_fs),
	  .help = "let jobs write files on the filesystems of these mounted devices: /dev/sdb1[,...] "
		  "(docs/run.md: what a job may write)" },
	{ .name = "workdir", .type = T_STR, R(workdir),
	  .help = "work in this folder: the jobs' relative file names are in it, and jobs may write files "
		  "there [the current folder, unless it is /, a system folder or on the boot or results medium]" },
	{ .name = "progress-fd", .type = T_UINT, R(progress_fd), .def = "0", .max = 1024,
	  .help = "write a progress line each second to this file descriptor (for the menu's gauge)" },
	{ .name = "metrics", .type = T_STR, R(metrics),
	  .help = "push live figures to this Prometheus Pushgateway (http://host:port) every 5 s and at the end; "
		  "BOOTBENCH_METRICS sets it too" },
	{ .name = "parse-only", .type = T_BOOL, R(parse_only), .def = "0",
	  .help = "check job files and options; do no I/O" },
	{ .name = "engine-of-record", .type = T_ENUM, R(engine_of_record), .def = "bootbench", .values = eor_values,
	  .help = "who runs a job both can: bootbench, or the image's fio in the sandbox; a job only fio "
		  "can run goes to fio either way, unless bootbench is named here" },
	{ .name = "help", .type = T_BOOL, R(help), .def = "0",
	  .help = "print this list" },
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
	case T_RATE: return "IOPS, or READ,WRITE[,TRIM]";
	case T_FORMATS: return "normal, json or json+";
	case T_INT: return "a whole number";
	case T_RW: return "read, write, trim, randread, randwrite, randtrim, rw, randrw, with :SIZE or :N after";
	case T_BSRANGE: return "MIN-MAX (4k-64k), or R,W ranges";
	case T_SIZERANGE: return "a size, or MIN-MAX";
	case T_PATTERN: return "0xHEX, a decimal number or \"a string\", joined by |";
	case T_CPULIST: return "CPU numbers and ranges: 0-3,6";
	case T_CPUMASK: return "a mask above 0 (0x0f)";
	case T_BW: return "a bandwidth such as 10m (a second), or R,W[,T]";
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

/* By its exact name: one of bootbench's engines, or one of fio's built-in ones (external: aside) */
int engine_known(const char *name)
{
	int id;

	if (!parse_enum(engine_values, name, &id))
		return 1;
	for (const struct fio_engine *e = fio_engines; e->name; e++)
		if (!strcmp(e->name, name))
			return 1;
	for (const char *const *u = fio_engines_unlisted; *u; u++)
		if (!strcmp(*u, name))
			return 1;
	return 0;
}

void engine_list(char *buf, size_t len)
{
	enum_list(engine_values, buf, len);
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
			if (d->values == engine_values && engine_refusal(val))
				return set_err("ioengine=%s: %s", val, engine_refusal(val));
			if (d->values == engine_values && fio_engine(val)) {
				opt_fio_may_have = 1;
				return set_err("ioengine=%s is fio's, not in bootbench's engine (%s)", val, list);
			}
			/* a choice of fio's bootbench lacks (verify=md5), or a typo: fio's choices are as strict */
			if (d->scope == SCOPE_JOB && d->values != engine_values)
				opt_fio_may_have = 1;
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
		/* fio's split per direction (READ,WRITE): a form bootbench lacks */
		if (rc && strchr(val, ','))
			opt_fio_may_have = 1;
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
