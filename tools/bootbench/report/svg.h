/* SPDX-License-Identifier: MIT */
/*
 * svg.h - charts as inline SVG for the HTML pages of `bootbench report` and
 * `bootbench compare`: no script, no font or file from elsewhere, readable
 * printed in black and white (series differ by dash pattern and marker, not
 * only by colour), axes labelled with their units.
 */
#ifndef BB_SVG_H
#define BB_SVG_H

#include <stdio.h>

struct svg_series {
	const char *label;
	const double *x, *y;
	unsigned n;
};

enum svg_axis {
	AXIS_LINEAR,
	AXIS_LOG,	/* decades: 1, 10, 100 ... */
	AXIS_NINES,	/* percentiles: 0, 90, 99, 99.9 ... equally spaced (x = -log10(1 - p/100)) */
};

struct svg_chart {
	const char *title;
	const char *xlabel, *ylabel;	/* with their units: "time (s)", "latency (us)" */
	enum svg_axis xaxis, yaxis;
	int width, height;		/* 0: 560 x 300 */
};

/* A line chart of N series (up to 6 dash patterns, then they repeat). */
void svg_lines(FILE *f, const struct svg_chart *c, const struct svg_series *s, unsigned n);

/*
 * A horizontal bar chart: one bar per label, its value written beside it;
 * MARK > 0 draws a reference line there (1.0 for "relative to one disk");
 * HIGHLIGHT[i] (may be NULL) hatches bar i (an outlier, a failure).
 */
void svg_bars(FILE *f, const char *title, const char *unit, const char *const *labels, const double *values,
	      const int *highlight, unsigned n, double mark);

#endif
