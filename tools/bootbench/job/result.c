// SPDX-License-Identifier: MIT
/* result.c - the figures every reader of a result derives from its statistics (result.h). */
#include "job/result.h"

#include <math.h>
#include <stdlib.h>

#include "lib/util.h"

const char *const ddir_names[DDIR_NR] = { "read", "write", "trim" };

double report_bw_bytes(const struct report *rep, int ddir)
{
	uint64_t ns = rep->st.runtime_ns;

	return ns ? (double)rep->st.dir[ddir].bytes * 1e9 / (double)ns : 0.0;
}

double report_iops(const struct report *rep, int ddir)
{
	uint64_t ns = rep->st.runtime_ns;

	return ns ? (double)rep->st.dir[ddir].ios * 1e9 / (double)ns : 0.0;
}

/* Min, max, mean and sample deviation of the per-second bandwidth (KiB/s) or IOPS. */
void sample_stats(const struct report *rep, int ddir, int want_bw, double *min, double *max, double *mean,
		  double *dev, unsigned *n)
{
	double sum = 0, sumsq = 0;
	unsigned i;

	*min = *max = *mean = *dev = 0;
	*n = 0;
	if (!rep->st.dir[ddir].ios)
		return;
	for (i = 0; i < rep->st.nsamples; i++) {
		const struct sample *s = &rep->st.samples[i];
		double v;

		if (!s->dur_ms)
			continue;
		v = want_bw ? (double)s->bytes[ddir] / 1024.0 * 1000.0 / s->dur_ms
			    : (double)s->ios[ddir] * 1000.0 / s->dur_ms;
		if (!*n || v < *min)
			*min = v;
		if (v > *max)
			*max = v;
		sum += v;
		sumsq += v * v;
		(*n)++;
	}
	if (!*n)
		return;
	*mean = sum / *n;
	if (*n > 1) {
		double var = (sumsq - sum * sum / *n) / (*n - 1);

		*dev = var > 0 ? sqrt(var) : 0;
	}
}

uint64_t group_bw_bytes(const struct run_result *r, unsigned groupid, int ddir)
{
	double total = 0;
	unsigned i;

	for (i = 0; i < r->nreports; i++)
		if (r->reports[i].job->groupid == groupid)
			total += report_bw_bytes(&r->reports[i], ddir);
	return (uint64_t)total;
}
