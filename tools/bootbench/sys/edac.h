/* SPDX-License-Identifier: MIT */
/*
 * edac.h - the memory controllers' error counters (EDAC): corrected (CE)
 * and uncorrected (UE) errors per controller and per DIMM, with the DIMM's
 * locator where the driver names it. Read-only, from /sys (sys/root.h).
 */
#ifndef BB_SYS_EDAC_H
#define BB_SYS_EDAC_H

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

#endif
