// SPDX-License-Identifier: MIT
/*
 * memory.c - the memory component: memory_fraction of what is available
 * after boot (MemAvailable: the kernel and the image keep the rest) is
 * faulted in and mlocked (where allowed: else noted) by a thread per CPU,
 * each its slice, and the same threads run memtester's patterns over their
 * slices (mempatterns.c), memory_loops times within 3/4 of the time (the
 * first, stuck address, always to its end: a stuck bit or address line is
 * looked for in every run); then stress-ng's vm stressors, every method
 * with --verify, over the same amount for the rest of its time. A word
 * read back wrong FAILs, named: its offset, the pattern, what it should
 * have held and what it held. Its figures are what was done: the patterns
 * that ran to their end, and on what share; a run stopped early says how
 * much was written and read back, never the share it meant to.
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
#include <sys/resource.h>
#include <unistd.h>

#include "burnin/burnin.h"
#include "burnin/mempatterns.h"
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
		/* the memory controllers' EDAC drivers the image carries (arm64's
		 * firmware-first servers report through ghes_edac, built in) */
#if defined(__aarch64__)
		char *argv[] = { "modprobe", "-qa", "thunderx_edac", "xgene_edac", NULL };
#else
		char *argv[] = { "modprobe", "-qa", "amd64_edac", "skx_edac", "i10nm_edac", "sb_edac", "ie31200_edac",
				 "igen6_edac", NULL };
#endif

		spawn(argv, NULL, 0, NULL, 0);	/* consent: loads drivers, writes no disk */
	}
	watch.taken = 1;
	watch.since = since;
	watch.have_edac = !edac_read(&watch.before);
	watch.seq = kmsg_newest();
}

struct slice {
	pthread_t thread;
	struct mp_slice mp;
	const struct mempattern *pat;	/* NULL: the slice's pages faulted in and mlocked */
	size_t touched, locked;		/* words */
	int lock_errno;
};

