// SPDX-License-Identifier: MIT
/*
 * cpu.c - the cpu component: every CPU loaded by stress-ng stressors that
 * check their own results (--verify: cpu with every method, matrix,
 * vecmath), while a sampler reads the CPU temperature sensors and each
 * CPU's frequency every half second; the thermal-throttle counters and the
 * kernel log's machine checks before and after. FAIL: a result that did
 * not verify, a stressor killed, a throttle event, a sensor over its limit,
 * a frequency sustained under its share of the base one, a machine check.
 * A stressor stress-ng cannot run here is noted, never a failure; none
 * run, no sensor (unless cpu_need_sensors=0), or no frequency sampled under
 * load where the CPU gives its base one, is an ERROR.
 *
 * The frequency judged is the one sustained under load: only samples taken
 * while a stressor runs count, and a CPU must hold the bar in
 * FREQ_HELD_SHARE of them (the 10th percentile): power capping that holds a
 * CPU down for a tenth of the load or more is found, a single sample caught
 * in a dip is not a failure. A memory error EDAC logs meanwhile is the
 * memory's: the memory component judges it (burnin_memory_watch()).
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/burnin.h"
#include "lib/util.h"
#include "sys/edac.h"
#include "sys/kmsg.h"
#include "sys/root.h"
#include "sys/sensors.h"

#define MAX_CPUS 1024

/* The share of its samples under load in which a CPU must hold the bar */
#define FREQ_HELD_SHARE 0.9
/* A CPU sensor's reads under load: a missed one is heat unmeasured. One
 * missed sample in ten (or one, of fewer than ten) is allowed, as a firmware
 * mailbox's sensor may time out once, but never two in a row: a second of
 * the load unmeasured, the end of a run included */
#define SENSOR_MISS_SHARE 0.1
/* A sample this soon after a stressor started is not under load yet: its
 * workers are still being forked, the governor still ramping */
#define LOAD_SETTLE_NS 250000000ull
/* The frequencies under load, a histogram a CPU: 10 MHz steps to 10.24 GHz */
#define FREQ_STEP_KHZ 10000
#define FREQ_STEPS 1024

struct cpu_freq {
	unsigned loaded, under;		/* samples under load; of them, under the bar */
	unsigned base;			/* kHz */
	uint32_t steps[FREQ_STEPS];
};

struct sampler {
	pthread_t thread;
	volatile int done;
	volatile uint64_t load_since;	/* when the running stressor started; 0 between them */
	double freq_min;		/* the bar: this share of the base frequency */
	struct temp_sensor s[SENSORS_MAX];
	int peak[SENSORS_MAX];		/* millidegrees */
	unsigned loaded_reads[SENSORS_MAX];	/* its readings with a stressor running (past LOAD_SETTLE_NS) */
	unsigned loaded_tries[SENSORS_MAX];	/* and its samples then, read or not */
	unsigned missed_run[SENSORS_MAX], missed_most[SENSORS_MAX];	/* its misses then in a row: now, the most */
	unsigned ns, cpus;
	unsigned id[MAX_CPUS];		/* the CPUs the stressors may run on (its affinity), by number */
	struct cpu_freq *freq;		/* cpus of them */
	unsigned samples, loaded_samples;
	/* read at each sample: the fewest CPUs it was allowed to run on, the most on line */
	volatile unsigned fewest_allowed, most_online;
};

/* The CPUs this process may run on, by number, into ID (at most MAX_CPUS); 0 if the mask cannot be read. */
static unsigned allowed_cpus(unsigned *id)
{
	cpu_set_t set;
	unsigned n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (unsigned c = 0; c < CPU_SETSIZE && n < MAX_CPUS; c++)
		if (CPU_ISSET(c, &set))
			id[n++] = c;
	return n;
}

