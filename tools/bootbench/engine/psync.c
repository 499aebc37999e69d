// SPDX-License-Identifier: MIT
/*
 * psync.c - the synchronous engines: psync (pread/pwrite, one call
 * per I/O), sync (lseek + read/write, as fio's sync engine) and pvsync2
 * (preadv2/pwritev2, with RWF_HIPRI, a polled completion, when hipri=1).
 * Each I/O completes inside queue(), so the queue depth is one.
 */
#include <errno.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include "engine/engine.h"
#include "job/worker.h"

static int psync_queue(struct worker *w, struct io_unit *io)
{
	int fd = w->files[io->file].fd;
	ssize_t n;

	do {
		if (io->ddir == DDIR_WRITE)
			n = pwrite(fd, io->buf, io->len, (off_t)io->offset);
		else
			n = pread(fd, io->buf, io->len, (off_t)io->offset);
	} while (n < 0 && errno == EINTR);
	io->res = n < 0 ? -errno : (int32_t)n;
	return Q_COMPLETED;
}

static int sync_queue(struct worker *w, struct io_unit *io)
{
	int fd = w->files[io->file].fd;
	ssize_t n;

	if (lseek(fd, (off_t)io->offset, SEEK_SET) < 0) {
		io->res = -errno;
		return Q_COMPLETED;
	}
	do {
		if (io->ddir == DDIR_WRITE)
			n = write(fd, io->buf, io->len);
		else
			n = read(fd, io->buf, io->len);
	} while (n < 0 && errno == EINTR);
	io->res = n < 0 ? -errno : (int32_t)n;
	return Q_COMPLETED;
}

/* musl has no preadv2 wrapper: the system call, its offset in two halves (the high one 0 on 64 bits) */
static int pvsync2_queue(struct worker *w, struct io_unit *io)
{
	struct iovec iov = { .iov_base = io->buf, .iov_len = io->len };
	int fd = w->files[io->file].fd, flags = w->job->o.hipri ? RWF_HIPRI : 0;
	long n;

	do
		n = syscall(io->ddir == DDIR_WRITE ? SYS_pwritev2 : SYS_preadv2, fd, &iov, 1,
			    (unsigned long)io->offset, 0ul, flags);
	while (n < 0 && errno == EINTR);
	io->res = n < 0 ? -errno : (int32_t)n;
	return Q_COMPLETED;
}

static int sync_file(struct worker *w, unsigned file, int datasync)
{
	int fd = w->files[file].fd;

	return (datasync ? fdatasync(fd) : fsync(fd)) < 0 ? -errno : 0;
}

const struct engine_ops engine_psync = {
	.version = ENGINE_OPS_VERSION,
	.name = "psync",
	.queue = psync_queue,
	.sync = sync_file,
};

const struct engine_ops engine_sync = {
	.version = ENGINE_OPS_VERSION,
	.name = "sync",
	.queue = sync_queue,
	.sync = sync_file,
};

const struct engine_ops engine_pvsync2 = {
	.version = ENGINE_OPS_VERSION,
	.name = "pvsync2",
	.queue = pvsync2_queue,
	.sync = sync_file,
};
