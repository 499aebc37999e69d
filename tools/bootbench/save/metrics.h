/* SPDX-License-Identifier: MIT */
/*
 * metrics.h - live figures for a Prometheus Pushgateway (bootbench.metrics=,
 * run --metrics=URL, BOOTBENCH_METRICS): pushed every few seconds while a
 * run goes and once at its end, grouped by machine and disk so a rack's
 * burn-in shows in Grafana. A push is curl in a child process with a 3 s
 * limit; one still going when the next is due makes that one skipped, so a
 * gateway that is slow or down costs the run nothing.
 *
 * Every push carries its run's identity: a run label on each sample
 * (BOOTBENCH_RUN_ID, the unattended run's results folder; else one made
 * here, UTC time_machine_pid) and bootbench_run_start_timestamp_seconds,
 * the time the identity starts with. A machine's newer run supersedes its
 * older ones wherever they are judged (tools/monitoring, fleet): a group
 * whose last push came before the machine's newest run started is over.
 * With BOOTBENCH_METRICS_GROUPS, each group pushed to is appended to that
 * file, a line each, for the unattended run to delete once its results
 * are saved (rootfs/lib/bootbench/results.sh).
 */
#ifndef BB_METRICS_H
#define BB_METRICS_H

#include <stdint.h>

/* What a run's pushes say of its disk (none for a file). */
struct metrics_disk {
	const char *model, *firmware;	/* as the disk reports them */
	int temperature_c;		/* < -100: unknown */
	/* the error counters the drive keeps (NVMe media errors; ATA attributes
	 * 5, 197, 198, 199; 197 and 198 are counts of sectors now, which fall as
	 * sectors are remapped: gauges); < 0: it keeps none of that kind */
	long long media_errors, reallocated, pending, offline_uncorrectable, crc_errors;
};

struct metrics_sample {
	const char *profile;	/* the profile, or "run" */
	const char *job;	/* the job running now */
	double read_iops, write_iops, bytes_per_s;
	double p50_s, p99_s, p999_s;	/* completion latency since the job started; < 0: none yet */
	double progress;	/* 0..1 */
	double seconds_left;	/* the run's time left as it reckons it; < 0: unknown */
	const char *state;	/* running, pass, fail, interrupted */
	const struct metrics_disk *disk;	/* NULL: the target is a file */
};

struct metrics {
	char url[512];		/* http://host:port of the gateway */
	char group[1024];	/* /metrics/job/bootbench/machine@base64/.../disk@base64/... */
	char run[160];		/* the run's identity (the run label) */
	long long run_start;	/* when it started, by this machine's clock (Unix seconds) */
	int pid;		/* the push in flight, 0 when none */
	uint64_t last_ns;
	unsigned pushed, skipped;
};

/* Checks URL (http[s]://host[:port]) and BOOTBENCH_RUN_ID; -1 with bb_err.
 * MACHINE and DISK label the group (DISK NULL: the machine's own series, no
 * disk label). */
int metrics_init(struct metrics *m, const char *url, const char *machine, const char *disk);

/* V as a label value of the text format (\\, " and newline escaped) into OUT. */
void metrics_label(char *out, size_t len, const char *v);

/* The exposition text of a sample (Prometheus text format 0.0.4) into BUF. */
int metrics_format(const struct metrics_sample *s, char *buf, size_t len);

/* Pushes a sample unless one is in flight; FINAL waits for it (the end of a run, bounded by curl's 3 s). */
void metrics_push(struct metrics *m, const struct metrics_sample *s, int final);

/* Pushes exposition text of the caller's (under 64 KiB), as metrics_push
 * does: the run label added to each sample, the run's start and the push's
 * time (bootbench_last_push_timestamp_seconds) appended. */
void metrics_push_text(struct metrics *m, const char *body, int final);

#endif
