/* SPDX-License-Identifier: MIT */
/*
 * collect.h - a job set run in a child process whose figures come back to
 * the parent: one cell per job and direction. `bootbench raid` builds its
 * tables from these cells. The child is where isolation is the point: an
 * array's run that crashes or is killed leaves the parent free to tear the
 * array down, and the child dies with the parent (no orphan holds a disk).
 */
#ifndef BB_COLLECT_H
#define BB_COLLECT_H

#include <stdint.h>
#include <sys/types.h>

#include "job/jobs.h"
#include "job/run.h"

struct cell {
	char test[64];		/* the job's name */
	char dir[8];		/* read, write, trim */
	double iops, bw;	/* bw in bytes/s */
	double p99_us;		/* completion latency, 99th percentile */
};

struct cells {
	struct cell *c;
	unsigned n;
};

/*
 * Runs JS (through jobset_finish) with HOOKS in a child; the child also
 * writes fio's JSON to JS's --output when it names one, and its messages go
 * to stderr. Returns run_jobs' status (EXIT_FAIL when the child died); *out
 * gets every cell the child reported, even when it failed.
 */
int collect_run(struct jobset *js, const struct run_hooks *hooks, struct cells *out);

/* The child running now (0: none), so a signal handler can pass Ctrl-C on. */
extern volatile pid_t collect_child;

/* The cell of a test and direction, or NULL. */
const struct cell *cells_find(const struct cells *cs, const char *test, const char *dir);
void cells_free(struct cells *cs);

#endif
