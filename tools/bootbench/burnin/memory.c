// SPDX-License-Identifier: MIT
/*
 * memory.c - the memory component: memory_fraction of what is available
 * after boot (MemAvailable: the kernel and the image keep the rest) is
 * written with a pattern that holds each word's own address, by a thread
 * per CPU, read back and compared (address lines and stuck bits show as
 * words that hold another address; the pass gives GB/s); then stress-ng's
 * vm stressors, every method with --verify, over the same amount for the
 * rest of its time. Its figures are what was done: a run stopped early
 * says how much was written and read back, never the share it meant to.
 *
 * EDAC's counters and its reports in the kernel log are watched from the
 * start of the first component that loads the machine (the cpu one calls
 * burnin_memory_watch()): a memory error is the memory's, whichever test
 * was running. A DIMM's corrected errors are counted against memory_ce_max;
 * an uncorrected error FAILs at once, naming the DIMM's locator where EDAC
 * gives it. A machine check logged during this test FAILs it. No EDAC is
 * an ERROR unless memory_need_edac=0.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "burnin/burnin.h"
#include "lib/util.h"
#include "sys/edac.h"
#include "sys/kmsg.h"
#include "sys/meminfo.h"
#include "sys/root.h"

/* The memory's error counters, from the first call of burnin_memory_watch() on. */
static struct {
	int taken, have_edac;
	const char *since;	/* the test it began with: "cpu", "memory" */
	uint64_t seq;		/* the kernel log's newest record then */
	struct edac before;
} watch;

void burnin_memory_watch(const char *since)
{
	if (watch.taken)
		return;
	if (!root_recorded()) {
		char *argv[] = { "modprobe", "-qa", "amd64_edac", "skx_edac", "i10nm_edac", "sb_edac", "ie31200_edac",
				 "igen6_edac", NULL };

		spawn(argv, NULL, 0, NULL, 0);	/* consent: loads drivers, writes no disk */
	}
	watch.taken = 1;
	watch.since = since;
	watch.have_edac = !edac_read(&watch.before);
	watch.seq = kmsg_newest();
}

enum pattern_step {
	STEP_TOUCH,		/* a word a page: the pages faulted in, untimed */
	STEP_WRITE,
	STEP_VERIFY,
};

struct slice {
	pthread_t thread;
	uint64_t *words;
	size_t n;
	size_t done;		/* words this step did before it ended or was stopped */
	uint64_t seed, mismatches, first_at, first_got;
	enum pattern_step step;
};

/* What a pattern pass did: a stopped one did less than asked. */
struct pattern_done {
	uint64_t written, verified;	/* words */
	uint64_t mismatches, first_at, first_got;
	double seconds;			/* the write and the read back */
};

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23	/* linux/mman.h, Linux 5.14 */
#endif
/* 64 MiB: a stop is heard within a few milliseconds */
#define TOUCH_CHUNK_WORDS ((64u << 20) / sizeof(uint64_t))

/* WORDS words at P faulted in for writing by the kernel, as MAP_POPULATE
 * would: 0, or -1 where it cannot (an older kernel). P is page-aligned
 * down: the first page may be shared with the slice before. */
static int populate_write(uint64_t *p, size_t words)
{
	uintptr_t start = (uintptr_t)p & ~(uintptr_t)4095, end = (uintptr_t)(p + words);

	return madvise((void *)start, end - start, MADV_POPULATE_WRITE) ? -1 : 0;
}

static void *pattern(void *arg)
{
	struct slice *s = arg;
	size_t i = 0;

	if (s->step == STEP_TOUCH) {
		/* a chunk at a time, the kernel faulting in a chunk's pages at
		 * once (Linux 5.14); else a word a page, a fault each */
		for (size_t chunk = TOUCH_CHUNK_WORDS; i < s->n && !burnin_stop; i += chunk) {
			size_t end = i + chunk < s->n ? i + chunk : s->n;

			if (populate_write(&s->words[i], end - i))
				for (size_t k = i; k < end; k += 4096 / sizeof(*s->words))
					s->words[k] = 0;
		}
		s->done = i < s->n ? i : s->n;
		return NULL;
	}
	for (; i < s->n && !burnin_stop; i++) {
		uint64_t want = (uint64_t)(uintptr_t)&s->words[i] ^ s->seed;

		if (s->step == STEP_WRITE) {
			s->words[i] = want;
		} else if (s->words[i] != want) {
			if (!s->mismatches++) {
				s->first_at = (uint64_t)(uintptr_t)&s->words[i];
				s->first_got = s->words[i];
			}
		}
	}
	s->done = i;
	return NULL;
}

