// SPDX-License-Identifier: MIT
/*
 * svg.c - line and bar charts as inline SVG (svg.h). Coordinates are mapped
 * once per axis (linear, decades, or the percentile "nines" scale on which
 * 90, 99 and 99.9 are equally spaced, the usual way to draw a latency
 * distribution's tail); ticks fall on round values: 1, 2, 5 x 10^k on a
 * linear axis, the decades on a log one.
 */
#include <math.h>
#include <string.h>

#include "lib/util.h"
#include "report/html.h"
#include "report/svg.h"

#define MARGIN_L 70
#define MARGIN_R 34
#define MARGIN_T 28
#define MARGIN_B 46

static const char *const dashes[] = { "", "7 4", "2 3", "10 3 2 3", "4 4", "1 6" };
static const char *const shades[] = { "#000", "#444", "#000", "#666", "#222", "#555" };

/* A value's place on AXIS, before scaling to pixels. */
static double axis_value(enum svg_axis a, double v)
{
	switch (a) {
	case AXIS_LOG:
		return log10(v > 1e-12 ? v : 1e-12);
	case AXIS_NINES:
		return -log10(1 - (v < 99.9999 ? v : 99.9999) / 100);
	default:
		return v;
	}
}

struct range {
	enum svg_axis axis;
	double lo, hi;		/* in axis_value units */
	int px0, px1;		/* pixels of lo and hi */
};

static double to_px(const struct range *r, double v)
{
	double a = axis_value(r->axis, v);

	if (r->hi <= r->lo)
		return (r->px0 + r->px1) / 2.0;
	return r->px0 + (a - r->lo) / (r->hi - r->lo) * (r->px1 - r->px0);
}

/* A round step for about 5 ticks over SPAN: 1, 2 or 5 x 10^k. */
static double nice_step(double span)
{
	double raw = span / 5, mag = pow(10, floor(log10(raw))), m = raw / mag;

	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * mag;
}

static void fit(struct range *r, double lo, double hi)
{
	if (r->axis == AXIS_LINEAR) {
		double step;

		if (lo > 0)
			lo = 0;	/* bars and rates read against zero */
		if (hi <= lo)
			hi = lo + 1;
		step = nice_step(hi - lo);
		r->lo = floor(lo / step) * step;
		r->hi = ceil(hi / step) * step;
	} else if (r->axis == AXIS_LOG) {
		r->lo = floor(axis_value(AXIS_LOG, lo));
		r->hi = ceil(axis_value(AXIS_LOG, hi));
		if (r->hi <= r->lo)
			r->hi = r->lo + 1;
	} else {
		r->lo = 0;
		r->hi = ceil(axis_value(AXIS_NINES, hi));
		if (r->hi < 2)
			r->hi = 2;
	}
}

/* Tick values along R, in data units (up to 12). */
static unsigned ticks(const struct range *r, double *t)
{
	unsigned n = 0;
	double v;

	if (r->axis == AXIS_LINEAR) {
		double step = nice_step(r->hi - r->lo);

		for (v = r->lo; v <= r->hi + step / 2 && n < 12; v += step)
			t[n++] = fabs(v) < step / 1e6 ? 0 : v;
	} else if (r->axis == AXIS_LOG) {
		for (v = r->lo; v <= r->hi && n < 12; v++)
			t[n++] = pow(10, v);
	} else {
		for (v = 0; v <= r->hi && n < 12; v++)
			t[n++] = 100 * (1 - pow(10, -v));
	}
	return n;
}

static void tick_label(enum svg_axis a, double v, char *buf, size_t len)
{
	if (a == AXIS_NINES) {
		/* the tick's nines: 0%, 90%, 99%, 99.9% ... (never rounded up to 100%) */
		int nines = (int)lround(axis_value(AXIS_NINES, v));

		if (nines < 2)
			snprintf(buf, len, "%d%%", nines ? 90 : 0);
		else
			snprintf(buf, len, "99.%.*s%%", nines - 2, "99999999");
		if (nines == 2)
			snprintf(buf, len, "99%%");
	} else if (fabs(v) >= 1e6 || (fabs(v) < 1e-3 && v != 0))
		snprintf(buf, len, "%.0e", v);
	else
		snprintf(buf, len, "%g", v);
}

