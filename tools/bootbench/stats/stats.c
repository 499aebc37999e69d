// SPDX-License-Identifier: MIT
/* stats.c - merging the statistics of job clones for group reporting. */
#include "stats/stats.h"

#include <string.h>

#include "lib/util.h"

void stats_add_sample(struct job_stats *s, const struct sample *smp)
{
	if (s->nsamples == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->samples = xrealloc(s->samples, s->cap * sizeof(*s->samples));
	}
	s->samples[s->nsamples++] = *smp;
}

void stats_merge(struct job_stats *dst, const struct job_stats *src)
{
	unsigned d, i;

	for (d = 0; d < DDIR_NR; d++) {
		hist_merge(&dst->dir[d].slat, &src->dir[d].slat);
		hist_merge(&dst->dir[d].clat, &src->dir[d].clat);
		hist_merge(&dst->dir[d].lat, &src->dir[d].lat);
		dst->dir[d].bytes += src->dir[d].bytes;
		dst->dir[d].ios += src->dir[d].ios;
		dst->dir[d].short_ios += src->dir[d].short_ios;
	}
	hist_merge(&dst->sync, &src->sync);
	dst->verify_blocks += src->verify_blocks;
	dst->verify_bad += src->verify_bad;
	dst->total_err += src->total_err;
	if (!dst->first_error)
		dst->first_error = src->first_error;
	for (i = 0; i < DEPTH_BUCKETS; i++) {
		dst->depth[i] += src->depth[i];
		dst->submit[i] += src->submit[i];
		dst->complete[i] += src->complete[i];
	}
	if (src->runtime_ns > dst->runtime_ns)
		dst->runtime_ns = src->runtime_ns;
	dst->usr_us += src->usr_us;
	dst->sys_us += src->sys_us;
	dst->ctx += src->ctx;
	dst->majf += src->majf;
	dst->minf += src->minf;
	/* the clones run side by side: second i of the group is the sum of their second i */
	for (i = 0; i < src->nsamples; i++) {
		if (i < dst->nsamples) {
			struct sample *s = &dst->samples[i];

			for (d = 0; d < DDIR_NR; d++) {
				s->ios[d] += src->samples[i].ios[d];
				s->bytes[d] += src->samples[i].bytes[d];
				s->lat_sum_ns[d] += src->samples[i].lat_sum_ns[d];
			}
		} else {
			stats_add_sample(dst, &src->samples[i]);
		}
	}
	dst->clones += src->clones;
	if (!dst->error && src->error) {
		dst->error = src->error;
		memcpy(dst->errmsg, src->errmsg, sizeof(dst->errmsg));
	}
}
