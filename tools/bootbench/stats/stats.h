/* SPDX-License-Identifier: MIT */
/*
 * stats.h - what a job measured: per direction the submission, completion
 * and total latency histograms and byte counts; fsync latency; queue depth
 * levels; one sample per second; CPU use. Workers fill these without locks
 * (each has its own); reports merge them after the workers are joined.
 */
#ifndef BB_STATS_H
#define BB_STATS_H

#include <stdint.h>

#include "stats/hist.h"

/* The directions of I/O, as fio counts them (the job options name them too). */
enum ddir { DDIR_READ, DDIR_WRITE, DDIR_TRIM, DDIR_NR };

struct dir_stats {
	struct hist slat, clat, lat;
	uint64_t bytes, ios, short_ios;
};

struct sample {
	uint64_t t_ms;			/* end of the interval, from the job's measured start */
	uint64_t dur_ms;
	uint64_t ios[DDIR_NR], bytes[DDIR_NR];
	uint64_t lat_sum_ns[DDIR_NR];
};

/*
 * fio's bandwidth and IOPS statistics (its io_stat): one value a window
 * of bwavgtime or iopsavgtime ms in which the direction moved something,
 * each a whole number (KiB/s, IOPS), kept as min, max, running mean and
 * the sum of squared deviations (Welford's).
 */
struct avg_stat {
	uint64_t samples;
	uint64_t min, max;
	double mean, S;
};

void avg_stat_add(struct avg_stat *s, uint64_t value);
/*
 * A group's: as fio sums its jobs' (min, max, mean, the squared
 * deviations and the count are each added up), which is the group's
 * figure when its jobs run side by side.
 */
void avg_stat_sum(struct avg_stat *dst, const struct avg_stat *src);
/* min, max, mean and deviation (sqrt(S / (n - 1))) as fio derives them; 0 when there is no sample. */
int avg_stat_get(const struct avg_stat *s, double *min, double *max, double *mean, double *dev);

/* fio's iodepth buckets: 1 2 4 8 16 32 >=64 (and 0 for batch sizes) */
#define DEPTH_BUCKETS 7

struct job_stats {
	struct dir_stats dir[DDIR_NR];
	struct hist sync;
	uint64_t depth[DEPTH_BUCKETS], submit[DEPTH_BUCKETS], complete[DEPTH_BUCKETS];
	uint64_t runtime_ns;
	uint64_t usr_us, sys_us, ctx, majf, minf;
	struct sample *samples;
	unsigned nsamples, cap;
	struct avg_stat bw[DDIR_NR], iops[DDIR_NR];	/* fio's bw_ and iops_ figures */
	uint64_t total_runtime_ns;	/* summed over a group's jobs (fio's job_runtime), where runtime_ns is the longest */
	int started;			/* a clone's thread ran (exit_what=all leaves later groups unstarted) */
	unsigned clones;
	uint64_t verify_blocks, verify_bad;	/* read back by verify=, and found wrong */
	uint64_t total_err;		/* errors counted by continue_on_error */
	int first_error;		/* the errno of the first of those */
	int error;			/* errno of the first failure, 0 if none */
	char errmsg[512];
};

static inline unsigned depth_bucket(unsigned d)
{
	unsigned b = 0;

	if (d >= 64)
		return DEPTH_BUCKETS - 1;
	while (d > 1) {
		d >>= 1;
		b++;
	}
	return b;
}

/* fio's batch buckets for submit/complete: 0, 1-4, 5-8, 9-16, 17-32, 33-64, >64 */
static inline unsigned batch_bucket(unsigned n)
{
	if (!n)
		return 0;
	if (n > 64)
		return DEPTH_BUCKETS - 1;
	return n <= 4 ? 1 : n <= 8 ? 2 : n <= 16 ? 3 : n <= 32 ? 4 : 5;
}

void stats_merge(struct job_stats *dst, const struct job_stats *src);
void stats_add_sample(struct job_stats *s, const struct sample *smp);

#endif
