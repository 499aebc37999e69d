// SPDX-License-Identifier: MIT
/*
 * cpu.c - the cpu component: every CPU loaded by stress-ng stressors that
 * check their own results (--verify: cpu with every method, matrix,
 * vecmath), while a sampler reads the CPU temperature sensors and each
 * CPU's frequency every second; the thermal-throttle counters and the
 * kernel log's machine checks before and after. FAIL: a result that did
 * not verify, a stressor killed, a throttle event, a sensor over its limit,
 * a frequency under its share of the base one, a machine check. A
 * stressor stress-ng cannot run here is noted, never a failure; none run,
 * or no sensor (unless cpu_need_sensors=0), is an ERROR.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/burnin.h"
#include "lib/util.h"
#include "sys/kmsg.h"
#include "sys/root.h"
#include "sys/sensors.h"

#define MAX_CPUS 1024

struct sampler {
	pthread_t thread;
	volatile int done;
	struct temp_sensor s[SENSORS_MAX];
	int peak[SENSORS_MAX];		/* millidegrees */
	unsigned ns, cpus;
	unsigned freq_peak[MAX_CPUS];	/* kHz */
	unsigned samples;
};

static void *sample(void *arg)
{
	struct sampler *sp = arg;

	while (!sp->done) {
		for (unsigned i = 0; i < sp->ns; i++)
			if (!sensor_sample(&sp->s[i]) && sp->s[i].millic > sp->peak[i])
				sp->peak[i] = sp->s[i].millic;
		for (unsigned c = 0; c < sp->cpus; c++) {
			unsigned cur, base;

			cpu_freq_khz(c, &cur, &base);
			if (cur > sp->freq_peak[c])
				sp->freq_peak[c] = cur;
		}
		sp->samples++;
		for (int t = 0; t < 10 && !sp->done; t++)
			sleep_ns(100000000);
	}
	return NULL;
}

/* The stressors, each with --verify: they check what they computed. */
static const struct {
	const char *name;
	const char *extra[3];
} stressors[] = {
	{ "cpu", { "--cpu-method", "all" } },
	{ "matrix", { NULL } },
	{ "vecmath", { NULL } },
};

/* The first line of stress-ng's output that says what failed. */
static void failure_line(const char *out, char *buf, size_t len)
{
	const char *p = strstr(out, "fail:");

	if (!p)
		p = strstr(out, "error:");
	if (!p) {
		snprintf(buf, len, "no failure line in its output");
		return;
	}
	snprintf(buf, len, "%.*s", (int)strcspn(p, "\n"), p);
}

static void run_stressors(const struct burnin_ctx *c, struct burnin_result *r)
{
	unsigned ran = 0, n = ARRAY_SIZE(stressors);
	double each = c->seconds / n;
	char out[4096], line[512], secs[32];

	if (each < 1)
		each = 1;
	snprintf(secs, sizeof(secs), "%.0fs", each);
	for (unsigned i = 0; i < n && !burnin_stop; i++) {
		char opt[32], *argv[12];
		int k = 0, rc, stopped;

		snprintf(opt, sizeof(opt), "--%s", stressors[i].name);
		argv[k++] = "stress-ng";
		argv[k++] = opt;
		argv[k++] = "0";	/* a worker on every online CPU */
		for (int e = 0; e < 2 && stressors[i].extra[e]; e++)
			argv[k++] = (char *)stressors[i].extra[e];
		argv[k++] = "--verify";
		argv[k++] = "--timeout";
		argv[k++] = secs;
		argv[k] = NULL;
		rc = spawn_for(argv, each + 30, &burnin_stop, out, sizeof(out), &stopped);	/* consent: stress-ng loads the CPUs, writes no disk */
		failure_line(out, line, sizeof(line));
		switch (rc) {
		case 0:
		case 7:	/* bogo-op counts unsure (a worker stopped mid-update): its checks passed */
			ran++;
			break;
		case 2:
			ran++;
			burnin_set(r, BURNIN_FAIL, "stress-ng %s: a result did not verify: %s", stressors[i].name, line);
			break;
		case 5:
		case 6:
			ran++;
			burnin_set(r, BURNIN_FAIL, "stress-ng %s: a worker died (exit %d: killed by an unexpected signal "
				   "or exited early): %s", stressors[i].name, rc, line);
			break;
		case 3:
		case 4:
			burnin_note(r, "stressor %s not run: stress-ng cannot run it here (exit %d: %s)", stressors[i].name,
				    rc, rc == 3 ? "no resources" : "not implemented on this machine");
			break;
		default:
			if (stopped && burnin_stop) {
				burnin_note(r, "stressor %s interrupted", stressors[i].name);
				break;
			}
			burnin_set(r, BURNIN_ERROR, "stress-ng %s did not run (exit %d): %s", stressors[i].name, rc,
				   rc == 127 ? out : line);
			break;
		}
	}
	burnin_figure(r, "stressors_run", ran, "%u of %u (%s, each with --verify, %s on every CPU)", ran, n,
		      "cpu methods all, matrix, vecmath", secs);
	/* interrupted before one ended, the machine is not to blame: cmd/burnin.c
	 * says the interruption first */
	if (!ran && r->verdict < BURNIN_ERROR && burnin_stop)
		burnin_set(r, BURNIN_ERROR, "no stressor ran to its end");
	else if (!ran && r->verdict < BURNIN_ERROR)
		burnin_set(r, BURNIN_ERROR, "no stressor could run on this machine (%s)", r->notes);
}

