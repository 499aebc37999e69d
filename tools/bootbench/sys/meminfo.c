// SPDX-License-Identifier: MIT
/* meminfo.c - /proc/meminfo's figures (meminfo.h): "NAME:   123 kB" lines. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "sys/meminfo.h"
#include "sys/root.h"

uint64_t meminfo_bytes(const char *field)
{
	char path[PATH_MAX], line[256];
	size_t len = strlen(field);
	unsigned long long kib = 0;
	FILE *f;

	root_path(path, sizeof(path), "/proc/meminfo");
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, field, len) && line[len] == ':' && sscanf(line + len + 1, "%llu", &kib) == 1)
			break;
	if (f)
		fclose(f);
	return (uint64_t)kib << 10;
}
