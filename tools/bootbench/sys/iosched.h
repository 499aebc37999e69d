/* SPDX-License-Identifier: MIT */
/*
 * iosched.h - a disk's I/O scheduler (ioscheduler=), switched for a run and
 * put back after: /sys/dev/block/MAJ:MIN/queue/scheduler of the disk itself
 * (a partition's is its disk's).
 */
#ifndef BB_IOSCHED_H
#define BB_IOSCHED_H

#include <sys/types.h>

#define IOSCHED_MAX 16

struct iosched_saved {
	unsigned n;
	struct {
		char path[300];
		char name[32];	/* the scheduler it had */
	} q[IOSCHED_MAX];
};

/* Switches the disk of dev to name (kept in saved to put back); -1 with bb_err. */
int iosched_set(dev_t dev, const char *name, struct iosched_saved *saved);
/* Puts back every scheduler iosched_set switched. */
void iosched_restore(struct iosched_saved *saved);

#endif
