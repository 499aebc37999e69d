// SPDX-License-Identifier: MIT
/*
 * run.c - `bootbench run`: fio's job language on io_uring. Parses the
 * options and job files into a job set, hands it to run_jobs (job/run.h)
 * and writes the reports it asked for. Ctrl-C stops the workers; the
 * results so far are printed and marked interrupted.
 *
 * Its help: the declaration at the end (lib/args.h); its options are the
 * option table's (job/options.c), parsed by the job layer.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "job/delegate.h"
#include "job/jobs.h"
#include "job/run.h"
#include "lib/args.h"
#include "lib/util.h"
#include "report/report.h"

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* The formats asked for, and the readable summary beside them when --summary asks. */
static int emit(const struct run_result *r, const struct run_opts *run)
{
	char *report = NULL, *summary = NULL;
	size_t len = 0, summary_len = 0;
	FILE *f = open_memstream(&report, &len), *s = run->summary ? open_memstream(&summary, &summary_len) : NULL;
	int rc;

	if (!f || (run->summary && !s))
		return set_err("out of memory");
	if (run->formats & FMT_NORMAL)
		report_human(f, r);
	if (run->formats & (FMT_JSON | FMT_JSONPLUS))
		report_json(f, r, !!(run->formats & FMT_JSONPLUS));
	fclose(f);
	if (s) {
		report_human(s, r);
		fclose(s);
	}
	rc = run_write_reports(run, report, len, summary, summary_len);
	free(report);
	free(summary);
	return rc;
}

/* Its options are fio's, from the option table (job/options.c): after the rest of --help. */
static void run_options_help(FILE *f)
{
	fputc('\n', f);
	opts_help(f);
}

extern const struct command run_command;

/*
 * bootbench's own options (--output, --destroy, --parse-only...) alone,
 * into RO; GIVEN notes which were written. A job option may be what was
 * refused, so the parse that failed may not have reached them.
 */
static void run_options(int argc, char **argv, struct run_opts *ro, struct job_opts *given)
{
	struct job_opts *scratch = given;

	opts_defaults(scratch, ro);
	for (int i = 0; i < argc; i++) {
		char key[64];
		size_t n = strcspn(argv[i], "=");
		int idx;

		if (strncmp(argv[i], "--", 2) || n - 2 >= sizeof(key))
			continue;
		snprintf(key, sizeof(key), "%.*s", (int)n - 2, argv[i] + 2);
		idx = opt_find(key);
		if (idx < 0 || option_table[idx].scope != SCOPE_RUN)
			continue;
		if (opt_apply(scratch, ro, idx, argv[i][n] ? argv[i] + n + 1 : ""))
			die_usage("%s (command line)", bb_err);
		scratch->given[idx] = 1;
	}
}

/*
 * A job bootbench's engine does not run (WHY: its refusal), or one
 * --engine-of-record=fio sends: the image's fio runs it in the sandbox
 * when fio can and the refusal was of something fio may have that
 * bootbench lacks (opt_fio_may_have), unless bootbench was named as the
 * engine of record; else the refusal, exit 2.
 */
static int to_fio(struct jobset *js, int argc, char **argv, const char *why)
{
	char reason[sizeof(bb_err)];
	int sent = !strcmp(why, "--engine-of-record=fio"), rc;
	struct job_opts given;

	snprintf(reason, sizeof(reason), "%s", why);
	run_options(argc, argv, &js->run, &given);
	if ((!sent && !opt_fio_may_have) ||
	    (given.given[opt_find("engine-of-record")] && js->run.engine_of_record == EOR_BOOTBENCH))
		die_usage("%s", reason);
	rc = delegate_check(argc, argv);
	if (rc) {
		/* a refusal of the sandbox's (an engine nothing here runs, a name it cannot check) is the
		 * reason; else (fio refuses it too) bootbench's names what is wrong */
		if (rc == -2 || sent)
			die_usage("%s%s", sent ? "--engine-of-record=fio: " : "", bb_err);
		die_usage("%s", reason);
	}
	if (js->run.parse_only) {
		printf("fio runs it: %s\n", reason);
		return EXIT_OK;
	}
	rc = delegate_run(argc, argv, &js->run, reason);
	if (rc == EXIT_USAGE)
		die_usage("%s", bb_err);
	return rc;
}

static int run_main(void *unused, int argc, char **argv)
{
	static struct jobset js;
	struct run_result r;
	struct sigaction sa = { .sa_handler = on_signal };
	int status;

	if (jobset_parse_args(&js, argc, argv) || (js.n && !js.run.help && jobset_finish(&js)))
		return to_fio(&js, argc, argv, bb_err);
	if (js.run.help) {
		args_help(stdout, &run_command);
		return EXIT_OK;
	}
	if (!js.n)
		die_usage("no jobs: give --name=NAME with options, or a job file (see 'bootbench run --help')");
	if (js.run.engine_of_record == EOR_FIO)
		return to_fio(&js, argc, argv, "--engine-of-record=fio");
	if (js.run.parse_only) {
		printf("bootbench runs it\n");
		return EXIT_OK;
	}
	/* the pushed figures' profile label: the job file's name (quick.fio: quick) */
	for (int i = 0; i < argc; i++)
		if (strncmp(argv[i], "--", 2)) {
			static char label[128];
			const char *b = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];

			snprintf(label, sizeof(label), "%.*s", (int)strcspn(b, "."), b);
			js.run.profile = label;
			break;
		}
	/* only bootbench is interrupted: the menu that runs it keeps SIGINT ignored */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	status = run_jobs(&js, NULL, &r);
	if (status == EXIT_USAGE)
		die_usage("%s", bb_err);
	if (emit(&r, &js.run)) {
		note("%s", bb_err);
		status = EXIT_FAIL;
	}
	if (r.interrupted)
		note("interrupted: results cover the run until then");
	run_result_free(&r);
	return status;
}

const struct command run_command = {
	.name = "run",
	.summary = "run fio-style jobs (options or job files) on io_uring",
	.usage = "[--option=value ...] [jobfile ...]",
	.help = "Runs fio-style jobs on io_uring. Options before the first --name, and in [global]\n"
		"sections, apply to the jobs after them. A job that names an engine, option or\n"
		"choice of fio's that bootbench lacks runs on the image's fio instead, in the sandbox\n"
		"fio-server uses (only the disks in --destroy writable, no network, no other\n"
		"program); the first line says so and why. --parse-only says who would run it.\n",
	.more_help = run_options_help,
	.exit_status = "0 ok, 1 I/O error or interrupted, 2 bad input (nothing written).",
	.raw = 1,
	.run = run_main,
};
