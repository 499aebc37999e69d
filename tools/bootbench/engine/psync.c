// SPDX-License-Identifier: MIT
/*
 * engine_psync.c - the synchronous engines: psync (pread/pwrite, one call
 * per I/O) and sync (lseek + read/write, as fio's sync engine). Each I/O
 * completes inside queue(), so the queue depth is one.
 */
#include <errno.h>
#include <unistd.h>

#include "engine.h"
#include "worker.h"

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
