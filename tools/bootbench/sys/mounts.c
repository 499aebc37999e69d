// SPDX-License-Identifier: MIT
/*
 * mounts.c - /proc/self/mounts and /proc/swaps, read once per question, with
 * the octal escapes the kernel writes for space, tab, newline and backslash
 * undone, so a mount point with a space is the path it names.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/util.h"
#include "sys/mounts.h"

/* Undoes \ooo in place. */
static void unescape(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' && s[3] >= '0' &&
		    s[3] <= '7') {
			*out++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = 0;
}

static int table_each(const char *path, int fields, int (*fn)(const char *, const char *, void *), void *ctx)
{
	char line[4096], a[2048], b[2048] = "";
	FILE *f = fopen(path, "re");
	int rc = 0;

	if (!f)
		return set_err("cannot read %s: %s", path, strerror(errno));
	while (!rc && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%2047s %2047s", a, b) < fields)
			continue;
		if (fields == 1 && !strcmp(a, "Filename"))	/* /proc/swaps' header */
			continue;
		unescape(a);
		if (fields == 2)
			unescape(b);
		rc = fn(a, fields == 2 ? b : "", ctx);
	}
	fclose(f);
	return rc;
}

int mounts_each(int (*fn)(const char *src, const char *mnt, void *ctx), void *ctx)
{
	return table_each("/proc/self/mounts", 2, fn, ctx);
}

int swaps_each(int (*fn)(const char *dev, const char *unused, void *ctx), void *ctx)
{
	return table_each("/proc/swaps", 1, fn, ctx);
}

static int source_is(const char *src, const char *mnt, void *ctx)
{
	struct stat st;

	return !stat(src, &st) && S_ISBLK(st.st_mode) && st.st_rdev == *(const dev_t *)ctx;
}

int mounts_has_dev(dev_t rdev)
{
	return mounts_each(source_is, &rdev) == 1;
}
