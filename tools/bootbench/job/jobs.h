/* SPDX-License-Identifier: MIT */
/*
 * jobs.h - the list of jobs a run executes, built from the command line and
 * fio-format job files ([global] and job sections, ';'/'#' comments,
 * `include FILE`, ${ENV} expansion), as fio reads them.
 */
#ifndef BB_JOBS_H
#define BB_JOBS_H

#include "job/options.h"

struct kv {
	char *key, *val;
};

struct kvlist {
	struct kv *v;
	unsigned n;
};

struct job {
	struct job_opts o;
	struct kvlist given;	/* the job's own options, as written, for the report */
	char where[160];	/* "job.fio line 12" or "command line" */
	unsigned groupid;
};

struct jobset {
	struct job *jobs;
	unsigned n;
	struct kvlist global_given;
	struct run_opts run;
	int saw_global;
	uint64_t size_max;	/* run_jobs' cap on a job's range (run.h) */
};

/* Both return 0, or -1 with bb_err naming the option and where it was. */
int jobset_parse_args(struct jobset *js, int argc, char **argv);
int jobset_parse_file(struct jobset *js, const char *path);
/* A job file held in memory (a built-in profile); NAME names it in messages. */
int jobset_parse_text(struct jobset *js, const char *name, const char *text);
/*
 * Hands FN each option of the command line and its job files as written
 * (${ENV} expanded, includes followed as fio follows them; rw=readwrite
 * handed as rw, fio's short name), checking none but what no job may say
 * (job/refusals.h): what a job that bootbench's engine does not run names
 * (job/delegate.h). jobset_parse_args walks them so first. 0, or -1 with
 * bb_err when a file cannot be read or an option is refused.
 */
int jobset_scan(int argc, char **argv, void (*fn)(const char *key, const char *val, void *arg), void *arg);
/* Checks each job's options together and numbers the reporting groups. */
int jobset_finish(struct jobset *js);

#endif
