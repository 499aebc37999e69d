/* SPDX-License-Identifier: MIT */
/*
 * wrap.h - text for an 80-column console (a serial line, the menu's boxes):
 * prose folded at word boundaries with a hanging indent, so tables keep
 * their columns and no word is split unmarked.
 */
#ifndef BB_WRAP_H
#define BB_WRAP_H

#include <stdio.h>

/*
 * The width to fit: $COLUMNS when it is a number from 40 to 1000, else the
 * terminal's (80 when it does not say); 0 (no folding) when the output is
 * not a terminal: a saved file keeps a line a line.
 */
int wrap_width(void);
/*
 * Prints LEAD, then TEXT folded at blanks to lines of at most WIDTH
 * columns, each line after the first indented by as many columns as LEAD
 * has; a newline ends it. A word longer than a whole line (a path, a long
 * model string) is cut, each piece but its last ending in '\' (WRAP_CUT),
 * so that a reader sees it continue and none of it is lost. WIDTH 0: TEXT
 * as it is.
 */
#define WRAP_CUT '\\'
void wrap_print(FILE *f, const char *lead, const char *text, int width);
/*
 * S in a table's column of WIDTH: whole when it fits, else its first
 * WIDTH-1 characters and '+' (a cut never passes for the whole name).
 * Returns 1 when cut, so that the caller can give it whole elsewhere.
 */
int wrap_cell(char *buf, size_t len, const char *s, int width);
/* A labelled field on stdout: LABEL in 14 columns, then FMT's text folded to wrap_width() under itself. */
void wrap_field(const char *label, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
