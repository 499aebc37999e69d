/* SPDX-License-Identifier: MIT */
/*
 * options.h - every option `bootbench run` takes, declared once in a table
 * (options.c) that drives parsing of the command line and job files, the
 * `run --help` text, README's option list and the test that keeps them equal.
 * Names, values and units are fio's, so a fio job file runs unchanged.
 */
#ifndef BB_OPTIONS_H
#define BB_OPTIONS_H

#include <stdint.h>
#include <stdio.h>

enum ddir { DDIR_READ, DDIR_WRITE, DDIR_TRIM, DDIR_NR };
enum verify_kind { VERIFY_NONE, VERIFY_CRC32C };

enum rw_mode { RW_READ, RW_WRITE, RW_TRIM, RW_RANDREAD, RW_RANDWRITE, RW_RANDTRIM, RW_RW, RW_RANDRW };
enum engine_id { ENGINE_DEFAULT = -1, ENGINE_IO_URING, ENGINE_PSYNC, ENGINE_SYNC, ENGINE_NULL };
enum sync_mode { SYNC_NONE, SYNC_SYNC, SYNC_DSYNC };
enum falloc_mode { FALLOC_NONE, FALLOC_NATIVE, FALLOC_POSIX, FALLOC_KEEP, FALLOC_TRUNCATE };

enum output_format {
	FMT_NORMAL = 1 << 0,
	FMT_JSON = 1 << 1,
	FMT_JSONPLUS = 1 << 2,
};

#define BSSPLIT_MAX 16
#define PLIST_MAX 32
#define OPT_MAX 96

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

struct dist_spec {
	int kind;		/* enum dist_kind */
	double param;
};

struct rate {
	uint64_t iops[DDIR_NR];
};

struct job_opts {
	char *name, *description, *filename, *directory;
	struct sizepct size, offset;
	int rw;
	unsigned rwmixread;
	uint64_t bs;
	struct bssplit bssplit;
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
	unsigned compress_pct;
	int create_on_open, fallocate, unlink;
	struct rate rate;
	int group_reporting, stonewall, new_group;
	struct plist percentiles;
	int fixedbufs, registerfiles, sqthread_poll, hipri;
	unsigned char given[OPT_MAX];	/* which options were set, not defaulted */
};

/* Options that belong to the whole run, given on the command line only. */
struct run_opts {
	unsigned formats;
	char *output;
	char *summary;
	char *destroy;
	unsigned progress_fd;
	char *metrics;		/* a Pushgateway's URL (or BOOTBENCH_METRICS) */
	const char *profile;	/* set by `profile`: the label of the pushed figures */
	int parse_only;
	int help;
};

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
/* Sets one option; on a bad value returns -1 with bb_err naming the option. */
int opt_apply(struct job_opts *jo, struct run_opts *ro, int idx, const char *val);
void opts_defaults(struct job_opts *jo, struct run_opts *ro);
void opts_help(FILE *f);
const char *rw_name(int rw);
const char *engine_name(int id);

/* Parsers shared with the tests. */
int parse_size(const char *s, uint64_t *out);
int parse_time_us(const char *s, uint64_t default_unit_us, uint64_t *out);

#endif
