// SPDX-License-Identifier: MIT
/*
 * packs.c - naming the pack of a program that is not there. The image's
 * optional parts are loaded by the boot loader or left out (a PXE rack's
 * default entry loads the base and the firmware); a program of a part left
 * out is then missing, and "No such file or directory" alone would not say
 * what to change.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/packs.h"

int pack_missing_note(const char *program, char *buf, size_t len)
{
	const char *registry = getenv("BOOTBENCH_PACKS");
	const char *name = strrchr(program, '/');
	char line[256], prog[96], pack[64], file[96];
	int found = 0;
	FILE *f;

	name = name ? name + 1 : program;
	f = fopen(registry && *registry ? registry : "/etc/bootbench/packs", "re");
	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%95s %63s %95s", prog, pack, file) == 3 && !strcmp(prog, name);
	fclose(f);
	if (found)
		snprintf(buf, len, "it is in the %s pack (%s), which this boot did not load", pack, file);
	return found;
}
