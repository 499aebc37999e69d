/* SPDX-License-Identifier: MIT */
/*
 * inroot.h - paths of an installed system mounted at ROOT, resolved as that
 * system would resolve them: an absolute link (/sbin/init ->
 * /lib/systemd/systemd, usrmerge's /sbin -> usr/sbin, /etc/resolv.conf ->
 * /run/...) is taken from ROOT, and ".." never climbs out of it (openat2's
 * RESOLVE_IN_ROOT), so nothing of the appliance is read by mistake.
 */
#ifndef BB_INROOT_H
#define BB_INROOT_H

#include <stddef.h>

/* Opens PATH of the system at ROOT with FLAGS (O_PATH too); -1 with errno. */
int inroot_open(const char *root, const char *path, int flags);
/* The appliance's path of PATH inside ROOT (links followed inside it) into OUT; -1 with errno. */
int inroot_path(const char *root, const char *path, char *out, size_t len);
/* Whether PATH inside ROOT is an executable regular file. */
int inroot_executable(const char *root, const char *path);
/* Reads up to LEN-1 bytes of PATH inside ROOT into BUF; -1 with errno. */
int inroot_read(const char *root, const char *path, char *buf, size_t len);

#endif
