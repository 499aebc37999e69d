/* SPDX-License-Identifier: MIT */
/*
 * session.h - a rescue chroot into an installed system (what arch-chroot
 * does, in C): the root and every local filesystem its fstab names, the
 * kernel's filesystems, a private /run and /tmp, then a shell or a command;
 * all of it in a private mount namespace and a PID namespace, so that when
 * the command ends, or the helper is killed even with SIGKILL, no mount of
 * the installed system is left on the appliance and no process of it
 * survives. Mounts are read-only unless their device was given consent.
 *
 * Without --write nothing can be changed, by the shell or anything it runs:
 * its /dev holds only what a shell needs (null, zero, full, random, urandom,
 * tty, ptmx) and the named system's own block devices, mode 0400; it keeps
 * no capability that gets around that (CAP_SYS_ADMIN: mount; CAP_MKNOD;
 * CAP_SYS_RAWIO; CAP_DAC_OVERRIDE: write a 0400 node; module loading,
 * reboot, the clock, the network...); /proc, /sys, efivarfs and /dev are
 * read-only; and the installed system's shell starts without its startup
 * files (.bashrc, /etc/profile, $ENV) unless RC asks. With --write, the
 * devices consented to are 0600, the rest of the system's 0400, and the
 * same capabilities but those a repair needs (efivars, chown) are gone: only
 * the named devices are writable.
 */
#ifndef BB_SESSION_H
#define BB_SESSION_H

struct chroot_request {
	const char *root;		/* the root filesystem's device */
	const char *subvol;		/* btrfs: the root's subvolume ("" for the default) */
	char *const *argv;		/* the command; NULL for the installed system's shell */
	const char *cmdline;		/* what /proc/cmdline shows inside; NULL: the installed system's */
	const char *script;		/* a repair: this file of the appliance is run with sh inside */
	int quiet;			/* no "chroot: mounted ..." lines */
	const char *write_list;		/* --write's devices (comma separated); NULL: nothing is writable */
	int rc_files;			/* the shell runs its startup files (--rc) */
};

/*
 * Runs the session and returns the command's exit status (1 when a mount
 * was still busy at the end and the command had succeeded, 2 when the root
 * or an fstab entry could not be mounted: then nothing is left mounted).
 */
int chroot_session(const struct chroot_request *r);

#endif
