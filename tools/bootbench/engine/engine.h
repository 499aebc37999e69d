/* SPDX-License-Identifier: MIT */
/*
 * engine.h - an I/O engine is a versioned ops struct, as fio's ioengines.h.
 * queue() either completes the I/O at once (synchronous engines) or queues
 * it; commit() submits what was queued and waits for at least wait_nr
 * completions in one step (one system call on io_uring); reap() hands back
 * what has completed, without waiting. The core refuses an engine that
 * lacks a hook its flags require.
 */
#ifndef BB_ENGINE_H
#define BB_ENGINE_H

#include <stdint.h>

#define ENGINE_OPS_VERSION 1

enum {
	ENGINE_F_ASYNC = 1 << 0,	/* queue() may return Q_QUEUED: needs commit and reap */
	ENGINE_F_NOIO = 1 << 1,		/* touches no target (the null engine) */
};

enum { Q_QUEUED, Q_COMPLETED };

struct worker;
struct io_unit;

struct engine_ops {
	unsigned version;
	const char *name;
	unsigned flags;
	int (*init)(struct worker *w);
	int (*queue)(struct worker *w, struct io_unit *io);
	int (*commit)(struct worker *w, unsigned wait_nr);
	unsigned (*reap)(struct worker *w, struct io_unit **out, unsigned max);
	int (*sync)(struct worker *w, unsigned file, int datasync);
	void (*cleanup)(struct worker *w);
};

extern const struct engine_ops engine_io_uring, engine_io_uring_cmd, engine_libaio, engine_psync, engine_sync, engine_pvsync2,
	engine_mmap, engine_null;

/* The registry: by enum engine_id. */
const struct engine_ops *engine_get(int id);
/* 0 if the engine has what its flags need, else -1 with bb_err. */
int engine_check(const struct engine_ops *e);
/* Whether this kernel lets us create an io_uring at all. */
int io_uring_available(int *err);

#endif
