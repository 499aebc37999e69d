/* SPDX-License-Identifier: MIT */
/*
 * delegate.h - a job file bootbench's engine does not run (an engine or
 * option it lacks), run by the image's fio inside the sandbox that
 * fio-server uses (safety/sandbox.h): only the disks consented to with
 * --destroy writable, the disks the job names readable, files written only
 * in the folders the job names and the working folder, no network, no
 * other program. Its reports (fio's JSON and normal output) go where
 * `run` puts its own, so report and compare read them as any run's.
 *
 * fio is /usr/bin/fio, or BOOTBENCH_FIO (the tests' build of it).
 */
#ifndef BB_DELEGATE_H
#define BB_DELEGATE_H

#include "job/options.h"

/*
 * Whether the image's fio would run `run`'s arguments: fio --parse-only in
 * the sandbox. 0 when it would; -1 when it would not or cannot (bb_err
 * says why: fio's first complaint); -2 when the sandbox's rules refuse it
 * before fio is asked (an engine nothing here runs, a name with fio's
 * $keywords: bb_err says which).
 */
int delegate_check(int argc, char **argv);

/*
 * Runs them on fio; WHY (bootbench's refusal) goes on the first line.
 * Returns the exit status: 0, 1 (a job failed), or 2 with bb_err (bad
 * input, nothing started).
 */
int delegate_run(int argc, char **argv, const struct run_opts *run, const char *why);

#endif
