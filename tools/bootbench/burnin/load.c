// SPDX-License-Identifier: MIT
/*
 * load.c - the machine's load while the components run together
 * (burnin.h): the busy share of the CPUs it runs on (/proc/stat), the memory
 * the memory component's processes hold as their own, the disks' and the network's
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
 * Each CPU's busy and total time (/proc/stat, clock ticks) of the CPUs this
 * process may run on (its affinity: the CPUs the cpu component counted and
 * loaded; musl's sysconf counts them): L's cpu_* arrays, the whole
 * machine's line in the last slot where the mask cannot be read or names no
 * CPU listed. Idle, iowait and steal are not busy: a CPU waiting for a disk
 * is not loaded, nor one the hypervisor gave to another guest.
 */
static void cpu_times(struct burnin_load *l)
{
	char line[512];
	cpu_set_t allowed;
	int masked = !sched_getaffinity(0, sizeof(allowed), &allowed);
	FILE *f = fopen("/proc/stat", "re");

	memset(l->cpu_counted, 0, sizeof(l->cpu_counted));
	l->cpus_counted = l->cpus_online = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && !strncmp(line, "cpu", 3)) {
		unsigned long long v[8] = { 0 }, t = 0;
		int cpu = BURNIN_LOAD_CPUS, n;

		if (line[3] == ' ')
			n = sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
				   &v[4], &v[5], &v[6], &v[7]);
		else if ((n = sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1], &v[2],
				     &v[3], &v[4], &v[5], &v[6], &v[7]) - 1) < 4 || cpu < 0 || cpu >= BURNIN_LOAD_CPUS)
			continue;
		else
			l->cpus_online++;
		if (cpu < BURNIN_LOAD_CPUS && !(masked && CPU_ISSET(cpu, &allowed)))
			continue;
		for (int i = 0; i < n && i < 8; i++)
			t += v[i];
		l->cpu_total_of[cpu] = t;
		l->cpu_busy_of[cpu] = t - v[3] - v[4] - v[7];
		l->cpu_counted[cpu] = 1;
		if (cpu < BURNIN_LOAD_CPUS)
			l->cpus_counted++;
	}
	fclose(f);
	if (l->cpus_counted)
		l->cpu_counted[BURNIN_LOAD_CPUS] = 0;	/* the machine's line only where no CPU of the mask was */
}

unsigned burnin_cpus_on_line(void)
{
	char line[512];
	unsigned n = 0;
	FILE *f = fopen("/proc/stat", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f) && !strncmp(line, "cpu", 3))
		n += line[3] >= '0' && line[3] <= '9';
	fclose(f);
	return n;
}

/*
 * The busy share of the counted CPUs between two readings, in percent;
 * 0 (not known, so not busy) when the CPUs counted changed between them
 * (the mask changed, a CPU went on or off line: one CPU's counters since
 * boot would be taken for a second's), a counter went back, or the share
 * comes out over 100%.
 */