void burnin_cpu(const struct burnin_ctx *c, struct burnin_result *r)
{
	static struct sampler sp;
	uint64_t core0[MAX_CPUS], pkg0[MAX_CPUS], seq;
	unsigned cpus = c->cpus < MAX_CPUS ? c->cpus : MAX_CPUS, counters = 0, base_khz = 0;
	int peak = -1000000, threads = 0;
	const char *peak_label = "";
	char first[512];

	if (!root_recorded()) {
		char *argv[] = { "modprobe", "-qa", "coretemp", "k10temp", NULL };

		spawn(argv, NULL, 0, NULL, 0);	/* consent: loads drivers, writes no disk */
	}
	memset(&sp, 0, sizeof(sp));
	sp.cpus = cpus;
	sp.ns = sensors_cpu(sp.s, SENSORS_MAX);
	for (unsigned i = 0; i < sp.ns; i++)
		sp.peak[i] = sp.s[i].millic;
	for (unsigned i = 0; i < cpus; i++)
		if (!throttle_counts(i, &core0[i], &pkg0[i]))
			counters++;
	seq = kmsg_newest();
	threads = !pthread_create(&sp.thread, NULL, sample, &sp);

	run_stressors(c, r);

	sp.done = 1;
	if (threads)
		pthread_join(sp.thread, NULL);

	/* heat: each sensor's peak against the limit and its own critical one */
	for (unsigned i = 0; i < sp.ns; i++) {
		double limit = c->lim->cpu_temp_max;

		if (sp.peak[i] > peak) {
			peak = sp.peak[i];
			peak_label = sp.s[i].label;
		}
		if (sp.s[i].crit_millic && sp.s[i].crit_millic / 1000.0 < limit)
			limit = sp.s[i].crit_millic / 1000.0;
		if (sp.peak[i] / 1000.0 > limit)
			burnin_set(r, BURNIN_FAIL, "%s (%s) reached %.0f C, over the limit %.0f C", sp.s[i].label,
				   sp.s[i].chip, sp.peak[i] / 1000.0, limit);
	}
	if (sp.ns)
		burnin_figure(r, "temp_max_c", peak / 1000.0, "%.0f C (%s), %u sensors sampled %u times",
			      peak / 1000.0, peak_label, sp.ns, sp.samples);
	else if (c->lim->cpu_need_sensors)
		burnin_set(r, BURNIN_ERROR, "no CPU temperature sensor (hwmon: coretemp, k10temp): heat was not tested "
			   "(burnin_cpu_need_sensors=0 accepts that, as for a VM)");
	else
		burnin_note(r, "heat not tested: no CPU temperature sensor (accepted: cpu_need_sensors=0)");

	/* throttling: any event during the burn-in */
	if (counters) {
		uint64_t events = 0;

		for (unsigned i = 0; i < cpus; i++) {
			uint64_t core, pkg;

			if (throttle_counts(i, &core, &pkg))
				continue;
			if (core > core0[i] || pkg > pkg0[i]) {
				events += (core - core0[i]) + (pkg - pkg0[i]);
				burnin_set(r, BURNIN_FAIL, "CPU %u was thermally throttled during the burn-in: core events %llu -> "
					   "%llu, package events %llu -> %llu", i, (unsigned long long)core0[i],
					   (unsigned long long)core, (unsigned long long)pkg0[i], (unsigned long long)pkg);
			}
		}
		burnin_figure(r, "throttle_events", (double)events, "%llu (counters on %u CPUs)",
			      (unsigned long long)events, counters);
	} else {
		burnin_note(r, "no thermal-throttle counters (thermal_throttle: Intel CPUs on bare metal)");
	}

	/* frequency under load against the base one */
	for (unsigned i = 0; i < cpus; i++) {
		unsigned cur;

		cpu_freq_khz(i, &cur, &base_khz);
		if (base_khz)
			break;
	}
	if (base_khz && c->lim->cpu_freq_min > 0) {
		unsigned low = 0, lowest = UINT32_MAX;

		for (unsigned i = 0; i < cpus; i++)
			if (sp.freq_peak[i] && sp.freq_peak[i] < lowest) {
				lowest = sp.freq_peak[i];
				low = i;
			}
		if (lowest != UINT32_MAX) {
			burnin_figure(r, "freq_min_peak_mhz", lowest / 1000.0, "%.0f MHz on CPU %u (base %.0f MHz)",
				      lowest / 1000.0, low, base_khz / 1000.0);
			if (lowest < c->lim->cpu_freq_min * base_khz)
				burnin_set(r, BURNIN_FAIL, "CPU %u reached %.0f MHz under load, %.2f of its base %.0f MHz "
					   "(the limit: %.2f): capped by power or heat", low, lowest / 1000.0,
					   (double)lowest / base_khz, base_khz / 1000.0, c->lim->cpu_freq_min);
		}
	} else if (c->lim->cpu_freq_min > 0) {
		burnin_note(r, "frequency not checked: the CPU gives no base frequency (intel_pstate, amd-pstate do)");
	}

	/* machine checks logged while it ran */
	int hw = kmsg_hw_errors(seq, first, sizeof(first));

	if (hw > 0)
		burnin_set(r, BURNIN_FAIL, "%d hardware error line(s) in the kernel log during the CPU test, the first: %s",
			   hw, first);
	else if (hw < 0)
		burnin_set(r, BURNIN_ERROR, "the kernel log could not be read: machine checks were not counted");
	if (r->verdict == BURNIN_SKIPPED)
		burnin_set(r, BURNIN_PASS, "every stressor that ran verified its results; no throttling, heat or "
			   "machine check over the limits");
}
