// SPDX-License-Identifier: MIT
/*
 * mmap.c - I/O through a shared memory map of each file's range, as fio's
 * mmap engine: a read copies from the map, a write into it (the page cache
 * writes it back; fsync= is msync). Synchronous, so the queue depth is one.
 * A device error arrives as SIGBUS, as under fio: the run stops on it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "engine/engine.h"
#include "job/worker.h"
#include "lib/util.h"

struct mmap_data {
	void **map;	/* per file: its range, mapped */
	long page;
};

static int mmap_init(struct worker *w)
{
	struct mmap_data *d = xcalloc(1, sizeof(*d));
	int prot = PROT_READ | (job_does(w->job->o.rw, DDIR_WRITE) ? PROT_WRITE : 0);
	unsigned i;

	d->map = xcalloc(w->nfiles, sizeof(*d->map));
	d->page = 4096;
	w->eng_data = d;
	for (i = 0; i < w->nfiles; i++) {
		struct worker_file *f = &w->files[i];
		/* a map starts on a page: from the page holding the range's start */
		uint64_t from = f->start / (uint64_t)d->page * (uint64_t)d->page;

		d->map[i] = mmap(NULL, f->start + f->len - from, prot, MAP_SHARED, f->fd, (off_t)from);
		if (d->map[i] == MAP_FAILED) {
			d->map[i] = NULL;
			return set_err("mmap: cannot map %llu bytes of %s: %s",
				       (unsigned long long)(f->start + f->len - from), f->t->path, strerror(errno));
		}
		d->map[i] = (char *)d->map[i] + (f->start - from);
	}
	return 0;
}

static int mmap_queue(struct worker *w, struct io_unit *io)
{
	struct mmap_data *d = w->eng_data;
	const struct worker_file *f = &w->files[io->file];
	char *at = (char *)d->map[io->file] + (io->offset - f->start);

	if (io->ddir == DDIR_WRITE)
		memcpy(at, io->buf, io->len);
	else
		memcpy(io->buf, at, io->len);
	io->res = (int32_t)io->len;
	return Q_COMPLETED;
}

static int mmap_sync(struct worker *w, unsigned file, int datasync)
{
	struct mmap_data *d = w->eng_data;
	const struct worker_file *f = &w->files[file];
	uintptr_t at = (uintptr_t)d->map[file] - (f->start % (uint64_t)d->page);

	(void)datasync;
	return msync((void *)at, f->len + f->start % (uint64_t)d->page, MS_SYNC) < 0 ? -errno : 0;
}

static void mmap_cleanup(struct worker *w)
{
	struct mmap_data *d = w->eng_data;
	unsigned i;

	if (!d)
		return;
	for (i = 0; i < w->nfiles; i++) {
		const struct worker_file *f = &w->files[i];

		if (d->map[i])
			munmap((char *)d->map[i] - f->start % (uint64_t)d->page, f->len + f->start % (uint64_t)d->page);
	}
	free(d->map);
	free(d);
	w->eng_data = NULL;
}

const struct engine_ops engine_mmap = {
	.version = ENGINE_OPS_VERSION,
	.name = "mmap",
	.init = mmap_init,
	.queue = mmap_queue,
	.sync = mmap_sync,
	.cleanup = mmap_cleanup,
};
