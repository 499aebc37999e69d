// SPDX-License-Identifier: MIT
/* ring.c - a job's ring restricted to its engine's operations (ring.h). */
#include "engine/ring.h"

#include <errno.h>
#include <string.h>

#include "lib/util.h"

int ring_init_disabled(unsigned entries, struct io_uring *ring, struct io_uring_params *p)
{
	unsigned flags = p->flags;
	int rc;

	p->flags = flags | IORING_SETUP_R_DISABLED;
	rc = io_uring_queue_init_params(entries, ring, p);
	if (rc != -EINVAL)
		return rc;
	p->flags = flags;
	return io_uring_queue_init_params(entries, ring, p);
}

int ring_restrict(struct io_uring *ring, const uint8_t *ops, unsigned n)
{
	struct io_uring_restriction r[16];
	unsigned k = 0;

	if (!(ring->flags & IORING_SETUP_R_DISABLED))
		return 0;	/* an old kernel: the ring cannot be restricted, its SQEs are bootbench's own */
	memset(r, 0, sizeof(r));
	for (unsigned i = 0; i < n && k < ARRAY_SIZE(r) - 2; i++, k++) {
		r[k].opcode = IORING_RESTRICTION_SQE_OP;
		r[k].sqe_op = ops[i];
	}
	r[k].opcode = IORING_RESTRICTION_SQE_FLAGS_ALLOWED;
	r[k++].sqe_flags = IOSQE_FIXED_FILE;
	/* the files let go of at the end (engine/uring.c: a filesystem is not left busy) */
	r[k].opcode = IORING_RESTRICTION_REGISTER_OP;
	r[k++].register_op = IORING_UNREGISTER_FILES;
	return io_uring_register_restrictions(ring, r, k);
}

int ring_enable(struct io_uring *ring)
{
	if (!(ring->flags & IORING_SETUP_R_DISABLED))
		return 0;
	return io_uring_enable_rings(ring);
}
