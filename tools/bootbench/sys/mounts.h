/* SPDX-License-Identifier: MIT */
/*
 * mounts.h - the one reader of the kernel's mount and swap tables, for every
 * check of "is it in use" (the consent gate, `disks`, raid's cleanup).
 */
#ifndef BB_MOUNTS_H
#define BB_MOUNTS_H

/*
 * Calls FN(source, mount point, ctx) for each line of /proc/self/mounts, with
 * the kernel's octal escapes (a space is \040) decoded; FN returning nonzero
 * stops the walk and is returned. -1 with bb_err set if the table cannot be
 * read: a caller that must know "not mounted" cannot take silence for it.
 */
int mounts_each(int (*fn)(const char *src, const char *mnt, void *ctx), void *ctx);

/* The same for /proc/swaps: FN(device, "", ctx) per swap area in use. */
int swaps_each(int (*fn)(const char *dev, const char *unused, void *ctx), void *ctx);

#include <sys/types.h>

/* Whether the block device RDEV is mounted here (by any name of it). */
int mounts_has_dev(dev_t rdev);

#endif