static double cpu_busy_pct(const struct burnin_load *was, const struct burnin_load *now)
{
	unsigned long long busy = 0, total = 0;

	for (unsigned c = 0; c <= BURNIN_LOAD_CPUS; c++) {
		if (was->cpu_counted[c] != now->cpu_counted[c])
			return 0;
		if (!now->cpu_counted[c])
			continue;
		if (now->cpu_total_of[c] < was->cpu_total_of[c] || now->cpu_busy_of[c] < was->cpu_busy_of[c])
			return 0;
		busy += now->cpu_busy_of[c] - was->cpu_busy_of[c];
		total += now->cpu_total_of[c] - was->cpu_total_of[c];
	}
	if (!total || busy > total)
		return 0;
	return 100.0 * (double)busy / (double)total;
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

/* One process of /proc: its parent, state, CPU time (clock ticks) and the load whose component it is under. */
struct proc_entry {
	pid_t pid, ppid;
	char state;
	unsigned long long ticks;
	int load;			/* index of the load (bit) whose component process it is, or is under; -1 */
};

static int by_pid(const void *a, const void *b)
{
	pid_t x = ((const struct proc_entry *)a)->pid, y = ((const struct proc_entry *)b)->pid;

	return x < y ? -1 : x > y;
}

/* /proc/PID/stat's parent, state and utime + stime; -1 if it is gone */
static int read_stat(pid_t pid, struct proc_entry *e)
{
	char path[64], buf[1024], *p;
	unsigned long long ut, st;
	int ppid;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "re")))
		return -1;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	/* after the name in parentheses (which may hold blanks and parentheses): state ppid ... utime stime */
	if (!p || !(p = strrchr(buf, ')')) ||
	    sscanf(p + 1, " %c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &e->state, &ppid, &ut, &st) != 4)
		return -1;
	e->pid = pid;
	e->ppid = ppid;
	e->ticks = ut + st;
	e->load = -1;
	return 0;
}

/* KiB of PID's pages that are its own and written (smaps_rollup's Private_Dirty); 0 if not known */
static unsigned long long private_dirty_kib(pid_t pid)
{
	char path[64], line[256];
	unsigned long long kb = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", (int)pid);
	if (!(f = fopen(path, "re")))
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Private_Dirty: %llu", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/*
 * Each load's component, from /proc: the CPU time of its process and every
 * process under it (L's ticks), whether one of them runs (not stopped, not
 * ended: L's live bits), and for the memory the MiB those that run wrote
 * and hold as their own (L's mem_mib). The memory's load is its component's own
 * share: faulted in and locked in its process for memtester's patterns,
 * then held by the stress-ng vm workers it runs. Not the machine's
 * MemTotal - MemAvailable, which moved by hundreds of MiB with what else ran
 * and counted any program's memory as the share; not the processes'
 * resident size, which counts the program and library pages and what a fork
 * shares (10 MiB in stress-ng's parent alone, 5 in each worker).
 */
static void components(struct burnin_load *l)
{
	static struct proc_entry *e;
	static size_t cap;
	size_t n = 0;
	DIR *d;
	struct dirent *de;
	int any = 0;

	memset(l->ticks, 0, sizeof(l->ticks));
	l->live = 0;
	l->mem_mib = 0;
	for (int k = 0; k < BURNIN_LOADS; k++)
		any |= l->pid[k] > 0;
	if (!any || !(d = opendir("/proc")))
		return;
	while ((de = readdir(d))) {
		pid_t pid = (pid_t)atoi(de->d_name);

		if (pid <= 0)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			e = xrealloc(e, cap * sizeof(*e));
		}
		if (!read_stat(pid, &e[n]))
			n++;
	}
	closedir(d);
	qsort(e, n, sizeof(*e), by_pid);
	for (size_t i = 0; i < n; i++) {
		struct proc_entry key, *up = &e[i];

		/* up its parents to a component's process or to init (bounded: a pid reused mid-walk) */
		for (int depth = 0; up && up->pid > 1 && depth < 64; depth++) {
			int k;

			for (k = 0; k < BURNIN_LOADS && l->pid[k] != up->pid; k++)
				;
			if (k < BURNIN_LOADS) {
				e[i].load = k;
				break;
			}
			key.pid = up->ppid;
			up = bsearch(&key, e, n, sizeof(*e), by_pid);
		}
		if (e[i].load < 0)
			continue;
		l->ticks[e[i].load] += e[i].ticks;
		if (e[i].state == 'T' || e[i].state == 't' || e[i].state == 'Z' || e[i].state == 'X')
			continue;	/* stopped or ended: neither at work nor holding memory at work */
		l->live |= 1u << e[i].load;
		if ((1u << e[i].load) == BURNIN_LOAD_MEMORY)
			l->mem_mib += private_dirty_kib(e[i].pid) / 1024.0;
	}
}

/* clock ticks a second (/proc/PID/stat's utime and stime) */
static double clock_ticks(void)
{
	long hz = sysconf(_SC_CLK_TCK);

	return hz > 0 ? (double)hz : 100;
}

static void take(struct burnin_load *l)
{
	l->t_ns = now_ns();
	cpu_times(l);
	components(l);
	l->disk_sectors = disk_sectors();
	l->net_bytes = net_bytes();
}

void burnin_load_start(struct burnin_load *l, double seconds, unsigned needs, double mem_need_mib)
{
	memset(l, 0, sizeof(*l));
	l->every = seconds / BURNIN_LOAD_SAMPLES > KEEP_EVERY_MIN_S ? seconds / BURNIN_LOAD_SAMPLES : KEEP_EVERY_MIN_S;
	l->needs = needs;
	l->mem_need_mib = mem_need_mib;
	take(l);
	l->t0_ns = l->t_ns;
}

void burnin_load_component(struct burnin_load *l, unsigned load, pid_t pid)
{
	for (int k = 0; k < BURNIN_LOADS; k++)
		if (load == 1u << k)
			l->pid[k] = pid;
}

int burnin_load_there(const struct burnin_load *l, const struct burnin_load_sample *s, unsigned load)
{
	if (!(s->running & load) || !(s->live & load))
		return 0;
	switch (load) {
	case BURNIN_LOAD_CPU: return s->cpu_busy_pct >= BURNIN_LOAD_CPU_BUSY;
	case BURNIN_LOAD_MEMORY: return s->mem_used_mib >= l->mem_need_mib;
	case BURNIN_LOAD_DISKS: return s->disk_mbs >= BURNIN_LOAD_MOVING_MBS;
	case BURNIN_LOAD_NET: return s->net_mbs >= BURNIN_LOAD_MOVING_MBS;
	}
	return 0;
}

void burnin_load_sample(struct burnin_load *l, unsigned running)
{
	static struct burnin_load was;
	struct burnin_load_sample *s;
	double dt;

	if (l->n == BURNIN_LOAD_SAMPLES || (now_ns() - l->t_ns) / 1e9 < l->every)
		return;
	was = *l;
	take(l);
	dt = (l->t_ns - was.t_ns) / 1e9;
	s = &l->s[l->n++];
	s->t = (l->t_ns - l->t0_ns) / 1e9;
	s->seconds = dt;
	s->cpu_busy_pct = cpu_busy_pct(&was, l);
	s->mem_used_mib = l->mem_mib;
	s->disk_mbs = dt > 0 ? (double)(l->disk_sectors - was.disk_sectors) * 512 / 1e6 / dt : 0;
	s->net_mbs = dt > 0 ? (double)(l->net_bytes - was.net_bytes) / 1e6 / dt : 0;
	/* a load counts while its component runs: the memory's threads keep the CPUs busy after the
	 * cpu component ended, and that is not the cpu's stressors at work; and while one of its
	 * processes runs: a component stopped (SIGSTOP) holds its memory and lets others load the
	 * CPUs, and that is not the burn-in at work */
	s->running = running;
	s->live = l->live;
	/* the cpu's and the memory's processes compute: at least a twentieth of a CPU's time in the
	 * interval, or they are not at work (stopped in a group of their own, stress-ng's, while the
	 * component's own process waits for them, it still looks alive) */
	for (unsigned k = 0; k < BURNIN_LOADS; k++) {
		unsigned bit = 1u << k;

		if ((bit == BURNIN_LOAD_CPU || bit == BURNIN_LOAD_MEMORY) &&
		    (l->ticks[k] <= was.ticks[k] || (double)(l->ticks[k] - was.ticks[k]) < 0.05 * dt * clock_ticks()))
			s->live &= ~bit;
	}
	s->cpus_counted = l->cpus_counted;
	s->all = 1;
	for (unsigned k = 0; k < BURNIN_LOADS; k++)
		if ((l->needs & (1u << k)) && !burnin_load_there(l, s, 1u << k))
			s->all = 0;
	if (s->all)
		l->overlap_s += dt;
	l->sampled_s += dt;
}
