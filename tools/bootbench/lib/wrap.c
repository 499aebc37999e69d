// SPDX-License-Identifier: MIT
/* wrap.c - prose folded to a console's width (wrap.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "lib/wrap.h"

int wrap_width(void)
{
	const char *c = getenv("COLUMNS");
	struct winsize ws;
	char *end;
	long n;

	if (c && *c) {
		n = strtol(c, &end, 10);
		if (!*end && n >= 40 && n <= 1000)
			return (int)n;
	}
	if (!isatty(STDOUT_FILENO))
		return 0;
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col >= 40)
		return ws.ws_col;
	return 80;
}

int wrap_cell(char *buf, size_t len, const char *s, int width)
{
	if ((int)strlen(s) <= width) {
		snprintf(buf, len, "%s", s);
		return 0;
	}
	snprintf(buf, len, "%.*s+", width - 1, s);
	return 1;
}

void wrap_print(FILE *f, const char *lead, const char *text, int width)
{
	int indent = (int)strlen(lead), col = indent, room;

	fputs(lead, f);
	if (width <= 0) {
		fprintf(f, "%s\n", text);
		return;
	}
	room = width - indent > 10 ? width - indent : 10;
	while (*text) {
		size_t blanks = strspn(text, " \t\n"), word;

		text += blanks;
		if (!*text)
			break;
		word = strcspn(text, " \t\n");
		if (col > indent && col + 1 + (int)word > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		/* a word longer than a whole line: cut, marked, the rest on the next; never
		 * inside a UTF-8 character (a model string's, a label's) */
		while ((int)word > room) {
			int piece = room - 1;

			while (piece > 1 && ((unsigned char)text[piece] & 0xc0) == 0x80)
				piece--;
			fprintf(f, "%.*s%c\n%*s", piece, text, WRAP_CUT, indent, "");
			text += piece;
			word -= piece;
		}
		fprintf(f, "%.*s", (int)word, text);
		col += (int)word;
		text += word;
	}
	fputc('\n', f);
}

void wrap_field(const char *label, const char *fmt, ...)
{
	char lead[32], text[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	snprintf(lead, sizeof(lead), "%-14s", label);
	wrap_print(stdout, lead, text, wrap_width());
}