/* The mask and the CPUs on line now, into the sampler's fewest and most. */
static void watch_cpus(struct sampler *sp)
{
	cpu_set_t set;
	unsigned allowed = sched_getaffinity(0, sizeof(set), &set) ? 0 : (unsigned)CPU_COUNT(&set);
	unsigned online = burnin_cpus_on_line();

	if (allowed < sp->fewest_allowed)
		sp->fewest_allowed = allowed;
	if (online > sp->most_online)
		sp->most_online = online;
}

/* Each CPU's frequency now into the histograms, if a stressor ran all the
 * while it was read: a sweep that straddles two stressors is not kept. */
static void sample_freq(struct sampler *sp)
{
	static unsigned cur[MAX_CPUS], base[MAX_CPUS];
	uint64_t since = sp->load_since;

	if (!since || now_ns() - since < LOAD_SETTLE_NS)
		return;
	for (unsigned c = 0; c < sp->cpus; c++)
		cpu_freq_khz(sp->id[c], &cur[c], &base[c]);
	if (sp->load_since != since)
		return;
	for (unsigned c = 0; c < sp->cpus; c++) {
		struct cpu_freq *f = &sp->freq[c];
		unsigned step = cur[c] / FREQ_STEP_KHZ;

		if (!cur[c] || !base[c])
			continue;
		f->base = base[c];
		f->loaded++;
		if (cur[c] < sp->freq_min * base[c])
			f->under++;
		f->steps[step < FREQ_STEPS ? step : FREQ_STEPS - 1]++;
	}
	sp->loaded_samples++;
}

static void *sample(void *arg)
{
	struct sampler *sp = arg;

	while (!sp->done) {
		uint64_t since = sp->load_since;
		int loaded = since && now_ns() - since >= LOAD_SETTLE_NS;

		for (unsigned i = 0; i < sp->ns; i++) {
			int read = !sensor_sample(&sp->s[i]);

			if (read && sp->s[i].millic > sp->peak[i])
				sp->peak[i] = sp->s[i].millic;
			/* misses in a row: none read between them, under load or not (a reading in
			 * the next stressor's first 250 ms breaks a run as well) */
			if (read)
				sp->missed_run[i] = 0;
			if (loaded && sp->load_since == since) {
				sp->loaded_tries[i]++;
				sp->loaded_reads[i] += read;
				if (!read && ++sp->missed_run[i] > sp->missed_most[i])
					sp->missed_most[i] = sp->missed_run[i];
			}
		}
		sample_freq(sp);
		watch_cpus(sp);
		sp->samples++;
		/* every half second: each stressor's second or more past LOAD_SETTLE_NS holds a
		 * sample, whatever the phase (at a second a sample could fall in each stressor's
		 * first 250 ms, its sensors then never read under load) */
		for (int t = 0; t < 5 && !sp->done; t++)
			sleep_ns(100000000);
	}
	return NULL;
}

/* The frequency F held in FREQ_HELD_SHARE of its samples under load (its
 * 10th percentile), to the 10 MHz step below: kHz. */
