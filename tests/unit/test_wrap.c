// SPDX-License-Identifier: MIT
/*
 * test_wrap.c - wrap_print folds prose to the width: no line past it, the
 * hanging indent kept, and a word longer than a line (a path, a model
 * string) cut with WRAP_CUT ending each piece but the last, so that the
 * pieces joined give the word back whole.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "lib/wrap.h"

#define S(p) ((p) ? (p) : "(none)")

/* TEXT through wrap_print into a string the caller frees */
static char *wrapped(const char *lead, const char *text, int width)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	wrap_print(f, lead, text, width);
	fclose(f);
	return buf;
}

/* the words of OUT again: the lead dropped, cut pieces joined, blanks single */
static void unwrapped(const char *out, size_t lead, char *words, size_t size)
{
	size_t n = 0;

	while (*out && n + 1 < size) {
		size_t len = strcspn(out, "\n"), i;
		int cut = len > lead && out[len - 1] == WRAP_CUT;

		for (i = lead; i < len - cut && n + 1 < size; i++)
			words[n++] = out[i];
		out += len + (out[len] == '\n');
		/* a cut word goes on at the next line; a fold was a blank */
		if (!cut && *out && n + 1 < size)
			words[n++] = ' ';
	}
	words[n] = 0;
}

static int widest(const char *out)
{
	int most = 0;

	while (*out) {
		int len = (int)strcspn(out, "\n");

		if (len > most)
			most = len;
		out += len + (out[len] == '\n');
	}
	return most;
}

int main(void)
{
	char words[1024];
	const char *lead = "disks     FAIL  ";
	const char *prose = "sda: no self-test: SMART status 0x4001 (Invalid Command Opcode: it has no self-test)";
	const char *path = "/dev/disk/by-id/nvme-SAMSUNG_MZQL23T8HCLS-00A07_S64HNE0T123456_with_a_very_long_namespace_suffix_1";
	char *out;

	/* prose: folded at blanks, none past 80, the indent kept, nothing cut */
	out = wrapped(lead, prose, 40);
	CHECK(out && widest(out) <= 40, "a line past 40 columns: %s", S(out));
	CHECK(out && !strchr(out, WRAP_CUT), "prose needs no cut: %s", S(out));
	CHECK(out && strstr(out, "\n                "), "the hanging indent: %s", S(out));
	unwrapped(out, strlen(lead), words, sizeof(words));
	CHECK(!strcmp(words, prose), "the words changed: '%s'", words);
	free(out);

	/* a path longer than a line: cut, each piece marked, none past the width */
	out = wrapped(lead, path, 60);
	CHECK(out && widest(out) <= 60, "a line past 60 columns: %s", S(out));
	CHECK(out && strchr(out, WRAP_CUT), "the cut is not marked: %s", S(out));
	unwrapped(out, strlen(lead), words, sizeof(words));
	CHECK(!strcmp(words, path), "the pieces joined are not the path: '%s'", words);
	free(out);

	/* a long word among others, at the narrowest lead room (10 columns) */
	{
		const char *mixed = "model ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 reported no temperature";

		out = wrapped("x ", mixed, 12);
		CHECK(out && widest(out) <= 12, "a line past 12 columns: %s", S(out));
		unwrapped(out, 2, words, sizeof(words));
		CHECK(!strcmp(words, mixed), "the words changed: '%s'", words);
		free(out);
	}

	/* a long word of UTF-8 characters (two bytes each): cut between characters, never inside one */
	{
		const char *utf8 = "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
				   "\xc3\xa9\xc3\xa9";
		const char *line;
		int split = 0;

		out = wrapped("", utf8, 12);
		unwrapped(out ? out : "", 0, words, sizeof(words));
		CHECK(!strcmp(words, utf8), "the pieces joined are not the word: '%s'", words);
		for (line = out; line && *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] == '\n')) {
			size_t len = strcspn(line, "\n");

			/* a piece ends in the marker after a whole character: the byte before it is not a lead byte */
			if (len >= 2 && line[len - 1] == WRAP_CUT && ((unsigned char)line[len - 2] & 0xe0) == 0xc0)
				split = 1;
		}
		CHECK(out && !split, "a UTF-8 character cut in two: %s", S(out));
		free(out);
	}

	/* width 0: the text as it is, on one line */
	{
		char whole[256];

		snprintf(whole, sizeof(whole), "%s%s\n", lead, path);
		out = wrapped(lead, path, 0);
		CHECK(out && !strcmp(out, whole), "width 0 changed the text: %s", S(out));
		free(out);
	}
	return unit_done();
}
