// SPDX-License-Identifier: MIT
/* registry.c - the engine registry and the check every engine must pass. */
#include "engine/engine.h"

#include <errno.h>
#include <liburing.h>

#include "job/options.h"
#include "lib/util.h"

static const struct engine_ops *const registry[] = {
	[ENGINE_IO_URING] = &engine_io_uring,
	[ENGINE_LIBAIO] = &engine_libaio,
	[ENGINE_IO_URING_CMD] = &engine_io_uring_cmd,
	[ENGINE_PSYNC] = &engine_psync,
	[ENGINE_SYNC] = &engine_sync,
	[ENGINE_PVSYNC2] = &engine_pvsync2,
	[ENGINE_MMAP] = &engine_mmap,
	[ENGINE_NULL] = &engine_null,
};

const struct engine_ops *engine_get(int id)
{
	if (id == ENGINE_DEFAULT)
		id = ENGINE_IO_URING;
	if (id < 0 || (unsigned)id >= ARRAY_SIZE(registry))
		return NULL;
	return registry[id];
}

int engine_check(const struct engine_ops *e)
{
	if (!e)
		return set_err("no such engine");
	if (e->version != ENGINE_OPS_VERSION)
		return set_err("engine %s: ops version %u, expected %u", e->name, e->version, ENGINE_OPS_VERSION);
	if (!e->queue || !e->sync)
		return set_err("engine %s: queue and sync are required", e->name);
	if ((e->flags & ENGINE_F_ASYNC) && (!e->commit || !e->reap))
		return set_err("engine %s: an asynchronous engine needs commit and reap", e->name);
	return 0;
}

int io_uring_available(int *err)
{
	static int probed, result;	/* probe once per run, not once per job */
	struct io_uring ring;

	if (!probed) {
		result = io_uring_queue_init(2, &ring, 0);
		if (!result)
			io_uring_queue_exit(&ring);
		probed = 1;
	}
	*err = -result;
	return result == 0;
}
