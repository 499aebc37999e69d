// SPDX-License-Identifier: MIT
/*
 * libaio.c - Linux native AIO, as fio's libaio engine: io_setup once,
 * io_submit for what was queued, io_getevents for completions. Through the
 * system calls themselves (linux/aio_abi.h), as libaio's own wrappers are
 * one instruction each and a static musl build has no libaio.
 * AIO is asynchronous only with O_DIRECT; buffered I/O completes inside
 * io_submit, exactly as under fio.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/aio_abi.h>
#include <sys/syscall.h>

#include "engine/engine.h"
#include "job/worker.h"
#include "lib/util.h"

struct libaio_data {
	aio_context_t ctx;
	unsigned cap;			/* iodepth: iocbs, events */
	struct iocb *iocbs;		/* by io_unit index */
	struct iocb **queued;		/* filled by queue(), sent by commit() */
	unsigned nqueued;
	struct io_event *events;	/* completions taken, not yet reaped */
	unsigned nevents, next_event;
};

static long sys_io_setup(unsigned nr, aio_context_t *ctx) { return syscall(SYS_io_setup, nr, ctx); }
static long sys_io_destroy(aio_context_t ctx) { return syscall(SYS_io_destroy, ctx); }
static long sys_io_submit(aio_context_t ctx, long n, struct iocb **iocbs) { return syscall(SYS_io_submit, ctx, n, iocbs); }
static long sys_io_getevents(aio_context_t ctx, long min, long max, struct io_event *ev, struct timespec *ts)
{
	return syscall(SYS_io_getevents, ctx, min, max, ev, ts);
}

static int libaio_init(struct worker *w)
{
	struct libaio_data *d = xcalloc(1, sizeof(*d));

	d->cap = w->job->o.iodepth;
	if (sys_io_setup(d->cap, &d->ctx) < 0) {
		int err = errno;

		free(d);
		/* the system-wide limit is fs.aio-max-nr */
		return set_err("libaio: io_setup(%u) failed: %s%s", w->job->o.iodepth, strerror(err),
			       err == EAGAIN ? " (over /proc/sys/fs/aio-max-nr)" : "");
	}
	d->iocbs = xcalloc(d->cap, sizeof(*d->iocbs));
	d->queued = xcalloc(d->cap, sizeof(*d->queued));
	d->events = xcalloc(d->cap, sizeof(*d->events));
	w->eng_data = d;
	return 0;
}

static int libaio_queue(struct worker *w, struct io_unit *io)
{
	struct libaio_data *d = w->eng_data;
	struct iocb *cb;

	if (d->nqueued == d->cap || io->index >= d->cap)
		return -EBUSY;
	cb = &d->iocbs[io->index];
	memset(cb, 0, sizeof(*cb));
	cb->aio_data = (uint64_t)(uintptr_t)io;
	cb->aio_lio_opcode = io->ddir == DDIR_WRITE ? IOCB_CMD_PWRITE : IOCB_CMD_PREAD;
	cb->aio_fildes = (uint32_t)w->files[io->file].fd;
	cb->aio_buf = (uint64_t)(uintptr_t)io->buf;
	cb->aio_nbytes = io->len;
	cb->aio_offset = (int64_t)io->offset;
	d->queued[d->nqueued++] = cb;
	return Q_QUEUED;
}

/* Takes at least min completions (waiting for them) into the event buffer. */
static int take_events(struct libaio_data *d, unsigned min)
{
	struct timespec zero = { 0, 0 };
	long n;

	if (d->next_event < d->nevents)
		return 0;
	d->nevents = d->next_event = 0;
	do
		n = sys_io_getevents(d->ctx, min, d->cap, d->events, min ? NULL : &zero);
	while (n < 0 && errno == EINTR && !stop_requested);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	d->nevents = (unsigned)n;
	return 0;
}

static int libaio_commit(struct worker *w, unsigned wait_nr)
{
	struct libaio_data *d = w->eng_data;
	unsigned sent = 0;
	long n;

	while (sent < d->nqueued) {
		n = sys_io_submit(d->ctx, d->nqueued - sent, d->queued + sent);
		if (n > 0) {
			sent += (unsigned)n;
			continue;
		}
		if (n < 0 && errno == EINTR && !stop_requested)
			continue;
		if (n < 0 && errno == EAGAIN && d->next_event == d->nevents && take_events(d, 1) == 0)
			continue;	/* the kernel's queue is full: completions first */
		int err = n == 0 ? EIO : errno;

		/*
		 * The rest never started: each completes with the kernel's error,
		 * as an I/O error, so that what is counted in flight is reaped.
		 */
		memmove(d->events, d->events + d->next_event, (d->nevents - d->next_event) * sizeof(*d->events));
		d->nevents -= d->next_event;
		d->next_event = 0;
		for (; sent < d->nqueued; sent++) {
			struct io_event *ev = &d->events[d->nevents++];

			ev->data = d->queued[sent]->aio_data;
			ev->res = -err;
		}
		d->nqueued = 0;
		return 0;
	}
	d->nqueued = 0;
	return wait_nr ? take_events(d, wait_nr) : 0;
}

static unsigned libaio_reap(struct worker *w, struct io_unit **out, unsigned max)
{
	struct libaio_data *d = w->eng_data;
	unsigned n = 0;

	if (d->next_event == d->nevents && take_events(d, 0) < 0)
		return 0;
	while (n < max && d->next_event < d->nevents) {
		struct io_event *ev = &d->events[d->next_event++];
		struct io_unit *io = (struct io_unit *)(uintptr_t)ev->data;

		io->res = (int32_t)ev->res;
		out[n++] = io;
	}
	return n;
}

static int libaio_sync(struct worker *w, unsigned file, int datasync)
{
	/* called with nothing in flight: as fio's libaio, a plain fsync */
	int fd = w->files[file].fd;

	return (datasync ? fdatasync(fd) : fsync(fd)) < 0 ? -errno : 0;
}

static void libaio_cleanup(struct worker *w)
{
	struct libaio_data *d = w->eng_data;

	if (!d)
		return;
	sys_io_destroy(d->ctx);	/* waits for what is still in flight */
	free(d->iocbs);
	free(d->queued);
	free(d->events);
	free(d);
	w->eng_data = NULL;
}

const struct engine_ops engine_libaio = {
	.version = ENGINE_OPS_VERSION,
	.name = "libaio",
	.flags = ENGINE_F_ASYNC,
	.init = libaio_init,
	.queue = libaio_queue,
	.commit = libaio_commit,
	.reap = libaio_reap,
	.sync = libaio_sync,
	.cleanup = libaio_cleanup,
};