static unsigned freq_held(const struct cpu_freq *f)
{
	uint64_t need = (uint64_t)(f->loaded * FREQ_HELD_SHARE + 0.999999), seen = 0;

	for (int i = FREQ_STEPS - 1; i >= 0; i--) {
		seen += f->steps[i];
		if (seen >= need)
			return (unsigned)i * FREQ_STEP_KHZ;
	}
	return 0;
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

static void run_stressors(const struct burnin_ctx *c, struct burnin_result *r, struct sampler *sp)
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
		double ran_s;

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
		sp->load_since = now_ns();
		rc = spawn_for(argv, each + 30, &burnin_stop, out, sizeof(out), &stopped);	/* consent: stress-ng loads the CPUs, writes no disk */
		ran_s = (now_ns() - sp->load_since) / 1e9;
		sp->load_since = 0;
		if ((rc == 0 || rc == 7) && !stopped && ran_s < 0.8 * each - 1) {
			/* stress-ng ends 0 when a signal from outside stops it: it did not run its time */
			burnin_set(r, BURNIN_ERROR, "stress-ng %s ended after %.0f s of its %.0f s (stopped from outside?): "
				   "not run its time", stressors[i].name, ran_s, each);
			continue;
		}
		failure_line(out, line, sizeof(line));
		switch (rc) {
		case 0:
		case 7:	/* bogo-op counts unsure (a worker stopped mid-update): its checks passed */
			if (stopped) {
				/* stress-ng ends 0 when stopped: it did not run its time */
				burnin_note(r, "stressor %s interrupted", stressors[i].name);
				break;
			}
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

/* The frequency sustained under load against the base one: the least
 * held as a figure; of the CPUs that fell short, the furthest below its
 * own base named (a hybrid's cores have bases of their own). */
static void freq_verdict(const struct burnin_ctx *c, struct burnin_result *r, const struct sampler *sp)
{
	unsigned low = 0, lowest = UINT32_MAX, worst = 0, short_cpus = 0, base_khz = 0, cur;
	double worst_ratio = 2;

	for (unsigned i = 0; i < sp->cpus && !base_khz; i++)
		cpu_freq_khz(sp->id[i], &cur, &base_khz);
	if (c->lim->cpu_freq_min <= 0)
		return;
	if (!base_khz) {
		burnin_note(r, "frequency not checked: the CPU gives no base frequency (intel_pstate, amd-pstate do)");
		return;
	}
	for (unsigned i = 0; i < sp->cpus; i++) {
		const struct cpu_freq *f = &sp->freq[i];
		unsigned held;

		if (!f->loaded)
			continue;
		held = freq_held(f);
		if (held < lowest) {
			lowest = held;
			low = i;
		}
		if (f->loaded - f->under >= FREQ_HELD_SHARE * f->loaded)
			continue;
		short_cpus++;
		if ((double)held / f->base < worst_ratio) {
			worst_ratio = (double)held / f->base;
			worst = i;
		}
	}
	if (lowest == UINT32_MAX) {
		/* stopped before a stressor had run long enough: the interruption says it */
		if (!burnin_stop)
			burnin_set(r, BURNIN_ERROR, "the frequency under load was not measured: no CPU's frequency was "
				   "read while a stressor ran (base %.0f MHz)", base_khz / 1000.0);
		return;
	}
	burnin_figure(r, "freq_sustained_mhz", lowest / 1000.0, "%.0f MHz or more on CPU %u in %.0f%% of its %u "
		      "samples under load (base %.0f MHz)", lowest / 1000.0, sp->id[low], 100 * FREQ_HELD_SHARE,
		      sp->freq[low].loaded, sp->freq[low].base / 1000.0);
	if (short_cpus) {
		const struct cpu_freq *f = &sp->freq[worst];

		burnin_set(r, BURNIN_FAIL, "CPU %u sustained %.0f MHz under load, %.2f of its base %.0f MHz (the limit: "
			   "%.2f in %.0f%% of the samples under load; it ran under it in %u of %u)%s: capped by power "
			   "or heat", sp->id[worst], freq_held(f) / 1000.0, worst_ratio, f->base / 1000.0, c->lim->cpu_freq_min,
			   100 * FREQ_HELD_SHARE, f->under, f->loaded, short_cpus > 1 ? ", and more CPUs" : "");
		burnin_figure(r, "freq_short_cpus", short_cpus, "%u CPUs under the bar in over %.0f%% of their samples "
			      "under load", short_cpus, 100 * (1 - FREQ_HELD_SHARE));
	}
}

/* The kernel log while it ran: a machine check FAILs the CPU; EDAC's
 * memory error reports are the memory component's to judge. */
static void log_verdict(struct burnin_result *r, uint64_t seq)
{
	struct edac_log *l = xcalloc(1, sizeof(*l));
	char first[512];
	int hw = edac_log_machine_checks(seq, first, sizeof(first));

	if (hw > 0)
		burnin_set(r, BURNIN_FAIL, "%d hardware error line(s) in the kernel log during the CPU test, the first: %s",
			   hw, first);
	else if (hw < 0)
		burnin_set(r, BURNIN_ERROR, "the kernel log could not be read: machine checks were not counted");
	if (!edac_log_read(seq, l) && l->lines)
		burnin_note(r, "EDAC reported %llu corrected and %llu uncorrected memory error(s) during the CPU test: "
			    "the memory's, judged by the memory component", (unsigned long long)l->ce,
			    (unsigned long long)l->ue);
	edac_log_free(l);
	free(l);
}

/*
 * Whether the stressors reached every CPU on line: they run on the CPUs this
 * process may run on (its affinity, read at each sample while they ran: a
 * mask narrowed mid-run counts), and a CPU outside them was not tested,
 * however well the others did.
 */
static void cpus_reached(const struct burnin_ctx *c, struct burnin_result *r, const struct sampler *sp)
{
	unsigned allowed = sp->fewest_allowed, online = sp->most_online;

	if (!allowed || !online) {
		burnin_set(r, BURNIN_ERROR, "the CPUs it may run on, or those on line, could not be read: whether every CPU "
			   "was stressed is not known");
		return;
	}
	if (allowed >= online)
		return;
	burnin_figure(r, "cpus_tested", allowed, "%u of the %u CPUs on line (its affinity)", allowed, online);
	if (c->lim->cpu_need_all)
		burnin_set(r, BURNIN_ERROR, "the burn-in may run on %u of the %u CPUs on line (its affinity: taskset or a "
			   "cpuset): the other %u were not tested (burnin_cpu_need_all=0 accepts that)", allowed, online,
			   online - allowed);
	else
		burnin_note(r, "stressed %u of the %u CPUs on line, those it may run on (accepted: cpu_need_all=0)", allowed,
			    online);
}

/* the drivers of the CPU's temperature sensors this machine's kind has (sys/sensors.c's chips):
 * loaded before the test, and named when none is found */
#if defined(__aarch64__)
#define CPU_SENSOR_MODULES "xgene-hwmon", "cppc_cpufreq"
#define CPU_SENSOR_DRIVERS "xgene-hwmon"
#else
#define CPU_SENSOR_MODULES "coretemp", "k10temp"
#define CPU_SENSOR_DRIVERS "coretemp, k10temp"
#endif

void burnin_cpu(const struct burnin_ctx *c, struct burnin_result *r)
{
	static struct sampler sp;
	uint64_t core0[MAX_CPUS], pkg0[MAX_CPUS], seq;
	unsigned cpus = c->cpus < MAX_CPUS ? c->cpus : MAX_CPUS, counters = 0;
	int peak = -1000000, threads = 0;
	const char *peak_label = "";

	if (!root_recorded()) {
		/* the CPU's sensors, and on arm64 CPPC's frequency control (x86's
		 * P-state drivers are built in) */
		char *argv[] = { "modprobe", "-qa", CPU_SENSOR_MODULES, NULL };

		spawn(argv, NULL, 0, NULL, 0);	/* consent: loads drivers, writes no disk */
	}
	burnin_memory_watch("cpu");
	memset(&sp, 0, sizeof(sp));
	sp.fewest_allowed = UINT32_MAX;
	/* the CPUs by number: frequencies and throttle counters are read for those the stressors run on */
	if (!(sp.cpus = allowed_cpus(sp.id)))
		for (sp.cpus = 0; sp.cpus < cpus; sp.cpus++)
			sp.id[sp.cpus] = sp.cpus;
	cpus = sp.cpus;
	watch_cpus(&sp);
	sp.freq_min = c->lim->cpu_freq_min;
	sp.freq = xcalloc(cpus, sizeof(*sp.freq));
	sp.ns = sensors_cpu(sp.s, SENSORS_MAX);
	for (unsigned i = 0; i < sp.ns; i++)
		sp.peak[i] = sp.s[i].millic;
	for (unsigned i = 0; i < cpus; i++)
		if (!throttle_counts(sp.id[i], &core0[i], &pkg0[i]))
			counters++;
	seq = kmsg_newest();
	threads = !pthread_create(&sp.thread, NULL, sample, &sp);
	if (!threads)
		burnin_set(r, BURNIN_ERROR, "the sampler could not start: temperatures and frequencies were not read");

	run_stressors(c, r, &sp);

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
	/* a sensor read at the start and not under load (its driver's reads failing: a firmware
	 * mailbox timing out, the device gone) says nothing of the heat the load made: its
	 * misses under load within SENSOR_MISS_SHARE, none two in a row, or the heat was not
	 * tested there */
	for (unsigned i = 0; i < sp.ns; i++) {
		unsigned tries = sp.loaded_tries[i], reads = sp.loaded_reads[i], allowed;
		char why[160];

		allowed = (unsigned)(SENSOR_MISS_SHARE * tries);
		if (allowed < 1)
			allowed = 1;
		if (reads && tries - reads <= allowed && sp.missed_most[i] < 2)
			continue;
		if (!tries && burnin_stop)
			continue;	/* stopped before a sample fell under load: the verdict says so */
		if (!tries)
			snprintf(why, sizeof(why), "was not sampled while the stressors ran");
		else if (!reads)
			snprintf(why, sizeof(why), "gave no reading while the stressors ran");
		else if (sp.missed_most[i] >= 2)
			snprintf(why, sizeof(why), "gave no reading in %u samples in a row while the stressors ran "
				 "(%u of %u read)", sp.missed_most[i], reads, tries);
		else
			snprintf(why, sizeof(why), "gave a reading in %u of its %u samples while the stressors ran",
				 reads, tries);
		if (c->lim->cpu_need_sensors)
			burnin_set(r, BURNIN_ERROR, "%s (%s) %s: heat was not tested there (burnin_cpu_need_sensors=0 "
				   "accepts that)", sp.s[i].label, sp.s[i].chip, why);
		else
			burnin_note(r, "heat not tested on %s (%s): %s (accepted: cpu_need_sensors=0)",
				    sp.s[i].label, sp.s[i].chip, why);
	}
	if (sp.ns)
		burnin_figure(r, "temp_max_c", peak / 1000.0, "%.0f C (%s), %u sensors sampled %u times",
			      peak / 1000.0, peak_label, sp.ns, sp.samples);
	else if (c->lim->cpu_need_sensors)
		burnin_set(r, BURNIN_ERROR, "no CPU temperature sensor (hwmon: %s): heat was not tested "
			   "(burnin_cpu_need_sensors=0 accepts that, as for a VM)", CPU_SENSOR_DRIVERS);
	else
		burnin_note(r, "heat not tested: no CPU temperature sensor (accepted: cpu_need_sensors=0)");

	/* throttling: any event during the burn-in */
	if (counters) {
		uint64_t events = 0;

		for (unsigned i = 0; i < cpus; i++) {
			uint64_t core, pkg;

			if (throttle_counts(sp.id[i], &core, &pkg))
				continue;
			if (core > core0[i] || pkg > pkg0[i]) {
				events += (core - core0[i]) + (pkg - pkg0[i]);
				burnin_set(r, BURNIN_FAIL, "CPU %u was thermally throttled during the burn-in: core events %llu -> "
					   "%llu, package events %llu -> %llu", sp.id[i], (unsigned long long)core0[i],
					   (unsigned long long)core, (unsigned long long)pkg0[i], (unsigned long long)pkg);
			}
		}
		burnin_figure(r, "throttle_events", (double)events, "%llu (counters on %u CPUs)",
			      (unsigned long long)events, counters);
	} else {
		burnin_note(r, "no thermal-throttle counters (thermal_throttle: Intel CPUs on bare metal)");
	}

	freq_verdict(c, r, &sp);
	watch_cpus(&sp);
	cpus_reached(c, r, &sp);
	free(sp.freq);
	log_verdict(r, seq);
	if (r->verdict == BURNIN_SKIPPED)
		burnin_set(r, BURNIN_PASS, "every stressor that ran verified its results; no throttling, heat, frequency "
			   "capping or machine check over the limits");
}
