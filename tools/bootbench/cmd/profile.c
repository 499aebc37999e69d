// SPDX-License-Identifier: MIT
/*
 * profile.c - `bootbench profile`: one of the field's methods (a job
 * file in the profile registry) on each target in turn, with the profile's
 * own summary table. Each target runs in a child process of its own, so one
 * target's failure or refusal does not touch the next; the exit status is
 * the worst of them.
 *
 * Its flags and help: the declaration at the end (lib/args.h).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "job/options.h"
#include "job/run.h"
#include "lib/args.h"
#include "lib/util.h"
#include "lib/wrap.h"
#include "profiles/profiles.h"
#include "report/report.h"
#include "sys/disks.h"

/* The profiles, from their table: after the flags in --help, and alone for --list. */
static void profile_list(FILE *f)
{
	unsigned i;

	fprintf(f, "\nProfiles (%s):\n", profile_source(&profiles[0]));
	for (i = 0; i < profile_count; i++)
		fprintf(f, "  %-9s %s\n", profiles[i].name, profiles[i].summary);
	fprintf(f, "BOOTBENCH_PROFILES=DIR reads DIR/NAME.fio instead of the built-in job files.\n"
		"BOOTBENCH_SCALE=F scales runtimes and sizes (0.02: seconds instead of minutes).\n");
}

static const char *progress_arg;	/* --progress-fd=N, passed to each run */
static char seed_arg[32];		/* --randseed=ROUND for repeated rounds */

/* the child running a target now (run_one), 0 between targets */
static volatile pid_t running_child;

/* A stop reaches the target's child too: SIGTERM may come to this process
 * alone (a burn-in that runs it stopped, or died: PR_SET_PDEATHSIG). */
static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
	if (running_child > 0)
		kill(running_child, SIGTERM);
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
		char size[32], head[512];

		/* folded to the console (a model and serial run past 80 columns), under its "== " */
		snprintf(head, sizeof(head), "%s on %s: %s %s, %s, %s ==", p->name, target, d.model[0] ? d.model : "-",
			 d.serial[0] ? d.serial : "-", fmt_iec((double)d.size, size, sizeof(size)), d.transport);
		wrap_print(stdout, "== ", head, wrap_width());
		if (d.health.valid && d.health.temperature_reported)
			printf("temperature at the start: %d C\n", d.health.temperature_c);
		else if (d.health.valid)
			printf("temperature at the start: not reported\n");
	} else {
		printf("== %s on %s ==\n", p->name, target);
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return EXIT_FAIL;
	if (!pid)
		exit(run_child(p, target, destroy, outdir));
	running_child = pid;
	if (stop_requested)	/* stopped before it was known */
		kill(pid, SIGTERM);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			running_child = 0;
			return EXIT_FAIL;
		}
	running_child = 0;
	return WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_FAIL;
}

/* Whether PATH could be a new file: its folder is there, and it is not a name under /dev. */
static int folder_of_new_file(const char *path)
{
	char folder[4096];
	const char *slash = strrchr(path, '/');
	struct stat st;

	if (!strncmp(path, "/dev/", 5) || !*path || (slash && !slash[1]))
		return 0;
	if (!slash)
		snprintf(folder, sizeof(folder), ".");
	else if (slash == path)
		snprintf(folder, sizeof(folder), "/");
	else
		snprintf(folder, sizeof(folder), "%.*s", (int)(slash - path), path);
	return !stat(folder, &st) && S_ISDIR(st.st_mode);
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
		/* a file that is not there yet is made at the job's size, as fio (and run) do: its folder must be */
		if (access(argv[i], F_OK) && !folder_of_new_file(argv[i]))
			die_usage("profile: no such target: %s (nor a folder to make it in)", argv[i]);
		if (build(&js, p, argv[i], destroy, outdir))
			die_usage("profile: %s", bb_err);
		if (run_jobs(&js, &check, &r) == EXIT_USAGE)
			die_usage("profile: %s", bb_err);
	}
}

struct profile_opts {
	int list, show;
	const char *destroy, *duration, *progress_fd, *output;
};

static int profile_main(void *opts, int argc, char **argv)
{
	struct profile_opts *o = opts;
	const struct profile *p = NULL;
	const char *destroy = o->destroy, *outdir = o->output;
	uint64_t duration_us = 0, start = now_ns();
	struct sigaction sa = { .sa_handler = on_signal };
	static char progress[64];
	unsigned round = 0;
	int i, name_at = -1, ntargets = 0, status = EXIT_OK;
	struct stat st;

	if (o->list) {
		profile_list(stdout);
		return EXIT_OK;
	}
	if (o->show) {
		const char *name = argc ? argv[0] : "";

		p = profile_find(name);
		if (!p)
			die_usage("profile: --show: no profile '%s' (see 'bootbench profile --list')", name);
		if (profile_show(stdout, p))
			die_usage("profile: %s", bb_err);
		return EXIT_OK;
	}
	if (o->duration && (parse_time_us(o->duration, 1000000, &duration_us) || !duration_us))
		die_usage("profile: --duration=%s: expected a time such as 30m or 8h", o->duration);
	if (o->progress_fd) {
		snprintf(progress, sizeof(progress), "--progress-fd=%s", o->progress_fd);
		progress_arg = progress;
	}
	for (i = 0; i < argc; i++) {
		if (!p) {
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

static const struct arg profile_args[] = {
	{ .name = "--destroy", .kind = ARG_STR, .offset = ARG_AT(struct profile_opts, destroy), .meta = "DEV[,DEV]",
	  .help = "consent: the devices a writing profile may write", .flags = ARG_EMPTY },
	{ .name = "--output", .kind = ARG_STR, .offset = ARG_AT(struct profile_opts, output), .meta = "DIR",
	  .help = "save DIR/NAME-TARGET.json (fio's JSON) for each target" },
	{ .name = "--duration", .kind = ARG_STR, .offset = ARG_AT(struct profile_opts, duration), .meta = "TIME",
	  .help = "repeat the profile in rounds, each with new seeds, until TIME is up\n"
		  "(a long burn-in: --duration=8h)" },
	{ .name = "--progress-fd", .kind = ARG_STR, .offset = ARG_AT(struct profile_opts, progress_fd), .meta = "N",
	  .help = "a progress line each second on file descriptor N" },
	{ .name = "--list", .kind = ARG_FLAG, .offset = ARG_AT(struct profile_opts, list), .help = "the profiles" },
	{ .name = "--show", .kind = ARG_FLAG, .offset = ARG_AT(struct profile_opts, show),
	  .help = "print profile NAME's job file" },
	{ NULL },
};

const struct command profile_command = {
	.name = "profile",
	.summary = "run one of the field's methods (quick, yabs, ars, ...) with its summary",
	.usage = "NAME [--destroy=DEV[,DEV]] [--output=DIR] [--duration=TIME] TARGET...\n--list\n--show NAME",
	.help = "Runs a profile (a fio job file) on each TARGET (a block device or a file) and prints\n"
		"its summary table. Profiles that write need each device named in --destroy; every\n"
		"target and its consent is checked before the first one is written.\n",
	.more_help = profile_list,
	.args = profile_args,
	.opts_size = sizeof(struct profile_opts),
	.run = profile_main,
};
