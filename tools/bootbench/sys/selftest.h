/* SPDX-License-Identifier: MIT */
/*
 * selftest.h - a drive's own self-test, started and polled to its end:
 * NVMe's Device Self-test (admin command 14h, its log page 06h) through the
 * admin passthrough, ATA's SMART self-test through smartctl. Writes no
 * data: the drive reads and checks itself.
 */
#ifndef BB_SYS_SELFTEST_H
#define BB_SYS_SELFTEST_H

#include <signal.h>
#include <stddef.h>

enum selftest_outcome {
	SELFTEST_PASSED,
	SELFTEST_FAILED,	/* the drive says it failed: WORDS has its words */
	SELFTEST_REFUSED,	/* the drive would not run one (WORDS: why) */
	SELFTEST_UNFINISHED,	/* still running when the time was up, or stopped */
};

/*
 * Runs the drive's short (or EXTENDED) self-test on /dev/NAME and polls it
 * for up to MAX_S seconds (or until *STOP): the outcome, and the drive's
 * own words in WORDS.
 */
enum selftest_outcome drive_selftest(const char *name, int extended, double max_s, volatile sig_atomic_t *stop,
				     char *words, size_t len);

#endif
