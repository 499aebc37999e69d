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

static void add_figure(struct burnin_result *r, const char *device, const char *name, double value,
		       const char *fmt, va_list ap)
{
	struct burnin_figure *f;
	char full[64];

	if (r->nfig == BURNIN_FIGURES) {
		/* said once in the notes: a reader is told figures are missing, not left to think there were none */
		snprintf(full, sizeof(full), "figures past the first %d are not kept", BURNIN_FIGURES);
		if (!strstr(r->notes, full))
			burnin_note(r, "%s", full);
		return;
	}
	f = &r->fig[r->nfig++];
	snprintf(f->name, sizeof(f->name), "%s", name);
	snprintf(f->device, sizeof(f->device), "%s", device);
	f->value = value;
	f->numeric = 1;
	vsnprintf(f->text, sizeof(f->text), fmt, ap);
}

void burnin_figure(struct burnin_result *r, const char *name, double value, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_figure(r, "", name, value, fmt, ap);
	va_end(ap);
}

void burnin_device_figure(struct burnin_result *r, const char *device, const char *name, double value,
			  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_figure(r, device, name, value, fmt, ap);
	va_end(ap);
}
