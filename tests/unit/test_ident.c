// SPDX-License-Identifier: MIT
/*
 * test_ident.c - sys/ident.h's machine_key: the one key the rack's CSV,
 * the share and the Pushgateway labels meet on (issue 46), and the same
 * rule as the name a machine gives itself (sys/machine.c).
 */
#include <string.h>

#include "sys/ident.h"
#include "unit.h"

static const char *key(const char *serial, const char *mac)
{
	static char out[128];

	if (machine_key(serial, mac, out, sizeof(out)))
		return "(none)";
	return out;
}

int main(void)
{
	static const struct {
		const char *serial, *mac, *want;
	} cases[] = {
		{ "ABC 123/4", NULL, "ABC_123_4" },	/* what the machine pushed and saved as */
		{ "abc 123/4", NULL, "ABC_123_4" },	/* a person's spelling */
		{ "ABC_123_4", NULL, "ABC_123_4" },	/* the folder's name: the same key again */
		{ "  sn-0002\t", NULL, "SN-0002" },	/* a spreadsheet's blanks */
		{ "SN/7//", NULL, "SN_7" },		/* trailing _ go, as safe_name's */
		{ ".hidden", NULL, "_HIDDEN" },
		{ "To Be Filled By O.E.M.", "52:54:00:AB:CD:EF", "mac-525400abcdef" },	/* a placeholder */
		{ NULL, "52-54-00-ab-cd-ef", "mac-525400abcdef" },
		{ "", "525400ABCDEF", "mac-525400abcdef" },
		{ "mac-525400ABCDEF", NULL, "mac-525400abcdef" },	/* bootbench's own name for it */
		{ "SN-1", "52:54:00:ab:cd:ef", "SN-1" },		/* the serial first */
		{ NULL, "not-a-mac", "(none)" },
		{ NULL, NULL, "(none)" },
		{ "   ", NULL, "(none)" },
	};
	char small[8];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK(!strcmp(key(cases[i].serial, cases[i].mac), cases[i].want), "'%s' '%s': %s, not %s",
		      cases[i].serial ? cases[i].serial : "(null)", cases[i].mac ? cases[i].mac : "(null)",
		      key(cases[i].serial, cases[i].mac), cases[i].want);
	CHECK(machine_key(NULL, "52:54:00:ab:cd:ef", small, sizeof(small)) == -1 && !small[0],
	      "a MAC key that does not fit is no key, never a cut one");
	return unit_done();
}
