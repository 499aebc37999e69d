/* SPDX-License-Identifier: MIT */
/*
 * iolog.h - fio's per-job log files (write_lat_log, write_bw_log,
 * write_iops_log, write_hist_log), in fio's names and line format, so that
 * fio's own tools (fio2gnuplot, fiologparser.py, fio-histo-log-pctiles.py)
 * and plotters written for fio read them unchanged:
 *   PREFIX_{lat,clat,slat,bw,iops}.N.log: "msec, value, ddir, bs, prio", with
 *     log_offset=1 "msec, value, ddir, bs, offset, prio"; latencies in ns,
 *     bandwidth in KiB/s; one line per I/O, or per direction every
 *     log_avg_msec (the average; bs 0);
 *   PREFIX_clat_hist.N.log: "msec, ddir, bs, 1856 bucket counts" every
 *     log_hist_msec, the completions of that interval in fio's buckets.
 * N counts the job clones of the run from 1 in job order, as fio's;
 * per_job_logs=0 puts every clone in PREFIX_TYPE.log.
 * Entries are kept in memory in chunks and written when the run ends; a
 * per-I/O log allocates one chunk per 4096 I/Os, its only cost on the hot
 * path.
 */
#ifndef BB_IOLOG_H
#define BB_IOLOG_H

#include <stdint.h>

struct worker;
struct io_unit;
struct job;

/* Sets up the logs a job asks for (none: w->logs stays NULL). */
void iolog_init(struct worker *w);
/* A measured, successful completion at now (ns). */
void iolog_io(struct worker *w, const struct io_unit *io, uint64_t now, uint64_t slat, uint64_t clat,
	      uint64_t lat);
/* Closes the averaging and histogram windows that ended by now. */
void iolog_tick(struct worker *w, uint64_t now);
/* The job's end: the last, partial windows. */
void iolog_end(struct worker *w, uint64_t now);
/*
 * Writes the clone's logs as the N-th clone of the run (from 1); with
 * per_job_logs=0, appends to the shared files (first: the first clone to
 * write them; last: the last, which puts them in place). -1 with bb_err.
 */
int iolog_write(struct worker *w, unsigned n, int first, int last);
void iolog_free(struct worker *w);

#endif
