/* SPDX-License-Identifier: MIT */
/*
 * edac.h - the memory controllers' error counters (EDAC): corrected (CE)
 * and uncorrected (UE) errors per controller and per DIMM, with the DIMM's
 * locator where the driver names it. Read-only, from /sys (sys/root.h).
 * And EDAC's reports in the kernel log, told apart from machine checks: a
 * corrected error is counted against its DIMM's limit, never a failure at
 * once, and is the memory's, whichever test was running when it came.
 */
#ifndef BB_SYS_EDAC_H
#define BB_SYS_EDAC_H

#include <stddef.h>
#include <stdint.h>

#define EDAC_DIMMS 256

struct edac_dimm {
	char id[24];		/* "mc0/dimm3" (or "mc0/rank3", older drivers) */
	char label[64];		/* the locator: "CPU_SrcID#0_Ha#0_Chan#1_DIMM#0", "DIMM_A1" */
	uint64_t ce, ue;
};

struct edac {
	unsigned controllers;
	uint64_t ce, ue;	/* every controller's totals (its ce_count, ue_count) */
	struct edac_dimm dimm[EDAC_DIMMS];
	unsigned ndimms;
};

/* Reads every controller; -1 when there is none (no EDAC driver: non-ECC
 * memory, a VM, or a controller the kernel has no driver for). */
int edac_read(struct edac *e);

/* One EDAC error report in the kernel log: edac_mc_handle_error's "EDAC
 * MC0: 1 CE memory read error on LABEL (channel:0 ...)", or older drivers'
 * "EDAC MC0: CE row 1, channel 0, label \"DIMM_A1\": ...". */
struct edac_report {
	int uncorrected;	/* UE, else CE */
	unsigned count;		/* errors it reports (the leading number, else 1) */
	char label[64];		/* the DIMM's locator, "" when the line names none */
};

/* Whether MSG (a kernel log record's text) is an EDAC error report: 1 with
 * REP filled, else 0. The same lines kmsg_hw_errors() counts as EDAC's. */
int edac_log_report(const char *msg, struct edac_report *rep);

/* EDAC's error reports in the kernel log after record AFTER, per DIMM. */
struct edac_log {
	unsigned lines;			/* reports read */
	uint64_t ce, ue;		/* errors they report */
	struct edac_dimm dimm[EDAC_DIMMS];	/* per label (id ""); "" label: none named */
	unsigned ndimms;
	char first_ue[512];		/* the first uncorrected report, as logged */
	uint64_t *seq;			/* each report's record number, oldest first */
};

/* Reads L; -1 when the log is unreadable. edac_log_free() frees L->seq. */
int edac_log_read(uint64_t after, struct edac_log *l);
void edac_log_free(struct edac_log *l);

/*
 * The kernel log's hardware-error lines after record AFTER that are not
 * EDAC's reports (edac_log_read() counts those per DIMM): machine checks,
 * PCIe AER's uncorrected errors. Their count, the first in FIRST (LEN
 * bytes, "" when none); -1 when the log is unreadable.
 */
int edac_log_machine_checks(uint64_t after, char *first, size_t len);

#endif
