/* SPDX-License-Identifier: MIT */
/*
 * kmsg.h - the kernel log's hardware-error lines: machine checks (mce:
 * "[Hardware Error]", "Machine check events logged"), EDAC's corrected and
 * uncorrected error reports, PCIe AER's uncorrected errors. Read from
 * /dev/kmsg (each record with its sequence number), or a recorded copy in
 * the same format (sys/root.h).
 */
#ifndef BB_SYS_KMSG_H
#define BB_SYS_KMSG_H

#include <stddef.h>
#include <stdint.h>

/* The sequence number of the log's newest record now (0 if none). */
uint64_t kmsg_newest(void);
/* The hardware-error lines logged after record AFTER: their count, the
 * first in FIRST (LEN bytes; "" when none). -1 when the log is unreadable. */
int kmsg_hw_errors(uint64_t after, char *first, size_t len);

/* One record of the log, as /dev/kmsg gives it. */
struct kmsg_record {
	int facility, level;	/* facility 0 is the kernel's own; userspace writes are 1 (user) */
	uint64_t seq;
	uint64_t usec;		/* since boot, on the monotonic clock */
	char msg[1024];		/* the text, the kernel's \xNN escapes kept; cut at 1023 bytes */
};

/* /dev/kmsg opened to follow from its oldest record, without blocking; -1 with errno. */
int kmsg_follow(void);
/* The next record from FD: 1 read, 0 none yet, -1 on error (errno). A record
 * the kernel overwrote before it was read is skipped (the next one follows). */
int kmsg_next(int fd, struct kmsg_record *r);

#endif