/*
 * BOOTBENCH_BURNIN_HOLD=memory: the process stops itself (SIGSTOP) with
 * the memory mapped, before any of it is written, and goes on at SIGCONT:
 * a test interrupts it there, as an operator's Ctrl-C during the setup.
 */
static void hold_before_pattern(void)
{
	const char *hold = getenv("BOOTBENCH_BURNIN_HOLD");

	if (!hold || strcmp(hold, "memory"))
		return;
	fprintf(stderr, "burnin: memory: held before the pattern is written (BOOTBENCH_BURNIN_HOLD=memory); "
		"SIGCONT goes on\n");
	raise(SIGSTOP);
}

/* The pages faulted in (what MAP_POPULATE does, on one thread and deaf to
 * a stop), then one pass: write, then read back and compare, a thread per
 * CPU; each step only as far as it got before a stop. */
static void pattern_pass(uint64_t *mem, size_t words, unsigned cpus, uint64_t seed, struct pattern_done *d)
{
	struct slice *s = xcalloc(cpus, sizeof(*s));
	size_t per = words / cpus;
	uint64_t t0 = 0;

	memset(d, 0, sizeof(*d));
	for (enum pattern_step step = STEP_TOUCH; step <= STEP_VERIFY && !burnin_stop; step++) {
		if (step == STEP_WRITE)
			t0 = now_ns();
		for (unsigned i = 0; i < cpus; i++) {
			s[i].words = mem + i * per;
			s[i].n = i == cpus - 1 ? words - i * per : per;
			s[i].seed = seed;
			s[i].step = step;
			if (pthread_create(&s[i].thread, NULL, pattern, &s[i]))
				pattern(&s[i]), s[i].thread = 0;
		}
		for (unsigned i = 0; i < cpus; i++) {
			if (s[i].thread)
				pthread_join(s[i].thread, NULL);
			if (step == STEP_WRITE)
				d->written += s[i].done;
			else if (step == STEP_VERIFY)
				d->verified += s[i].done;
		}
	}
	for (unsigned i = 0; i < cpus; i++)
		if (s[i].mismatches) {
			if (!d->mismatches) {
				d->first_at = s[i].first_at;
				d->first_got = s[i].first_got;
			}
			d->mismatches += s[i].mismatches;
		}
	if (t0)
		d->seconds = (now_ns() - t0) / 1e9;
	free(s);
}

/*
 * The vm stressor's "RSS Max (KB)", the last column of its row in the
 * table --metrics prints at the end ("metrc: [pid] vm  ... 1085440"): a
 * worker's peak resident memory. 0 when the table is not there (an older
 * stress-ng, a run stopped early).
 */
