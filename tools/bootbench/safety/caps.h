/* SPDX-License-Identifier: MIT */
/*
 * caps.h - a process that keeps only the capabilities named: every other one
 * leaves the bounding set too, so no exec (a setuid program included) gets
 * it back. The fio-server sandbox and the rescue chroot use it: without
 * CAP_SYS_ADMIN nothing is mounted, without CAP_MKNOD no device node is
 * made, without CAP_DAC_OVERRIDE a 0400 node is not opened for writing even
 * by root, without CAP_SYS_RAWIO no raw I/O.
 */
#ifndef BB_CAPS_H
#define BB_CAPS_H

/* Keeps the N capabilities of KEEP (those held now), drops the rest; -1 with errno. */
int caps_keep_only(const int *keep, unsigned n);

#endif
