// SPDX-License-Identifier: MIT
/*
 * uring_cmd.c - NVMe passthrough through io_uring (fio's io_uring_cmd with
 * cmd_type=nvme): each I/O is an NVMe Read or Write command sent on the
 * namespace's generic char device (/dev/ngXnY) with IORING_OP_URING_CMD,
 * around the block layer's queueing and merging; a sync is a Flush. The
 * ring has 128-byte entries for the command and 32-byte completions for its
 * result. The char device's consent is its namespace's (target.c).
 */
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <linux/nvme_ioctl.h>

#include "engine/engine.h"
#include "engine/ring.h"
#include "job/worker.h"
#include "lib/util.h"

enum { NVME_CMD_FLUSH = 0x00, NVME_CMD_WRITE = 0x01, NVME_CMD_READ = 0x02 };

struct cmd_data {
	struct io_uring ring;
	struct io_uring_cqe **cqes;
};

static const uint8_t cmd_ops[] = { IORING_OP_URING_CMD };

static int cmd_init(struct worker *w)
{
	struct cmd_data *d;
	struct io_uring_params p;
	unsigned i;
	int rc;

	for (i = 0; i < w->nfiles; i++)
		if (!w->files[i].t->nvme_chr)
			return set_err("io_uring_cmd: %s is not an NVMe generic char device (/dev/ngXnY)",
				       w->files[i].t->path);
	d = xcalloc(1, sizeof(*d));
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SQE128 | IORING_SETUP_CQE32;
	rc = ring_init_disabled(w->job->o.iodepth, &d->ring, &p);
	if (rc < 0) {
		free(d);
		return set_err("io_uring_cmd: a ring with 128-byte entries: %s", strerror(-rc));
	}
	/* the ring passes NVMe commands, nothing else (engine/ring.h) */
	rc = ring_restrict(&d->ring, cmd_ops, ARRAY_SIZE(cmd_ops));
	if (!rc)
		rc = ring_enable(&d->ring);
	if (rc < 0) {
		io_uring_queue_exit(&d->ring);
		free(d);
		return set_err("io_uring_cmd: the ring could not be restricted to commands: %s", strerror(-rc));
	}
	d->cqes = xcalloc(w->job->o.iodepth, sizeof(*d->cqes));
	w->eng_data = d;
	return 0;
}

/* One NVMe command in an SQE: opcode, namespace, buffer, starting LBA and count. */
static void prep_cmd(struct io_uring_sqe *sqe, int fd, unsigned op, const struct target *t, void *buf,
		     uint32_t len, uint64_t off)
{
	struct nvme_uring_cmd *c = (struct nvme_uring_cmd *)sqe->cmd;
	uint64_t slba = off / t->lbs;

	memset(sqe, 0, 2 * sizeof(*sqe));	/* an SQE128 entry is two */
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = fd;
	sqe->cmd_op = NVME_URING_CMD_IO;
	c->opcode = (uint8_t)op;
	c->nsid = t->nsid;
	if (op != NVME_CMD_FLUSH) {
		c->addr = (uint64_t)(uintptr_t)buf;
		c->data_len = len;
		c->cdw10 = (uint32_t)slba;
		c->cdw11 = (uint32_t)(slba >> 32);
		c->cdw12 = len / t->lbs - 1;	/* blocks, 0-based */
	}
}

static int cmd_queue(struct worker *w, struct io_unit *io)
{
	struct cmd_data *d = w->eng_data;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&d->ring);
	const struct worker_file *f = &w->files[io->file];

	if (!sqe)
		return -EBUSY;
	prep_cmd(sqe, f->fd, io->ddir == DDIR_WRITE ? NVME_CMD_WRITE : NVME_CMD_READ, f->t, io->buf, io->len,
		 io->offset);
	io_uring_sqe_set_data(sqe, io);
	return Q_QUEUED;
}

static int cmd_commit(struct worker *w, unsigned wait_nr)
{
	struct cmd_data *d = w->eng_data;
	int rc;

	do
		rc = io_uring_submit_and_wait(&d->ring, wait_nr);
	while (rc == -EINTR && !stop_requested);
	return rc == -EINTR ? 0 : (rc < 0 ? rc : 0);
}

/* A command's completion: 0 is success; above 0 an NVMe status (an I/O error). */
static int32_t cmd_res(int res, uint32_t len)
{
	return res == 0 ? (int32_t)len : res < 0 ? res : -EIO;
}

static unsigned cmd_reap(struct worker *w, struct io_unit **out, unsigned max)
{
	struct cmd_data *d = w->eng_data;
	unsigned n, i;

	n = io_uring_peek_batch_cqe(&d->ring, d->cqes, max);
	for (i = 0; i < n; i++) {
		struct io_unit *io = io_uring_cqe_get_data(d->cqes[i]);

		io->res = cmd_res(d->cqes[i]->res, io->len);
		out[i] = io;
	}
	io_uring_cq_advance(&d->ring, n);
	return n;
}

static int cmd_sync(struct worker *w, unsigned file, int datasync)
{
	struct cmd_data *d = w->eng_data;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&d->ring);
	struct io_uring_cqe *cqe;
	int rc;

	(void)datasync;
	/* called with nothing in flight: the one completion is this Flush */
	if (!sqe)
		return -EBUSY;
	prep_cmd(sqe, w->files[file].fd, NVME_CMD_FLUSH, w->files[file].t, NULL, 0, 0);
	io_uring_sqe_set_data(sqe, NULL);
	do
		rc = io_uring_submit_and_wait(&d->ring, 1);
	while (rc == -EINTR);
	if (rc < 0 || (rc = io_uring_peek_cqe(&d->ring, &cqe)) < 0)
		return rc;
	rc = cqe->res;
	io_uring_cqe_seen(&d->ring, cqe);
	return rc == 0 ? 0 : rc < 0 ? rc : -EIO;
}

static void cmd_cleanup(struct worker *w)
{
	struct cmd_data *d = w->eng_data;

	if (!d)
		return;
	io_uring_queue_exit(&d->ring);
	free(d->cqes);
	free(d);
	w->eng_data = NULL;
}

const struct engine_ops engine_io_uring_cmd = {
	.version = ENGINE_OPS_VERSION,
	.name = "io_uring_cmd",
	.flags = ENGINE_F_ASYNC,
	.init = cmd_init,
	.queue = cmd_queue,
	.commit = cmd_commit,
	.reap = cmd_reap,
	.sync = cmd_sync,
	.cleanup = cmd_cleanup,
};
