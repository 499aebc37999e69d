/* SPDX-License-Identifier: MIT */
/*
 * escapes.h - the ways out of a job's world (issue 44), each tried from
 * inside it: a namespace made or joined, a terminal typed into, a socket,
 * a mount, a program run, /etc, /proc/sys and /sys written, a disk not
 * named opened, a node or link made, a capability taken back, a ring's
 * other operations. `bootbench sandbox-check` tries them all in the engine's
 * threads and in fio's sandbox; each must be refused, with the errors the
 * table expects. One that is not refused, or refused otherwise than
 * expected, is a sandbox that does not hold.
 */
#ifndef BB_ESCAPES_H
#define BB_ESCAPES_H

#include <stdio.h>

/*
 * Every way out tried from here, a line each on OUT ("refused", or
 * "ALLOWED", "UNSURE" (another error than a refusal's), "UNTRIED"); DISK: a block device no job named (NULL: none tried).
 * Returns how many were not refused as expected.
 */
unsigned escapes_try_all(FILE *out, const char *disk);

#endif
