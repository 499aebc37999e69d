// SPDX-License-Identifier: MIT
/*
 * disks.c - the disks component, a disk after another: its health
 * counters read (NVMe's log: critical warning, media errors, percentage
 * used, available spare; ATA's reallocated, pending and offline
 * uncorrectable sectors, UDMA CRC errors), the drive's own self-test run
 * to its end, then the verified write/read passes of the burnin profile
 * on a disk consented to (--destroy), or one read of it otherwise, then
 * the counters again. A counter that grew, a warning that appeared, a
 * self-test the drive failed, a block read back wrong or an I/O error
 * FAIL naming the disk and the figures; a drive that will not run a
 * self-test is an ERROR in its own words (unless disks_need_selftest=0).
 * Each disk's figures (selftest, pass, health) are its own, under its
 * name (burnin.json's "devices"), never one disk's over another's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "burnin/burnin.h"
#include "lib/util.h"
#include "sys/disks.h"
#include "sys/selftest.h"

/* A SMART counter as a figure's text: its value, or that the drive has none. */
static const char *counter(char buf[24], long long v)
{
	if (v < 0)
		return "not reported";
	snprintf(buf, 24, "%lld", v);
	return buf;
}

/* A counter that grew: FAIL naming it with both values. */
static void grew(struct burnin_result *r, const char *disk, const char *what, long long a, long long b)
{
	if (a >= 0 && b > a)
		burnin_set(r, BURNIN_FAIL, "%s: %s grew from %lld to %lld during the burn-in", disk, what, a, b);
}

/* NVMe's critical warning bits in words (the log page's byte 0) */
static void warning_words(unsigned bits, char *out, size_t size)
{
	snprintf(out, size, "%s%s%s%s%s", bits & 0x01 ? ": spare below threshold" : "",
		 bits & 0x02 ? ": temperature over threshold" : "", bits & 0x04 ? ": reliability degraded" : "",
		 bits & 0x08 ? ": read-only" : "", bits & 0x10 ? ": volatile backup failed" : "");
}

/*
 * A warning raised during the run, or one the drive still reports that
 * was there before it: a burn-in never passes a drive whose controller
 * says it is failing.
 */
static void compare_health(struct burnin_result *r, const struct disk *a, const struct disk *b)
{
	char words[160];

	if (a->health.valid && b->health.valid) {
		unsigned new_warn = b->health.critical_warning & ~a->health.critical_warning;
		unsigned old_warn = b->health.critical_warning & a->health.critical_warning;

		if (new_warn) {
			warning_words(new_warn, words, sizeof(words));
			burnin_set(r, BURNIN_FAIL, "%s: critical warning 0x%02x raised during the burn-in (was 0x%02x)%s",
				   b->name, b->health.critical_warning, a->health.critical_warning, words);
		}
		if (old_warn) {
			warning_words(old_warn, words, sizeof(words));
			burnin_set(r, BURNIN_FAIL, "%s: critical warning 0x%02x, set before the burn-in began%s", b->name,
				   old_warn, words);
		}
		grew(r, b->name, "media errors", (long long)a->health.media_errors, (long long)b->health.media_errors);
		grew(r, b->name, "percentage used", a->health.percentage_used, b->health.percentage_used);
		if (b->health.available_spare < a->health.available_spare)
			burnin_set(r, BURNIN_FAIL, "%s: available spare fell from %u%% to %u%% during the burn-in", b->name,
				   a->health.available_spare, b->health.available_spare);
	}
	if (a->smart.valid && b->smart.valid) {
		grew(r, b->name, "reallocated sectors (attribute 5)", a->smart.reallocated, b->smart.reallocated);
		grew(r, b->name, "pending sectors (197)", a->smart.pending, b->smart.pending);
		grew(r, b->name, "offline uncorrectable sectors (198)", a->smart.offline_uncorrectable,
		     b->smart.offline_uncorrectable);
		grew(r, b->name, "UDMA CRC errors (199)", a->smart.crc_errors, b->smart.crc_errors);
		if (a->smart.passed == 1 && b->smart.passed == 0)
			burnin_set(r, BURNIN_FAIL, "%s: SMART's overall assessment turned to FAILED", b->name);
		else if (a->smart.passed == 0 && b->smart.passed == 0)
			burnin_set(r, BURNIN_FAIL, "%s: SMART's overall assessment is FAILED, as before the burn-in began",
				   b->name);
	}
}

/* Whether the disks component, given no disks, tests D: not a loop, ram or
 * zram device, nothing in the way (WHY says what, else ""). */
static int picked(const struct disk *d, char *why, size_t len)
{
	disk_refusal(d, why, len);
	return !why[0] && strncmp(d->name, "loop", 4) && strncmp(d->name, "ram", 3) && strncmp(d->name, "zram", 4);
}

