/* SPDX-License-Identifier: MIT */
/*
 * ring.h - a job's io_uring limited to the operations its engine issues
 * (issue 44): made disabled (IORING_SETUP_R_DISABLED), restricted
 * (IORING_REGISTER_RESTRICTIONS: those SQE opcodes, the fixed-file flag, no
 * registration once enabled but the files let go of), then enabled. A ring opens, connects or
 * accepts nothing, whatever reached its queue; the seccomp allowlist cannot
 * see what a ring does, this can.
 */
#ifndef BB_ENGINE_RING_H
#define BB_ENGINE_RING_H

#include <liburing.h>
#include <stdint.h>

/* The ring's flags with IORING_SETUP_R_DISABLED (a kernel before 5.10 refuses it: EINVAL, tried again without). */
int ring_init_disabled(unsigned entries, struct io_uring *ring, struct io_uring_params *p);
/* While disabled: only OPS (N of them) on it from its enabling on. 0, or -errno. */
int ring_restrict(struct io_uring *ring, const uint8_t *ops, unsigned n);
/* The ring enabled (after ring_restrict and the files and buffers registered). 0, or -errno. */
int ring_enable(struct io_uring *ring);

#endif
