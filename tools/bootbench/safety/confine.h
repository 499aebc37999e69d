/* SPDX-License-Identifier: MIT */
/*
 * confine.h - the world a job's I/O runs in (issue 44), the same for fio in
 * its sandbox (sandbox.h) and for bootbench's own engine threads:
 *   - every mount read-only, nosuid and nodev, but the folders the job may
 *     write (writable.h), bound writable for files only (nodev, nosuid);
 *   - a /dev of its own: null, zero, full, random, urandom and the device
 *     nodes the job names, at the paths it names them by (written ones
 *     0600, read ones 0400: without CAP_DAC_OVERRIDE not opened for
 *     writing, even by root); read-only;
 *   - in fio's world (protect_links), each file of those folders that has
 *     another name (a hard link: its other name may be /etc's) or backs a
 *     loop device read-only all the same: fio writes whatever name a job
 *     makes, not only those bootbench checked;
 *   - capabilities but the kept ones gone, bounding set too;
 *   - the system-call allowlist (syscalls.h).
 *
 * The native engine: confine_start() makes one thread that confines itself
 * (its own mount namespace, root and working folder: unshare is per thread
 * with CLONE_FS) and starts every engine thread the run asks for
 * (confine_spawn), which inherit all of it. bootbench's main thread stays
 * outside: it writes the results, the logs (under writable.h's rule,
 * checked before the run) and the metrics. Not run as root, no mount can
 * be made: the thread has the allowlist only (and the kernel's file
 * permissions).
 */
#ifndef BB_CONFINE_H
#define BB_CONFINE_H

#include <pthread.h>
#include <sys/types.h>

struct confine_node {
	const char *path;	/* under /dev: "/dev/loop3", "/dev/disk/by-id/x" (made a node there) */
	dev_t rdev;
	mode_t mode;		/* S_IFBLK or S_IFCHR, and 0600 (written) or 0400 (read) */
};

struct confine {
	const char *name;			/* in messages: "fio", "the engine" */
	const char *const *write_dirs;		/* folders bound writable (files only), NULL-ended */
	const struct confine_node *nodes;	/* its /dev's device nodes */
	unsigned nnodes;
	int fresh_shm;				/* a /dev/shm of its own (else the host's, read-only but
						   the write dirs there) */
	int protect_links;			/* fio's world: in the folders it may write, each file with
						   more than one name and each loop device's backing file
						   bound read-only over itself (fio writes any name there) */
};

/*
 * In a process or thread that has a private mount namespace of its own:
 * the mounts as above. The working folder is kept (by its path). -1 with
 * bb_err.
 */
int confine_mounts(const struct confine *c);

/*
 * The native engine's confined thread, made once per run: mounts, then
 * capabilities (KEEP's kept), then the allowlist (syscalls.h, SC_NATIVE).
 * -1 with bb_err when it could not be made (nothing runs then).
 */
int confine_start(const struct confine *c, const int *keep, unsigned nkeep);
/* A thread started by the confined one (pthread_create's arguments and result). */
int confine_spawn(pthread_t *thread, void *(*fn)(void *), void *arg);
/* The confined thread ended (its threads must have been joined). */
void confine_stop(void);

#endif
