/* SPDX-License-Identifier: MIT */
/*
 * fuzz.h - what every harness shares: the input as a NUL-terminated string
 * (the parsers read C strings), and a scratch file for readers of files.
 * Built two ways (Makefile): with libFuzzer's main under clang (make fuzz),
 * and with replay.c's main under gcc's ASan and UBSan, which runs each
 * corpus file once (make test).
 */
#ifndef BB_FUZZ_H
#define BB_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* DATA as a string: a copy with a NUL after it (a NUL inside ends it early). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = 0;
	return s;
}

#endif
