// SPDX-License-Identifier: MIT
/* result.c - a component's verdict, notes and figures (burnin.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "burnin/burnin.h"

const char *burnin_verdict_name(enum burnin_verdict v)
{
	static const char *const names[] = { "SKIPPED", "PASS", "ERROR", "INTERRUPTED", "FAIL" };

	return names[v];
}

void burnin_set(struct burnin_result *r, enum burnin_verdict v, const char *fmt, ...)
{
	size_t n = strlen(r->reason);
	va_list ap;

	if (v < r->verdict)
		return;
	/* a worse kind replaces the reason; more of the same kind are added
	 * to it (every failure named, not only the first) */
	if (v > r->verdict || r->verdict == BURNIN_PASS)
		n = 0;
	else if (n && n + 2 < sizeof(r->reason)) {
		strcpy(r->reason + n, "; ");
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(r->reason + n, sizeof(r->reason) - n, fmt, ap);
	va_end(ap);
	r->verdict = v;
}

void burnin_note(struct burnin_result *r, const char *fmt, ...)
{
	size_t n = strlen(r->notes);
	va_list ap;

	if (n && n + 2 < sizeof(r->notes)) {
		strcpy(r->notes + n, "; ");
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(r->notes + n, sizeof(r->notes) - n, fmt, ap);
	va_end(ap);
}

void burnin_figure(struct burnin_result *r, const char *name, double value, const char *fmt, ...)
{
	struct burnin_figure *f;
	va_list ap;

	if (r->nfig == BURNIN_FIGURES)
		return;
	f = &r->fig[r->nfig++];
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->value = value;
	f->numeric = 1;
	va_start(ap, fmt);
	vsnprintf(f->text, sizeof(f->text), fmt, ap);
	va_end(ap);
}
