// SPDX-License-Identifier: MIT
/*
 * erase.c - `bootbench erase`: disks made empty for decommissioning, as
 * NIST SP 800-88 says, proven by reading them back, with a certificate per
 * disk and per machine (erase/erase.h, erase/certificate.h). Everything is
 * checked before the first write: the method, the pattern, the key, and
 * every disk through the consent gate (named in --destroy, not the boot or
 * results medium, not mounted or in use); bad input is one line, exit 2,
 * nothing written.
 *
 * Its flags and help: the declaration at the end (lib/args.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "erase/certificate.h"
#include "erase/erase.h"
#include "lib/args.h"
#include "lib/util.h"
#include "lib/wrap.h"
#include "save/metrics.h"
#include "sys/machine.h"
#include "safety/consent.h"
#include "sys/disks.h"

struct erase_opts {
	const char *method, *verify, *pattern, *trim, *destroy, *output, *operator_name, *asset_tag, *key, *hpa, *metrics;
	unsigned passes, progress_fd;
	int check, verify_only;
};

static const struct erase_opts erase_defaults = { .method = "auto", .verify = "full", 
						  .trim = "auto", .hpa = "open", .passes = 1 };

/*
 * A signal stops every disk's writes between two of them: Ctrl-C, a kill,
 * and SIGHUP (the ssh session that started it dropped) alike, so that the
 * certificates say what was done. SIGPIPE is ignored: a console gone must
 * not cost them either.
 */
static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* zero, one, random, or 0xHEX of 1, 2 or 4 bytes */
static void erase_pattern(const char *s, struct erase_job *e)
{
	size_t n;

	if (!strcmp(s, "zero")) {
		e->pattern[0] = 0;
		e->pattern_len = 1;
	} else if (!strcmp(s, "one")) {
		e->pattern[0] = 0xff;
		e->pattern_len = 1;
	} else if (!strcmp(s, "random")) {
		e->pattern_len = 0;
	} else if (!strncmp(s, "0x", 2) && (n = strlen(s + 2)) && (n == 2 || n == 4 || n == 8) &&
		   strspn(s + 2, "0123456789abcdefABCDEF") == n) {
		for (size_t i = 0; i < n / 2; i++) {
			char b[3] = { s[2 + 2 * i], s[3 + 2 * i], 0 };

			e->pattern[i] = (unsigned char)strtoul(b, NULL, 16);
		}
		e->pattern_len = (unsigned)n / 2;
	} else {
		die_usage("erase: --pattern=%.40s: expected zero, one, random or 0xHEX of 1, 2 or 4 bytes", s);
	}
}

static const char *const phase_names[] = { "waiting", "marking", "erasing", "flushing", "verifying",
					   "discarding", "done" };

/*
 * The phase as the table and the progress file say it: a disk's end is its
 * verdict in one word (the progress file's fields are blank-separated),
 * never "done" for a disk whose data may still be there. The metrics keep
 * "done" in their phase label (the rules and fleet read it, as older images
 * push it) beside bootbench_erase_erased.
 */
static const char *phase_word(const struct erase_job *e, int phase)
{
	return phase == PHASE_DONE ? erase_verdict_word(e->verdict) : phase_names[phase];
}

/* What the reporter keeps of each disk between two looks. */
struct watch {
	uint64_t done, at_ns;
	double mbs;
	int phase, printed;
	struct metrics metrics;
};

static double seconds_left(const struct erase_job *e, const struct watch *w, uint64_t done, uint64_t total)
{
	double left, verify_bytes = e->full_verify ? (double)e->disk.size : 0.1 * (double)e->disk.size;
	unsigned pass = __atomic_load_n(&e->progress.pass, __ATOMIC_RELAXED);

	if (w->mbs <= 0)
		return -1;
	left = (double)(total > done ? total - done : 0);
	if (w->phase == PHASE_ERASING && e->method && e->method->category == ERASE_CLEAR && pass)
		left += (double)(e->passes - pass) * (double)e->disk.size + verify_bytes;
	else if (w->phase == PHASE_ERASING || w->phase == PHASE_MARKING)
		return -1;	/* a purge's time is the drive's */
	return left / (w->mbs * 1e6);
}

