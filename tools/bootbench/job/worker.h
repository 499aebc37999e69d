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

#include "engine/engine.h"
#include "job/jobs.h"
#include "job/target.h"
#include "lib/rand.h"
#include "stats/stats.h"

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
	uint64_t run_end;	/* rw=randread:N: the end of the last I/O, where the next of the run goes */
	unsigned run_left;	/* I/Os left before the next random offset */
	struct target *t;
	int fd;
	uint64_t start, len;	/* the range this worker uses */
	uint64_t nblocks;	/* len / bs, for random offsets */
	uint64_t seq_pos;	/* next sequential offset, from start */
	uint64_t issued;	/* bytes issued in this loop (zonemode=strided: and skipped) */
	uint64_t zone_start;	/* zonemode=strided: the zone's start, from start */
	uint64_t zone_bytes;	/* ... bytes moved in it */
	uint64_t zone_pos;	/* ... the next sequential offset in it */
	struct permutation perm;
	struct distribution dist;
};

/* verify_backlog: a block written, and the pass its header carries */
struct backlog_entry {
	uint64_t offset;
	uint32_t pass;
	uint16_t file;
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
	uint64_t issued_bytes[DDIR_NR];	/* for rate */
	uint64_t rate_min_bytes[DDIR_NR];	/* moved in the current second, for rate_min */
	int measuring;
	uint64_t t_begin, t_measure, t_next_sample, t_last_sample;
	uint64_t t_bw, t_iops;		/* fio's bwavgtime and iopsavgtime windows: their starts */
	uint64_t poisson_due[DDIR_NR];	/* rate_process=poisson: when the next I/O is due (0: at the start) */
	struct rng rate_rng;		/* its gaps, apart from the offsets' generator */
	struct worker **waitees;	/* wait_for: the clones this one starts after, NULL-ended */
	struct backlog_entry *backlog;	/* verify_backlog: blocks written and not yet read back */
	unsigned nbacklog;
	uint64_t bw_seen[DDIR_NR], iops_seen[DDIR_NR];	/* bytes and I/Os before them */
	struct sample cur;
	struct job_stats stats;
	const char *engine_note;
	char engine_note_buf[256];	/* for a note with figures in it; outlives the engine's data */
	char first_err_msg[256];	/* continue_on_error: the first error counted */
	struct worker_logs *logs;	/* fio's log files asked for (iolog.h), or NULL */
	pthread_t thread;
	volatile int finished;		/* set last by the thread: the progress monitor stops on it */
};

extern volatile sig_atomic_t stop_requested;
/* exitall: a job with it ended; the others of its group stop (and with exit_what=all, every later group) */
enum { EXIT_ALL_NONE, EXIT_ALL_GROUP, EXIT_ALL_RUN };
extern volatile int exit_all;

/* Sets up files, buffers and the engine; -1 with bb_err on failure. */
int worker_init(struct worker *w, const struct job *j, unsigned clone, struct target **targets,
		unsigned ntargets, uint64_t size_max);
void *worker_main(void *arg);
/* The byte range a job uses in one of its nfiles targets, at most size_max
 * bytes (0: no cap); -1 with bb_err. */
int job_range(const struct job_opts *o, const struct target *t, unsigned nfiles, unsigned clone, uint64_t size_max,
	      uint64_t *start, uint64_t *len);
void worker_free(struct worker *w);
/* The smallest and largest block size a job uses (bs, bssplit, bsrange). */
void job_bs_bounds(const struct job_opts *o, uint64_t *min, uint64_t *max);

/* ---- between the worker's own files (loop, iogen, verify, buffers) ---- */

#define STAMP_STRIDE 512

static inline int ddir_of(int rw)
{
	switch (rw) {
	case RW_WRITE: case RW_RANDWRITE: return DDIR_WRITE;
	case RW_TRIM: case RW_RANDTRIM: return DDIR_TRIM;
	default: return DDIR_READ;
	}
}

static inline int is_random(int rw)
{
	return rw == RW_RANDREAD || rw == RW_RANDWRITE || rw == RW_RANDTRIM || rw == RW_RANDRW;
}

static inline int is_mixed(int rw)
{
	return rw == RW_RW || rw == RW_RANDRW;
}

/* Whether a job of this rw mode moves data in this direction. */
static inline int job_does(int rw, int ddir)
{
	switch (ddir) {
	case DDIR_TRIM: return rw == RW_TRIM || rw == RW_RANDTRIM;
	case DDIR_WRITE: return rw == RW_WRITE || rw == RW_RANDWRITE || is_mixed(rw);
	default: return rw == RW_READ || rw == RW_RANDREAD || is_mixed(rw);
	}
}

/* The job thread's CPUs, nice value and I/O priority (placement.c); -1 with bb_err. */
int place_thread(struct worker *w);

/* Records the job's first error; returns -1. */
int worker_fail(struct worker *w, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void fill_buffer(struct worker *w, unsigned char *buf, size_t len);
void stamp_buffer(struct worker *w, struct io_unit *io);

/* The bad LBAs found inside one failed I/O (badlba.c). */
struct bad_lbas {
	uint64_t first_lba;	/* UINT64_MAX: none found */
	uint64_t bytes;		/* bad bytes in all */
};
/* Whether ERR is a medium error (EIO, ENODATA, EILSEQ): worth locating, and
 * what continue_on_error goes on after. */
int medium_error(int err);
/* Names with note() each bad LBA range inside the failed I/O [OFF, OFF+LEN)
 * of F, found by probing halves with pread (pwrite of BUF for writes) down
 * to single logical blocks; ERR is the I/O's errno. 0 when some were named
 * (OUT filled), -1 when they could not be located. */
int locate_bad_lbas(const struct worker_file *f, int ddir, void *buf, uint64_t off, uint64_t len, int err,
		    const char *what, struct bad_lbas *out);
void verify_stamp(struct worker *w, struct io_unit *io);
void verify_files(struct worker *w);
/* verify_backlog: notes a write that completed; verify_backlog_check reads the backlog back (0, or -1: bad). */
void verify_backlog_note(struct worker *w, const struct io_unit *io);
int verify_backlog_check(struct worker *w);
void rewind_files(struct worker *w);
/* rate_iops, rate (job/rate.c): how long (ns) before the next I/O of DDIR
 * may go; rate_ddir: the direction to take instead of DDIR (fio's switch
 * to the other direction when this one is ahead of its rate);
 * poisson_next: rate_process=poisson's next due time after an I/O. */
uint64_t rate_wait(struct worker *w, int ddir);
int rate_ddir(struct worker *w, int ddir);
void poisson_next(struct worker *w, int ddir);
/* The next I/O, or NULL when the job has moved all it should. */
struct io_unit *next_io(struct worker *w);

#endif
