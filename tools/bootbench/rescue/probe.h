/* SPDX-License-Identifier: MIT */
/*
 * probe.h - finding the installed systems on this machine: every partition,
 * whole disk without partitions, md array and device-mapper volume (LVM,
 * opened LUKS) with a Linux root filesystem is mounted read-only (nothing
 * replayed, nothing written) in a private mount namespace; one holding an
 * os-release (/etc/os-release or /usr/lib/os-release) is a system, marked
 * when its init is missing. btrfs: its default subvolume, then
 * the usual layouts (@, @root, root).
 */
#ifndef BB_PROBE_H
#define BB_PROBE_H

#include <limits.h>
#include <stdint.h>

struct installed {
	char dev[PATH_MAX];
	char fstype[32];
	char subvol[64];	/* btrfs: where the system is ("" for the default) */
	char name[128];		/* os-release PRETTY_NAME, else NAME VERSION */
	char id[64];		/* os-release ID */
	char version[64];	/* os-release VERSION_ID */
	uint64_t bytes;
	char boot[PATH_MAX];	/* the device its fstab mounts on /boot, "" if none */
	char esp[PATH_MAX];	/* on /boot/efi or /efi */
	char cmdline[1024];	/* its boot loader's kernel command line, "" if not found */
	char missing[32];	/* what a booting system lacks ("no init"), "" if nothing */
	char machine[24];	/* what its programs are built for (machine.h), "" if not known */
};

/*
 * Finds the installed systems into *OUT (caller frees); must run in a
 * process of its own mount namespace (probe_private_namespace). Returns
 * how many, or -1 with bb_err.
 */
int probe_systems(struct installed **out);
/* Looks at DEV alone (in a private mount namespace too): 1 and FOUND filled when it holds a system. */
int probe_device(const char *dev, struct installed *found);
/* A private mount namespace (mountns.h), with the folder the probes mount on. */
int probe_private_namespace(void);
/* The kernel command line of the system mounted at ROOT, from its grub.cfg; "" if none. */
void probe_cmdline(const char *root, char *buf, size_t len);

#endif
