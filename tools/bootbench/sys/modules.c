// SPDX-License-Identifier: MIT
/*
 * modules.c - loading a kernel module before the mount that needs it (the
 * image has no udev, and busybox's modprobe follows no soft dependencies).
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "lib/util.h"
#include "sys/modules.h"

/*
 * Loads MODULE and the modules it names as soft dependencies (cifs names
 * the crypto it needs for SMB 3 signing and encryption this way, and fails
 * its mount without them): busybox modprobe does not follow them, so the
 * lines of modules.softdep are read here. A module that is built in or
 * already loaded is no error.
 */
void module_load(const char *module)
{
	char path[300], line[512], out[256];
	struct utsname un;
	FILE *f;

	if (uname(&un))
		return;
	snprintf(path, sizeof(path), "/lib/modules/%s/modules.softdep", un.release);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		char *save = NULL, *w = strtok_r(line, " \t\n", &save);

		if (!w || strcmp(w, "softdep") || !(w = strtok_r(NULL, " \t\n", &save)) || strcmp(w, module))
			continue;
		while ((w = strtok_r(NULL, " \t\n", &save))) {
			char *argv[] = { "modprobe", "-q", w, NULL };

			if (strcmp(w, "pre:") && strcmp(w, "post:"))
				spawn(argv, NULL, 1, out, sizeof(out));	/* consent: loads a module */
		}
	}
	if (f)
		fclose(f);
	{
		char *argv[] = { "modprobe", "-q", (char *)module, NULL };

		spawn(argv, NULL, 1, out, sizeof(out));	/* consent: loads a module */
	}
}
