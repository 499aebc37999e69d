// SPDX-License-Identifier: MIT
/*
 * cmd_profile.c - `bootbench profile`: one of the field's methods (a job
 * file in the profile registry) on each target in turn, with the profile's
 * own summary table. Each target runs in a child process of its own, so one
 * target's failure or refusal does not touch the next; the exit status is
 * the worst of them.
 *
 * usage: bootbench profile --list
 *        bootbench profile NAME [--destroy=DEV[,DEV]] [--output=DIR] [--progress-fd=N]
 *                          [--duration=TIME] TARGET...
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "disks.h"
#include "options.h"
#include "profiles.h"
#include "run.h"
#include "util.h"

static void usage(void)
{
	unsigned i;

	printf("usage: bootbench profile NAME [--destroy=DEV[,DEV]] [--output=DIR] TARGET...\n"
	       "       bootbench profile --list\n"
	       "       bootbench profile --show NAME\n\n"
	       "Runs a profile (a fio job file, %s) on each TARGET (a block device or a file)\n"
	       "and prints its summary table. Profiles that write need each device named in --destroy;\n"
	       "every target and its consent is checked before the first one is written.\n"
	       "--show NAME prints the profile's job file.\n"
	       "--output=DIR saves DIR/NAME-TARGET.json (fio's JSON) for each target.\n"
	       "--progress-fd=N writes a progress line each second to file descriptor N.\n"
	       "--duration=TIME repeats the profile in rounds, each with new seeds, until TIME is up\n"
	       "(a long burn-in: --duration=8h).\n"
	       "BOOTBENCH_PROFILES=DIR reads DIR/NAME.fio instead of the built-in job files.\n"
	       "BOOTBENCH_SCALE=F scales runtimes and sizes (0.02: seconds instead of minutes).\n\n"
	       "Profiles:\n", profile_source(&profiles[0]));
	for (i = 0; i < profile_count; i++)
		printf("  %-9s %s\n", profiles[i].name, profiles[i].summary);
}

static const char *progress_arg;	/* --progress-fd=N, passed to each run */
static char seed_arg[32];		/* --randseed=ROUND for repeated rounds */

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* The job set of one target: run's options as a job file would get them. */
static int build(struct jobset *js, const struct profile *p, const char *target, const char *destroy,
		 const char *outdir)
{
	char out[4096], dest[4096], *argv[6];
	const char *name = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	int argc = 0;

	setenv("TARGET", target, 1);
	if (outdir) {
		snprintf(out, sizeof(out), "--output=%s/%s-%s.json", outdir, p->name, name);
		argv[argc++] = "--output-format=json+";	/* json+: the report draws its latency curves from the bins */
		argv[argc++] = out;
	}
	if (destroy) {
		snprintf(dest, sizeof(dest), "--destroy=%s", destroy);
		argv[argc++] = dest;
	}
	if (progress_arg)
		argv[argc++] = (char *)progress_arg;
	if (seed_arg[0])
		argv[argc++] = seed_arg;
	return profile_jobset(js, p, argc, argv);
}

/* In the child: the run, the profile's table on stdout, fio's JSON when asked. */
static int run_child(const struct profile *p, const char *target, const char *destroy, const char *outdir)
{
	static struct jobset js;
	struct run_result r;
	int status;

	if (build(&js, p, target, destroy, outdir))
		die_usage("profile: %s", bb_err);
	js.run.profile = p->name;	/* the pushed figures' label (BOOTBENCH_METRICS) */
	status = run_jobs(&js, NULL, &r);
	if (status == EXIT_USAGE)
		die_usage("profile: %s", bb_err);
	p->table(stdout, &r);
	if (js.run.output && report_json_file(js.run.output, &r, !!(js.run.formats & FMT_JSONPLUS))) {
		note("%s", bb_err);
		status = EXIT_FAIL;
	}
	if (r.interrupted)
		note("interrupted: results cover the run until then");
	run_result_free(&r);
	return status;
}

