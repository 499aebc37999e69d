// SPDX-License-Identifier: MIT
/*
 * placement.c - where and how eagerly a job thread runs, as fio's options
 * say: cpus_allowed / cpumask (with cpus_allowed_policy=split each clone
 * its own CPU of the set, in turn), nice, and the I/O priority (prio,
 * prioclass) the block layer gives its requests, and the NUMA nodes it
 * runs on and takes memory from (numa_cpu_nodes, numa_mem_policy).
 * Applied by the thread to itself when it starts.
 */
#include "job/worker.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
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

/* numa_cpu_nodes: the CPUs of those nodes (as sysfs lists them), with cpus_allowed's if both are given */
static int place_numa_cpus(const struct job_opts *o)
{
	struct cpus nodes, node_cpus;
	cpu_set_t set, now;
	unsigned node, cpu, found = 0;

	if (!o->numa_cpu_nodes)
		return 0;
	parse_numa_nodes(o->numa_cpu_nodes, &nodes);	/* checked when the job was read */
	CPU_ZERO(&set);
	for (node = 0; node < CPUS_MAX; node++) {
		char path[96], list[4096];

		if (!(nodes.bits[node / 64] & (1ull << (node % 64))))
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%u/cpulist", node);
		if (read_attr(path, list, sizeof(list)) < 0) {
			if (strcmp(o->numa_cpu_nodes, "all"))
				return set_err("job '%s': numa_cpu_nodes=%s: this machine has no node %u", o->name,
					       o->numa_cpu_nodes, node);
			continue;
		}
		/* a node without CPUs (memory only) lists none */
		if (*list && !parse_cpulist(list, &node_cpus))
			for (cpu = 0; cpu < CPUS_MAX && cpu < CPU_SETSIZE; cpu++)
				if (node_cpus.bits[cpu / 64] & (1ull << (cpu % 64))) {
					CPU_SET(cpu, &set);
					found++;
				}
	}
	if (o->cpus_allowed.set && !sched_getaffinity(0, sizeof(now), &now))
		CPU_AND(&set, &set, &now);
	if (!found || !CPU_COUNT(&set) || sched_setaffinity(0, sizeof(set), &set) < 0)
		return set_err("job '%s': numa_cpu_nodes=%s: no CPU of those nodes can be used here", o->name,
			       o->numa_cpu_nodes);
	return 0;
}

/* numa_mem_policy: the thread's memory policy, so its buffers come from those nodes */
static int place_numa_memory(const struct job_opts *o)
{
	struct cpus nodes;
	int mode;

	if (!o->numa_mem_policy)
		return 0;
	parse_numa_policy(o->numa_mem_policy, &mode, &nodes);	/* checked when the job was read */
	if (syscall(SYS_set_mempolicy, mode, mode == MEMPOL_DEFAULT || mode == MEMPOL_LOCAL ? NULL : nodes.bits,
		    mode == MEMPOL_DEFAULT || mode == MEMPOL_LOCAL ? 0 : (unsigned long)CPUS_MAX + 1) < 0)
		return set_err("job '%s': numa_mem_policy=%s: %s", o->name, o->numa_mem_policy, strerror(errno));
	return 0;
}

int place_thread(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	int class;

	if (place_cpus(w) < 0 || place_numa_cpus(o) < 0 || place_numa_memory(o) < 0)
		return -1;
	/* on Linux a thread's nice value is its own (PRIO_PROCESS takes a thread id) */
	if (o->nice && setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), o->nice) < 0)
		return set_err("job '%s': nice=%d: %s", o->name, o->nice, strerror(errno));
	class = o->prioclass ? o->prioclass : (o->given[opt_find("prio")] ? IOPRIO_CLASS_BE : 0);
	if (class && syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, class << IOPRIO_CLASS_SHIFT | o->prio) < 0)
		return set_err("job '%s': prioclass=%d prio=%d: %s", o->name, class, o->prio, strerror(errno));
	return 0;
}
