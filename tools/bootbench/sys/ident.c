// SPDX-License-Identifier: MIT
/*
 * ident.c - a machine's one key (ident.h). The same rule as the name a
 * booted machine gives itself (sys/machine.c's safe_name), so what it
 * pushed, what it saved and what a person listed meet.
 */
#include "sys/ident.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "sys/machine.h"

int mac_normal(const char *s, char out[18])
{
	char hex[13];
	unsigned n = 0;

	for (; *s && n <= 12; s++) {
		if (isxdigit((unsigned char)*s))
			hex[n++] = (char)tolower((unsigned char)*s);
		else if ((*s != ':' && *s != '-') || n % 2 || !n)
			return -1;
	}
	if (n != 12 || *s)
		return -1;
	/* separators, if any, between every pair: aa:bb:cc:dd:ee:ff or aabbccddeeff */
	snprintf(out, 18, "%.2s:%.2s:%.2s:%.2s:%.2s:%.2s", hex, hex + 2, hex + 4, hex + 6, hex + 8, hex + 10);
	return 0;
}

int machine_key(const char *serial, const char *mac, char *out, size_t len)
{
	char m[18];
	size_t i, k = 0;

	if (!len)
		return -1;
	out[0] = 0;
	while (serial && (*serial == ' ' || *serial == '\t'))
		serial++;
	if (serial && !strncasecmp(serial, "mac-", 4) && !mac_normal(serial + 4, m))
		mac = m;
	else if (serial && *serial && !serial_is_placeholder(serial)) {
		size_t end = strlen(serial);

		/* blanks around it are a spreadsheet's or firmware's padding, not the serial */
		while (end && (serial[end - 1] == ' ' || serial[end - 1] == '\t' || serial[end - 1] == '\n'))
			end--;
		/* sys/machine.c's safe_name, then case folded */
		for (i = 0; i < end && k + 1 < len; i++) {
			unsigned char c = (unsigned char)serial[i];

			out[k++] = isalnum(c) || c == '.' || c == '-' || c == '_' ? (char)toupper(c) : '_';
		}
		while (k && out[k - 1] == '_')
			k--;
		out[k] = 0;
		if (out[0] == '.')
			out[0] = '_';
		if (k)
			return 0;
	}
	if (!mac || (mac != m && mac_normal(mac, m)))
		return -1;
	if (len < 17)
		return -1;	/* a cut key would be another machine's */
	snprintf(out, len, "mac-%.2s%.2s%.2s%.2s%.2s%.2s", m, m + 3, m + 6, m + 9, m + 12, m + 15);
	return 0;
}