/* Each target in a child of its own: one target's crash does not touch the next. */
static int run_one(const struct profile *p, const char *target, const char *destroy, const char *outdir)
{
	struct disk d;
	int status;
	pid_t pid;

	if (!strncmp(target, "/dev/", 5) && !disk_find(target, &d)) {
		char size[32];

		printf("== %s on %s: %s %s, %s, %s ==\n", p->name, target, d.model[0] ? d.model : "-",
		       d.serial[0] ? d.serial : "-", fmt_iec((double)d.size, size, sizeof(size)), d.transport);
		if (d.health.valid)
			printf("temperature at the start: %d C\n", d.health.temperature_c);
	} else {
		printf("== %s on %s ==\n", p->name, target);
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return EXIT_FAIL;
	if (!pid)
		exit(run_child(p, target, destroy, outdir));
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return EXIT_FAIL;
	return WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_FAIL;
}

/* Every target and its consent, before the first write (nothing is written here). */
static void check_all(const struct profile *p, int argc, char **argv, int name_at, const char *destroy,
		      const char *outdir)
{
	static const struct run_hooks check = { .check_only = 1 };
	int i;

	for (i = 0; i < argc; i++) {
		static struct jobset js;
		struct run_result r;

		if (argv[i][0] == '-' || i == name_at)
			continue;
		if (access(argv[i], F_OK))
			die_usage("profile: no such target: %s", argv[i]);
		if (build(&js, p, argv[i], destroy, outdir))
			die_usage("profile: %s", bb_err);
		if (run_jobs(&js, &check, &r) == EXIT_USAGE)
			die_usage("profile: %s", bb_err);
	}
}

int cmd_profile(int argc, char **argv)
{
	const struct profile *p = NULL;
	const char *destroy = NULL, *outdir = NULL;
	uint64_t duration_us = 0, start = now_ns();
	struct sigaction sa = { .sa_handler = on_signal };
	unsigned round = 0;
	int i, name_at = -1, ntargets = 0, status = EXIT_OK;
	struct stat st;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") || !strcmp(argv[i], "--list")) {
			usage();
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--show") || !strncmp(argv[i], "--show=", 7)) {
			const char *name = argv[i][6] == '=' ? argv[i] + 7 : i + 1 < argc ? argv[i + 1] : "";

			p = profile_find(name);
			if (!p)
				die_usage("profile: --show: no profile '%s' (see 'bootbench profile --list')", name);
			if (profile_show(stdout, p))
				die_usage("profile: %s", bb_err);
			return EXIT_OK;
		} else if (!strncmp(argv[i], "--destroy=", 10)) {
			destroy = argv[i] + 10;
		} else if (!strncmp(argv[i], "--duration=", 11)) {
			if (parse_time_us(argv[i] + 11, 1000000, &duration_us) || !duration_us)
				die_usage("profile: --duration=%s: expected a time such as 30m or 8h", argv[i] + 11);
		} else if (!strncmp(argv[i], "--progress-fd=", 14)) {
			progress_arg = argv[i];
		} else if (!strncmp(argv[i], "--output=", 9)) {
			outdir = argv[i] + 9;
		} else if (argv[i][0] == '-') {
			die_usage("profile: unknown option '%s' (see 'bootbench profile --help')", argv[i]);
		} else if (!p) {
			name_at = i;
			p = profile_find(argv[i]);
			if (!p)
				die_usage("profile: no profile '%s' (see 'bootbench profile --list')", argv[i]);
		} else {
			ntargets++;
		}
	}
	if (!p)
		die_usage("profile: name a profile (see 'bootbench profile --list')");
	if (!ntargets)
		die_usage("profile: name at least one target (a block device or a file)");
	if (outdir && (stat(outdir, &st) || !S_ISDIR(st.st_mode)))
		die_usage("profile: --output=%s is not a directory", outdir);
	/* every target and its consent checked before the first one runs: bad input writes nothing */
	check_all(p, argc, argv, name_at, destroy, outdir);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* --duration: whole rounds, each with seeds of its own, until the time is up */
	do {
		round++;
		if (duration_us) {
			snprintf(seed_arg, sizeof(seed_arg), "--randseed=%u", round);
			printf("-- round %u, %.0f s of %.0f s --\n", round, (now_ns() - start) / 1e9, duration_us / 1e6);
		}
		for (i = 0; i < argc; i++) {
			int rc;

			if (argv[i][0] == '-' || i == name_at)
				continue;
			rc = run_one(p, argv[i], destroy, outdir);
			if (rc > status)
				status = rc;
		}
	} while (duration_us && status == EXIT_OK && !stop_requested && now_ns() - start < duration_us * 1000);
	if (duration_us)
		printf("%u round(s) in %.0f s: %s\n", round, (now_ns() - start) / 1e9, status == EXIT_OK ? "PASS" : "FAIL");
	return status;
}
