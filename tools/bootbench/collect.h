/* SPDX-License-Identifier: MIT */
/*
 * collect.h - a profile or job run in a child process (as `bootbench run`
 * would run it) whose figures come back to the parent: one cell per job and
 * direction. `bootbench raid` and `bootbench parity` build their tables from
 * these cells; the child can still write fio's JSON with --output.
 */
#ifndef BB_COLLECT_H
#define BB_COLLECT_H

#include <stdint.h>
#include <sys/types.h>

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
 * Runs `bootbench run ARGV...` in a child with TARGET set in its environment
 * and no job range above size_max bytes (0: no cap). The child's own
 * messages go to stderr. Returns the child's exit status (EXIT_FAIL when it
 * died); *out gets every cell the child reported, even when it failed.
 */
int collect_run(int argc, char **argv, const char *target, uint64_t size_max, struct cells *out);

/* The child running now (0: none), so a signal handler can pass Ctrl-C on. */
extern volatile pid_t collect_child;

/* The cell of a test and direction, or NULL. */
const struct cell *cells_find(const struct cells *cs, const char *test, const char *dir);
void cells_free(struct cells *cs);

#endif
