/* SPDX-License-Identifier: MIT */
/*
 * confined.h - a native run's engine threads in the sandbox (issue 44;
 * safety/confine.h): the folders of the files the run writes (and its
 * working folder) writable, every other mount read-only; a /dev holding the
 * run's devices only; the system-call allowlist. One rule with fio's
 * sandbox: the same program either way.
 */
#ifndef BB_JOB_CONFINED_H
#define BB_JOB_CONFINED_H

#include <pthread.h>

/* After the targets are inspected and laid out: the confined thread made; -1 with bb_err. */
int confined_begin(void);
/* An engine thread, started in the sandbox (pthread_create's result). */
int confined_thread(pthread_t *thread, void *(*fn)(void *), void *arg);
/* Every engine thread joined: the confined thread ends. The calls the allowlist refused in the run, the last in *LAST. */
unsigned confined_end(long *last);

#endif
