// SPDX-License-Identifier: MIT
/*
 * fuzz_values.c - the value parsers every option stands on (job/values.c):
 * sizes and their suffixes, times, ranges, bssplit, percentile lists,
 * rates, buffer patterns, CPU lists and masks, random distributions. The
 * first byte picks the parser, the rest is the value.
 */
#include "fuzz.h"
#include "job/options.h"
#include "job/values.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct job_opts jo;
	struct run_opts ro;
	uint64_t a, b;
	unsigned shift;
	char *s;

	if (!size)
		return 0;
	s = fuzz_string(data + 1, size - 1);
	opts_defaults(&jo, &ro);
	switch (data[0] % 14) {
	case 0: parse_size(s, &a); break;
	case 1: parse_size_base(s, 1000, &a); break;
	case 2: parse_time_us(s, 1000000, &a); break;
	case 3: parse_uint(s, 0, 1 << 20, &a); break;
	case 4: suffix_shift(s, &shift); break;
	case 5: parse_sizerange(s, 1024, &a, &b); break;
	case 6: parse_bssplit(s, 1024, &jo.bssplit); break;
	case 7: parse_bsrange(s, 1024, &jo.bsrange); break;
	case 8: parse_plist(s, &jo.percentiles); break;
	case 9: parse_rate(s, 1024, data[0] & 16, &jo.rate); break;
	case 10: parse_pattern(s, &jo.buffer_pattern); break;
	case 11: parse_cpulist(s, &jo.cpus_allowed); break;
	case 12: parse_cpumask(s, &jo.cpus_allowed); break;
	default: parse_dist(s, 1024, &jo.dist); break;
	}
	free(s);
	return 0;
}
