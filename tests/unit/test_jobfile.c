// SPDX-License-Identifier: MIT
/* test_jobfile.c - fio job files: sections, globals, comments, include, ${ENV}, and the errors. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "job/jobs.h"
#include "unit.h"
#include "lib/util.h"

static char dir[] = "/tmp/bb-jobfile-XXXXXX";

static const char *write_file(const char *name, const char *text)
{
	static char path[4][256];
	static unsigned next;
	char *p = path[next++ % 4];
	FILE *f;

	snprintf(p, 256, "%s/%s", dir, name);
	f = fopen(p, "w");
	fputs(text, f);
	fclose(f);
	return p;
}

static int parse(struct jobset *js, const char *file, char *extra)
{
	char *argv[4];
	int argc = 0;

	if (extra)
		argv[argc++] = extra;
	argv[argc++] = (char *)file;
	return jobset_parse_args(js, argc, argv) || jobset_finish(js);
}

int main(void)
{
	struct jobset js;
	const char *f;

	if (!mkdtemp(dir))
		return 1;
	setenv("BB_TEST_BS", "64k", 1);
	write_file("inc.fio", "[included]\nrw=write\n");
	f = write_file("job.fio",
		       "; comment\n"
		       "# another\n"
		       "[global]\n"
		       "  iodepth = 8\n"
		       "direct\n"
		       "\n"
		       "[one]\n"
		       "bs=${BB_TEST_BS}\n"
		       "rw=randread\n"
		       "[two]\n"
		       "iodepth=2\n"
		       "stonewall\n"
		       "include inc.fio\n");
	CHECK(parse(&js, f, "--size=1m") == 0, "parse failed: %s", bb_err);
	CHECK(js.n == 3, "three jobs, got %u", js.n);
	if (js.n == 3) {
		CHECK(!strcmp(js.jobs[0].o.name, "one") && js.jobs[0].o.bs == 65536, "env expanded");
		CHECK(js.jobs[0].o.iodepth == 8 && js.jobs[0].o.direct == 1, "global applies");
		CHECK(js.jobs[0].o.size.bytes == 1 << 20, "command-line global applies to file jobs");
		CHECK(js.jobs[1].o.iodepth == 2, "job overrides global");
		CHECK(js.jobs[0].groupid == 0 && js.jobs[1].groupid == 1 && js.jobs[2].groupid == 1, "stonewall groups");
		CHECK(!strcmp(js.jobs[2].o.name, "included") && js.jobs[2].o.rw == RW_WRITE, "include");
		CHECK(js.jobs[0].given.n == 2 && !strcmp(js.jobs[0].given.v[0].key, "bs") &&
		      !strcmp(js.jobs[0].given.v[0].val, "64k"), "job options recorded as given");
		/* as fio: a bare flag (direct) is not listed, the section name is not an option */
		CHECK(js.global_given.n == 2, "global options recorded: %u", js.global_given.n);
	}

	f = write_file("bad.fio", "[a]\nrw=read\n\n\n\n\nfrobnicate=3\n");
	CHECK(parse(&js, f, NULL) != 0 && !strcmp(bb_err, "unsupported option 'frobnicate' (bad.fio line 7)"),
	      "unsupported option message: %s", bb_err);
	f = write_file("badval.fio", "[a]\nbs=4q\n");
	CHECK(parse(&js, f, NULL) != 0 && strstr(bb_err, "'bs'") && strstr(bb_err, "badval.fio line 2"),
	      "bad value names option and line: %s", bb_err);
	f = write_file("env.fio", "[a]\nfilename=${BB_TEST_UNSET_VAR}\n");
	CHECK(parse(&js, f, NULL) != 0 && strstr(bb_err, "BB_TEST_UNSET_VAR"), "unset env: %s", bb_err);
	f = write_file("hdr.fio", "[a\nbs=4k\n");
	CHECK(parse(&js, f, NULL) != 0 && strstr(bb_err, "section"), "bad header: %s", bb_err);
	f = write_file("run.fio", "[a]\noutput=/tmp/x\n");
	CHECK(parse(&js, f, NULL) != 0 && strstr(bb_err, "command line"), "run option in file: %s", bb_err);
	f = write_file("combo.fio", "[a]\nbs=4k\nbssplit=4k/50:8k/50\n");
	CHECK(parse(&js, f, NULL) != 0 && strstr(bb_err, "bssplit"), "bs+bssplit: %s", bb_err);
	f = write_file("tb.fio", "[a]\ntime_based\n");
	CHECK(parse(&js, f, NULL) != 0 && strstr(bb_err, "runtime"), "time_based without runtime: %s", bb_err);
	CHECK(parse(&js, "/nonexistent/job.fio", NULL) != 0 && strstr(bb_err, "/nonexistent/job.fio"),
	      "missing file: %s", bb_err);
	{
		char *argv[] = { "--name=x", "--bogus=1" };

		CHECK(jobset_parse_args(&js, 2, argv) != 0 &&
		      !strcmp(bb_err, "unsupported option 'bogus' (command line)"), "cli unknown: %s", bb_err);
	}
	{
		char *argv[] = { "--rw=write", "--name=a", "--name=b", "--bs=8k" };

		CHECK(jobset_parse_args(&js, 4, argv) == 0 && js.n == 2 && js.jobs[0].o.rw == RW_WRITE &&
		      js.jobs[1].o.rw == RW_WRITE && js.jobs[0].o.bs == 4096 && js.jobs[1].o.bs == 8192,
		      "cli: options before --name are global, after belong to the job");
	}
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd))
			return 1;
	}
	return unit_done();
}
