/* SPDX-License-Identifier: MIT */
/* meminfo.h - the kernel's memory figures (/proc/meminfo), the one reader of them. */
#ifndef BB_SYS_MEMINFO_H
#define BB_SYS_MEMINFO_H

#include <stdint.h>

/* FIELD ("MemTotal", "MemAvailable") in bytes, read under BOOTBENCH_SYSROOT when set; 0 when it is not there. */
uint64_t meminfo_bytes(const char *field);

#endif
