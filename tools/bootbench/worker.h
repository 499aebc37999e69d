/* SPDX-License-Identifier: MIT */
/*
 * worker.h - one running clone of a job: its files and ranges, its I/O
 * units with their buffers, its random state and its statistics. A worker
 * is one thread; nothing on its hot path allocates, locks or makes a system
 * call other than the I/O itself.
 */
#ifndef BB_WORKER_H
#define BB_WORKER_H

#include <pthread.h>
#include <signal.h>
#include <stdint.h>

#include "engine.h"
#include "jobs.h"
#include "rand.h"
#include "stats.h"
#include "target.h"

struct io_unit {
	void *buf;
	uint64_t offset;
	uint64_t t_start, t_issue;
	uint32_t len;
	int32_t res;
	uint16_t file;
	uint8_t ddir;
	uint8_t measured;	/* issued after the ramp: counts in the figures */
	uint32_t index;
};

struct worker_file {
	struct target *t;
	int fd;
	uint64_t start, len;	/* the range this worker uses */
	uint64_t nblocks;	/* len / bs, for random offsets */
	uint64_t seq_pos;	/* next sequential offset, from start */
	uint64_t issued;	/* bytes issued in this loop */
	struct permutation perm;
	struct distribution dist;
};

struct worker {
	const struct job *job;
	unsigned clone;
	const struct engine_ops *eng;
	void *eng_data;
	struct worker_file *files;
	unsigned nfiles, next_file;
	struct io_unit *ios;
	struct io_unit **free_ios, **pending, **done;
	unsigned nfree, npending, inflight;	/* inflight counts the pending ones too */
	void *buf_base;
	size_t buf_size;
	uint64_t max_bs, min_bs;
	struct rng rng;
	uint64_t seed;
	uint64_t loop_bytes, loop_issued;
	unsigned loops_done;
	int out_of_work;
	unsigned writes_since_sync;
	uint64_t write_seq;
	uint64_t issued_ios[DDIR_NR];	/* for rate_iops */
	int measuring;
	uint64_t t_begin, t_measure, t_next_sample, t_last_sample;
	struct sample cur;
	struct job_stats stats;
	const char *engine_note;
	char engine_note_buf[256];	/* for a note with figures in it; outlives the engine's data */
	pthread_t thread;
	volatile int finished;		/* set last by the thread: the progress monitor stops on it */
};

extern volatile sig_atomic_t stop_requested;
/* Set by `bootbench raid` in its child: no job's range exceeds this many
 * bytes, so a profile written for big disks fits a small array or file. */
extern uint64_t run_size_max;

/* Sets up files, buffers and the engine; -1 with bb_err on failure. */
int worker_init(struct worker *w, const struct job *j, unsigned clone, struct target **targets,
		unsigned ntargets);
void *worker_main(void *arg);
/* The byte range a job uses in one of its nfiles targets; -1 with bb_err. */
int job_range(const struct job_opts *o, const struct target *t, unsigned nfiles, uint64_t *start,
	      uint64_t *len);
void worker_free(struct worker *w);

#endif
