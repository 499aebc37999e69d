// SPDX-License-Identifier: MIT
/* html.c - the shell of the self-contained pages (html.h). */
#include "report/html.h"

/* Black on white, so it prints; the charts' classes are svg.c's. */
static const char style[] =
	"body{font:14px/1.4 sans-serif;color:#000;background:#fff;max-width:1180px;margin:1em auto;padding:0 1em}"
	"h1{font-size:22px}h2{font-size:18px;border-bottom:1px solid #000;margin-top:1.6em}h3{font-size:15px}"
	"table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #888;padding:2px 6px;text-align:left;"
	"vertical-align:top}th{background:#eee}td.n{text-align:right}pre{font-size:12px;background:#f4f4f4;"
	"padding:6px;overflow-x:auto;white-space:pre}.bad{font-weight:bold;text-decoration:underline}"
	".charts{display:flex;flex-wrap:wrap;gap:8px}.chart{border:1px solid #ccc;background:#fff}"
	".ct{font-size:13px;font-weight:bold}.xt,.yt,.lg,.bl,.bv{font-size:11px}.xt{text-anchor:middle}"
	".yt,.bl{text-anchor:end}.xl,.yl{font-size:12px;text-anchor:middle}.grid{stroke:#ddd;stroke-width:1}"
	".axes{fill:none;stroke:#000}.ln{fill:none;stroke-width:1.6}.bar{fill:#777;stroke:#000}"
	".hatch{fill:url(#hatch)}.mark{stroke:#000;stroke-width:1.5;stroke-dasharray:5 3}"
	"@media print{body{max-width:none}h2{break-before:auto}.chart,table,pre{break-inside:avoid}}";

void html_escape(FILE *f, const char *t)
{
	for (; t && *t; t++) {
		switch (*t) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*t, f);
		}
	}
}

void html_begin(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
	html_escape(f, title);
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n"
		   /* the hatch that marks an outlier's or a failed level's bar, in black and white */
		   "<svg width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\"><defs>"
		   "<pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
		   "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#fff\"/>"
		   "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#000\" stroke-width=\"3\"/></pattern>"
		   "</defs></svg>\n<h1>", style);
	html_escape(f, title);
	fputs("</h1>\n", f);
}

void html_end(FILE *f)
{
	fputs("</body>\n</html>\n", f);
}
