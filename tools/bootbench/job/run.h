/* SPDX-License-Identifier: MIT */
/*
 * run.h - the engine's entry point: a checked job set in, results in memory
 * out. `bootbench run` prints them; profile, raid and parity build a job set
 * and call run_jobs, forking first only where isolation is the point.
 */
#ifndef BB_RUN_H
#define BB_RUN_H

#include <signal.h>
#include <stdint.h>

#include "job/jobs.h"
#include "job/result.h"

struct run_hooks {
	uint64_t size_max;	/* no job's range exceeds this many bytes (0: no cap), so a
				 * profile written for big disks fits a small array or file */
	int check_only;		/* everything checked, consent included; nothing written */
};

/*
 * Plans the targets of every job and checks all of it (sizes, alignment,
 * verify rules, consent) before the first write; then runs the reporting
 * groups one after another. Returns EXIT_OK; EXIT_FAIL for an I/O error, a
 * failed verify or an interrupted run (R holds what was measured); or
 * EXIT_USAGE for bad input, with bb_err saying why and nothing written.
 * JS must have been through jobset_finish.
 */
int run_jobs(struct jobset *js, const struct run_hooks *hooks, struct run_result *r);
/*
 * Writes a run's report (REPORT, LEN bytes: the formats asked for) to
 * --output (atomically) or standard output, and SUMMARY to --summary when
 * asked: bootbench's own runs and those fio runs (delegate.h) alike.
 */
int run_write_reports(const struct run_opts *run, const char *report, size_t len, const char *summary,
		      size_t summary_len);
/* Frees what run_jobs left in R and forgets the run's targets and consent. */
void run_result_free(struct run_result *r);

/* Set by a signal handler (async-signal-safe): every worker stops soon. */
extern volatile sig_atomic_t stop_requested;

#endif
