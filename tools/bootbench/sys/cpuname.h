/* SPDX-License-Identifier: MIT */
/* cpuname.h - the CPU's name from /proc/cpuinfo, for x86_64 and arm64 alike: the one reader of it. */
#ifndef BB_SYS_CPUNAME_H
#define BB_SYS_CPUNAME_H

#include <stddef.h>

/*
 * The CPU's name into BUF, read under BOOTBENCH_SYSROOT when set: x86's
 * "model name"; arm64's kernel has none, so its "CPU implementer" and
 * "CPU part" named from a table ("ARM Neoverse-N1"), else said as numbers.
 * Printable ASCII only (a name goes onto the console); empty when
 * /proc/cpuinfo says neither.
 */
void cpu_name(char *buf, size_t len);

/* A /proc/cpuinfo line's value ("key\t: value\n"), its blanks and newline cut, in LINE; NULL without a colon. */
char *cpuinfo_value(char *line);

#endif
