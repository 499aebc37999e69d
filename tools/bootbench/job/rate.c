// SPDX-License-Identifier: MIT
/*
 * rate.c - rate_iops, rate and rate_process, as fio paces them: each
 * direction's I/Os are due at its rate from the start of the measured
 * time (or, poisson, at exponential gaps); a mixed job whose picked
 * direction is ahead of its rate takes the other one when that one is
 * due, and otherwise the one due first. Without the switch each
 * direction waits on the other's turns: at rate_iops=1000,1000 and
 * rwmixread=50 its 500 ms windows spread by the mix's coin (2% of the
 * mean on an idle host, 40% under load), where fio's hold within 0.2%.
 */
#include "job/worker.h"

#include <math.h>

#include "lib/util.h"

/* when the next I/O of DDIR is due (ns, now_ns's clock); 0: no rate */
static uint64_t rate_due(const struct worker *w, int ddir)
{
	const struct job_opts *o = &w->job->o;
	uint64_t iops = o->rate.iops[ddir], bps = o->rate_bw.iops[ddir], due = 0;

	if ((!iops && !bps) || !w->measuring)
		return 0;
	if (o->rate_process == RATE_POISSON)
		return w->poisson_due[ddir] ? w->poisson_due[ddir] : w->t_measure;
	if (iops)
		due = w->t_measure + w->issued_ios[ddir] * 1000000000ull / iops;
	if (bps) {
		/* in 128-bit: a terabyte moved at 1 GB/s is past 2^64 ns x bytes */
		uint64_t by_bytes = w->t_measure + (uint64_t)((unsigned __int128)w->issued_bytes[ddir] * 1000000000u / bps);

		if (by_bytes > due)
			due = by_bytes;
	}
	return due;
}

uint64_t rate_wait(struct worker *w, int ddir)
{
	uint64_t due = rate_due(w, ddir), now;

	if (!due)
		return 0;
	now = now_ns();
	return due > now ? due - now : 0;
}

int rate_ddir(struct worker *w, int ddir)
{
	const struct job_opts *o = &w->job->o;
	int other;
	uint64_t due, other_due, now;

	if (!is_mixed(o->rw) || (ddir != DDIR_READ && ddir != DDIR_WRITE))
		return ddir;
	other = ddir == DDIR_READ ? DDIR_WRITE : DDIR_READ;
	/* the other direction must be part of the mix to be taken */
	if ((other == DDIR_READ ? o->rwmixread : 100 - o->rwmixread) == 0)
		return ddir;
	/* no rate on this direction: no clock read on an unpaced job's every I/O */
	due = rate_due(w, ddir);
	if (!due)
		return ddir;
	now = now_ns();
	if (due <= now)
		return ddir;
	other_due = rate_due(w, other);
	/* the other direction unlimited or due: it goes now; else the one due first */
	if (!other_due || other_due <= now || other_due < due)
		return other;
	return ddir;
}

/*
 * rate_process=poisson, as fio's: the gap to the next I/O is exponential
 * with a mean of 1/IOPS (a cap in bytes: the IOPS of the smallest block).
 */
void poisson_next(struct worker *w, int ddir)
{
	const struct job_opts *o = &w->job->o;
	uint64_t iops = o->rate.iops[ddir], bps = o->rate_bw.iops[ddir], rate = iops;

	if (o->rate_process != RATE_POISSON || (!iops && !bps))
		return;
	if (bps && w->min_bs && (!rate || bps / w->min_bs < rate))
		rate = bps / w->min_bs;
	if (!rate)
		rate = 1;
	if (!w->poisson_due[ddir])
		w->poisson_due[ddir] = w->t_measure;
	w->poisson_due[ddir] += (uint64_t)(-log(1.0 - rng_double(&w->rate_rng)) * 1e9 / (double)rate);
}
