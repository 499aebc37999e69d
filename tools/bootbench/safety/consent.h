/* SPDX-License-Identifier: MIT */
/*
 * consent.h - the one gate every write to a block device passes: the
 * engine's targets, raid's wipefs, sfdisk, mdadm and mkfs, a read-write
 * mount, and every later writer (fsck repairs, grub-install). One rule set:
 *   1. the device was named by the user (--destroy, bootbench.destroy, or
 *      typed in the menu), by device number: /dev/sdb and a by-id link to it
 *      are the same, and a partition and its whole disk are not;
 *   2. it is neither the boot medium nor the results medium (no consent
 *      overrides this);
 *   3. it is not in use: not mounted (nor any partition of a whole disk),
 *      not held by md/dm, not swap, not behind a loop device (as its
 *      backing, or holding its backing file), and the kernel grants an
 *      exclusive open.
 * A command may add devices it made itself out of consented ones (raid's
 * array, the partitions it wrote on a named disk) with consent_allow_dev.
 * tests/cli/consent_gate.sh proves that no other file writes a device.
 */
#ifndef BB_CONSENT_H
#define BB_CONSENT_H

#include <sys/stat.h>

#include <sys/types.h>

/* Adds a comma-separated list of device paths the user named; -1 with
 * bb_err when one is not a block device. NULL or "" adds nothing. */
int consent_allow(const char *list);
/* A device this run made from consented ones. */
void consent_allow_dev(dev_t rdev);
/* Every partition that exists now on a consented whole disk. */
void consent_allow_partitions_of(const char *disk);
/* Whether DEV was named (rule 1 only), for messages that come before the checks. */
int consent_named(dev_t rdev);
/* Forgets every consent (a new run in the same process). */
void consent_reset(void);

/* 0 when PATH may be written now, else -1 with one line in bb_err. */
int consent_check(const char *path);
/*
 * Checks PATH, then opens it with FLAGS | O_EXCL: the claim holds for as
 * long as the descriptor is open. The opened device must be the one checked
 * (a path replaced in between is refused). Returns the fd, or -1 with bb_err.
 */
int consent_open(const char *path, int flags);
/*
 * Runs a writing tool (see spawn() in util.h) after checking each of the
 * NDEVS devices it will write. Returns its exit status, or -1 with bb_err
 * when a device is refused or the tool cannot be started.
 */
int consent_spawn(char *const devs[], unsigned ndevs, char *const argv[], const char *input, int ignore_int,
		  char *out, size_t outlen);
/*
 * consent_spawn for a tool that writes the one device DEV: 0 when it exits
 * 0; else -1 with "WHAT failed (TOOL exit status N): its message" in bb_err.
 */
int consent_tool(const char *what, const char *dev, char *const argv[], const char *input, int ignore_int);
/* mount(2) of DEV read-write after the check. -1 with errno set (EPERM: refused, bb_err says why). */
int consent_mount(const char *dev, const char *dir, const char *fstype, unsigned long flags);
/* The same with filesystem options (DATA: noload, subvol=...); a read-only mount needs no consent. */
int consent_mount_data(const char *dev, const char *dir, const char *fstype, unsigned long flags, const char *data);
/*
 * The mounts that write no disk, for a rescue chroot: the kernel's virtual
 * filesystems (proc, sysfs, devtmpfs, devpts, tmpfs, efivarfs, mqueue), a
 * bind of a folder or file (MS_BIND; refused for a block device) and a
 * change of propagation (MS_PRIVATE...). Anything else is refused (EPERM).
 */
int consent_mount_api(const char *source, const char *dir, const char *fstype, unsigned long flags,
		      const char *data);
/*
 * Mounts a network share (nfs, cifs) for saving results: no local disk is
 * written, so no consent is asked; refused (EPERM) for any other type or a
 * source that names a local device, so this cannot become a way around the
 * gate. DATA carries the options (and cifs' password) to the kernel.
 */
int consent_mount_share(const char *source, const char *dir, const char *fstype, unsigned long flags,
			const char *data);

/* What is using a block device ("" if nothing seen), for messages. */
void consent_users(dev_t rdev, char *buf, size_t len);
/*
 * Whether the regular file PATH is the backing file of a loop device (by
 * device and inode, as the kernel records it), so that writing the file
 * writes that device under its user: 1 with "loopN is backed by it" in
 * WHY, else 0 (also for a path that is not there or not a regular file; a
 * block device is consent_check's).
 */
int consent_loop_backing(const char *path, char *why, size_t len);
/* The same for a file already open or stat'ed (ST): its device and inode, no name looked up. */
int consent_loop_backing_stat(const struct stat *st, char *why, size_t len);
/* Every loop device's backing file, by its filesystem and inode (up to MAX): how many, -1 past MAX. */
int consent_loop_backings(dev_t *fs, ino_t *ino, unsigned max);

#endif