static double vm_rss_max_kb(const char *out)
{
	const char *line = strstr(out, "RSS Max") ? strstr(out, "] vm ") : NULL;
	const char *end, *p;

	if (!line)
		return 0;
	end = line + strcspn(line, "\n");
	for (p = end; p > line && p[-1] == ' '; p--)
		;
	while (p > line && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return p < end && *p >= '0' && *p <= '9' ? strtod(p, NULL) : 0;
}

/* The counters' verdict: each DIMM's corrected errors since the watch
 * began against memory_ce_max, any uncorrected one. */
static void edac_verdict(const struct burnin_ctx *c, struct burnin_result *r, const struct edac *a,
			 const struct edac *b)
{
	uint64_t ce = b->ce - (b->ce >= a->ce ? a->ce : b->ce), ue = b->ue - (b->ue >= a->ue ? a->ue : b->ue);

	burnin_figure(r, "edac_ce", (double)ce, "%llu corrected, %llu uncorrected since the %s test began (%u "
		      "controllers, %u DIMMs)", (unsigned long long)ce, (unsigned long long)ue, watch.since,
		      b->controllers, b->ndimms);
	burnin_figure(r, "edac_ue", (double)ue, "%llu", (unsigned long long)ue);
	if (a->ue)
		burnin_note(r, "EDAC already counted %llu uncorrected error(s) before the test",
			    (unsigned long long)a->ue);
	for (unsigned i = 0; i < b->ndimms; i++) {
		const struct edac_dimm *d = &b->dimm[i], *was = NULL;

		for (unsigned k = 0; k < a->ndimms && !was; k++)
			if (!strcmp(a->dimm[k].id, d->id))
				was = &a->dimm[k];
		if (!was)
			continue;
		if (d->ue > was->ue)
			burnin_set(r, BURNIN_FAIL, "DIMM %s (%s): %llu uncorrected memory error(s) since the %s test "
				   "began", d->label, d->id, (unsigned long long)(d->ue - was->ue), watch.since);
		if (d->ce > was->ce && d->ce - was->ce > c->lim->memory_ce_max)
			burnin_set(r, BURNIN_FAIL, "DIMM %s (%s): %llu corrected memory errors since the %s test began, "
				   "over the limit %.0f", d->label, d->id, (unsigned long long)(d->ce - was->ce),
				   watch.since, c->lim->memory_ce_max);
	}
	/* an error EDAC could not place on a DIMM still counts */
	if (ue)
		burnin_set(r, BURNIN_FAIL, "%llu uncorrected memory error(s) since the %s test began (EDAC, no DIMM "
			   "named)", (unsigned long long)ue, watch.since);
}

/* Whether EDAC's counters name a DIMM labelled LABEL. */
static int counted_dimm(const struct edac *e, const char *label)
{
	for (unsigned i = 0; i < e->ndimms; i++)
		if (!strcmp(e->dimm[i].label, label))
			return 1;
	return 0;
}

/*
 * EDAC's reports in the kernel log since the watch began: an uncorrected
 * one FAILs, quoted; corrected ones are counted per DIMM against
 * memory_ce_max where the counters (COUNTERS, NULL: none) do not already
 * count that DIMM: the same errors, never counted twice.
 */
static void edac_log_verdict(const struct burnin_ctx *c, struct burnin_result *r, const struct edac *counters)
{
	struct edac_log *l = xcalloc(1, sizeof(*l));

	if (edac_log_read(watch.seq, l)) {
		burnin_set(r, BURNIN_ERROR, "the kernel log could not be read: EDAC's reports were not counted");
		goto out_free;
	}
	if (l->ue)
		burnin_set(r, BURNIN_FAIL, "%llu uncorrected memory error(s) reported in the kernel log since the %s "
			   "test began, the first: %s", (unsigned long long)l->ue, watch.since, l->first_ue);
	if (l->ce)
		burnin_figure(r, "edac_log_ce", (double)l->ce, "%llu corrected error(s) in %u EDAC report(s) in the "
			      "kernel log since the %s test began", (unsigned long long)l->ce, l->lines, watch.since);
	for (unsigned i = 0; i < l->ndimms; i++) {
		const struct edac_dimm *d = &l->dimm[i];

		if (d->ce <= c->lim->memory_ce_max || (counters && d->label[0] && counted_dimm(counters, d->label)))
			continue;
		burnin_set(r, BURNIN_FAIL, "DIMM %s: %llu corrected memory errors reported in the kernel log since "
			   "the %s test began, over the limit %.0f", d->label[0] ? d->label : "(none named)",
			   (unsigned long long)d->ce, watch.since, c->lim->memory_ce_max);
	}
out_free:
	edac_log_free(l);
	free(l);
}

void burnin_memory(const struct burnin_ctx *c, struct burnin_result *r)
{
	struct edac *after = xcalloc(1, sizeof(*after));
	uint64_t total, avail, bytes, seq, t0 = now_ns();
	struct pattern_done done = { 0 };
	const char *stress_done = "not run";
	double verified_gb, written_gb;
	int counters, hw;
	char first[512];
	uint64_t *mem;

	burnin_memory_watch("memory");
	seq = kmsg_newest();
	total = meminfo_bytes("MemTotal");
	avail = meminfo_bytes("MemAvailable");
	if (!total || !avail) {
		burnin_set(r, BURNIN_ERROR, "/proc/meminfo gives no MemTotal and MemAvailable: nothing tested");
		goto out;
	}
	bytes = (uint64_t)(avail * c->lim->memory_fraction) & ~(uint64_t)((1 << 20) - 1);
	/* no MAP_POPULATE: faulting in a server's memory takes a minute on
	 * one thread, deaf to Ctrl-C; the pass's threads do it, stoppable */
	mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (mem == MAP_FAILED) {
		burnin_set(r, BURNIN_ERROR, "%.2f GB could not be allocated for the pattern test (%s)", bytes / 1e9,
			   strerror(errno));
	} else {
		hold_before_pattern();
		pattern_pass(mem, bytes / 8, c->cpus, now_ns(), &done);
		munmap(mem, bytes);
	}
	/* what was read back, not what was meant to be */
	written_gb = done.written * 8 / 1e9;
	verified_gb = done.verified * 8 / 1e9;
	burnin_figure(r, "tested_gb", verified_gb, "%.2f GB of %.2f GB available after boot (%.0f%%)%s, %.2f GB "
		      "installed", verified_gb, avail / 1e9, 100.0 * verified_gb * 1e9 / avail,
		      done.verified * 8 < bytes ? " read back, stopped short" : "", total / 1e9);
	if (done.seconds > 0 && done.written + done.verified)
		burnin_figure(r, "pattern_gbs", (written_gb + verified_gb) / done.seconds, "%.2f GB/s (write and read "
			      "back, %u threads)", (written_gb + verified_gb) / done.seconds, c->cpus);
	burnin_figure(r, "pattern_mismatches", (double)done.mismatches, "%llu in %.2f GB read back",
		      (unsigned long long)done.mismatches, verified_gb);
	if (done.mismatches)
		burnin_set(r, BURNIN_FAIL, "%llu word(s) read back wrong in the address pattern; the first at "
			   "virtual address 0x%llx held 0x%016llx", (unsigned long long)done.mismatches,
			   (unsigned long long)done.first_at, (unsigned long long)done.first_got);
	if (!burnin_stop) {
		double left = c->seconds - (now_ns() - t0) / 1e9, rss;
		char workers[16], all[32], secs[32], out[4096];
		uint64_t s0 = now_ns();
		int rc, stopped;

		if (left < 2)
			left = 2;
		snprintf(workers, sizeof(workers), "%u", c->cpus);
		/* stress-ng shares --vm-bytes among its --vm workers: the total */
		snprintf(all, sizeof(all), "%llub", (unsigned long long)bytes);
		snprintf(secs, sizeof(secs), "%.0fs", left);
		char *argv[] = { "stress-ng", "--vm", workers, "--vm-bytes", all, "--vm-method", "all", "--verify",
				 "--metrics", "--timeout", secs, NULL };

		rc = spawn_for(argv, left + 60, &burnin_stop, out, sizeof(out), &stopped);	/* consent: stress-ng's vm stressors test RAM, write no disk */
		if (rc == 2) {
			const char *p = strstr(out, "fail:");

			burnin_set(r, BURNIN_FAIL, "stress-ng vm: memory did not verify: %.*s", p ? (int)strcspn(p, "\n") : 40,
				   p ? p : out);
		} else if (rc == 5 || rc == 6) {
			burnin_set(r, BURNIN_FAIL, "stress-ng vm: a worker died (exit %d)", rc);
		} else if (rc != 0 && rc != 7 && !(stopped && burnin_stop)) {
			burnin_set(r, BURNIN_ERROR, "stress-ng vm did not run over %.2f GB (exit %d): %.300s", bytes / 1e9,
				   rc, out);
		}
		stress_done = stopped && burnin_stop ? "stopped early" : "run to their end";
		burnin_figure(r, "stress_gb", bytes / 1e9, "%.2f GB shared by stress-ng's %u vm workers (%.2f GB "
			      "each), every method with --verify, for %.0f s", bytes / 1e9, c->cpus,
			      bytes / 1e9 / c->cpus, (now_ns() - s0) / 1e9);
		/* what was held, as stress-ng measured it: its largest worker's peak resident memory */
		rss = vm_rss_max_kb(out) * 1024;
		if (rss > 0)
			burnin_figure(r, "stress_held_gb", rss * c->cpus / 1e9, "about %.2f GB held together: the "
				      "largest of the %u workers peaked at %.2f GB resident", rss * c->cpus / 1e9,
				      c->cpus, rss / 1e9);
	}
	/* machine checks are this test's; EDAC's reports are the memory's */
	hw = edac_log_machine_checks(seq, first, sizeof(first));
	if (hw > 0)
		burnin_set(r, BURNIN_FAIL, "%d hardware error line(s) in the kernel log during the memory test, the "
			   "first: %s", hw, first);
	else if (hw < 0)
		burnin_set(r, BURNIN_ERROR, "the kernel log could not be read: machine checks were not counted");
	counters = watch.have_edac && !edac_read(after);
	if (counters)
		edac_verdict(c, r, &watch.before, after);
	edac_log_verdict(c, r, counters ? after : NULL);
	if (!counters && c->lim->memory_need_edac)
		burnin_set(r, BURNIN_ERROR, "no EDAC memory controller: ECC errors were not counted (non-ECC memory, "
			   "no driver for this controller, or a VM; burnin_memory_need_edac=0 accepts that)");
	else if (!counters)
		burnin_note(r, "ECC errors not counted: no EDAC memory controller (accepted: memory_need_edac=0)");
	if (burnin_stop && r->verdict < BURNIN_ERROR)
		burnin_set(r, BURNIN_INTERRUPTED, "%.2f GB of %.2f GB written and %.2f GB read back and verified before "
			   "the stop; stress-ng's vm stressors %s", written_gb, bytes / 1e9, verified_gb, stress_done);
	else if (burnin_stop)
		burnin_note(r, "%.2f GB of %.2f GB written and %.2f GB read back and verified before the stop; "
			    "stress-ng's vm stressors %s", written_gb, bytes / 1e9, verified_gb, stress_done);
	else if (r->verdict == BURNIN_SKIPPED)
		burnin_set(r, BURNIN_PASS, "%.2f GB written, read back and verified; no ECC error or machine check over "
			   "the limits", verified_gb);
out:
	free(after);
}
