// SPDX-License-Identifier: MIT
/*
 * fuzz_results.c - JSON from anywhere (a share full of result folders,
 * fio's own runs elsewhere) as report and compare read it: the reader
 * (results/load.c over jansson, itself instrumented), then the report page
 * and the comparison made from it, written to /dev/null. A file that is not
 * a result must give a line, never a crash.
 */
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "lib/args.h"
#include "results/load.h"

/* the commands as `bootbench` runs them (cmd/report.c, cmd/compare.c) */
extern const struct command report_command, compare_command;

static char dir[64], file[96];

static void remove_scratch(void)
{
	char page[128];

	snprintf(page, sizeof(page), "%s/page.html", dir);
	unlink(page);
	unlink(file);
	rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rs_set set = { 0 };
	FILE *f, *null = fopen("/dev/null", "w");

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/bbfuzz-results.%d", (int)getpid());
		mkdir(dir, 0700);
		atexit(remove_scratch);
		snprintf(file, sizeof(file), "%s/result.json", dir);
		/* the pages go nowhere: only what reading them does matters (the
		 * one-line complaints stay on stderr, beside libFuzzer's own) */
		if (!freopen("/dev/null", "w", stdout))
			abort();
	}
	f = fopen(file, "w");
	if (!f || !null)
		abort();
	fwrite(data, 1, size, f);
	fclose(f);
	rs_load_path(&set, dir, null);
	if (set.n || set.nlv) {
		char *cmp[] = { "--format=html", dir, NULL };

		args_run(&compare_command, 2, cmp);
	}
	{
		char out[128], *rep[] = { out, file, NULL };

		snprintf(out, sizeof(out), "--output=%s/page.html", dir);
		args_run(&report_command, 2, rep);
	}
	rs_free(&set);
	fclose(null);
	unlink(file);
	return 0;
}
