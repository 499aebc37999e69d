/* SPDX-License-Identifier: MIT */
/*
 * options.h - every option `bootbench run` takes, declared once in a table
 * (options.c) that drives parsing of the command line and job files, the
 * `run --help` text, docs/run.md's option list and the test that keeps them equal.
 * Names, values and units are fio's, so a fio job file runs unchanged.
 */
#ifndef BB_OPTIONS_H
#define BB_OPTIONS_H

#include <stdint.h>
#include <stdio.h>

#include "stats/stats.h"

enum verify_kind { VERIFY_NONE, VERIFY_CRC32C };
/* continue_on_error=: bit 1 << ddir for I/O errors, CONTINUE_VERIFY for the read-back */
enum continue_on { CONTINUE_NONE = 0, CONTINUE_READ = 1, CONTINUE_WRITE = 2, CONTINUE_IO = 3,
		   CONTINUE_VERIFY = 8, CONTINUE_ALL = 11 };

enum rw_mode { RW_READ, RW_WRITE, RW_TRIM, RW_RANDREAD, RW_RANDWRITE, RW_RANDTRIM, RW_RW, RW_RANDRW };
enum engine_id {
	ENGINE_DEFAULT = -1, ENGINE_IO_URING, ENGINE_LIBAIO, ENGINE_PSYNC, ENGINE_SYNC, ENGINE_PVSYNC2, ENGINE_MMAP,
	ENGINE_IO_URING_CMD, ENGINE_NULL,
};
enum sync_mode { SYNC_NONE, SYNC_SYNC, SYNC_DSYNC };
enum falloc_mode { FALLOC_NONE, FALLOC_NATIVE, FALLOC_POSIX, FALLOC_KEEP, FALLOC_TRUNCATE };

enum output_format {
	FMT_NORMAL = 1 << 0,
	FMT_JSON = 1 << 1,
	FMT_JSONPLUS = 1 << 2,
};

#define BSSPLIT_MAX 16
#define PLIST_MAX 32
#define OPT_MAX 160
#define PATTERN_MAX 512
#define CPUS_MAX 1024
#define DIST_ZONES_MAX 16

/* A size, or a percentage of the target's size when pct > 0. */
struct sizepct {
	uint64_t bytes;
	double pct;
};

struct bssplit {
	unsigned n;
	uint64_t bs[BSSPLIT_MAX];
	unsigned pct[BSSPLIT_MAX];
};

struct plist {
	unsigned n;
	double p[PLIST_MAX];
};

struct dist_zone {
	double access_pct;	/* share of the I/O */
	double range_pct;	/* zoned: share of the range */
	uint64_t bytes;		/* zoned_abs: its size */
};

struct dist_spec {
	int kind;		/* enum dist_kind */
	double param;
	unsigned nzones;
	struct dist_zone zones[DIST_ZONES_MAX];
};

/* bsrange: per direction */
struct bsrange {
	uint64_t min[DDIR_NR], max[DDIR_NR];
};

struct pattern {
	unsigned len;
	unsigned char bytes[PATTERN_MAX];
};

struct cpus {
	int set;
	uint64_t bits[CPUS_MAX / 64];
};

/* per direction: IOPS (rate_iops) or bytes a second (rate, rate_min) */
struct rate {
	uint64_t iops[DDIR_NR];
};

enum cpus_policy { CPUS_SHARED, CPUS_SPLIT };
enum zonemode { ZONEMODE_NONE, ZONEMODE_STRIDED, ZONEMODE_ZBD };
enum submit_mode { SUBMIT_INLINE, SUBMIT_OFFLOAD };
enum rate_process { RATE_LINEAR, RATE_POISSON };
enum exit_what { EXIT_WHAT_GROUP, EXIT_WHAT_STONEWALL, EXIT_WHAT_ALL };

