// SPDX-License-Identifier: MIT
/*
 * report.c - `bootbench report`: one self-contained HTML page per run, for
 * people who would rather look than read. Inline SVG and CSS only: no
 * script, no font, image or link to anywhere else, so it opens from a stick
 * on any laptop and prints. It shows the machine and each disk (identity
 * and health), then each result of the folder: the profile's own table as
 * its summary printed it, per job the completion-latency distribution (a
 * percentile curve on log scales, from the json+ bins when they are there),
 * IOPS and MB/s per second over the run; for `raid` the levels side by side
 * relative to one disk with their p99 and the parity verdict; for `burnin`
 * PASS/FAIL and every bad LBA; for `steady` the rounds with the
 * steady-state window; for `dbcommit` sync against page-write latency and
 * the verdict.
 *
 * Its flags and help: the declaration at the end (lib/args.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "lib/args.h"
#include "lib/util.h"
#include "report/page.h"

struct report_opts {
	const char *output;
};

static int report_main(void *opts, int argc, char **argv)
{
	const char *output = ((struct report_opts *)opts)->output;
	char *buf = NULL, when[32], defpath[PATH_MAX];
	unsigned unreadable;
	size_t len = 0;
	FILE *out;
	time_t now = time(NULL);
	struct stat st;
	int i, n = 0, dirs = 0;

	for (i = 0; i < argc; i++) {
		if (stat(argv[i], &st)) {
			die_usage("report: %s: %s", argv[i], strerror(errno));
		} else if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)) {
			die_usage("report: %s: neither a result folder nor a JSON file", argv[i]);
		} else {
			n++;
			dirs += S_ISDIR(st.st_mode);
		}
	}
	if (!n)
		die_usage("report: no result folder or JSON file named (see 'bootbench report --help')");
	if (!output && n == 1 && dirs == 1) {
		for (i = 0; argv[i][0] == '-' && argv[i][1]; i++)
			;
		snprintf(defpath, sizeof(defpath), "%s/report.html", argv[i]);
		output = defpath;
	}
	if (output && !stat(output, &st) && S_ISDIR(st.st_mode))
		die_usage("report: --output=%s is a folder", output);
	out = open_memstream(&buf, &len);
	if (!out)
		return EXIT_FAIL;
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
	unreadable = page_write(out, argv, argc, when);
	fclose(out);
	if (output) {
		if (write_file_atomic(output, buf, len)) {
			fprintf(stderr, "report: %s\n", bb_err);
			free(buf);
			return EXIT_FAIL;
		}
		printf("report: %s (%zu KiB)\n", output, (len + 1023) / 1024);
	} else {
		fwrite(buf, 1, len, stdout);
	}
	free(buf);
	return unreadable ? EXIT_FAIL : EXIT_OK;
}

static const struct arg report_args[] = {
	{ .name = "--output", .kind = ARG_STR, .offset = ARG_AT(struct report_opts, output), .meta = "FILE",
	  .help = "where the page goes (default: RESULT-DIR/report.html for one folder,\n"
		  "else standard output); written whole or not at all" },
	{ NULL },
};

const struct command report_command = {
	.name = "report",
	.summary = "one self-contained HTML page of a run: identity, tables, latency curves, series",
	.usage = "[--output=FILE] RESULT-DIR|JSON...",
	.help = "Writes one self-contained HTML page (inline SVG and CSS, no script, no external URL)\n"
		"of the results named: a result folder (its sysinfo.json, disks.json, each run's JSON\n"
		"and summary, raid.json, console.log) or JSON files (bootbench's or fio's own).\n",
	.exit_status = "0 written, 1 written but a file was unreadable, 2 bad input (nothing written).",
	.args = report_args,
	.opts_size = sizeof(struct report_opts),
	.run = report_main,
};
