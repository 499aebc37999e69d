/* SPDX-License-Identifier: MIT */
/* unit.h - the checks unit tests use: a failed check prints where and goes on; exit 1 if any failed. */
#ifndef BB_UNIT_H
#define BB_UNIT_H

#include <stdio.h>

static int unit_failures, unit_checks;

#define CHECK(cond, ...)                                                        \
	do {                                                                    \
		unit_checks++;                                                  \
		if (!(cond)) {                                                  \
			unit_failures++;                                        \
			fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__,  \
				__LINE__, #cond);                               \
			fprintf(stderr, __VA_ARGS__);                           \
			fputc('\n', stderr);                                    \
		}                                                               \
	} while (0)

/* A test that ran no check proves nothing: it fails. */
static inline int unit_done(void)
{
	printf("%d checks, %d failed\n", unit_checks, unit_failures);
	if (!unit_checks) {
		fprintf(stderr, "no checks ran\n");
		return 1;
	}
	return unit_failures ? 1 : 0;
}

#endif
