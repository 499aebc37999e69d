// SPDX-License-Identifier: MIT
/*
 * fuzz_options.c - options as the command line gives them (jobset_parse_args,
 * one argument a line) and each option of the table given a fuzzed value
 * (the first byte picks the option, opt_apply). Leaks: see fuzz_jobfile.c.
 */
#include "fuzz.h"
#include "job/jobs.h"
#include "job/options.h"
#include "lib/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, *argv[64], *p;
	struct jobset js;
	int argc = 0;

	if (!size)
		return 0;
	text = fuzz_string(data + 1, size - 1);
	if (data[0] & 1) {
		struct job_opts jo;
		struct run_opts ro;

		opts_defaults(&jo, &ro);
		opt_apply(&jo, &ro, (int)(data[0] / 2 % option_count), text);
	} else {
		for (p = text; p && argc < 63; ) {
			argv[argc++] = p;
			p = strchr(p, '\n');
			if (p)
				*p++ = 0;
		}
		argv[argc] = NULL;
		memset(&js, 0, sizeof(js));
		if (!jobset_parse_args(&js, argc, argv))
			jobset_finish(&js);
	}
	free(text);
	return 0;
}
