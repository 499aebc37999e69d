/* SPDX-License-Identifier: MIT */
/*
 * verdict.h - whether RAID5/6 parity keeps up with the disks: this CPU's
 * parity throughput, measured the way md computes it (a 64 KiB chunk per
 * data disk), against the data rate the disks take. `bootbench parity`
 * prints both; `bootbench raid` adds the verdict to its table.
 */
#ifndef BB_VERDICT_H
#define BB_VERDICT_H

#include <stdio.h>

#include "raid/parity.h"

#define PARITY_BLOCK (64 * 1024)	/* per data disk: a chunk md would stripe */

/* Data bytes/s / 1e6 of IM's parity for N data disks (Q too with RAID6) on THREADS cores at once, 0.3 s. */
double parity_measure(const struct parity_impl *im, unsigned n, int raid6, unsigned threads);

/*
 * The verdict for RAID5 (raid6=0) or RAID6 on NDISKS disks that take
 * DATA_BW bytes/s of data together: whether one core's parity throughput
 * (md's raid5d thread) keeps up, and by how much; to F and/or J.
 */
struct json;
void parity_verdict(FILE *f, struct json *j, const char *level, unsigned ndisks, int raid6, double data_bw);

#endif