static void frame(FILE *f, const struct svg_chart *c, int w, int h, const struct range *x, const struct range *y)
{
	double t[12];
	unsigned n, i, k;
	char buf[32];

	fprintf(f, "<svg class=\"chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n", w, h, w, h);
	fprintf(f, "<title>");
	html_escape(f, c->title);
	fprintf(f, "</title>\n<text x=\"%d\" y=\"18\" class=\"ct\">", MARGIN_L);
	html_escape(f, c->title);
	fprintf(f, "</text>\n");
	for (k = 0; k < 2; k++) {
		const struct range *r = k ? x : y;

		n = ticks(r, t);
		for (i = 0; i < n; i++) {
			double p = to_px(r, t[i]);

			tick_label(r->axis, t[i], buf, sizeof(buf));
			/* a grid line across the plot, its value beside the axis */
			if (k)
				fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"grid\"/>"
					   "<text x=\"%.1f\" y=\"%d\" class=\"xt\">%s</text>\n",
					p, MARGIN_T, p, h - MARGIN_B, p, h - MARGIN_B + 14, buf);
			else
				fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"grid\"/>"
					   "<text x=\"%d\" y=\"%.1f\" class=\"yt\">%s</text>\n",
					MARGIN_L, p, w - MARGIN_R, p, MARGIN_L - 4, p + 4, buf);
		}
	}
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"axes\"/>\n", MARGIN_L, MARGIN_T,
		w - MARGIN_L - MARGIN_R, h - MARGIN_T - MARGIN_B);
	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"xl\">", (MARGIN_L + w - MARGIN_R) / 2, h - 8);
	html_escape(f, c->xlabel);
	fprintf(f, "</text>\n<text x=\"14\" y=\"%d\" class=\"yl\" transform=\"rotate(-90 14 %d)\">",
		(MARGIN_T + h - MARGIN_B) / 2, (MARGIN_T + h - MARGIN_B) / 2);
	html_escape(f, c->ylabel);
	fprintf(f, "</text>\n");
}

/* A point of series D: a filled circle, an open square, a filled diamond, ... */
static void marker(FILE *f, unsigned d, double px, double py)
{
	switch (d % 3) {
	case 0:
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#000\"/>", px, py);
		break;
	case 1:
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"6\" height=\"6\" fill=\"#fff\" stroke=\"#000\"/>",
			px - 3, py - 3);
		break;
	default:
		fprintf(f, "<path d=\"M%.1f %.1fl4 4-4 4-4-4z\" fill=\"#555\"/>", px, py - 4);
	}
}

