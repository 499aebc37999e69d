/* SPDX-License-Identifier: MIT */
/*
 * mountns.h - a mount namespace of this process's own whose mounts do not
 * propagate back: what it mounts is gone when its last process exits. For
 * the rescue's probes and chroot sessions and for the sandbox; and its
 * mounts made read-only once they are all there.
 */
#ifndef BB_MOUNTNS_H
#define BB_MOUNTNS_H

/* unshare(CLONE_NEWNS | also), then every mount private; -1 with bb_err. */
int private_mount_namespace(int also);

/*
 * PATH's mount made read-only and nosuid (with AT_RECURSIVE in FLAGS, every
 * mount below it too); NODEV: nodev as well, so no device node on it opens.
 * Its other flags stay. 0, or -1 with errno. The sandbox's and the rescue
 * session's mounts are made so after the last one is in place.
 */
int mount_set_readonly(const char *path, unsigned flags, int nodev);
/*
 * PATH's mount (a bind of its own) made writable, for files only: nodev
 * and nosuid. Not noexec: a folder above the program (the working folder
 * /) would stop it and its libraries loading; the sandbox's seccomp filter
 * is what runs no other program. 0, or -1 with errno.
 */
int mount_set_writable_files(const char *path);

#endif
