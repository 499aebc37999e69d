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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

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
		if (a->health.spare_reported && b->health.spare_reported &&
		    b->health.available_spare < a->health.available_spare)
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

/* The disks tested: those named, else every disk that may be (not the
 * boot or results medium, nothing mounted or in use), each left out noted
 * in R (may be NULL). *ALL holds the names (free it). */
#define DISKS_MAX 64
static unsigned disk_names(const struct burnin_ctx *c, const char *names[DISKS_MAX], struct disk **all,
			   struct burnin_result *r)
{
	char why[512];
	unsigned n = 0;

	*all = NULL;
	/*
	 * At most DISKS_MAX at once (a burn-in's figures, its processes): a
	 * disk past them is never left out silently, its disks component is an
	 * ERROR naming it, so that a 90-bay server is not PASSed on 64.
	 */
	if (c->ndisks) {
		for (unsigned i = 0; i < c->ndisks; i++)
			if (n < DISKS_MAX)
				names[n++] = c->disks[i];
			else if (r)
				burnin_set(r, BURNIN_ERROR, "%s not tested: a burn-in tests %d disks at most (run the others "
					   "in another, naming them)", c->disks[i], DISKS_MAX);
		return n;
	}
	{
		unsigned k = disks_scan(all);

		for (unsigned i = 0; i < k; i++) {
			if (!picked(&(*all)[i], why, sizeof(why))) {
				if (why[0] && r)
					burnin_note(r, "%s not tested: %s", (*all)[i].name, why);
			} else if (n < DISKS_MAX) {
				names[n++] = (*all)[i].name;
			} else if (r) {
				burnin_set(r, BURNIN_ERROR, "%s not tested: a burn-in tests %d disks at most (run the others "
					   "in another, naming them)", (*all)[i].name, DISKS_MAX);
			}
		}
	}
	return n;
}

