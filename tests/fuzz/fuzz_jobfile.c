// SPDX-License-Identifier: MIT
/*
 * fuzz_jobfile.c - fio job files, as bootbench reads them (job/jobfile.c):
 * sections, [global], comments, include, ${ENV}, every option's value
 * parser, then the checks of the whole set (jobset_finish). Nothing runs.
 * The parser's strings live as long as the process that parsed them (a
 * command line run parses once), so leaks are not findings here: the
 * harness runs with detect_leaks=0.
 */
#include <stdio.h>

#include "fuzz.h"
#include "job/jobs.h"
#include "lib/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);
	struct jobset js;

	memset(&js, 0, sizeof(js));
	if (!jobset_parse_text(&js, "fuzz.fio", text))
		jobset_finish(&js);
	free(text);
	return 0;
}
