/* SPDX-License-Identifier: MIT */
/*
 * result.h - a finished run in memory, as run_jobs returns it: one entry per
 * job (or per clone without group_reporting), the disks' own counters, and
 * what the run had to note; and the figures every reader of it derives
 * (bandwidth, IOPS, a series' spread). The reports (report/) write it out.
 */
#ifndef BB_RESULT_H
#define BB_RESULT_H

#include <stdint.h>

#include "job/jobs.h"
#include "job/target.h"
#include "stats/stats.h"

struct report {
	const struct job *job;
	struct job_stats st;
	struct target **targets;
	unsigned ntargets;
	const char *engine_note;
};

#define DISKSTAT_FIELDS 11

struct disk_util {
	char name[64];
	uint64_t before[DISKSTAT_FIELDS], after[DISKSTAT_FIELDS];
	uint64_t t_before_ns, t_after_ns;
};

struct run_result {
	const struct jobset *js;
	struct report *reports;
	unsigned nreports;
	struct disk_util *du;
	unsigned ndu;
	int interrupted;
	uint64_t timestamp_ms;
	const char *notes[8];
	unsigned nnotes;
	void *plans;		/* run_jobs' own, freed by run_result_free */
};

/* Derived figures, shared by every reader of a result. */
double report_bw_bytes(const struct report *rep, int ddir);
double report_iops(const struct report *rep, int ddir);
uint64_t group_bw_bytes(const struct run_result *r, unsigned groupid, int ddir);
extern const char *const ddir_names[DDIR_NR];

#endif
