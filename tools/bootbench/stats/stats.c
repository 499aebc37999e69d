// SPDX-License-Identifier: MIT
/* stats.c - merging the statistics of job clones for group reporting. */
#include "stats/stats.h"

#include <math.h>
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
	dst->total_runtime_ns += src->total_runtime_ns;
	dst->started |= src->started;
	for (d = 0; d < DDIR_NR; d++) {
		avg_stat_sum(&dst->bw[d], &src->bw[d]);
		avg_stat_sum(&dst->iops[d], &src->iops[d]);
	}
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

void avg_stat_add(struct avg_stat *s, uint64_t value)
{
	double v = (double)value, delta = v - s->mean;

	if (!s->samples || value < s->min)
		s->min = value;
	if (value > s->max)
		s->max = value;
	s->mean += delta / (double)(s->samples + 1);
	s->S += delta * (v - s->mean);
	s->samples++;
}

void avg_stat_sum(struct avg_stat *dst, const struct avg_stat *src)
{
	if (!src->samples)
		return;
	if (!dst->samples) {
		*dst = *src;
		return;
	}
	dst->min += src->min;
	dst->max += src->max;
	dst->mean += src->mean;
	dst->S += src->S;
	dst->samples += src->samples;
}

int avg_stat_get(const struct avg_stat *s, double *min, double *max, double *mean, double *dev)
{
	*min = *max = *mean = *dev = 0;
	if (!s->samples)
		return 0;
	*min = (double)s->min;
	*max = (double)s->max;
	*mean = s->mean;
	if (s->samples > 1)
		*dev = sqrt(s->S / (double)(s->samples - 1));
	return 1;
}