struct job_opts {
	char *name, *description, *filename, *directory;
	struct sizepct size, offset;
	struct sizepct offset_increment;	/* each clone's offset further on by this */
	uint64_t io_size;			/* bytes of I/O, apart from the range's size (0: size) */
	int rw;
	int64_t rw_skip;		/* rw=write:112k (bytes), or randread:8 (I/Os per random offset) */
	unsigned rwmixread;
	uint64_t bs;
	struct bssplit bssplit;
	struct bsrange bsrange;
	unsigned nrfiles;
	uint64_t filesize_min, filesize_max;
	char *filename_format;
	unsigned iodepth, iodepth_batch_submit, iodepth_batch_complete_min, numjobs;
	int ioengine;
	int direct;
	unsigned fsync_every, fdatasync_every;
	int sync_mode, end_fsync;
	uint64_t runtime_us, ramp_us, startdelay_us, thinktime_us;
	int time_based;
	unsigned loops;
	int randrepeat;
	uint64_t randseed;
	int norandommap;
	struct dist_spec dist;
	int refill_buffers, zero_buffers;
	int verify, do_verify;		/* enum verify_kind; read back after writing */
	int verify_only;		/* only read back what an earlier run wrote */
	uint64_t verify_interval;	/* bytes each verify header covers (0: bs) */
	uint64_t verify_backlog;	/* read back every this many blocks written, while writing (0: at the end) */
	uint64_t verify_backlog_batch;	/* ... this many of them (0: all) */
	int verify_dump;		/* a bad block, as read, into FILE.OFFSET.received */
	int continue_on_error;		/* enum continue_on: which errors a job counts and goes on */
	unsigned compress_pct;
	int create_on_open, fallocate, unlink;
	int create_serialize;		/* fio's choice; bootbench's files are laid out one at a time anyway */
	struct rate rate;		/* rate_iops */
	struct rate rate_bw, rate_min;	/* rate, rate_min: bytes a second */
	struct pattern buffer_pattern;
	int group_reporting, stonewall, new_group;
	struct plist percentiles;
	int lat_percentiles, clat_percentiles;
	unsigned significant_figures, kb_base, unit_base;
	int gtod_reduce, disable_lat, disable_clat, disable_slat;
	int thread, exitall, invalidate, allow_mounted_write;
	int nice, prio, prioclass;
	struct cpus cpus_allowed;
	int cpus_allowed_policy;
	int random_generator, zonemode;
	uint64_t zonesize, zonerange, zoneskip;	/* zonemode=strided: bytes a zone, its length, the gap after */
	char *ioscheduler;
	char *lat_log, *bw_log, *iops_log, *hist_log;	/* file name prefixes; "" is the job's name */
	uint64_t log_avg_msec, log_hist_msec;
	uint64_t bwavgtime, iopsavgtime;	/* ms: fio's bandwidth and IOPS sample windows */
	int log_offset, per_job_logs;
	int fixedbufs, registerfiles, sqthread_poll, hipri;
	unsigned sqthread_poll_cpu;	/* io_uring's polling thread on this CPU, when given */
	int nonvectored;		/* fio's io_uring choice; bootbench's reads and writes are plain */
	uint64_t number_ios;		/* stop after this many I/Os (0: no limit) */
	uint64_t blockalign;		/* random offsets a multiple of this (0: the smallest block size) */
	int allow_file_create, io_submit_mode, log_prio;
	int rate_process;		/* enum rate_process: fixed gaps, or a Poisson process's */
	int exit_what;			/* enum exit_what: which jobs exitall stops */
	char *wait_for;			/* start when every clone of this (earlier) job has ended */
	unsigned tiobench_threads;	/* threads=: an option of fio's tiobench profile, ignored without it */
	char *numa_cpu_nodes, *numa_mem_policy;
	int cmd_type;			/* io_uring_cmd: nvme */
	unsigned char given[OPT_MAX];	/* which options were set, not defaulted */
};

/* Options that belong to the whole run, given on the command line only. */
struct run_opts {
	unsigned formats;
	char *output;
	char *summary;
	char *destroy;
	char *write_fs;		/* --write: filesystems' devices jobs may write files on */
	char *workdir;		/* --workdir: the folder jobs may write files in */
	unsigned progress_fd;
	char *metrics;		/* a Pushgateway's URL (or BOOTBENCH_METRICS) */
	const char *profile;	/* set by `profile`: the label of the pushed figures */
	int parse_only;
	int engine_of_record;	/* enum engine_of_record: who runs a job both can */
	int help;
};

enum engine_of_record { EOR_BOOTBENCH, EOR_FIO };

enum opt_scope { SCOPE_JOB, SCOPE_RUN };

struct option_def {
	const char *name, *alias;
	int type;
	int scope;
	size_t off;
	const char *def;
	int64_t min, max;
	const void *values;	/* enum value table for enum types */
	const char *help;
};

extern const struct option_def option_table[];
extern const unsigned option_count;

int opt_find(const char *name);
/*
 * Set when what the parser refused may be fio's and missing from
 * bootbench: an option it does not know, one of fio's engines, a choice
 * it lacks (verify=md5, zonemode=zbd). The image's fio is asked then
 * (job/delegate.h); a refusal without it (a bad size, an engine that
 * needs a network) stands.
 */
extern int opt_fio_may_have;
/* Why nothing on this image runs fio's engine NAME (it needs a network, a cluster...); NULL: something does. */
const char *engine_refusal(const char *name);
/*
 * Whether NAME is an engine bootbench or fio has built in, by its exact
 * name (job/refusals.h: fio would load any other name as a library).
 */
int engine_known(const char *name);
/* bootbench's engines, for a message: "io_uring, libaio, ..." */
void engine_list(char *buf, size_t len);
/*
 * The next name of a filename= list, split as fio splits it (options.c
 * get_next_str): at each ':' but one written "\:", which is a ':' in the
 * name (its '\' taken out); empty names skipped. *CURSOR walks a copy
 * the caller owns and that this changes; NULL at the end.
 */
char *filename_next(char **cursor);
/* Sets one option; on a bad value returns -1 with bb_err naming the option. */
int opt_apply(struct job_opts *jo, struct run_opts *ro, int idx, const char *val);
void opts_defaults(struct job_opts *jo, struct run_opts *ro);
void opts_help(FILE *f);
const char *rw_name(int rw);
const char *engine_name(int id);

#include "job/values.h"

#endif
