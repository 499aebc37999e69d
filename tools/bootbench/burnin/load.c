// SPDX-License-Identifier: MIT
/*
 * load.c - the machine's load while the components run together
 * (burnin.h): the busy share of the CPUs it runs on (/proc/stat), the memory
 * resident in the memory component's process, the disks' and the network's
 * bytes a second (/proc/diskstats, /proc/net/dev). From the samples, the
 * time during which every load asked for was there at once, each of their
 * components still running: the worst case
 * of power and heat that the together phase is for, measured rather than
 * assumed from the components' start times.
 */
#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "burnin/burnin.h"
#include "lib/util.h"

/* at most this many samples a phase: a day's phase is sampled every 2.4 minutes, not every second */
#define KEEP_EVERY_MIN_S 1.0

/*
 * The busy share of the CPUs this process may run on (its affinity: the
 * CPUs the cpu component counted and loaded, sysconf's count under musl
 * and glibc alike), from their own lines of /proc/stat; the whole machine's
 * line where the mask cannot be read or names no CPU listed there.
 */
static unsigned long long cpu_busy_total(unsigned long long *total)
{
	unsigned long long v[8], busy = 0, sum = 0, all_busy = 0, all_sum = 0;
	char line[512];
	cpu_set_t allowed;
	int masked = !sched_getaffinity(0, sizeof(allowed), &allowed), counted = 0;
	FILE *f = fopen("/proc/stat", "re");

	*total = 0;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f) && !strncmp(line, "cpu", 3)) {
		int cpu = -1, n;

		memset(v, 0, sizeof(v));
		if (line[3] == ' ')
			n = sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
				   &v[4], &v[5], &v[6], &v[7]);
		else if ((n = sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1], &v[2],
				     &v[3], &v[4], &v[5], &v[6], &v[7]) - 1) < 0 || cpu < 0)
			continue;
		unsigned long long t = 0;
		for (int i = 0; i < n && i < 8; i++)
			t += v[i];
		/* idle and iowait are not busy: a CPU waiting for a disk is not loaded */
		if (cpu < 0) {
			all_sum = t;
			all_busy = t - v[3] - v[4];
		} else if (masked && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &allowed)) {
			sum += t;
			busy += t - v[3] - v[4];
			counted++;
		}
	}
	fclose(f);
	if (!counted) {
		*total = all_sum;
		return all_busy;
	}
	*total = sum;
	return busy;
}

/* sectors read and written by whole disks; md and device-mapper devices are counted by their members */
static unsigned long long disk_sectors(void)
{
	char line[512], name[64], path[128];
	unsigned long long r, w, sum = 0;
	FILE *f = fopen("/proc/diskstats", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*u %*u %63s %*u %*u %llu %*u %*u %*u %llu", name, &r, &w) != 3)
			continue;
		if (!strncmp(name, "md", 2) || !strncmp(name, "dm-", 3) || !strncmp(name, "ram", 3) ||
		    !strncmp(name, "zram", 4))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s", name);
		if (access(path, F_OK))
			continue;	/* a partition: its disk counts it */
		sum += r + w;
	}
	fclose(f);
	return sum;
}

/* bytes received and sent by every interface but loopback */
static unsigned long long net_bytes(void)
{
	char line[512];
	unsigned long long rx, tx, sum = 0;
	FILE *f = fopen("/proc/net/dev", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *name = line;

		if (!colon)
			continue;
		*colon = 0;
		name += strspn(name, " ");
		if (!strcmp(name, "lo"))
			continue;
		if (sscanf(colon + 1, "%llu %*u %*u %*u %*u %*u %*u %*u %llu", &rx, &tx) == 2)
			sum += rx + tx;
	}
	fclose(f);
	return sum;
}

/* MiB resident in process PID (VmRSS; 0 once it has ended) */
static double resident_mib(pid_t pid)
{
	char path[64], line[256];
	unsigned long long kb = 0;
	FILE *f;

	if (pid <= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (!(f = fopen(path, "re")))
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %llu", &kb) == 1)
			break;
	fclose(f);
	return kb / 1024.0;
}

/* The parent of process PID (/proc/PID/stat's fourth field, after the name in parentheses); 0 if gone. */
static pid_t parent_of(pid_t pid)
{
	char path[64], buf[512], *p;
	int ppid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "re")))
		return 0;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	if (p && (p = strrchr(buf, ')')) && sscanf(p + 1, " %*c %d", &ppid) != 1)
		ppid = 0;
	return ppid;
}