/* What the patterns did: a stopped run did less than asked. */
struct patterns_done {
	uint64_t written, read;		/* words, all sweeps: the GB/s */
	uint64_t wrote_once, read_once;	/* words written, read back at least once */
	uint64_t touched, locked;	/* words faulted in, mlocked */
	int lock_errno;
	double seconds;			/* the patterns' */
	unsigned loops, ran;		/* loops run whole; patterns run to their end, all loops */
	unsigned fin[32];		/* a pattern's runs to its end */
	const char *stopped_in;		/* the pattern a stop or the time cut short or kept from beginning */
	int out_of_time;		/* the time ran out (else a stop) */
	uint64_t mismatches, first_off, first_addr, first_want, first_got;
	const char *first_pat;
	unsigned first_loop;
	char found_by[256];		/* "stuck address (16), ..." */
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

/* The slice's pages faulted in and locked, a chunk at a time (the kernel
 * faulting in a chunk's pages at once, Linux 5.14; else a word a page, a
 * fault each), stoppable; locking stops at the first refusal. */
static void touch(struct slice *s)
{
	uint64_t *w = s->mp.words;
	size_t i = 0, n = s->mp.n;

	for (size_t chunk = TOUCH_CHUNK_WORDS; i < n && !burnin_stop; i += chunk) {
		size_t end = i + chunk < n ? i + chunk : n;

		if (populate_write(&w[i], end - i))
			for (size_t k = i; k < end; k += 4096 / sizeof(*w))
				w[k] = 0;
		if (!s->lock_errno && mlock(&w[i], (end - i) * sizeof(*w)))
			s->lock_errno = errno;
		else if (!s->lock_errno)
			s->locked = end;
	}
	s->touched = i < n ? i : n;
}

static void *slice_thread(void *arg)
{
	struct slice *s = arg;

	if (s->pat)
		s->pat->run(&s->mp);
	else
		touch(s);
	return NULL;
}

/* PAT (NULL: the touch) over every slice, a thread each; 1 when each ran
 * to its end */
static int over_slices(struct slice *s, unsigned cpus, const struct mempattern *pat, uint64_t deadline)
{
	int all = 1;

	for (unsigned i = 0; i < cpus; i++) {
		s[i].pat = pat;
		s[i].mp.finished = 0;
		s[i].mp.mismatches = 0;
		s[i].mp.deadline = deadline;
		if (pthread_create(&s[i].thread, NULL, slice_thread, &s[i]))
			slice_thread(&s[i]), s[i].thread = 0;
	}
	for (unsigned i = 0; i < cpus; i++) {
		if (s[i].thread)
			pthread_join(s[i].thread, NULL);
		all &= pat ? s[i].mp.finished : s[i].touched == s[i].mp.n;
	}
	return all;
}

/* the mismatches PAT found in loop LOOP, the first of the run kept */
static void count_mismatches(struct patterns_done *d, struct slice *s, unsigned cpus, const struct mempattern *pat,
			     unsigned loop)
{
	uint64_t n = 0;
	size_t len;

	for (unsigned i = 0; i < cpus; i++) {
		const struct mp_slice *m = &s[i].mp;

		if (!m->mismatches)
			continue;
		if (!d->mismatches && !n) {
			d->first_off = (m->base + m->first_at) * sizeof(uint64_t);
			d->first_addr = (uint64_t)(uintptr_t)&m->words[m->first_at];
			d->first_want = m->first_want;
			d->first_got = m->first_got;
			d->first_pat = pat->name;
			d->first_loop = loop + 1;
		}
		n += m->mismatches;
	}
	if (!n)
		return;
	d->mismatches += n;
	len = strlen(d->found_by);
	snprintf(d->found_by + len, sizeof(d->found_by) - len, "%s%s (%llu)", len ? ", " : "", pat->name,
		 (unsigned long long)n);
}

/*
 * BOOTBENCH_BURNIN_HOLD=memory: the component's process (its own: it
 * says its pid) stops itself (SIGSTOP) with
 * the memory mapped, before any of it is written, and goes on at SIGCONT:
 * a test interrupts it there, as an operator's Ctrl-C during the setup.
 * BOOTBENCH_BURNIN_HOLD=memory:N: the same once N patterns ran to their
 * end: a Ctrl-C in the middle of the patterns.
 */
static void hold(unsigned ran)
{
	const char *h = getenv("BOOTBENCH_BURNIN_HOLD");

	if (!h || strncmp(h, "memory", 6))
		return;
	if (!h[6] && ran == 0)
		fprintf(stderr, "burnin: memory: held before the pattern is written (BOOTBENCH_BURNIN_HOLD=memory); "
			"SIGCONT to pid %d goes on\n", (int)getpid());
	else if (h[6] == ':' && ran && strtoul(h + 7, NULL, 10) == ran)
		fprintf(stderr, "burnin: memory: held after %u pattern(s) ran to their end (BOOTBENCH_BURNIN_HOLD=%s); "
			"SIGCONT to pid %d goes on\n", ran, h, (int)getpid());
	else
		return;
	raise(SIGSTOP);
}

/*
 * The share faulted in and mlocked by a thread per CPU, each its slice (on
 * one thread, as MAP_POPULATE does, it takes a minute and is deaf to a
 * stop), then memtester's patterns (mempatterns.c) over the slices, LOOPS
 * times or until DEADLINE; the first pattern of the first loop always runs
 * to its end (unless stopped), so a stuck bit or address line is looked
 * for in every run. Each step only as far as it got before a stop.
 */
static void patterns(uint64_t *mem, size_t words, unsigned cpus, unsigned loops, uint64_t deadline,
		     const struct mp_slice *stuck, struct patterns_done *d)
{
	struct slice *s = xcalloc(cpus, sizeof(*s));
	size_t per = words / cpus;
	uint64_t t0, seed = now_ns();

	memset(d, 0, sizeof(*d));
	for (unsigned i = 0; i < cpus; i++) {
		struct mp_slice *m = &s[i].mp;

		m->words = mem + i * per;
		m->n = i == cpus - 1 ? words - i * per : per;
		m->base = i * per;
		m->seed = seed;
		m->stuck_at = stuck->stuck_at >= m->base && stuck->stuck_at - m->base < m->n ?
			      stuck->stuck_at - m->base : SIZE_MAX;
		m->stuck_mask = stuck->stuck_mask;
		m->stuck_val = stuck->stuck_val;
	}
	over_slices(s, cpus, NULL, 0);
	for (unsigned i = 0; i < cpus; i++) {
		d->touched += s[i].touched;
		d->locked += s[i].locked;
		if (!d->lock_errno)
			d->lock_errno = s[i].lock_errno;
	}
	hold(0);
	t0 = now_ns();
	for (unsigned l = 0; l < loops && !burnin_stop && !d->stopped_in; l++) {
		for (unsigned p = 0; p < nmempatterns && !burnin_stop; p++) {
			const struct mempattern *pat = &mempatterns[p];
			int first = !l && !p;

			if (!first && now_ns() >= deadline) {
				d->stopped_in = pat->name;
				d->out_of_time = 1;
				break;
			}
			if (!over_slices(s, cpus, pat, first ? 0 : deadline)) {
				count_mismatches(d, s, cpus, pat, l);
				d->stopped_in = pat->name;
				d->out_of_time = !burnin_stop;
				break;
			}
			count_mismatches(d, s, cpus, pat, l);
			d->fin[p]++;
			d->ran++;
			hold(d->ran);
			if (burnin_stop && p + 1 < nmempatterns)
				d->stopped_in = mempatterns[p + 1].name;	/* not begun */
		}
		if (!d->stopped_in && !burnin_stop)
			d->loops++;
	}
	for (unsigned i = 0; i < cpus; i++) {
		d->written += s[i].mp.written;
		d->read += s[i].mp.read;
		d->wrote_once += s[i].mp.wrote_once;
		d->read_once += s[i].mp.read_once;
	}
	d->seconds = (now_ns() - t0) / 1e9;
	free(s);
}

/* "stuck address, random value (2), ...": the patterns that ran to their
 * end, with how often where more than once; "none" */
static void patterns_run(const struct patterns_done *d, char *buf, size_t size)
{
	size_t len = 0;

	snprintf(buf, size, "none");
	for (unsigned p = 0; p < nmempatterns && len < size; p++) {
		if (!d->fin[p])
			continue;
		len += snprintf(buf + len, size - len, "%s%s", len ? ", " : "", mempatterns[p].name);
		if (d->fin[p] > 1 && len < size)
			len += snprintf(buf + len, size - len, " (%ux)", d->fin[p]);
	}
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

/* The share locked or not, for the reason: "mlocked", or why not. */
static void lock_words(const struct patterns_done *d, uint64_t words, char *buf, size_t size)
{
	struct rlimit rl = { 0 };

	if (d->touched && d->locked >= d->touched) {
		snprintf(buf, size, "mlocked");
		return;
	}
	getrlimit(RLIMIT_MEMLOCK, &rl);
	snprintf(buf, size, "not mlocked (%.2f GB of %.2f GB locked: %s; RLIMIT_MEMLOCK %llu KiB)", d->locked * 8 / 1e9,
		 words * 8 / 1e9, d->lock_errno ? strerror(d->lock_errno) : "stopped first",
		 rl.rlim_cur == RLIM_INFINITY ? 0ull : (unsigned long long)rl.rlim_cur / 1024);
}

/* BOOTBENCH_BURNIN_STUCK_BIT into STUCK (none when unset): -1 with bb_err */
static int stuck_bit(uint64_t bytes, struct mp_slice *stuck)
{
	const char *spec = getenv("BOOTBENCH_BURNIN_STUCK_BIT");

	stuck->stuck_at = SIZE_MAX;
	if (!spec || !*spec)
		return 0;
	return mempatterns_stuck_bit(spec, bytes, &stuck->stuck_at, &stuck->stuck_mask, &stuck->stuck_val);
}

void burnin_memory(const struct burnin_ctx *c, struct burnin_result *r)
{
	struct edac *after = xcalloc(1, sizeof(*after));
	uint64_t total, avail, bytes, seq, t0 = now_ns();
	struct patterns_done done = { 0 };
	const char *stress_done = "not run";
	double verified_gb, written_gb;
	struct mp_slice stuck = { 0 };
	char first[512], ran[512], locked[160] = "not mlocked";
	unsigned loops = (unsigned)c->lim->memory_loops;
	int counters, hw;
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
	if (stuck_bit(bytes, &stuck)) {
		burnin_set(r, BURNIN_ERROR, "%s", bb_err);
		goto out;
	}
	/* as root the share can be locked whole: no page of it is moved or
	 * swapped out while a pattern is in it (else it is noted) */
	setrlimit(RLIMIT_MEMLOCK, &(struct rlimit){ RLIM_INFINITY, RLIM_INFINITY });
	/* no MAP_POPULATE: faulting in a server's memory takes a minute on
	 * one thread, deaf to Ctrl-C; the threads do it, stoppable */
	mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (mem == MAP_FAILED) {
		burnin_set(r, BURNIN_ERROR, "%.2f GB could not be allocated for the pattern test (%s)", bytes / 1e9,
			   strerror(errno));
	} else {
		/* the patterns take up to 3/4 of the time, stress-ng the rest */
		patterns(mem, bytes / 8, c->cpus, loops, t0 + (uint64_t)(c->seconds * 0.75e9), &stuck, &done);
		lock_words(&done, bytes / 8, locked, sizeof(locked));
		munmap(mem, bytes);
	}
	patterns_run(&done, ran, sizeof(ran));
	/* what was written and read back, not what was meant to be */
	written_gb = done.wrote_once * 8 / 1e9;
	verified_gb = done.read_once * 8 / 1e9;
	burnin_figure(r, "tested_gb", verified_gb, "%.2f GB of %.2f GB available after boot (%.0f%%)%s, %.2f GB "
		      "installed", verified_gb, avail / 1e9, 100.0 * verified_gb * 1e9 / avail,
		      done.read_once * 8 < bytes ? " read back, stopped short" : "", total / 1e9);
	if (done.seconds > 0 && done.written + done.read)
		burnin_figure(r, "pattern_gbs", (done.written + done.read) * 8 / 1e9 / done.seconds, "%.2f GB/s (write "
			      "and read back, %u threads)", (done.written + done.read) * 8 / 1e9 / done.seconds, c->cpus);
	burnin_figure(r, "pattern_mismatches", (double)done.mismatches, "%llu in %.2f GB read back",
		      (unsigned long long)done.mismatches, done.read * 8 / 1e9);
	burnin_figure(r, "patterns_run", done.ran, "%u run to their end over %.2f GB (%s): %s", done.ran,
		      bytes / 1e9, locked, ran);
	burnin_figure(r, "pattern_loops", done.loops, "%u of %u loop(s) of memtester's %u patterns run whole",
		      done.loops, loops, nmempatterns);
	if (done.mismatches)
		burnin_set(r, BURNIN_FAIL, "%llu word(s) read back wrong; the first in the %s pattern (loop %u) at "
			   "offset 0x%llx of the share (virtual address 0x%llx): expected 0x%016llx, found 0x%016llx "
			   "(bits 0x%016llx differ); found by: %s", (unsigned long long)done.mismatches, done.first_pat,
			   done.first_loop, (unsigned long long)done.first_off, (unsigned long long)done.first_addr,
			   (unsigned long long)done.first_want, (unsigned long long)done.first_got,
			   (unsigned long long)(done.first_want ^ done.first_got), done.found_by);
	if (mem != MAP_FAILED && strcmp(locked, "mlocked"))
		burnin_note(r, "the share %s: the kernel may move its pages under the patterns", locked);
	if (done.out_of_time)
		burnin_note(r, "memtester's patterns: the time ran out in loop %u of %u, at the %s pattern: it and "
			    "those after it not run (a longer --duration runs them)", done.loops + 1, loops,
			    done.stopped_in);
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
		/* --vm-keep: each worker keeps its share mapped between passes, so the share stays held
		 * (without it the workers unmap and fault it in again, and held 109 MiB of 410 at times) */
		char *argv[] = { "stress-ng", "--vm", workers, "--vm-bytes", all, "--vm-keep", "--vm-method", "all",
				 "--verify", "--metrics", "--timeout", secs, NULL };

		rc = spawn_for(argv, left + 60, &burnin_stop, out, sizeof(out), &stopped);	/* consent: stress-ng's vm stressors test RAM, write no disk */
		if ((rc == 0 || rc == 7) && !stopped && (now_ns() - s0) / 1e9 < 0.8 * left - 1) {
			/* stress-ng ends 0 when a signal from outside stops it: it did not run its time */
			burnin_set(r, BURNIN_ERROR, "stress-ng vm ended after %.0f s of its %.0f s (stopped from outside?): not "
				   "run its time", (now_ns() - s0) / 1e9, left);
		} else if (rc == 2) {
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
			   "the stop; memtester's patterns run to their end over it: %s%s%s; stress-ng's vm stressors %s",
			   written_gb, bytes / 1e9, verified_gb, ran, done.stopped_in ? "; stopped at " : "",
			   done.stopped_in ? done.stopped_in : "", stress_done);
	else if (burnin_stop)
		burnin_note(r, "%.2f GB of %.2f GB written and %.2f GB read back and verified before the stop; "
			    "memtester's patterns run to their end over it: %s%s%s; stress-ng's vm stressors %s",
			    written_gb, bytes / 1e9, verified_gb, ran, done.stopped_in ? "; stopped at " : "",
			    done.stopped_in ? done.stopped_in : "", stress_done);
	else if (r->verdict == BURNIN_SKIPPED)
		burnin_set(r, BURNIN_PASS, "%.2f GB written, read back and verified (%s) by memtester's patterns, %u of "
			   "%u loop(s) whole; run to their end: %s; no ECC error or machine check over the limits",
			   verified_gb, locked, done.loops, loops, ran);
out:
	free(after);
}
