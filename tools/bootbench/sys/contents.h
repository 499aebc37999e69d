/* SPDX-License-Identifier: MIT */
/*
 * contents.h - what a block device holds, by the signatures at fixed
 * offsets of partition tables, filesystems, LUKS, LVM, md and swap: what a
 * user would lose, for the consent gate's refusals and `bootbench disks`.
 * Reads only; no tool is run.
 */
#ifndef BB_CONTENTS_H
#define BB_CONTENTS_H

#include <stddef.h>

/* Describes what the device open as FD holds ("GPT partition table, ..."), "" if blank. */
void contents_describe(int fd, char *buf, size_t len);

#endif