/*
 * MiB resident in process ROOT and every process under it (0 once it has
 * ended). The memory's load is its component's own share: faulted in and
 * locked in its process for memtester's patterns, then held by the
 * stress-ng vm workers it runs. The machine's MemTotal - MemAvailable moved
 * by hundreds of MiB with what else ran (a program freeing memory as the
 * phase began hid the share for the whole phase), and would have counted
 * any other program's memory as the share.
 */
static double resident_tree_mib(pid_t root)
{
	DIR *d;
	struct dirent *e;
	double mib = resident_mib(root);

	if (!mib || !(d = opendir("/proc")))
		return mib;
	while ((e = readdir(d))) {
		pid_t pid = (pid_t)atoi(e->d_name), p = pid;

		if (pid <= 0 || pid == root)
			continue;
		/* up its parents to ROOT or to init (a bounded walk: pids are reused) */
		for (int depth = 0; p > 1 && p != root && depth < 64; depth++)
			p = parent_of(p);
		if (p == root)
			mib += resident_mib(pid);
	}
	closedir(d);
	return mib;
}

static void take(struct burnin_load *l)
{
	l->t_ns = now_ns();
	l->cpu_busy = cpu_busy_total(&l->cpu_total);
	l->disk_sectors = disk_sectors();
	l->net_bytes = net_bytes();
}

void burnin_load_start(struct burnin_load *l, double seconds, unsigned needs, double mem_need_mib)
{
	memset(l, 0, sizeof(*l));
	l->every = seconds / BURNIN_LOAD_SAMPLES > KEEP_EVERY_MIN_S ? seconds / BURNIN_LOAD_SAMPLES : KEEP_EVERY_MIN_S;
	l->needs = needs;
	l->mem_need_mib = mem_need_mib;
	l->mem_base_mib = resident_mib(getpid());
	take(l);
	l->t0_ns = l->t_ns;
}

/* whether sample S had every load L needs */
static int all_there(const struct burnin_load *l, const struct burnin_load_sample *s)
{
	return (!(l->needs & BURNIN_LOAD_CPU) || s->cpu_busy_pct >= BURNIN_LOAD_CPU_BUSY) &&
	       (!(l->needs & BURNIN_LOAD_MEMORY) || s->mem_used_mib - l->mem_base_mib >= l->mem_need_mib) &&
	       (!(l->needs & BURNIN_LOAD_DISKS) || s->disk_mbs >= BURNIN_LOAD_MOVING_MBS) &&
	       (!(l->needs & BURNIN_LOAD_NET) || s->net_mbs >= BURNIN_LOAD_MOVING_MBS);
}

void burnin_load_sample(struct burnin_load *l, unsigned running)
{
	struct burnin_load was = *l;
	struct burnin_load_sample *s;
	double dt;

	if (l->n == BURNIN_LOAD_SAMPLES || (now_ns() - l->t_ns) / 1e9 < l->every)
		return;
	take(l);
	dt = (l->t_ns - was.t_ns) / 1e9;
	s = &l->s[l->n++];
	s->t = (l->t_ns - l->t0_ns) / 1e9;
	s->seconds = dt;
	s->cpu_busy_pct = l->cpu_total > was.cpu_total ?
		100.0 * (double)(l->cpu_busy - was.cpu_busy) / (double)(l->cpu_total - was.cpu_total) : 0;
	s->mem_used_mib = resident_tree_mib(l->mem_pid);
	s->disk_mbs = dt > 0 ? (double)(l->disk_sectors - was.disk_sectors) * 512 / 1e6 / dt : 0;
	s->net_mbs = dt > 0 ? (double)(l->net_bytes - was.net_bytes) / 1e6 / dt : 0;
	/* a load counts while its component runs: the memory's threads keep the CPUs busy after the
	 * cpu component ended, and that is not the cpu's stressors at work */
	s->running = running;
	s->all = (running & l->needs) == l->needs && all_there(l, s);
	if (s->all)
		l->overlap_s += dt;
	l->sampled_s += dt;
}
