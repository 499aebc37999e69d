/* SPDX-License-Identifier: MIT */
/*
 * fstab.h - an installed system's /etc/fstab, as fstab(5) writes it: the
 * entries a rescue chroot mounts (local filesystems, not swap, not noauto,
 * not network ones), and their device specs (UUID=, PARTUUID=, LABEL=,
 * PARTLABEL=, /dev/mapper/..., /dev/disk/by-uuid/...) resolved to devices of
 * this machine.
 */
#ifndef BB_FSTAB_H
#define BB_FSTAB_H

#include <limits.h>
#include <stddef.h>

struct fstab_entry {
	char spec[512];		/* as written: UUID=..., /dev/sda2 */
	char dir[PATH_MAX];	/* the mount point, \040 and the other escapes decoded */
	char type[32];
	char opts[512];
	int line;		/* for messages */
};

/*
 * Parses fstab TEXT into *OUT (caller frees), in the file's order. Comment
 * and blank lines are skipped; a line without the three first fields is an
 * error naming its number. Returns the number of entries, -1 with bb_err.
 */
int fstab_parse(const char *text, struct fstab_entry **out);

/* Whether a chroot mounts E: a local filesystem other than the root, not swap, not noauto. */
int fstab_wanted(const struct fstab_entry *e);

/* The value of option NAME in OPTS (subvol=@home gives "@home") into BUF; 0 if found, -1 if not. */
int fstab_opt(const char *opts, const char *name, char *buf, size_t len);

/*
 * OPTS without what must not reach mount(2) as data: the flags mount(8)
 * turns into MS_* (ro, rw, noatime, nosuid...), the user-space ones
 * (defaults, auto, nofail, x-systemd.*, user, _netdev) and errors=remount-ro
 * for a read-only mount; the rest (subvol=, data=ordered, ...) stays.
 */
void fstab_fs_data(const char *opts, char *buf, size_t len);

/*
 * Resolves SPEC to a device path: the /dev/disk/by-{uuid,partuuid,label,
 * partlabel} link when udev or mdev made one, else blkid's search of every
 * device; a /dev path is taken as it is (links followed). -1 with bb_err
 * naming the spec when no device has it.
 */
int fstab_resolve(const char *spec, char *dev, size_t len);

/* The filesystem type on DEV (blkid's low-level probe, no cache), its module loaded; -1 and "" if none. */
int fs_type_of(const char *dev, char *type, size_t len);

/* The mount data for a read-only look that writes nothing (noload, norecovery) for FSTYPE, plus EXTRA. */
void readonly_data(const char *fstype, const char *extra, char *buf, unsigned long len);

#endif
