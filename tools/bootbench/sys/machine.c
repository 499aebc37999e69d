// SPDX-License-Identifier: MIT
/*
 * machine.c - this machine's names for result folders, per-host configs
 * and pushed metrics: the DMI serial when the vendor set one, else the
 * first wired network card's MAC (the hostname is the same on every
 * machine booted from one image).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "machine.h"
#include "util.h"

/* The DMI serial, unless it is one of the vendors' placeholders. */
void machine_serial(char *buf, size_t len)
{
	static const char *const placeholders[] = { "To be filled", "Default", "None", "0", "System Serial",
						    "Not Specified", "Not Applicable", "" };
	unsigned i;

	if (read_attr("/sys/class/dmi/id/product_serial", buf, len))
		buf[0] = 0;
	for (i = 0; i < ARRAY_SIZE(placeholders); i++)
		if (!strncmp(buf, placeholders[i], strlen(placeholders[i])) && (placeholders[i][0] || !buf[0])) {
			buf[0] = 0;
			return;
		}
}

/* The first network card's (one with a device behind it) MAC, dashed. */
void machine_mac(char *buf, size_t len)
{
	struct dirent **names;
	int n, i;

	buf[0] = 0;
	n = scandir("/sys/class/net", &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		char path[300], mac[64];

		snprintf(path, sizeof(path), "/sys/class/net/%s/device", names[i]->d_name);
		if (!buf[0] && !access(path, F_OK)) {
			snprintf(path, sizeof(path), "/sys/class/net/%s/address", names[i]->d_name);
			if (!read_attr(path, mac, sizeof(mac)) && strcmp(mac, "00:00:00:00:00:00")) {
				for (char *c = mac; *c; c++)
					if (*c == ':')
						*c = '-';
				snprintf(buf, len, "%s", mac);
			}
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

void machine_id(char *buf, size_t len)
{
	char v[128];

	machine_serial(v, sizeof(v));
	if (v[0]) {
		snprintf(buf, len, "%s", v);
		return;
	}
	machine_mac(v, sizeof(v));
	if (v[0]) {
		char *o = v;

		for (char *c = v; *c; c++)
			if (*c != '-')
				*o++ = *c;
		*o = 0;
		snprintf(buf, len, "mac-%s", v);
		return;
	}
	if (gethostname(buf, len))
		snprintf(buf, len, "unknown");
}
