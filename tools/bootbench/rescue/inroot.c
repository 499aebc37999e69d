// SPDX-License-Identifier: MIT
/*
 * inroot.c - openat2(2) with RESOLVE_IN_ROOT (Linux 5.6; the image's 6.1
 * has it) over the installed system's mount point (inroot.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rescue/inroot.h"

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

int inroot_open(const char *root, const char *path, int flags)
{
	struct open_how how = { .flags = (unsigned long long)(flags | O_CLOEXEC), .resolve = RESOLVE_IN_ROOT };
	int dirfd, fd, e;

	dirfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return -1;
	while (*path == '/')
		path++;
	fd = (int)syscall(SYS_openat2, dirfd, *path ? path : ".", &how, sizeof(how));
	e = errno;
	close(dirfd);
	errno = e;
	return fd;
}

int inroot_path(const char *root, const char *path, char *out, size_t len)
{
	char link[64];
	ssize_t n;
	int fd = inroot_open(root, path, O_PATH);

	if (fd < 0)
		return -1;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, out, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	out[n] = 0;
	return 0;
}

int inroot_executable(const char *root, const char *path)
{
	struct stat st;
	int fd = inroot_open(root, path, O_PATH), ok;

	if (fd < 0)
		return 0;
	ok = !fstat(fd, &st) && S_ISREG(st.st_mode) && (st.st_mode & 0111);
	close(fd);
	return ok;
}

int inroot_read(const char *root, const char *path, char *buf, size_t len)
{
	int fd = inroot_open(root, path, O_RDONLY);
	size_t got = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	while (got + 1 < len && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += (size_t)n;
	buf[got] = 0;
	close(fd);
	return 0;
}