void svg_lines(FILE *f, const struct svg_chart *c, const struct svg_series *s, unsigned n)
{
	int w = c->width ? c->width : 560, h = c->height ? c->height : 300;
	struct range x = { .axis = c->xaxis, .px0 = MARGIN_L, .px1 = w - MARGIN_R };
	struct range y = { .axis = c->yaxis, .px0 = h - MARGIN_B, .px1 = MARGIN_T };
	double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
	unsigned i, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < s[i].n; k++) {
			if (c->yaxis == AXIS_LOG && s[i].y[k] <= 0)
				continue;
			xlo = fmin(xlo, s[i].x[k]);
			xhi = fmax(xhi, s[i].x[k]);
			ylo = fmin(ylo, s[i].y[k]);
			yhi = fmax(yhi, s[i].y[k]);
		}
	if (xlo > xhi) {
		xlo = ylo = 0;
		xhi = yhi = 1;
	}
	fit(&x, xlo, xhi);
	fit(&y, ylo, yhi);
	frame(f, c, w, h, &x, &y);
	for (i = 0; i < n; i++) {
		unsigned d = i % ARRAY_SIZE(dashes);

		fprintf(f, "<polyline class=\"ln\" stroke=\"%s\"%s%s%s points=\"", shades[d],
			dashes[d][0] ? " stroke-dasharray=\"" : "", dashes[d], dashes[d][0] ? "\"" : "");
		for (k = 0; k < s[i].n; k++)
			if (c->yaxis != AXIS_LOG || s[i].y[k] > 0)
				fprintf(f, "%.1f,%.1f ", to_px(&x, s[i].x[k]), to_px(&y, s[i].y[k]));
		fprintf(f, "\"/>\n");
		/* few points (a short run): each marked, in a shape of its series' own */
		for (k = 0; s[i].n <= 40 && k < s[i].n; k++)
			if (c->yaxis != AXIS_LOG || s[i].y[k] > 0)
				marker(f, d, to_px(&x, s[i].x[k]), to_px(&y, s[i].y[k]));
		/* the legend: a sample of the line, then its label */
		if (n > 1 || (s[i].label && s[i].label[0])) {
			/* bottom right: where a rising latency curve and a run's steady rate are not */
			int ly = h - MARGIN_B - 8 - 14 * (int)(n - 1 - i), lx = w - MARGIN_R - 170;

			fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"ln\" stroke=\"%s\"%s%s%s/>"
				   "<text x=\"%d\" y=\"%d\" class=\"lg\">", lx, ly - 4, lx + 28, ly - 4, shades[d],
				dashes[d][0] ? " stroke-dasharray=\"" : "", dashes[d], dashes[d][0] ? "\"" : "",
				lx + 34, ly);
			html_escape(f, s[i].label);
			fprintf(f, "</text>\n");
		}
	}
	fprintf(f, "</svg>\n");
}

void svg_bars(FILE *f, const char *title, const char *unit, const char *const *labels, const double *values,
	      const int *highlight, unsigned n, double mark)
{
	int bar = 18, gap = 6, left = 190, w = 640, h = MARGIN_T + (int)n * (bar + gap) + 36;
	double hi = mark, step;
	unsigned i;
	char buf[32];

	for (i = 0; i < n; i++)
		hi = fmax(hi, values[i]);
	if (hi <= 0)
		hi = 1;
	step = nice_step(hi);
	hi = ceil(hi / step) * step;
	fprintf(f, "<svg class=\"chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n<title>", w,
		h, w, h);
	html_escape(f, title);
	fprintf(f, "</title>\n<text x=\"8\" y=\"18\" class=\"ct\">");
	html_escape(f, title);
	fprintf(f, "</text>\n");
	for (double v = 0; v <= hi + step / 2; v += step) {
		double px = left + v / hi * (w - left - 80);

		snprintf(buf, sizeof(buf), "%g", v);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"grid\"/>"
			   "<text x=\"%.1f\" y=\"%d\" class=\"xt\">%s</text>\n",
			px, MARGIN_T - 4, px, h - 30, px, h - 16, buf);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"xl\">", (left + w - 80) / 2, h - 2);
	html_escape(f, unit);
	fprintf(f, "</text>\n");
	for (i = 0; i < n; i++) {
		int y = MARGIN_T + (int)i * (bar + gap);
		double len = values[i] > 0 ? values[i] / hi * (w - left - 80) : 0;

		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"bl\">", left - 6, y + bar - 5);
		html_escape(f, labels[i]);
		fprintf(f, "</text><rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" class=\"%s\"/>"
			   "<text x=\"%.1f\" y=\"%d\" class=\"bv\">%.*f%s</text>\n",
			left, y, len, bar, highlight && highlight[i] ? "bar hatch" : "bar", left + len + 4, y + bar - 5,
			fabs(values[i]) >= 100 ? 0 : fabs(values[i]) >= 10 ? 1 : 2, values[i],
			highlight && highlight[i] ? " !" : "");
	}
	if (mark > 0) {
		double px = left + mark / hi * (w - left - 80);

		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"mark\"/>\n", px, MARGIN_T - 6, px,
			h - 30);
	}
	fprintf(f, "</svg>\n");
}
