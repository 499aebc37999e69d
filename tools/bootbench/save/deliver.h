/* SPDX-License-Identifier: MIT */
/*
 * deliver.h - getting one result folder to every destination: the stick
 * first when there is one, each other destination retried with backoff
 * until its deadline, what is undelivered kept in a spool for `bootbench
 * save --pending` (and the next boot).
 */
#ifndef BB_DELIVER_H
#define BB_DELIVER_H

#include "save/dest.h"

#define MANIFEST_NAME "MANIFEST.sha256"
/* A run going: RESULT-FOLDER-NAME.heartbeat.json beside the result folders, removed when its folder is delivered. */
#define HEARTBEAT_SUFFIX ".heartbeat.json"

/* Writes DIR/MANIFEST.sha256: the sha256sum line of every other file. */
int manifest_write(const char *dir);

struct save_job {
	struct dest_url url;
	char dir[PATH_MAX];	/* the local folder to send */
	int done, failed_for_good, attempts;
	char why[512];
};

/*
 * Delivers each job, retrying with backoff (1, 2, 4, ... 32 s, then every
 * 60 s) until TOTAL_S have passed; prints every outcome. Jobs left
 * undelivered are appended to SPOOL (when not NULL). Returns the number of
 * jobs not delivered.
 */
int deliver_all(struct save_job *jobs, unsigned n, const struct dest_settings *set, unsigned total_s,
		const char *spool);

/*
 * Writes, finds and removes a test file on each destination, one attempt
 * each, nothing delivered; prints one line per destination. Returns the
 * number that failed.
 */
int probe_all(const struct dest_url *urls, unsigned n, const struct dest_settings *set);

/*
 * Writes the heartbeat of the run in DIR (its name with HEARTBEAT_SUFFIX)
 * on each destination, one attempt each, nothing retried or spooled: the
 * destination's clock stamps it, and `bootbench fleet` reads it (running,
 * or silent since). Returns how many failed (each said on stdout).
 */
int heartbeat_all(const struct dest_url *urls, unsigned n, const struct dest_settings *set, const char *dir);

#endif
