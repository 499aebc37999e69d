// SPDX-License-Identifier: MIT
/*
 * machine.c - this machine's one name, for result folders, per-host configs
 * (${serial}) and pushed metrics: the DMI serial when the vendor set a real
 * one, else the first wired network card's MAC (the hostname is the same on
 * every machine booted from one image). The one rule: /init's shell asks
 * `bootbench sysinfo --machine-id`, compare reads results by the same test.
 *
 * A serial is a placeholder when, with blanks trimmed and case ignored, it
 * is one of the strings below, or one character repeated (000000, FFFFFF,
 * spaces). The list is what boards ship unset, collected from real
 * firmware: the AMI/Insyde/Phoenix defaults systemd's hwdb lists as
 * meaningless DMI values (hwdb.d/20-dmi-id.hwdb: "To be filled by O.E.M.",
 * "Default string", "O.E.M.", "N/A"), dmidecode's wording for unset fields
 * ("Not Specified", "None"), fwupd's IBV-example rule ("To Be Defined By
 * O.E.M"), and what server and desktop boards print in place of a serial
 * (Supermicro "0123456789", HP "System Serial Number", Lenovo/Intel
 * "Chassis Serial Number"). Compared whole: a real serial may start with
 * "0" or "None".
 */
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "lib/util.h"
#include "sys/machine.h"
#include "sys/root.h"

static const char *const placeholders[] = {
	"To Be Filled By O.E.M.", "To Be Filled By O.E.M", "To Be Filled", "To Be Defined By O.E.M.",
	"To Be Defined By O.E.M", "Default string", "Default", "Default_string", "O.E.M.", "OEM", "N/A", "NA",
	"None", "Not Specified", "Not Available", "Not Applicable", "Unknown", "System Serial Number",
	"System Serial#", "Chassis Serial Number", "Base Board Serial Number", "Serial Number", "SerialNumber",
	"SN", "0123456789", "123456789", "1234567890", "01234567890", "Empty", "Invalid", "Unspecified",
	"XXXXXXXXXX",
};

/* /sys, or BOOTBENCH_SYSROOT/sys for a test's fake one. */
static void sys_path(char *buf, size_t len, const char *rel)
{
	root_path(buf, len, "/sys/%s", rel);
}

int serial_is_placeholder(const char *serial)
{
	size_t start = 0, end = strlen(serial), i;
	unsigned k;

	while (start < end && isspace((unsigned char)serial[start]))
		start++;
	while (end > start && isspace((unsigned char)serial[end - 1]))
		end--;
	if (start == end)
		return 1;
	for (i = start + 1; i < end && serial[i] == serial[start]; i++)
		;
	if (i == end)
		return 1;	/* one character, or one repeated */
	for (k = 0; k < ARRAY_SIZE(placeholders); k++)
		if (strlen(placeholders[k]) == end - start && !strncasecmp(serial + start, placeholders[k], end - start))
			return 1;
	return 0;
}

void machine_serial(char *buf, size_t len)
{
	char path[PATH_MAX];

	sys_path(path, sizeof(path), "class/dmi/id/product_serial");
	if (read_attr(path, buf, len) || serial_is_placeholder(buf))
		buf[0] = 0;
}

/* The first wired network card's (one with a device behind it, not wireless) MAC, dashed. */
void machine_mac(char *buf, size_t len)
{
	char dir[PATH_MAX];
	struct dirent **names;
	int n, i;

	buf[0] = 0;
	sys_path(dir, sizeof(dir), "class/net");
	n = scandir(dir, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		char path[PATH_MAX + 300], wireless[PATH_MAX + 300], mac[64];
		const char *name = names[i]->d_name;

		snprintf(path, sizeof(path), "%s/%s/device", dir, name);
		snprintf(wireless, sizeof(wireless), "%s/%s/wireless", dir, name);
		if (!buf[0] && name[0] != '.' && !access(path, F_OK) && access(wireless, F_OK)) {
			snprintf(path, sizeof(path), "%s/%s/address", dir, name);
			if (!read_attr(path, mac, sizeof(mac)) && strlen(mac) == 17 && strcmp(mac, "00:00:00:00:00:00")) {
				for (char *c = mac; *c; c++)
					*c = *c == ':' ? '-' : (char)tolower((unsigned char)*c);
				snprintf(buf, len, "%s", mac);
			}
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

/* Only characters safe in a folder name on FAT and in a URL; a serial is firmware's text, untrusted. */
static void safe_name(char *s)
{
	size_t n;

	for (char *c = s; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("._-", *c))
			*c = '_';
	for (n = strlen(s); n && s[n - 1] == '_'; n--)
		s[n - 1] = 0;
	if (s[0] == '.')
		s[0] = '_';	/* never "." or ".." or a hidden name */
}

void machine_unique_id(char *buf, size_t len)
{
	char v[128];

	machine_serial(v, sizeof(v));
	safe_name(v);
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
	buf[0] = 0;
}

void machine_id(char *buf, size_t len)
{
	char v[128];

	machine_unique_id(buf, len);
	if (buf[0])
		return;
	if (gethostname(v, sizeof(v)))
		snprintf(v, sizeof(v), "unknown");
	v[sizeof(v) - 1] = 0;
	safe_name(v);
	snprintf(buf, len, "%s", v[0] ? v : "unknown");
}
