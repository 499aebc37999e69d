// SPDX-License-Identifier: MIT
/*
 * replay.c - a main for the harnesses without libFuzzer: runs each file
 * named (or each file in each folder named) through LLVMFuzzerTestOneInput
 * once, so the corpus is a regression suite that make test replays under
 * ASan and UBSan. Exit 0 when every input ran; a sanitizer report aborts.
 */
#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f)
		return perror(path), 1;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n > 0 ? (size_t)n : 1);
	if (!buf || (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)) {
		fclose(f);
		return fprintf(stderr, "%s: cannot read it\n", path), 1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned inputs = 0;
	int i, bad = 0;

	for (i = 1; i < argc; i++) {
		struct stat st;
		DIR *d;
		struct dirent *e;

		if (stat(argv[i], &st))
			return perror(argv[i]), 1;
		if (!S_ISDIR(st.st_mode)) {
			bad |= run_file(argv[i]);
			inputs++;
			continue;
		}
		d = opendir(argv[i]);
		while (d && (e = readdir(d))) {
			char p[4096];

			if (e->d_name[0] == '.')
				continue;
			snprintf(p, sizeof(p), "%s/%s", argv[i], e->d_name);
			bad |= run_file(p);
			inputs++;
		}
		if (d)
			closedir(d);
	}
	fprintf(stderr, "%u inputs replayed\n", inputs);	/* stderr: a harness may silence stdout */
	return bad || !inputs;
}
