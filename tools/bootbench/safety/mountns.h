/* SPDX-License-Identifier: MIT */
/*
 * mountns.h - a mount namespace of this process's own whose mounts do not
 * propagate back: what it mounts is gone when its last process exits. For
 * the rescue's probes and chroot sessions and for the sandbox.
 */
#ifndef BB_MOUNTNS_H
#define BB_MOUNTNS_H

/* unshare(CLONE_NEWNS | also), then every mount private; -1 with bb_err. */
int private_mount_namespace(int also);

#endif
