// SPDX-License-Identifier: MIT
/* mountns.c - a private mount namespace (mountns.h). */
#include "safety/mountns.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <linux/mount.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/util.h"
#include "safety/consent.h"
#include "sys/mounts.h"

static int make_private(const char *src, const char *mnt, void *ctx)
{
	(void)src;
	(void)ctx;
	consent_mount_api(NULL, mnt, NULL, MS_REC | MS_PRIVATE, NULL);
	return 0;
}

int private_mount_namespace(int also)
{
	if (unshare(CLONE_NEWNS | also))
		return set_err("cannot make a private mount namespace: %s", strerror(errno));
	if (!consent_mount_api(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return 0;
	if (errno != EINVAL)
		return set_err("cannot make the mount namespace private: %s", strerror(errno));
	/*
	 * "/" is no mount point: bootbench runs in a plain chroot (a test's
	 * fresh Debian root), never so on the appliance. Each mount seen is
	 * made private; the one holding this root is out of sight.
	 */
	return mounts_each(make_private, NULL) < 0 ? -1 : 0;
}

int mount_set_readonly(const char *path, unsigned flags, int nodev)
{
	struct mount_attr attr = { .attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | (nodev ? MOUNT_ATTR_NODEV : 0) };

	return (int)syscall(SYS_mount_setattr, AT_FDCWD, path, flags, &attr, sizeof(attr));
}

int mount_set_writable_files(const char *path)
{
	struct mount_attr attr = { .attr_set = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, .attr_clr = MOUNT_ATTR_RDONLY };

	return (int)syscall(SYS_mount_setattr, AT_FDCWD, path, 0, &attr, sizeof(attr));
}
