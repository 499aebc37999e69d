// SPDX-License-Identifier: MIT
/*
 * memory.c - the memory component: memory_fraction of what is available
 * after boot (MemAvailable: the kernel and the image keep the rest) is
 * written with a pattern that holds each word's own address, by a thread
 * per CPU, read back and compared (address lines and stuck bits show as
 * words that hold another address; the pass gives GB/s); then stress-ng's
 * vm stressors, every method with --verify, over the same amount for the
 * rest of its time. EDAC's counters and the kernel log's machine checks
 * before and after: an uncorrected error, a mismatch, a machine check, or
 * a DIMM's corrected errors over memory_ce_max FAIL, naming the DIMM's
 * locator where EDAC gives it. No EDAC is an ERROR unless
 * memory_need_edac=0.
 */
#include <errno.h>
#include <pthread.h>
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

struct slice {
	pthread_t thread;
	uint64_t *words;
	size_t n;
	uint64_t seed, mismatches, first_at, first_got;
	int verify;
};

static void *pattern(void *arg)
{
	struct slice *s = arg;

	for (size_t i = 0; i < s->n && !burnin_stop; i++) {
		uint64_t want = (uint64_t)(uintptr_t)&s->words[i] ^ s->seed;

		if (!s->verify) {
			s->words[i] = want;
		} else if (s->words[i] != want) {
			if (!s->mismatches++) {
				s->first_at = (uint64_t)(uintptr_t)&s->words[i];
				s->first_got = s->words[i];
			}
		}
	}
	return NULL;
}

/* One pass: write, then read back and compare, a thread per CPU; the
 * mismatches; GB/s of the two together in *gbs. */
static uint64_t pattern_pass(uint64_t *mem, size_t words, unsigned cpus, uint64_t seed, double *gbs,
			     uint64_t *first_at, uint64_t *first_got)
{
	struct slice *s = xcalloc(cpus, sizeof(*s));
	uint64_t t0 = now_ns(), bad = 0;
	size_t per = words / cpus;

	for (int verify = 0; verify < 2; verify++) {
		for (unsigned i = 0; i < cpus; i++) {
			s[i].words = mem + i * per;
			s[i].n = i == cpus - 1 ? words - i * per : per;
			s[i].seed = seed;
			s[i].verify = verify;
			if (pthread_create(&s[i].thread, NULL, pattern, &s[i]))
				pattern(&s[i]), s[i].thread = 0;
		}
		for (unsigned i = 0; i < cpus; i++)
			if (s[i].thread)
				pthread_join(s[i].thread, NULL);
	}
	for (unsigned i = 0; i < cpus; i++)
		if (s[i].mismatches) {
			if (!bad) {
				*first_at = s[i].first_at;
				*first_got = s[i].first_got;
			}
			bad += s[i].mismatches;
		}
	*gbs = 2.0 * words * 8 / ((now_ns() - t0) / 1e9) / 1e9;
	free(s);
	return bad;
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

static void edac_verdict(const struct burnin_ctx *c, struct burnin_result *r, const struct edac *a,
			 const struct edac *b)
{
	uint64_t ce = b->ce - (b->ce >= a->ce ? a->ce : b->ce), ue = b->ue - (b->ue >= a->ue ? a->ue : b->ue);

	burnin_figure(r, "edac_ce", (double)ce, "%llu corrected, %llu uncorrected during the test (%u controllers, "
		      "%u DIMMs)", (unsigned long long)ce, (unsigned long long)ue, b->controllers, b->ndimms);
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
			burnin_set(r, BURNIN_FAIL, "DIMM %s (%s): %llu uncorrected memory error(s) during the test",
				   d->label, d->id, (unsigned long long)(d->ue - was->ue));
		if (d->ce > was->ce && d->ce - was->ce > c->lim->memory_ce_max)
			burnin_set(r, BURNIN_FAIL, "DIMM %s (%s): %llu corrected memory errors during the test, over "
				   "the limit %.0f", d->label, d->id, (unsigned long long)(d->ce - was->ce),
				   c->lim->memory_ce_max);
	}
	/* an error EDAC could not place on a DIMM still counts */
	if (ue)
		burnin_set(r, BURNIN_FAIL, "%llu uncorrected memory error(s) during the test (EDAC, no DIMM named)",
			   (unsigned long long)ue);
}

