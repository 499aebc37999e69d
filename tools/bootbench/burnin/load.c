// SPDX-License-Identifier: MIT
/*
 * load.c - the machine's load while the components run together
 * (burnin.h): the CPUs' busy share (/proc/stat), the memory in use past
 * what was in use before (/proc/meminfo), the disks' and the network's
 * bytes a second (/proc/diskstats, /proc/net/dev). From the samples, the
 * time during which every load asked for was there at once, each of their
 * components still running: the worst case
 * of power and heat that the together phase is for, measured rather than
 * assumed from the components' start times.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "burnin/burnin.h"
#include "lib/util.h"

/* at most this many samples a phase: a day's phase is sampled every 2.4 minutes, not every second */
#define KEEP_EVERY_MIN_S 1.0

static unsigned long long cpu_busy_total(unsigned long long *total)
{
	unsigned long long v[10] = { 0 }, sum = 0;
	FILE *f = fopen("/proc/stat", "re");
	int n = 0;

	if (f) {
		n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
			   &v[6], &v[7]);
		fclose(f);
	}
	for (int i = 0; i < n && i < 8; i++)
		sum += v[i];
	*total = sum;
	/* idle and iowait are not busy: a CPU waiting for a disk is not loaded */
	return sum - v[3] - v[4];
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

/* MiB in use (MemTotal - MemAvailable) */
static double mem_used_mib(void)
{
	char line[256];
	unsigned long long kb, total = 0, avail = 0;
	FILE *f = fopen("/proc/meminfo", "re");

	if (f) {
		while (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "MemTotal: %llu", &kb) == 1)
				total = kb;
			else if (sscanf(line, "MemAvailable: %llu", &kb) == 1)
				avail = kb;
		}
		fclose(f);
	}
	return total > avail ? (total - avail) / 1024.0 : 0;
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
	l->mem_base_mib = mem_used_mib();
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
	s->mem_used_mib = mem_used_mib();
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