int burnin_destroy_check(const char *destroy, int disks_asked, char **disks, unsigned ndisks)
{
	char *list = xstrdup(destroy), *rest = list, *dev;
	struct disk *all = NULL;
	unsigned nall = 0;
	int rc = 0;

	if (!disks_asked) {
		rc = set_err("--destroy=%.200s: the disks component is not asked for: no disk would be written", destroy);
		goto out_free;
	}
	if (!ndisks)
		nall = disks_scan(&all);
	while (!rc && (dev = strsep(&rest, ","))) {
		struct stat st, ds;
		char why[512] = "";
		int tested = 0;

		if (!*dev) {
			rc = set_err("--destroy=%.200s: an empty entry (expected DEV[,DEV...])", destroy);
			break;
		}
		if (stat(dev, &st) || !S_ISBLK(st.st_mode)) {
			rc = set_err("--destroy: %.200s is not a block device", dev);
			break;
		}
		for (unsigned i = 0; i < ndisks && !tested; i++)
			tested = !stat(disks[i], &ds) && S_ISBLK(ds.st_mode) && ds.st_rdev == st.st_rdev;
		for (unsigned i = 0; i < nall && !tested; i++) {
			dev_t rdev;

			if (disk_rdev_of(all[i].name, &rdev) || rdev != st.st_rdev)
				continue;
			tested = picked(&all[i], why, sizeof(why));
			if (!tested && !why[0])
				snprintf(why, sizeof(why), "a loop, ram or zram device is tested only when named");
		}
		if (!tested)
			rc = set_err("--destroy: %.200s is not a disk this burn-in tests (%.200s): the consent would "
				     "be ignored", dev, ndisks ? "not among the disks named" : why[0] ? why :
				     "not a whole disk of this machine");
	}
	free(all);
out_free:
	free(list);
	return rc;
}

/* The disk's pass: the burnin profile's verified passes with consent, one
 * read of it without; bootbench itself runs it (its own process). 1 when
 * it was interrupted before its end. */
static int disk_pass(const struct burnin_ctx *c, struct burnin_result *r, const char *dev, double seconds)
{
	char out[4096], destroy[320], outdir[4200], runtime[32], filename[320];
	char *argv[12];
	int consented, rc, stopped, k = 0;
	double limit;
	struct stat st;

	consented = !stat(dev, &st) && destroy_list_has(c->destroy, st.st_rdev);
	argv[k++] = "/proc/self/exe";
	if (consented) {
		snprintf(destroy, sizeof(destroy), "--destroy=%s", dev);
		argv[k++] = "profile";
		argv[k++] = "burnin";
		argv[k++] = destroy;
		if (c->outdir) {
			snprintf(outdir, sizeof(outdir), "--output=%s", c->outdir);
			argv[k++] = outdir;
		}
		argv[k++] = (char *)dev;
	} else {
		snprintf(filename, sizeof(filename), "--filename=%s", dev);
		snprintf(runtime, sizeof(runtime), "--runtime=%.0f", seconds < 1 ? 1 : seconds);
		argv[k++] = "run";
		argv[k++] = "--name=read";
		argv[k++] = filename;
		argv[k++] = "--rw=read";
		argv[k++] = "--bs=1M";
		argv[k++] = "--direct=1";
		argv[k++] = "--iodepth=16";
		argv[k++] = runtime;
	}
	argv[k] = NULL;
	/* the verified passes take what they take (the profile's own sizes), a read its runtime */
	limit = consented ? seconds + 3600 * 24 * 30 : seconds + 60;
	rc = spawn_for(argv, limit, &burnin_stop, out, sizeof(out), &stopped);	/* consent: its own gate (--destroy) */
	if (rc == 0) {
		burnin_device_figure(r, dev, "pass", 0, "%s: %s", dev,
				     consented ? "written, read back and verified (burnin profile)"
					       : "read (no consent to write: --destroy)");
		return 0;
	}
	if (stopped && burnin_stop) {
		burnin_note(r, "%s: its %s pass was interrupted", dev, consented ? "write/verify" : "read");
		return 1;
	}
	{
		const char *l = strstr(out, "FAIL");

		if (!l)
			l = strstr(out, "error");
		if (rc == 2)
			burnin_set(r, BURNIN_ERROR, "%s: its pass did not start: %.300s", dev, out);
		else
			burnin_set(r, BURNIN_FAIL, "%s: its %s pass failed (exit %d): %.*s", dev,
				   consented ? "write/verify" : "read", rc, l ? (int)strcspn(l, "\n") : 200, l ? l : out);
	}
	return 0;
}