void burnin_memory(const struct burnin_ctx *c, struct burnin_result *r)
{
	struct edac *before = xcalloc(1, sizeof(*before)), *after = xcalloc(1, sizeof(*after));
	uint64_t total, avail, bytes, seq, first_at = 0, first_got = 0, bad;
	int have_edac, hw;
	uint64_t t0 = now_ns();
	double gbs = 0;
	char first[512];
	uint64_t *mem;

	if (!root_recorded()) {
		char *argv[] = { "modprobe", "-qa", "amd64_edac", "skx_edac", "i10nm_edac", "sb_edac", "ie31200_edac",
				 "igen6_edac", NULL };

		spawn(argv, NULL, 0, NULL, 0);	/* consent: loads drivers, writes no disk */
	}
	have_edac = !edac_read(before);
	seq = kmsg_newest();
	total = meminfo_bytes("MemTotal");
	avail = meminfo_bytes("MemAvailable");
	if (!total || !avail) {
		burnin_set(r, BURNIN_ERROR, "/proc/meminfo gives no MemTotal and MemAvailable: nothing tested");
		goto out;
	}
	bytes = (uint64_t)(avail * c->lim->memory_fraction) & ~(uint64_t)((1 << 20) - 1);
	burnin_figure(r, "tested_gb", bytes / 1e9, "%.2f GB of %.2f GB available after boot (%.0f%%), %.2f GB installed",
		      bytes / 1e9, avail / 1e9, 100.0 * bytes / avail, total / 1e9);
	mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE | MAP_NORESERVE,
		   -1, 0);
	if (mem == MAP_FAILED) {
		burnin_set(r, BURNIN_ERROR, "%.2f GB could not be allocated for the pattern test (%s)", bytes / 1e9,
			   strerror(errno));
	} else {
		bad = pattern_pass(mem, bytes / 8, c->cpus, now_ns(), &gbs, &first_at, &first_got);
		munmap(mem, bytes);
		burnin_figure(r, "pattern_gbs", gbs, "%.2f GB/s (write and read back, %u threads)", gbs, c->cpus);
		burnin_figure(r, "pattern_mismatches", (double)bad, "%llu", (unsigned long long)bad);
		if (bad)
			burnin_set(r, BURNIN_FAIL, "%llu word(s) read back wrong in the address pattern; the first at "
				   "virtual address 0x%llx held 0x%016llx", (unsigned long long)bad,
				   (unsigned long long)first_at, (unsigned long long)first_got);
	}
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
	hw = kmsg_hw_errors(seq, first, sizeof(first));
	if (hw > 0)
		burnin_set(r, BURNIN_FAIL, "%d hardware error line(s) in the kernel log during the memory test, the "
			   "first: %s", hw, first);
	else if (hw < 0)
		burnin_set(r, BURNIN_ERROR, "the kernel log could not be read: machine checks were not counted");
	if (have_edac && !edac_read(after))
		edac_verdict(c, r, before, after);
	else if (c->lim->memory_need_edac)
		burnin_set(r, BURNIN_ERROR, "no EDAC memory controller: ECC errors were not counted (non-ECC memory, "
			   "no driver for this controller, or a VM; burnin_memory_need_edac=0 accepts that)");
	else
		burnin_note(r, "ECC errors not counted: no EDAC memory controller (accepted: memory_need_edac=0)");
	if (r->verdict == BURNIN_SKIPPED)
		burnin_set(r, BURNIN_PASS, "%.2f GB written, read back and verified; no ECC error or machine check over "
			   "the limits", bytes / 1e9);
out:
	free(before);
	free(after);
}