static void hms(double s, char *buf, size_t len)
{
	if (s < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%02u:%02u:%02u", (unsigned)(s / 3600), (unsigned)s / 60 % 60, (unsigned)s % 60);
}

/* One look at every disk: the rate since the last look, then the lines each reader wants. */
static void report(struct erase_job *jobs, struct watch *watch, int n, int fd, int table, uint64_t start_ns)
{
	uint64_t now = now_ns();
	char body[2048], eta[16], el[16];

	if (table) {
		hms((double)(now - start_ns) / 1e9, el, sizeof(el));
		printf("erase: %s in\n  %-12s %-10s %5s %6s %8s %9s %7s\n", el, "DISK", "PHASE", "PASS", "DONE", "MB/s",
		       "LEFT", "ERRORS");
	}
	for (int i = 0; i < n; i++) {
		struct erase_job *e = &jobs[i];
		struct watch *w = &watch[i];
		/* acquire: the verdict, set before the phase's end, is seen with it */
		int phase = __atomic_load_n(&e->progress.phase, __ATOMIC_ACQUIRE);
		uint64_t done = __atomic_load_n(&e->progress.done, __ATOMIC_RELAXED);
		uint64_t total = __atomic_load_n(&e->progress.total, __ATOMIC_RELAXED);
		uint64_t errors = __atomic_load_n(&e->progress.errors, __ATOMIC_RELAXED);
		unsigned pass = __atomic_load_n(&e->progress.pass, __ATOMIC_RELAXED);
		double pct = total ? 100.0 * (double)done / (double)total : phase == PHASE_DONE ? 100 : 0, left;

		if (phase != w->phase || done < w->done) {
			w->phase = phase;
			w->done = done;
			w->at_ns = now;
		} else if (now - w->at_ns >= 500000000ull) {
			w->mbs = (double)(done - w->done) / ((double)(now - w->at_ns) / 1e9) / 1e6;
			w->done = done;
			w->at_ns = now;
		}
		left = phase == PHASE_DONE ? 0 : seconds_left(e, w, done, total);
		hms(left, eta, sizeof(eta));
		if (table)
			printf("  %-12.12s %-10s %2u/%-2u %5.1f%% %8.1f %9s %7llu\n", e->disk.name, phase_word(e, phase),
			       pass, e->method && e->method->category == ERASE_CLEAR ? e->passes : 1, pct, w->mbs, eta,
			       (unsigned long long)errors);
		if (fd > 0)
			dprintf(fd, "erase %s %s %u %u %.1f %.1f %.0f %llu\n", e->disk.name, phase_word(e, phase), pass,
				e->passes, pct, w->mbs, left, (unsigned long long)errors);
		if (w->metrics.url[0]) {
			snprintf(body, sizeof(body),
				 "# HELP bootbench_erase_progress_ratio How much of the erase's current phase is done, 0 to 1.\n"
				 "# TYPE bootbench_erase_progress_ratio gauge\nbootbench_erase_progress_ratio{phase=\"%s\"} %.4f\n"
				 "# HELP bootbench_erase_pass The overwrite pass being written.\n# TYPE bootbench_erase_pass gauge\n"
				 "bootbench_erase_pass %u\n"
				 "# HELP bootbench_erase_throughput_bytes_per_second Bytes written or read back per second.\n"
				 "# TYPE bootbench_erase_throughput_bytes_per_second gauge\n"
				 "bootbench_erase_throughput_bytes_per_second %.0f\n"
				 "# HELP bootbench_erase_errors_total Blocks that could not be written or were not as expected.\n"
				 "# TYPE bootbench_erase_errors_total counter\nbootbench_erase_errors_total %llu\n"
				 /* what fleet and BootbenchSilent read as a run going, as a disk run's state and a burn-in's */
				 "# HELP bootbench_erase_running 1 while the disk's erase goes on, 0 once it is done.\n"
				 "# TYPE bootbench_erase_running gauge\n"
				 "bootbench_erase_running %d\n"
				 "%s%s%s",
				 phase_names[phase], pct / 100, pass, w->mbs * 1e6, (unsigned long long)errors, phase != PHASE_DONE,
				 left >= 0 ? "# HELP bootbench_erase_time_left_seconds The erase's time left as it reckons it.\n"
					     "# TYPE bootbench_erase_time_left_seconds gauge\nbootbench_erase_time_left_seconds " : "",
				 left >= 0 ? (snprintf(el, sizeof(el), "%.0f", left), el) : "", left >= 0 ? "\n" : "");
			if (phase == PHASE_DONE)
				snprintf(body + strlen(body), sizeof(body) - strlen(body),
					 "# HELP bootbench_erase_erased 1 when the disk was proven erased, 0 when not.\n"
					 "# TYPE bootbench_erase_erased gauge\nbootbench_erase_erased %d\n", e->verdict == ERASED);
			metrics_push_text(&w->metrics, body, phase == PHASE_DONE);
		}
	}
	fflush(stdout);
}

static void *erase_thread(void *arg)
{
	struct erase_job *e = arg;

	erase_disk(e, e->method_asked);
	/* the health after, unless stopped: a signal wants the certificates now */
	if (!e->verify_only && !(e->stop && *e->stop) && !disk_find(e->disk.name, &e->after))
		disk_health(&e->after);
	__atomic_store_n(&e->finished, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* A line of the erase's on standard output, "erase: " first, folded on a terminal as verdict_line is. */
static void __attribute__((format(printf, 1, 2))) say(const char *fmt, ...)
{
	char text[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	wrap_print(stdout, "erase: ", text, wrap_width());
}

/*
 * The line per disk a console (and a rack's log) keeps: into a pipe one
 * line, for grep; on a terminal folded to its width under "erase: ", so a
 * disk's words stay together at 80 columns.
 */
static void verdict_line(const struct erase_job *e)
{
	char text[2048];

	snprintf(text, sizeof(text), "%s serial %s: %s%s%s (%s; %s; %llu block(s) not as expected, markers left %u%s)%s%s",
		 e->dev, e->disk.serial[0] ? e->disk.serial : "unknown", erase_verdict_name(e->verdict),
		 e->exceptions[0] ? ": " : "", e->exceptions,
		 e->verify_only ? "verify-only" : e->method ? e->method->name : "no method",
		 e->command[0] ? e->command : "nothing ran", (unsigned long long)e->mismatches, e->markers_left,
		 e->bad_blocks ? ", blocks not written" : "", e->failure[0] ? "; " : "", e->failure);
	wrap_print(stdout, "erase: ", text, wrap_width());
	if (e->bad_blocks) {
		snprintf(text, sizeof(text), "%s: not erased: %llu block(s) could not be written (the certificate lists "
			 "the first)", e->dev, (unsigned long long)e->bad_blocks);
		wrap_print(stdout, "erase: ", text, wrap_width());
	}
}

static int erase_main(void *opts, int argc, char **argv)
{
	struct erase_opts *o = opts;
	struct erase_job *jobs;
	struct watch *watch;
	pthread_t *threads;
	struct cert_who who = { 0 };
	struct cert_signer *signer = NULL;
	struct sigaction sa = { .sa_handler = on_signal }, ign = { .sa_handler = SIG_IGN };
	const char *metrics_url = o->metrics ? o->metrics : getenv("BOOTBENCH_METRICS");
	int failed = 0, i, running, table;
	uint64_t start_ns, last_table = 0, last_look = 0;
	int was_running = -1;
	struct stat st;

	if (!argc && !o->check)
		die_usage("erase: name the disks to erase (and in --destroy)");
	if (strcmp(o->method, "auto") && strcmp(o->method, "purge") && !erase_method_named(o->method)) {
		char names[512] = "";

		for (unsigned k = 0; k < erase_nmethods; k++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), ", %s", erase_methods[k].name);
		die_usage("erase: --method=%.40s: expected auto, purge%s", o->method, names);
	}
	if (strcmp(o->verify, "full") && strcmp(o->verify, "sample"))
		die_usage("erase: --verify=%.40s: expected full or sample", o->verify);
	if (strcmp(o->trim, "auto") && strcmp(o->trim, "off"))
		die_usage("erase: --trim=%.40s: expected auto or off", o->trim);
	if (strcmp(o->hpa, "open") && strcmp(o->hpa, "keep"))
		die_usage("erase: --hpa=%.40s: expected open or keep", o->hpa);
	{
		struct erase_job probe;

		erase_pattern(o->pattern ? o->pattern : "zero", &probe);
		if (o->verify_only && !probe.pattern_len)
			die_usage("erase: --verify-only --pattern=random: random data cannot be recognised without its seed");
	}
	if (o->progress_fd && fcntl((int)o->progress_fd, F_GETFL) < 0)
		die_usage("erase: --progress-fd=%u: not an open file descriptor", o->progress_fd);
	if (o->progress_fd && (fcntl((int)o->progress_fd, F_GETFL) & O_ACCMODE) == O_RDONLY)
		die_usage("erase: --progress-fd=%u: open for reading only", o->progress_fd);
	if (o->asset_tag && (strlen(o->asset_tag) > 64 || strspn(o->asset_tag,
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ._-/#:") != strlen(o->asset_tag)))
		die_usage("erase: --asset-tag: letters, digits, blanks and ._-/#: only, 64 at most");
	if (o->operator_name && (strlen(o->operator_name) > 80 || strpbrk(o->operator_name, "\n\r\t<>&\"")))
		die_usage("erase: --operator: a name on one line, 80 characters at most, without <>&\"");
	/* the key is read now, once: one that goes away during a long erase cannot cost the certificates */
	if (o->key && !(signer = cert_signer_load(o->key)))
		die_usage("erase: --key: %s", bb_err);
	if (o->check) {
		cert_signer_free(signer);
		return EXIT_OK;
	}
	if (!o->output)
		die_usage("erase: --output=DIR is needed: the certificates go there");
	if (o->verify_only) {
		if (o->destroy)
			die_usage("erase: --verify-only writes nothing: leave --destroy out");
	} else if (consent_allow(o->destroy)) {
		die_usage("erase: --destroy: %s", bb_err);
	}
	jobs = xcalloc((size_t)argc, sizeof(*jobs));
	/* every disk checked before anything is written */
	for (i = 0; i < argc; i++) {
		struct erase_job *e = &jobs[i];
		char kname[64], whole[64];
		int part;

		if (stat(argv[i], &st) || !S_ISBLK(st.st_mode))
			die_usage("erase: %s is not a block device", argv[i]);
		part = disk_kernel_names(st.st_rdev, kname, sizeof(kname), whole, sizeof(whole));
		if (part > 0)
			die_usage("erase: %s is a partition: erase the whole disk", argv[i]);
		if (part < 0 || disk_find(kname, &e->disk))
			die_usage("erase: %s: not a disk this machine has", argv[i]);
		for (int k = 0; k < i; k++)
			if (!strcmp(jobs[k].disk.name, e->disk.name))
				die_usage("erase: %s is named twice", argv[i]);
		if (!o->verify_only && consent_check(argv[i]))
			die_usage("erase: %s", bb_err);
		e->dev = argv[i];
		e->verdict = NOT_ERASED;	/* until proven: a disk whose thread never ran is not erased */
		e->passes = o->passes;
		erase_pattern(o->pattern ? o->pattern : "zero", e);
		if (o->verify_only && !o->pattern)
			e->pattern_len = 0;	/* what it holds is found, not assumed */
		e->trim = !strcmp(o->trim, "auto");
		e->full_verify = !strcmp(o->verify, "full");
		e->verify_only = o->verify_only;
		e->restore_hpa = !strcmp(o->hpa, "open");
		e->stop = &stop;
		e->outdir = o->output;
		e->method_asked = o->method;
	}
	/* what this run writes besides the disks (its output, --progress-fd) goes to no block device:
	 * one being erased would be written after its read-back */
	{
		int fds[3] = { STDOUT_FILENO, STDERR_FILENO, (int)o->progress_fd };
		const char *what[3] = { "the output", "the error output", "--progress-fd" };

		for (int f = 0; f < 3; f++) {
			struct stat fs, ds;

			if ((f == 2 && !o->progress_fd) || fstat(fds[f], &fs) || !S_ISBLK(fs.st_mode))
				continue;
			for (i = 0; i < argc; i++)
				if (!stat(jobs[i].dev, &ds) && ds.st_rdev == fs.st_rdev)
					die_usage("erase: %s goes to %s, a disk being erased", what[f], jobs[i].dev);
			die_usage("erase: %s goes to a block device: give it a file or a terminal", what[f]);
		}
	}
	if (lstat(o->output, &st) == 0 && S_ISLNK(st.st_mode))
		die_usage("erase: --output=%s is a symbolic link: name the folder itself", o->output);
	if (mkdir(o->output, 0755) && errno != EEXIST)
		die_usage("erase: --output=%s: %s", o->output, strerror(errno));
	if (lstat(o->output, &st) || !S_ISDIR(st.st_mode))
		die_usage("erase: --output=%s is not a folder", o->output);
	if (cert_dir_check(o->output, jobs, (unsigned)argc, signer))
		die_usage("erase: --output: %s", bb_err);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &ign, NULL);
	watch = xcalloc((size_t)argc, sizeof(*watch));
	threads = xcalloc((size_t)argc, sizeof(*threads));
	for (i = 0; i < argc; i++) {
		struct erase_job *e = &jobs[i];
		char size[32], machine[128];

		if (!o->verify_only)
			disk_health(&e->disk);
		say("%s (%s, serial %s, %s): %s, %s verification", e->dev,
		       e->disk.model[0] ? e->disk.model : "model unknown", e->disk.serial[0] ? e->disk.serial : "unknown",
		       fmt_iec((double)e->disk.size, size, sizeof(size)), o->verify_only ? "verify only" : o->method,
		       o->verify);
		watch[i].phase = -1;
		if (metrics_url && *metrics_url) {
			machine_id(machine, sizeof(machine));
			if (metrics_init(&watch[i].metrics, metrics_url, machine, e->disk.name))
				die_usage("erase: --metrics: %s", bb_err);
		}
	}
	fflush(stdout);
	cert_who_fill(&who, o->asset_tag);
	who.operator_name = o->operator_name;
	who.signer = signer;
	say("erase ID %s; %d disk(s) side by side", who.erase_id, argc);
	/* every disk at once, each in its own thread: N equal disks take about as long as one */
	start_ns = now_ns();
	for (i = 0; i < argc; i++)
		if (pthread_create(&threads[i], NULL, erase_thread, &jobs[i])) {
			snprintf(jobs[i].failure, sizeof(jobs[i].failure), "no thread could be started for it: nothing "
				 "was written");
			jobs[i].verdict = NOT_ERASED;
			erase_progress_set(&jobs[i], PHASE_DONE, 0);	/* ended, its verdict shown */
			jobs[i].finished = 1;
			threads[i] = 0;
		}
	table = isatty(STDOUT_FILENO);
	do {
		struct timespec tenth = { 0, 100000000 };
		uint64_t now;

		nanosleep(&tenth, NULL);
		now = now_ns();
		running = 0;
		for (i = 0; i < argc; i++)
			running += !__atomic_load_n(&jobs[i].finished, __ATOMIC_ACQUIRE);
		/* a look a second, and one when a disk is done */
		if (running && now - last_look < 1000000000ull && running == was_running)
			continue;
		last_look = now;
		was_running = running;
		/* the table: every 2 s on a terminal, every 30 s into a log */
		{
			int show = running && now - last_table >= (table ? 2 : 30) * 1000000000ull &&
				   now - start_ns >= 2000000000ull;

			report(jobs, watch, argc, (int)o->progress_fd, show, start_ns);
			if (show)
				last_table = now;
		}
		for (i = 0; i < argc; i++)
			if (__atomic_load_n(&jobs[i].finished, __ATOMIC_ACQUIRE) && !watch[i].printed) {
				verdict_line(&jobs[i]);
				watch[i].printed = 1;
			}
		fflush(stdout);
	} while (running);
	for (i = 0; i < argc; i++) {
		if (threads[i])
			pthread_join(threads[i], NULL);
		failed |= jobs[i].verdict != ERASED;
	}
	if (cert_write(o->output, &who, jobs, (unsigned)argc)) {
		note("erase: the certificates: %s", bb_err);
		failed = 1;
	} else {
		say("certificates %s-* in %s (erase.json, erase.html, erase-DISK.json%s)", who.erase_id,
		       o->output, signer ? ", each signed: signing-key.pub.pem checks them" : "; not signed: no --key");
	}
	if (stop)
		say("stopped by a signal: the disks not proven erased are said so above");
	fflush(stdout);
	for (i = 0; i < argc; i++)
		free(jobs[i].saved);
	cert_signer_free(signer);
	free(threads);
	free(watch);
	free(jobs);
	return failed ? EXIT_FAIL : EXIT_OK;
}

static void more_help(FILE *f)
{
	fputs("\nMethods (auto: the strongest the drive offers; purge: the same, clear left out):\n", f);
	for (unsigned k = 0; k < erase_nmethods; k++)
		fprintf(f, "  %s (%s)\n      %s\n", erase_methods[k].name,
			erase_methods[k].category == ERASE_PURGE ? "purge" : "clear", erase_methods[k].what);
}

static const struct arg erase_args[] = {
	{ .name = "--method", .kind = ARG_STR, .offset = ARG_AT(struct erase_opts, method), .meta = "M",
	  .help = "auto, purge, clear or a method below [auto]" },
	{ .name = "--verify", .kind = ARG_STR, .offset = ARG_AT(struct erase_opts, verify), .meta = "full|sample",
	  .help = "read back every byte, or NIST's sample: the first and last MiB and 10%\n"
		  "of the LBA space in random stripes spread over the disk [full]" },
	{ .name = "--pattern", .kind = ARG_STR, .offset = ARG_AT(struct erase_opts, pattern), .meta = "P",
	  .help = "clear: zero, one, random or 0xHEX (1, 2 or 4 bytes) [zero]" },
	{ .name = "--passes", .kind = ARG_UINT, .offset = ARG_AT(struct erase_opts, passes), .meta = "N",
	  .help = "clear: overwrite passes [1: NIST's clear]", .min = 1, .max = 8 },
	{ .name = "--trim", .kind = ARG_STR, .offset = ARG_AT(struct erase_opts, trim), .meta = "auto|off",
	  .help = "clear: discard the whole disk after a last pass of zeros where it takes\n"
		  "discards [auto]" },
	{ .name = "--destroy", .kind = ARG_STR, .offset = ARG_AT(struct erase_opts, destroy), .meta = "DEV[,DEV]",
	  .help = "consent to erase these disks (every disk named must be here)" },
	{ .name = "--output", .kind = ARG_STR, .offset = ARG_AT(struct erase_opts, output), .meta = "DIR",
	  .help = "where the certificates go (made if it is not there)" },
	{ .name = "--operator", .kind = ARG_STR, .offset = ARG_AT(struct erase_opts, operator_name), .meta = "NAME",
	  .help = "the person who erased, for the certificates" },
	{ .name = "--asset-tag", .kind = ARG_STR, .offset = ARG_AT(struct erase_opts, asset_tag), .meta = "TAG",
	  .help = "the machine's asset tag [the DMI chassis asset tag]" },
	{ .name = "--key", .kind = ARG_STR, .offset = ARG_AT(struct erase_opts, key), .meta = "FILE",
	  .help = "sign the certificates with this Ed25519 private key (PEM)" },
	{ .name = "--verify-only", .kind = ARG_FLAG, .offset = ARG_AT(struct erase_opts, verify_only),
	  .help = "write nothing: read the disks and certify what they hold (zeros, ones,\n"
		  "or --pattern), for disks erased elsewhere and for auditors" },
	{ .name = "--hpa", .kind = ARG_STR, .offset = ARG_AT(struct erase_opts, hpa), .meta = "open|keep",
	  .help = "clear: an ATA drive's Host Protected Area removed first, so that it is\n"
		  "overwritten too (open), or left and named as not reached (keep) [open]" },
	{ .name = "--progress-fd", .kind = ARG_UINT, .offset = ARG_AT(struct erase_opts, progress_fd), .meta = "FD",
	  .help = "a line a second per disk to this open file descriptor:\n"
		  "erase DISK PHASE PASS PASSES PCT MB_S SECONDS_LEFT ERRORS; a disk's last\n"
		  "PHASE is its verdict: erased, exceptions (erased with exceptions) or not-erased",
	  .min = 1, .max = 1024 },
	{ .name = "--metrics", .kind = ARG_STR, .offset = ARG_AT(struct erase_opts, metrics), .meta = "URL",
	  .help = "push each disk's progress to this Prometheus Pushgateway every second\n"
		  "[BOOTBENCH_METRICS]" },
	{ .name = "--check", .kind = ARG_FLAG, .offset = ARG_AT(struct erase_opts, check),
	  .help = "only check the flags (the boot parameters' check) and exit" },
	{ NULL },
};

const struct command erase_command = {
	.name = "erase",
	.summary = "erase disks for decommissioning (NIST 800-88 clear or purge), proven, with certificates",
	.usage = "--destroy=DEV[,DEV] --output=DIR [--method=M] [--verify=full|sample] [--key=FILE] DISK...",
	.help = "Erases each DISK as NIST SP 800-88 says and proves it, every disk at once: markers\n"
		"(the disk's serial, the time, a nonce) are written to its start, middle and end\n"
		"and 64 blocks of old data fingerprinted; then the method runs (clear: every\n"
		"logical block overwritten at the disk's sequential speed, the device flushed\n"
		"after each pass, blocks it refuses counted and named; purge: the drive's own\n"
		"sanitize, polled to its end); then the disk is read back: the markers and the\n"
		"old data must be gone and every byte read (or the sample) must be what the\n"
		"method leaves (random data is made again from its seed). A discard, when\n"
		"asked, comes after the read-back. A mismatch names its LBAs. Areas an erase\n"
		"cannot reach make the result \"erased with exceptions\". Ctrl-C, SIGTERM and\n"
		"SIGHUP stop the writes and the certificates say \"not erased\" with the passes\n"
		"written. The certificates (JSON and a page, per disk and for the machine, each\n"
		"with a unique ID, never replacing one) go to --output, signed with --key (read\n"
		"before anything is written). Progress: a table on the console, --progress-fd,\n"
		"--metrics. docs/erase.md says what each verdict proves.\n",
	.more_help = more_help,
	.exit_status = "0 every disk erased (or, --verify-only, found erased), 1 one not erased,\n"
		       "erased with exceptions, or stopped by a signal, 2 bad input (nothing written).",
	.args = erase_args,
	.opts_size = sizeof(struct erase_opts),
	.defaults = &erase_defaults,
	.run = erase_main,
};