void burnin_disks(const struct burnin_ctx *c, struct burnin_result *r)
{
	struct disk *all = NULL, a, b;
	unsigned n = 0, tested = 0, selftests = 0, cut = 0;
	char why[512], words[512];
	const char *names[64];

	if (c->ndisks) {
		for (unsigned i = 0; i < c->ndisks && n < ARRAY_SIZE(names); i++)
			names[n++] = c->disks[i];
	} else {
		/* every disk that may be tested: not the boot or results medium, nothing mounted or in use */
		unsigned k = disks_scan(&all);

		for (unsigned i = 0; i < k && n < ARRAY_SIZE(names); i++) {
			if (picked(&all[i], why, sizeof(why)))
				names[n++] = all[i].name;
			else if (why[0])
				burnin_note(r, "%s not tested: %s", all[i].name, why);
		}
	}
	if (!n) {
		burnin_set(r, BURNIN_ERROR, "no disk to test (every disk is the boot or results medium, mounted or in use)");
		free(all);
		return;
	}
	for (unsigned i = 0; i < n && !burnin_stop; i++) {
		double share = c->seconds / n;
		char dev[300];
		enum selftest_outcome o;

		if (disk_find(names[i], &a)) {
			burnin_set(r, BURNIN_ERROR, "no such disk: %s", names[i]);
			continue;
		}
		/* named as the user named it (/dev/mapper/x, not dm-3) */
		if (!strncmp(names[i], "/dev/", 5))
			snprintf(dev, sizeof(dev), "%s", names[i]);
		else
			snprintf(dev, sizeof(dev), "/dev/%s", a.name);
		disk_refusal(&a, why, sizeof(why));
		if (why[0]) {
			burnin_set(r, BURNIN_ERROR, "%s cannot be tested: %s", dev, why);
			continue;
		}
		disk_health(&a);
		/* the short self-test; the extended one when the disk has two hours or more */
		o = drive_selftest(a.name, share >= 7200, share / 3 > 120 ? share / 3 : 120, &burnin_stop, words, sizeof(words));
		switch (o) {
		case SELFTEST_PASSED:
			selftests++;
			burnin_device_figure(r, dev, "selftest", 0, "%s: %s", a.name, words);
			break;
		case SELFTEST_FAILED:
			burnin_set(r, BURNIN_FAIL, "%s: the drive's %s", a.name, words);
			break;
		case SELFTEST_REFUSED:
			if (c->lim->disks_need_selftest)
				burnin_set(r, BURNIN_ERROR, "%s: no self-test: %s (burnin_disks_need_selftest=0 accepts that)",
					   a.name, words);
			else
				burnin_note(r, "%s: no self-test: %s", a.name, words);
			break;
		case SELFTEST_UNFINISHED:
			burnin_set(r, BURNIN_ERROR, "%s: %s", a.name, words);
			break;
		}
		cut += disk_pass(c, r, dev, share * 2 / 3);
		if (!disk_find(a.name, &b)) {
			disk_health(&b);
			compare_health(r, &a, &b);
			if (b.health.valid)
				burnin_device_figure(r, dev, "health", b.health.critical_warning, "%s: critical warning "
						     "0x%02x, %llu media errors, %u%% used, spare %u%%", b.name,
						     b.health.critical_warning, (unsigned long long)b.health.media_errors,
						     b.health.percentage_used, b.health.available_spare);
			else if (b.smart.valid) {
				char re[24], pe[24], ou[24], crc[24];

				burnin_device_figure(r, dev, "health", b.smart.reallocated, "%s: reallocated %s, pending "
						     "%s, offline uncorrectable %s, CRC errors %s", b.name,
						     counter(re, b.smart.reallocated), counter(pe, b.smart.pending),
						     counter(ou, b.smart.offline_uncorrectable), counter(crc, b.smart.crc_errors));
			}
			else
				burnin_note(r, "%s reports no health counters (no NVMe log, no SMART)", b.name);
		}
		tested++;
	}
	tested -= cut;	/* a pass interrupted did not test its disk */
	burnin_figure(r, "disks_tested", tested, "%u of %u (%u self-tests passed)", tested, n, selftests);
	if (r->verdict == BURNIN_SKIPPED && burnin_stop)
		burnin_set(r, BURNIN_INTERRUPTED, "%u of %u disks' passes ran to their end; no health counter grew",
			   tested, n);
	else if (r->verdict == BURNIN_SKIPPED)
		burnin_set(r, BURNIN_PASS, "every disk's pass ended clean and no health counter grew; %u of %u drives ran "
			   "their own self-test and passed it", selftests, tested);
	free(all);
}
