/* SPDX-License-Identifier: MIT */
/*
 * root.h - where the machine's files are read: /sys, /proc and /dev, or the
 * same paths under BOOTBENCH_SYSROOT, a test's recorded tree (a DMI serial,
 * EDAC counters, hwmon sensors, thermal-throttle counters, a kernel log).
 */
#ifndef BB_SYS_ROOT_H
#define BB_SYS_ROOT_H

#include <stddef.h>

/* BUF = FMT's path ("/sys/...") under BOOTBENCH_SYSROOT when it is set. */
void root_path(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Whether BOOTBENCH_SYSROOT is set (a recorded tree: the machine is not touched). */
int root_recorded(void);

#endif
