/* SPDX-License-Identifier: MIT */
/*
 * html.h - the shell of the self-contained HTML pages (`bootbench report`,
 * `bootbench compare --format=html`): one style sheet inline, the hatch
 * pattern the charts mark outliers and failures with, no script, no URL.
 */
#ifndef BB_HTML_H
#define BB_HTML_H

#include <stdio.h>

/* <!DOCTYPE html> to the opening of <body> and an <h1> of TITLE. */
void html_begin(FILE *f, const char *title);
void html_end(FILE *f);
/* TEXT with &, <, >, " escaped, for HTML and SVG alike. */
void html_escape(FILE *f, const char *text);

#endif
