// SPDX-License-Identifier: MIT
/*
 * test_crc32c.c - CRC-32C against the standard check value and RFC 3720's
 * test vectors, and the sliced path against a bitwise reference on random
 * data of many lengths and alignments (and fed in pieces).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/crc32c.h"
#include "unit.h"

static uint32_t reference(const unsigned char *p, size_t len)
{
	uint32_t c = ~0u;
	unsigned k;

	while (len--) {
		c ^= *p++;
		for (k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
	}
	return ~c;
}

int main(void)
{
	unsigned char zeros[32] = { 0 }, ones[32], inc[32], buf[4096 + 16];
	unsigned i, len, off;

	memset(ones, 0xff, sizeof(ones));
	for (i = 0; i < 32; i++)
		inc[i] = i;
	CHECK(crc32c(0, "123456789", 9) == 0xE3069283u, "check value");
	CHECK(crc32c(0, zeros, 32) == 0x8A9136AAu, "RFC 3720: 32 zeros");
	CHECK(crc32c(0, ones, 32) == 0x62A8AB43u, "RFC 3720: 32 x 0xff");
	CHECK(crc32c(0, inc, 32) == 0x46DD794Eu, "RFC 3720: 0..31");
	srand(7);
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = rand();
	for (len = 0; len <= 4096; len += len < 64 ? 1 : 61)
		for (off = 0; off < 8; off++)
			CHECK(crc32c(0, buf + off, len) == reference(buf + off, len), "len %u off %u", len, off);
	CHECK(crc32c(crc32c(0, buf, 1000), buf + 1000, 3000) == crc32c(0, buf, 4000), "in two pieces");
	return unit_done();
}
