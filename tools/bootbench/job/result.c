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

uint64_t group_bw_bytes(const struct run_result *r, unsigned groupid, int ddir)
{
	double total = 0;
	unsigned i;

	for (i = 0; i < r->nreports; i++)
		if (r->reports[i].job->groupid == groupid)
			total += report_bw_bytes(&r->reports[i], ddir);
	return (uint64_t)total;
}
