// SPDX-License-Identifier: MIT
/*
 * worker.c - a job clone's set-up and tear-down: its files and ranges, its
 * I/O units with their buffers, its random state. The loop is in loop.c,
 * the choice of each I/O in iogen.c, verify= in verify.c, data in buffers.c.
 */
#include "job/worker.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "job/iolog.h"
#include "lib/util.h"

void job_bs_bounds(const struct job_opts *o, uint64_t *min, uint64_t *max)
{
	unsigned i;

	*min = *max = o->bs;
	for (i = 0; i < o->bssplit.n; i++) {
		if (!i || o->bssplit.bs[i] > *max)
			*max = o->bssplit.bs[i];
		if (!i || o->bssplit.bs[i] < *min)
			*min = o->bssplit.bs[i];
	}
	if (o->bsrange.min[0])
		for (i = 0; i < DDIR_NR; i++) {
			if (!i || o->bsrange.min[i] < *min)
				*min = o->bsrange.min[i];
			if (!i || o->bsrange.max[i] > *max)
				*max = o->bsrange.max[i];
		}
}

/* zoned, zoned_abs: each zone's blocks (of min_bs) in the file's range */
static int set_zones(struct worker_file *f, const struct job_opts *o, uint64_t unit)
{
	uint64_t n = f->len / unit, first = 0, first_of[DIST_ZONES_MAX], blocks[DIST_ZONES_MAX];
	double access[DIST_ZONES_MAX];
	unsigned i;

	if (o->dist.kind != DIST_ZONED && o->dist.kind != DIST_ZONED_ABS)
		return 0;
	for (i = 0; i < o->dist.nzones; i++) {
		const struct dist_zone *z = &o->dist.zones[i];
		uint64_t b = o->dist.kind == DIST_ZONED ? (uint64_t)((double)n * z->range_pct / 100.0) : z->bytes / unit;

		if (o->dist.kind == DIST_ZONED && i + 1 == o->dist.nzones)
			b = n - first;	/* rounding: the last zone reaches the end */
		if (!b)
			b = 1;
		access[i] = z->access_pct;
		first_of[i] = first;
		blocks[i] = b;
		first += b;
	}
	return dist_set_zones(&f->dist, o->dist.nzones, access, first_of, blocks);
}

int worker_init(struct worker *w, const struct job *j, unsigned clone, struct target **targets,
		unsigned ntargets, uint64_t size_max)
{
	const struct job_opts *o = &j->o;
	unsigned i, depth = o->iodepth;
	uint64_t seed;

	memset(w, 0, sizeof(*w));
	w->job = j;
	w->clone = clone;
	w->eng = engine_get(o->ioengine);
	if (engine_check(w->eng))
		return -1;
	job_bs_bounds(o, &w->min_bs, &w->max_bs);
	/* randrepeat: the same sequence every run; each clone its own */
	seed = o->given[opt_find("randseed")] ? o->randseed : o->randrepeat ? 0x6a09e667f3bcc908ull : now_ns();
	/* each clone, and each reporting group (a burn-in pass), its own sequence */
	w->seed = seed + 0x9e3779b97f4a7c15ull * (clone + 1) + 0xbf58476d1ce4e5b9ull * j->groupid;
	rng_seed(&w->rng, w->seed);
	w->nfiles = ntargets;
	w->files = xcalloc(ntargets, sizeof(*w->files));
	for (i = 0; i < ntargets; i++) {
		struct worker_file *f = &w->files[i];

		f->t = targets[i];
		f->fd = -1;
		if (job_range(o, f->t, ntargets, w->clone, size_max, &f->start, &f->len))
			return -1;
		f->nblocks = f->len / o->bs;
		perm_init(&f->perm, f->nblocks ? f->nblocks : 1, w->seed + i);
		if (o->dist.kind != DIST_RANDOM &&
		    (dist_init(&f->dist, o->dist.kind, o->dist.param, f->len / w->min_bs, w->seed + i) ||
		     set_zones(f, o, w->min_bs)))
			return set_err("job '%s': random_distribution %s does not fit %s (%llu bytes used)", o->name,
				       o->dist.kind == DIST_ZONED_ABS ? "zoned_abs: the zones" : "", f->t->path,
				       (unsigned long long)f->len);
		w->loop_bytes += f->len;
	}
	w->ios = xcalloc(depth, sizeof(*w->ios));
	w->free_ios = xcalloc(depth, sizeof(*w->free_ios));
	w->pending = xcalloc(depth, sizeof(*w->pending));
	w->done = xcalloc(depth, sizeof(*w->done));
	/* page-aligned for O_DIRECT and for registering with io_uring */
	w->buf_size = (size_t)(depth * w->max_bs + 4095) & ~(size_t)4095;
	w->buf_base = mmap(NULL, w->buf_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (w->buf_base == MAP_FAILED)
		return set_err("job '%s': cannot allocate %zu bytes of buffers", o->name, w->buf_size);
	fill_buffer(w, w->buf_base, w->buf_size);
	for (i = 0; i < depth; i++) {
		w->ios[i].buf = (char *)w->buf_base + i * w->max_bs;
		w->ios[i].index = i;
		w->free_ios[w->nfree++] = &w->ios[i];
	}
	if (o->verify && o->verify_backlog)
		w->backlog = xcalloc(o->verify_backlog, sizeof(*w->backlog));
	w->stats.clones = 1;
	iolog_init(w);
	return 0;
}

void worker_free(struct worker *w)
{
	unsigned i;

	for (i = 0; i < w->nfiles; i++)
		if (w->files[i].fd >= 0)
			close(w->files[i].fd);
	if (w->buf_base && w->buf_base != MAP_FAILED)
		munmap(w->buf_base, w->buf_size);
	free(w->files);
	free(w->ios);
	free(w->waitees);
	free(w->backlog);
	free(w->free_ios);
	free(w->pending);
	free(w->done);
	free(w->stats.samples);
	iolog_free(w);
}
