/* SPDX-License-Identifier: MIT */
/*
 * kmsg.h - the kernel log's hardware-error lines: machine checks (mce:
 * "[Hardware Error]", "Machine check events logged"), told from the lines
 * of a corrected record (AMD's decoder: "Corrected error, no action
 * required."), EDAC's corrected and uncorrected error reports, PCIe AER's
 * uncorrected errors. Read from
 * /dev/kmsg (each record with its sequence number), or a recorded copy in
 * the same format (sys/root.h).
 */
#ifndef BB_SYS_KMSG_H
#define BB_SYS_KMSG_H

#include <stddef.h>
#include <stdint.h>

/* The sequence number of the log's newest record now (0 if none). */
uint64_t kmsg_newest(void);
/* The hardware-error lines logged after record AFTER: machine checks and
 * EDAC's reports (which edac.c counts per DIMM), never the lines of a
 * corrected machine-check record (kmsg_kind): their count, the first in
 * FIRST (LEN bytes; "" when none). -1 when the log is unreadable. */
int kmsg_hw_errors(uint64_t after, char *first, size_t len);

/* What a record of the log is, told in the log's order (kmsg.c). */
enum kmsg_kind {
	KMSG_NONE,		/* no hardware error */
	KMSG_MACHINE_CHECK,	/* a machine check (not corrected), PCIe AER's uncorrected error */
	KMSG_EDAC,		/* EDAC's CE or UE report (sys/edac.h counts them per DIMM) */
	KMSG_CORRECTED,		/* a line of a corrected machine-check record */
	KMSG_NOTICE,		/* "Machine check events logged": the records next to it tell */
};
struct kmsg_scan {
	int corrected;		/* inside a corrected record (or just after its report) */
};
/* The kind of MSG, S (zeroed before the log's first record) carried on. */
enum kmsg_kind kmsg_kind(struct kmsg_scan *s, const char *msg);

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