static unsigned disks_count(const struct burnin_ctx *c)
{
	const char *names[DISKS_MAX];
	struct disk *all;
	unsigned n = disk_names(c, names, &all, NULL);

	free(all);
	return n;
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

/*
 * --duration is kept when a disk is written: its write and read-back are
 * sized to its share of the time, never the whole disk when the time does
 * not hold it. Before anything runs each disk consented to is measured: a
 * verified write of its first blocks (the burnin profile's, read back and
 * checked), timed, grown until it takes a twentieth of the disk's share,
 * gives the seconds a byte costs. The passes then cover what the time left
 * holds: the profile's two (in order, then in a random order) over a
 * region from the disk's start, one when two would be under the minimal
 * pass, the whole disk in rounds when it holds more. A minimal pass (1 GiB,
 * or the whole of a smaller disk; BOOTBENCH_SCALE scales it as it scales
 * the time) that cannot fit is refused before anything runs, saying how
 * long a burn-in it would need.
 */
#define PLAN_MIN_BYTES (1ull << 30)
#define PLAN_SPARE 0.85		/* of the time left: the spawns, the health reads, a rate that wavers */

struct plan {
	dev_t rdev;
	uint64_t size;		/* the disk's */
	uint64_t min;		/* a minimal pass */
	double cost;		/* seconds a byte costs, written and read back */
	double start_s;		/* and a run's start (the program, its sandbox) */
	double probe_s;		/* the measuring's time, out of the disk's share */
};
static struct plan plans[DISKS_MAX];
static unsigned nplans;

static const struct plan *plan_of(const char *dev)
{
	struct stat st;

	if (stat(dev, &st))
		return NULL;
	for (unsigned i = 0; i < nplans; i++)
		if (plans[i].rdev == st.st_rdev)
			return &plans[i];
	return NULL;
}

/* `bootbench run` ARGV, its sizes and times as given: BOOTBENCH_SCALE (already in the time they were
 * sized to) is 1 in the child. spawn_for's exit status. */
static int spawn_unscaled(char **argv, double limit, char *out, size_t outlen, int *stopped)
{
	char scale[64] = "", *was = getenv("BOOTBENCH_SCALE");
	int rc;

	if (was)
		snprintf(scale, sizeof(scale), "%s", was);
	setenv("BOOTBENCH_SCALE", "1", 1);
	rc = spawn_for(argv, limit, &burnin_stop, out, outlen, stopped);	/* consent: run's own gate (--destroy) or a read */
	if (was)
		setenv("BOOTBENCH_SCALE", scale, 1);
	else
		unsetenv("BOOTBENCH_SCALE");
	return rc;
}

/*
 * `bootbench run`, the burnin profile's options (burnin.fio) on DEV's
 * first SIZE bytes: PASSES 1, the write in order; 2, then a random one.
 * OFFSET on. Sizes are bytes as given: BOOTBENCH_SCALE (already in the time they were
 * sized to) is 1 in the child. Its exit status (spawn_for's).
 */
static int verified_write(const char *dev, uint64_t offset, uint64_t size, int passes, unsigned round, double limit, char *out,
			  size_t outlen, int *stopped)
{
	char destroy[320], filename[320], sz[32], off[32], seed[32];
	char *argv[24];
	int k = 0;

	snprintf(destroy, sizeof(destroy), "--destroy=%s", dev);
	snprintf(filename, sizeof(filename), "--filename=%s", dev);
	snprintf(sz, sizeof(sz), "--size=%llu", (unsigned long long)size);
	snprintf(seed, sizeof(seed), "--randseed=%u", round);
	argv[k++] = "/proc/self/exe";
	argv[k++] = "run";
	argv[k++] = destroy;
	argv[k++] = filename;
	argv[k++] = sz;
	snprintf(off, sizeof(off), "--offset=%llu", (unsigned long long)offset);
	argv[k++] = off;
	argv[k++] = "--ioengine=io_uring";
	argv[k++] = "--direct=1";
	argv[k++] = "--bs=1m";
	argv[k++] = "--iodepth=16";
	argv[k++] = "--verify=crc32c";
	argv[k++] = "--refill_buffers";
	argv[k++] = "--verify_interval=512";
	argv[k++] = "--continue_on_error=all";
	argv[k++] = seed;
	/* by its name in ps: the rate measured before the burn-in (one pass), or a pass of it */
	argv[k++] = passes > 1 ? "--name=burnin-pass-1" : "--name=burnin-measure";
	argv[k++] = "--rw=write";
	if (passes > 1) {
		argv[k++] = "--name=burnin-pass-2";
		argv[k++] = "--stonewall";
		argv[k++] = "--rw=randwrite";
	}
	argv[k] = NULL;
	return spawn_unscaled(argv, limit, out, outlen, stopped);	/* consent: run's own gate (--destroy) */
}

/* DEV measured (the words above): -1 with bb_err when it could not be, 1
 * when it is not to be written (the results medium, in use). */
static int measure(const char *dev, double share, struct plan *p)
{
	double target = share / 20, f, t = 0, prev_t = 0;
	uint64_t probe = 16ull << 20, prev = 0;
	struct disk d;
	struct stat st;
	char out[2048], why[512];
	int stopped;

	if (disk_find(dev, &d) || stat(dev, &st) || !d.size)
		return set_err("%s: no such disk", dev);
	disk_refusal(&d, why, sizeof(why));
	if (why[0])
		return 1;	/* never written: the component says why (ERROR) */
	if (scale_factor(&f))
		return -1;
	memset(p, 0, sizeof(*p));
	p->rdev = st.st_rdev;
	p->size = d.size & ~((1ull << 20) - 1);
	p->min = (uint64_t)(PLAN_MIN_BYTES * f) & ~((1ull << 20) - 1);
	if (p->min < (1ull << 20))
		p->min = 1ull << 20;
	if (p->min > p->size)
		p->min = p->size;
	if (target < 0.2)
		target = 0.2;
	if (target > 10)
		target = 10;
	/*
	 * A run's time is its start (a program, its sandbox) and a cost per
	 * byte: two probes, the second four times the first, tell them apart
	 * (t = start + cost * bytes); probes grow until the larger takes a
	 * quarter of the target or is the whole disk.
	 */
	for (;;) {
		uint64_t t0 = now_ns();
		int rc;

		if (probe > p->size)
			probe = p->size;
		rc = verified_write(dev, 0, probe, 1, 0, 60 + target * 100, out, sizeof(out), &stopped);
		t = (now_ns() - t0) / 1e9;
		p->probe_s += t;
		/* stopped while measured: the burn-in is INTERRUPTED, not a disk that cannot be measured */
		if (stopped || burnin_stop)
			return set_err("%s: interrupted while its rate was measured", dev);
		if (rc)
			return set_err("%s: its rate could not be measured (a verified write of its first %llu MiB: "
				       "exit %d): %.300s", dev, (unsigned long long)(probe >> 20), rc, out);
		if ((prev && t >= target / 4) || probe == p->size || p->probe_s >= 2 * target)
			break;
		prev = probe;
		prev_t = t;
		probe *= 4;
	}
	p->cost = prev && probe > prev && t > prev_t ? (t - prev_t) / (double)(probe - prev) : t / (double)probe;
	p->start_s = t - p->cost * (double)probe;
	if (p->start_s < 0)
		p->start_s = 0;
	return 0;
}

int burnin_disks_plan(const struct burnin_ctx *c, double per_second)
{
	char *list, *rest, *dev, size[32], rate[32];
	unsigned n = disks_count(c);
	int rc = 0;

	if (!c->destroy || !n)
		return 0;
	list = xstrdup(c->destroy);
	rest = list;
	while (!rc && (dev = strsep(&rest, ",")) && nplans < ARRAY_SIZE(plans)) {
		struct plan *p = &plans[nplans];
		double share = c->seconds, need;	/* the disks run at once: each has the whole time */

		if (!*dev || plan_of(dev))
			continue;
		rc = measure(dev, share, p);
		if (rc > 0) {
			rc = 0;
			continue;
		}
		if (rc)
			break;
		nplans++;
		/* the first stretch is the minimal pass, written twice (in order,
		 * then at random) and read back each time: cost is one pass's */
		need = (p->probe_s + p->start_s + 2 * (double)p->min * p->cost) / PLAN_SPARE;
		if (need > share)
			rc = set_err("--duration: %s is written and read back at %s/s: a minimal pass (%s) needs %.0f s "
				     "of the %.0f s its share gives; a burn-in of %.0f s or more tests it (or no "
				     "--destroy: it is only read)", dev, fmt_iec(1 / p->cost, rate, sizeof(rate)),
				     fmt_iec((double)p->min, size, sizeof(size)), ceil(need), share,
				     ceil(need * per_second));
	}
	free(list);
	return rc;
}

/* Sectors the disk ST names has read (/sys/dev/block/MAJ:MIN/stat), 0 when unknown. */
static double sectors_read(const struct stat *st)
{
	char path[64];
	double sectors = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/stat", major(st->st_rdev), minor(st->st_rdev));
	f = fopen(path, "re");
	if (f) {
		if (fscanf(f, "%*u %*u %lf", &sectors) != 1)
			sectors = 0;
		fclose(f);
	}
	return sectors;
}

/* What became of a disk's pass: it ran (to a verdict on the disk: PASS or FAIL), it was cut short
 * by the burn-in's stop, or it did not run (an ERROR: the disk not tested). */
enum { PASS_RAN, PASS_CUT, PASS_NOT_RUN };

/* The disk's pass: the burnin profile's verified passes with consent,
 * sized to the time left (its plan), one read of it without; bootbench
 * itself runs it (its own process), read over and over for its time
 * without. What became of it: PASS_RAN, PASS_CUT, PASS_NOT_RUN. */
static int disk_pass(const struct burnin_ctx *c, struct burnin_result *r, const char *dev, double seconds)
{
	char out[4096], filename[320], runtime[32], size[32], whole[32], rate[32], rate2[32], size_s[32];
	double read_bytes = 0, read0;
	char *argv[12];
	const struct plan *p = plan_of(dev);
	int consented, rc = 0, stopped = 0, k = 0;
	uint64_t region = 0, done = 0;	/* written at least once; of the round being written */
	unsigned rounds = 1, whole_rounds = 0;	/* the round being written (its seeds); those written whole */
	double limit = 0;
	struct stat st;

	consented = !stat(dev, &st) && destroy_list_has(c->destroy, st.st_rdev);
	if (consented && !p) {
		burnin_set(r, BURNIN_ERROR, "%s: not measured before the burn-in began: its pass cannot be sized", dev);
		return PASS_NOT_RUN;
	}
	if (consented) {
		/*
		 * In stretches, each written in order and at random and read
		 * back, from the disk's start: the rate measured at the start
		 * may not hold (a drive's cache fills), so each stretch is
		 * sized to the time left at the rate of the one before, and
		 * the last ends with the time. The first is a minimal pass.
		 */
		uint64_t end = now_ns() + (uint64_t)(seconds * 1e9);
		double cost = p->cost;

		while (!rc && !burnin_stop) {
			double left = (double)(int64_t)(end - now_ns()) / 1e9 * PLAN_SPARE - p->start_s, t;
			uint64_t chunk = left > 0 ? (uint64_t)(fmin(left, fmax(seconds / 8, 8 * p->start_s)) / (2 * cost)) : 0;
			uint64_t t0 = now_ns();

			if (region < p->min)
				chunk = chunk > p->min - region ? chunk : p->min - region;
			if (chunk > p->size - done)
				chunk = p->size - done;
			chunk &= ~((1ull << 20) - 1);
			if (!chunk)
				break;
			limit = 60 + 2 * (p->start_s + 2 * (double)chunk * cost);
			rc = verified_write(dev, done, chunk, 2, rounds, limit, out, sizeof(out), &stopped);
			t = (now_ns() - t0) / 1e9;
			if (rc)
				break;
			cost = t > p->start_s ? (t - p->start_s) / (2.0 * (double)chunk) : cost;
			done += chunk;
			if (done > region)
				region = done;
			if (done == p->size) {	/* the whole disk again, with new seeds */
				done = 0;
				rounds++;
				whole_rounds++;
			}
		}
	} else {
		snprintf(filename, sizeof(filename), "--filename=%s", dev);
		snprintf(runtime, sizeof(runtime), "--runtime=%.0f", seconds < 1 ? 1 : seconds);
		argv[k++] = "/proc/self/exe";
		argv[k++] = "run";
		argv[k++] = "--name=read";
		argv[k++] = filename;
		argv[k++] = "--rw=read";
		argv[k++] = "--bs=1m";
		argv[k++] = "--direct=1";
		argv[k++] = "--iodepth=16";
		/* read over and over for its whole time: a load beside the others, not a second's */
		argv[k++] = "--time_based";
		argv[k++] = runtime;
		argv[k] = NULL;
		limit = seconds + 60;
		read0 = sectors_read(&st);
		rc = spawn_unscaled(argv, limit, out, sizeof(out), &stopped);	/* consent: a read, writes nothing */
		read_bytes = (sectors_read(&st) - read0) * 512.0;
	}
	if (rc == 0 && !burnin_stop) {
		if (consented)
			/* what was written, never the whole disk unless it was */
			burnin_device_figure(r, dev, "pass", 100.0 * (double)region / (double)p->size,
					     "%s: %s of %s (%.1f%%) written in order and at random, read back and verified"
					     "%s%.0u%s%s%s%s (%.0f s at %s/s measured at the start)", dev,
					     fmt_iec((double)region, size, sizeof(size)),
					     fmt_iec((double)p->size, whole, sizeof(whole)),
					     100.0 * (double)region / (double)p->size,
					     whole_rounds > 1 ? ": the whole disk " : "", whole_rounds > 1 ? whole_rounds : 0,
					     whole_rounds > 1 ? " times" : "", whole_rounds && done ? ", then " : "",
					     whole_rounds && done ? fmt_iec((double)done, rate, sizeof(rate)) : "",
					     whole_rounds && done ? " of the next" : "",
					     seconds, fmt_iec(1 / p->cost, rate2, sizeof(rate2)));
		else {
			uint64_t size = 0;
			int fd = open(dev, O_RDONLY | O_CLOEXEC);

			if (fd >= 0) {
				ioctl(fd, BLKGETSIZE64, &size);
				close(fd);
			}
			/* what was read, as the disk counted it: never "the disk" unless it was */
			burnin_device_figure(r, dev, "pass", NAN, "%s: read, %s in %.0f s (%.1f times its %s; no consent "
					     "to write: --destroy)", dev, fmt_iec(read_bytes, whole, sizeof(whole)), seconds,
					     size ? read_bytes / (double)size : 0, fmt_iec((double)size, size_s, sizeof(size_s)));
		}
		return PASS_RAN;
	}
	if (burnin_stop) {
		burnin_note(r, "%s: its %s pass was interrupted", dev, consented ? "write/verify" : "read");
		return PASS_CUT;
	}
	if (stopped) {
		burnin_set(r, BURNIN_FAIL, "%s: its %s pass ran past %.0f s, twice the time its rate measured at the "
			   "start gave (the disk slowed down): stopped", dev, consented ? "write/verify" : "read", limit);
		return PASS_RAN;
	}
	{
		const char *l = strstr(out, "FAIL");

		if (!l)
			l = strstr(out, "error");
		if (strstr(out, "interrupted")) {
			/* stopped by a signal not the burn-in's: the disk was not tested, not found failing */
			burnin_set(r, BURNIN_ERROR, "%s: its %s pass was stopped from outside the burn-in before its end: not "
				   "tested to its end", dev, consented ? "write/verify" : "read");
			return PASS_NOT_RUN;
		}
		if (rc == 2) {
			burnin_set(r, BURNIN_ERROR, "%s: its pass did not start: %.300s", dev, out);
			return PASS_NOT_RUN;
		}
		burnin_set(r, BURNIN_FAIL, "%s: its %s pass failed (exit %d): %.*s", dev,
			   consented ? "write/verify" : "read", rc, l ? (int)strcspn(l, "\n") : 200, l ? l : out);
	}
	return PASS_RAN;
}

/* One disk's part, in a process of its own when there are several (disks at once). */
struct disk_job {
	const struct burnin_ctx *c;
	const char *name;
	double share;
};
enum { DISK_TESTED, DISK_SELFTEST_PASSED, DISK_CUT };

static void disk_one(const void *arg, struct burnin_result *r, int extra[4])
{
	const struct disk_job *job = arg;
	const struct burnin_ctx *c = job->c;
	double share = job->share, pass_s;
	uint64_t d0 = now_ns();
	const struct plan *p;
	struct disk a, b;
	char dev[300], why[512], words[512];
	enum selftest_outcome o;
	int pass;

	if (disk_find(job->name, &a)) {
		burnin_set(r, BURNIN_ERROR, "no such disk: %s", job->name);
		return;
	}
	/* named as the user named it (/dev/mapper/x, not dm-3) */
	if (!strncmp(job->name, "/dev/", 5))
		snprintf(dev, sizeof(dev), "%s", job->name);
	else
		snprintf(dev, sizeof(dev), "/dev/%s", a.name);
	disk_refusal(&a, why, sizeof(why));
	if (why[0]) {
		burnin_set(r, BURNIN_ERROR, "%s cannot be tested: %s", dev, why);
		return;
	}
	disk_health(&a);
	/* the short self-test; the extended one when the disk has two hours or more */
	o = drive_selftest(a.name, share >= 7200, share / 3 > 120 ? share / 3 : 120, &burnin_stop, words, sizeof(words));
	switch (o) {
	case SELFTEST_PASSED:
		extra[DISK_SELFTEST_PASSED] = 1;
		burnin_device_figure(r, dev, "selftest", NAN, "%s: %s", a.name, words);
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
	/* written: the share less its measuring and what came before the
	 * pass (the self-test); read: what is left of it, less a margin for the counters read after */
	p = plan_of(dev);
	pass_s = p ? share - p->probe_s - (now_ns() - d0) / 1e9 : 0.95 * (share - (now_ns() - d0) / 1e9);
	pass = disk_pass(c, r, dev, pass_s);
	extra[DISK_CUT] = pass == PASS_CUT;
	if (!disk_find(a.name, &b)) {
		disk_health(&b);
		compare_health(r, &a, &b);
		if (b.health.valid) {
			char spare[32], used[32];

			nvme_wear_words(&b.health, used, spare);
			burnin_device_figure(r, dev, "health", b.health.critical_warning, "%s: critical warning "
					     "0x%02x, %llu media errors, %s, %s", b.name,
					     b.health.critical_warning, (unsigned long long)b.health.media_errors,
					     used, spare);
		}
		else if (b.smart.valid) {
			char re[24], pe[24], ou[24], crc[24];

			/* its number the reallocated count, when the drive reports one */
			burnin_device_figure(r, dev, "health", b.smart.reallocated >= 0 ? (double)b.smart.reallocated : NAN,
					     "%s: reallocated %s, pending "
					     "%s, offline uncorrectable %s, CRC errors %s", b.name,
					     counter(re, b.smart.reallocated), counter(pe, b.smart.pending),
					     counter(ou, b.smart.offline_uncorrectable), counter(crc, b.smart.crc_errors));
		}
		else
			burnin_note(r, "%s reports no health counters (no NVMe log, no SMART)", b.name);
	}
	/* tested: its pass ran (a FAIL found is a test's outcome; an ERROR is not a test) */
	extra[DISK_TESTED] = pass == PASS_RAN;
}

/*
 * Every disk at once, each in a process of its own with the whole time:
 * the load a server's power and its controllers see in production, and a
 * day's burn-in of 24 disks is a day, not 24. One disk runs here.
 */
void burnin_disks(const struct burnin_ctx *c, struct burnin_result *r)
{
	struct disk *all = NULL;
	unsigned n = 0, tested = 0, selftests = 0;
	const char *names[DISKS_MAX];
	struct disk_job jobs[DISKS_MAX];
	struct burnin_child *ch;
	struct burnin_result *dr;
	uint64_t t0;

	n = disk_names(c, names, &all, r);
	if (!n) {
		burnin_set(r, BURNIN_ERROR, "no disk to test (every disk is the boot or results medium, mounted or in use)");
		free(all);
		return;
	}
	t0 = now_ns();
	ch = xcalloc(n, sizeof(*ch));
	dr = xcalloc(n, sizeof(*dr));
	for (unsigned i = 0; i < n; i++) {
		jobs[i] = (struct disk_job){ .c = c, .name = names[i], .share = c->seconds };
		dr[i].component = r->component;
		if (burnin_stop)
			continue;
		if (n == 1)
			disk_one(&jobs[i], &dr[i], ch[i].extra);
		else if (!burnin_stop && burnin_child_start(&ch[i], names[i], disk_one, &jobs[i], &dr[i]))
			burnin_set(&dr[i], BURNIN_ERROR, "%s", bb_err);
	}
	for (;;) {
		unsigned running = 0;

		for (unsigned i = 0; i < n; i++) {
			/* a disk that hangs is stopped and named; the others' results still count */
			burnin_child_watch(&ch[i], t0 + (uint64_t)(c->seconds * 1e9));
			running += !burnin_child_poll(&ch[i], 0);
		}
		if (!running)
			break;
		usleep(200000);	/* a signal ends it early: the children are told at once */
	}
	for (unsigned i = 0; i < n; i++) {
		burnin_merge(r, &dr[i], "", "");
		/* a pass interrupted did not test its disk; counted per disk, as a
		 * disk with an ERROR and a pass cut short is neither (it was once
		 * subtracted twice: "4294967295 of 3" on an interrupted run) */
		tested += ch[i].extra[DISK_TESTED] && !ch[i].extra[DISK_CUT];
		selftests += ch[i].extra[DISK_SELFTEST_PASSED];
	}
	free(ch);
	free(dr);
	burnin_figure(r, "disks_tested", tested, "%u of %u (%u self-tests passed)", tested, n, selftests);
	if (r->verdict == BURNIN_SKIPPED && burnin_stop)
		burnin_set(r, BURNIN_INTERRUPTED, "%u of %u disks' passes ran to their end; no health counter grew",
			   tested, n);
	else if (r->verdict == BURNIN_SKIPPED && tested < n)
		burnin_set(r, BURNIN_ERROR, "%u of %u disks' passes ran to their end", tested, n);
	else if (r->verdict == BURNIN_SKIPPED)
		burnin_set(r, BURNIN_PASS, "every disk's pass ended clean and no health counter grew, all %u at once; "
			   "%u of %u drives ran their own self-test and passed it", n, selftests, tested);
	free(all);
}
