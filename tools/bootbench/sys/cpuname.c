// SPDX-License-Identifier: MIT
/*
 * cpuname.c - the CPU's name (cpuname.h). arm64's /proc/cpuinfo names no
 * model: the MIDR's implementer and part do, as the kernel's cputype.h and
 * lscpu read them. The table holds the server and common cores; any other
 * pair is said as its numbers, never "unknown".
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "sys/cpuname.h"
#include "sys/root.h"

static const struct arm_core {
	unsigned implementer, part;
	const char *name;
} arm_cores[] = {
	{ 0x41, 0xd03, "ARM Cortex-A53" },
	{ 0x41, 0xd05, "ARM Cortex-A55" },
	{ 0x41, 0xd07, "ARM Cortex-A57" },
	{ 0x41, 0xd08, "ARM Cortex-A72" },
	{ 0x41, 0xd0b, "ARM Cortex-A76" },
	{ 0x41, 0xd0c, "ARM Neoverse-N1" },	/* Ampere Altra, AWS Graviton2 */
	{ 0x41, 0xd40, "ARM Neoverse-V1" },	/* AWS Graviton3 */
	{ 0x41, 0xd49, "ARM Neoverse-N2" },
	{ 0x41, 0xd4f, "ARM Neoverse-V2" },	/* NVIDIA Grace, AWS Graviton4 */
	{ 0x41, 0xd84, "ARM Neoverse-V3" },
	{ 0x41, 0xd8e, "ARM Neoverse-N3" },
	{ 0x43, 0x0a1, "Cavium ThunderX" },
	{ 0x43, 0x0af, "Cavium ThunderX2" },
	{ 0x48, 0xd01, "HiSilicon Kunpeng-920" },
	{ 0x50, 0x000, "APM X-Gene" },
	{ 0xc0, 0xac3, "Ampere AmpereOne" },
	{ 0xc0, 0xac4, "Ampere AmpereOne AC04" },
};

char *cpuinfo_value(char *line)
{
	char *v = strchr(line, ':');

	if (!v)
		return NULL;
	for (v++; *v == ' ' || *v == '\t'; v++)
		;
	v[strcspn(v, "\n")] = 0;
	return v;
}

void cpu_name(char *buf, size_t len)
{
	char path[PATH_MAX], line[512];
	long implementer = -1, part = -1;
	FILE *f;

	buf[0] = 0;
	root_path(path, sizeof(path), "/proc/cpuinfo");
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		char *v = cpuinfo_value(line);

		if (!v)
			continue;
		if (!strncmp(line, "model name", 10)) {
			snprintf(buf, len, "%s", v);
			break;
		}
		/* the first CPU's pair: a big.LITTLE machine's other cores follow it */
		if (!strncmp(line, "CPU implementer", 15) && implementer < 0)
			implementer = strtol(v, NULL, 0);
		else if (!strncmp(line, "CPU part", 8) && part < 0)
			part = strtol(v, NULL, 0);
	}
	if (f)
		fclose(f);
	if (!buf[0] && implementer >= 0 && part >= 0) {
		for (size_t i = 0; i < ARRAY_SIZE(arm_cores) && !buf[0]; i++)
			if (arm_cores[i].implementer == (unsigned)implementer && arm_cores[i].part == (unsigned)part)
				snprintf(buf, len, "%s", arm_cores[i].name);
		if (!buf[0])
			snprintf(buf, len, "arm64 CPU (implementer 0x%02lx, part 0x%03lx)", implementer, part);
	}
	printable_ascii(buf);
}
