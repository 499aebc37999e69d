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

#endif
