// SPDX-License-Identifier: MIT
/*
 * null.c - an engine that does no I/O: queued I/Os complete at the
 * next commit, as fio's null engine. It measures the harness itself and
 * lets tests run the whole job machinery without a disk.
 */
#include <errno.h>
#include <stdlib.h>

#include "engine/engine.h"
#include "job/worker.h"
#include "lib/util.h"

struct null_data {
	struct io_unit **fifo;		/* queued I/Os, oldest at head */
	unsigned cap, head;
	unsigned queued;		/* not reaped yet */
	unsigned committed;		/* of those, committed: complete at the next reap */
};

static int null_init(struct worker *w)
{
	struct null_data *d = xcalloc(1, sizeof(*d));

	d->cap = w->job->o.iodepth;
	d->fifo = xcalloc(d->cap, sizeof(*d->fifo));
	w->eng_data = d;
	return 0;
}

static int null_queue(struct worker *w, struct io_unit *io)
{
	struct null_data *d = w->eng_data;

	if (d->queued == d->cap)
		return -EBUSY;
	io->res = (int32_t)io->len;
	d->fifo[(d->head + d->queued) % d->cap] = io;
	d->queued++;
	return Q_QUEUED;
}

static int null_commit(struct worker *w, unsigned wait_nr)
{
	struct null_data *d = w->eng_data;

	(void)wait_nr;
	d->committed = d->queued;
	return 0;
}

static unsigned null_reap(struct worker *w, struct io_unit **out, unsigned max)
{
	struct null_data *d = w->eng_data;
	unsigned n = 0;

	while (d->committed && n < max) {
		out[n++] = d->fifo[d->head];
		d->head = d->head + 1 == d->cap ? 0 : d->head + 1;
		d->queued--;
		d->committed--;
	}
	return n;
}

static int null_sync(struct worker *w, unsigned file, int datasync)
{
	(void)w;
	(void)file;
	(void)datasync;
	return 0;
}

static void null_cleanup(struct worker *w)
{
	struct null_data *d = w->eng_data;

	free(d->fifo);
	free(d);
	w->eng_data = NULL;
}

const struct engine_ops engine_null = {
	.version = ENGINE_OPS_VERSION,
	.name = "null",
	.flags = ENGINE_F_ASYNC | ENGINE_F_NOIO,
	.init = null_init,
	.queue = null_queue,
	.commit = null_commit,
	.reap = null_reap,
	.sync = null_sync,
	.cleanup = null_cleanup,
};
