/* SPDX-License-Identifier: MIT */
/*
 * writable.h - what a job may write besides the disks named in --destroy
 * (issue 44): one rule for the native engine and for the jobs delegated to
 * fio, checked before anything is written. A job file comes from people
 * and places bootbench does not control; it may write a regular file
 *   - in the working folder (the folder bootbench was started in, or
 *     --workdir), unless that is / or a system folder;
 *   - under /tmp (or /dev/shm: files in memory too);
 *   - on a filesystem whose device the user named in --write=DEV (or in
 *     --destroy): "--write=/dev/sdb1 for directory=/mnt/sdb1";
 * and never, whatever it says: under /proc, /sys, /dev, /etc, /root, /usr,
 * /lib, /bin, /sbin, /boot, in / itself, on the boot or results medium,
 * through a symbolic link, a file with more than one name (a hard link's
 * other name may be a system file), nor a file that backs a loop device
 * (writing it writes that device). docs/run.md has the table.
 */
#ifndef BB_WRITABLE_H
#define BB_WRITABLE_H

#include <stddef.h>

/*
 * The run's rule: WORKDIR (NULL: the current folder) and the filesystems'
 * devices the user named (comma-separated, NULL: none). -1 with bb_err for
 * a device that is not a block device or a workdir that is not a folder.
 */
int writable_init(const char *workdir, const char *write_devs);
/* 1 when PATH may be written (created or overwritten) by a job; 0 with one line in WHY. */
int writable_file(const char *path, char *why, size_t len);
/*
 * A folder on a filesystem this process made itself out of consented disks
 * (raid's ZFS pool, mounted where no device names it): jobs may write
 * there. Kept across writable_init, as consent_allow_dev's devices are.
 */
void writable_allow_dir(const char *dir);
/* The working folder the rule uses ("" when there is none: it was / or a system folder). */
const char *writable_workdir(void);

#endif
