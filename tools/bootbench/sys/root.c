// SPDX-License-Identifier: MIT
/* root.c - the machine's files, or a test's recorded copy of them (root.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "sys/root.h"

void root_path(char *buf, size_t len, const char *fmt, ...)
{
	const char *root = getenv("BOOTBENCH_SYSROOT");
	int n = snprintf(buf, len, "%s", root ? root : "");
	va_list ap;

	if (n < 0 || (size_t)n >= len)
		n = 0;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

int root_recorded(void)
{
	const char *root = getenv("BOOTBENCH_SYSROOT");

	return root && *root;
}
