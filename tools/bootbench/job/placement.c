// SPDX-License-Identifier: MIT
/*
 * placement.c - where and how eagerly a job thread runs, as fio's options
 * say: cpus_allowed / cpumask (with cpus_allowed_policy=split each clone
 * its own CPU of the set, in turn), nice, and the I/O priority (prio,
 * prioclass) the block layer gives its requests. Applied by the thread to
 * itself when it starts.
 */
#include "job/worker.h"

#include <errno.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#include "lib/util.h"

#define IOPRIO_WHO_PROCESS 1
#define IOPRIO_CLASS_SHIFT 13
#define IOPRIO_CLASS_BE 2

static int place_cpus(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	cpu_set_t set;
	unsigned cpu, n = 0, pick = 0;

	if (!o->cpus_allowed.set)
		return 0;
	CPU_ZERO(&set);
	for (cpu = 0; cpu < CPUS_MAX && cpu < CPU_SETSIZE; cpu++)
		if (o->cpus_allowed.bits[cpu / 64] & (1ull << (cpu % 64)))
			n++;
	if (o->cpus_allowed_policy == CPUS_SPLIT && n)
		pick = w->clone % n;
	for (cpu = 0, n = 0; cpu < CPUS_MAX && cpu < CPU_SETSIZE; cpu++) {
		if (!(o->cpus_allowed.bits[cpu / 64] & (1ull << (cpu % 64))))
			continue;
		if (o->cpus_allowed_policy != CPUS_SPLIT || n == pick)
			CPU_SET(cpu, &set);
		n++;
	}
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		return set_err("job '%s': cpus_allowed: none of those CPUs can be used here: %s", o->name,
			       strerror(errno));
	return 0;
}

int place_thread(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	int class;

	if (place_cpus(w) < 0)
		return -1;
	/* on Linux a thread's nice value is its own (PRIO_PROCESS takes a thread id) */
	if (o->nice && setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), o->nice) < 0)
		return set_err("job '%s': nice=%d: %s", o->name, o->nice, strerror(errno));
	class = o->prioclass ? o->prioclass : (o->given[opt_find("prio")] ? IOPRIO_CLASS_BE : 0);
	if (class && syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, class << IOPRIO_CLASS_SHIFT | o->prio) < 0)
		return set_err("job '%s': prioclass=%d prio=%d: %s", o->name, class, o->prio, strerror(errno));
	return 0;
}
