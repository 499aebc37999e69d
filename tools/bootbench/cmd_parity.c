// SPDX-License-Identifier: MIT
/*
 * cmd_parity.c - `bootbench parity`: how fast this CPU makes RAID5 (XOR) and
 * RAID6 (P+Q) parity, per implementation on one core and with the best one
 * on every core, beside the kernel's own choice and figures (the "raid6:"
 * and "xor:" lines it logs when raid456 loads). Throughput counts data bytes
 * in, as the kernel's figures do.
 *
 * usage: bootbench parity [--disks=N] [--json]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#include "json.h"
#include "parity.h"
#include "util.h"

#define BLOCK (64 * 1024)	/* per data disk: a chunk md would stripe */
#define RUN_NS 300000000ull	/* per measurement */

struct bench {
	const struct parity_impl *im;
	unsigned n;
	int raid6;
	double mbs;
};

static void *bench_thread(void *arg)
{
	struct bench *b = arg;
	uint8_t *data[32], *p = xcalloc(1, BLOCK), *q = xcalloc(1, BLOCK);
	uint64_t start, bytes = 0;
	unsigned i;

	for (i = 0; i < b->n; i++) {
		size_t k;

		data[i] = xcalloc(1, BLOCK);
		for (k = 0; k < BLOCK; k++)
			data[i][k] = (uint8_t)(k * 131 + i * 7);
	}
	start = now_ns();
	do {
		for (i = 0; i < 16; i++)
			b->im->gen(b->n, BLOCK, data, p, b->raid6 ? q : NULL);
		bytes += 16ull * BLOCK * b->n;
	} while (now_ns() - start < RUN_NS);
	b->mbs = bytes / ((now_ns() - start) / 1e9) / 1e6;
	for (i = 0; i < b->n; i++)
		free(data[i]);
	free(p);
	free(q);
	return NULL;
}

static double measure(const struct parity_impl *im, unsigned n, int raid6, unsigned threads)
{
	struct bench b[256];
	pthread_t t[256];
	double sum = 0;
	unsigned i;

	for (i = 0; i < threads; i++) {
		b[i] = (struct bench){ .im = im, .n = n, .raid6 = raid6 };
		pthread_create(&t[i], NULL, bench_thread, &b[i]);
	}
	for (i = 0; i < threads; i++) {
		pthread_join(t[i], NULL);
		sum += b[i].mbs;
	}
	return sum;
}

/* The kernel's "raid6: ..." and "xor: ..." lines, as it logged them. */
static char *kernel_lines(void)
{
	int size = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	char *buf, *out, *line, *save = NULL;
	size_t used = 0;

	if (size <= 0)
		return NULL;
	buf = xcalloc(1, (size_t)size + 1);
	out = xcalloc(1, (size_t)size + 1);
	if (klogctl(3, buf, size) <= 0) {	/* SYSLOG_ACTION_READ_ALL */
		free(buf);
		free(out);
		return NULL;
	}
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *m = strstr(line, "raid6: ");

		if (!m)
			m = strstr(line, "xor: ");
		if (m)
			used += (size_t)snprintf(out + used, (size_t)size + 1 - used, "%s\n", m);
	}
	free(buf);
	if (!used) {
		free(out);
		return NULL;
	}
	return out;
}

int cmd_parity(int argc, char **argv)
{
	unsigned n = 4, cpus = (unsigned)sysconf(_SC_NPROCESSORS_ONLN), i;
	const struct parity_impl *best = parity_best();
	double xor_best, pq_best, xor_all, pq_all;
	int as_json = 0;
	char *klines;
	struct json j;

	for (i = 0; i < (unsigned)argc; i++) {
		if (!strncmp(argv[i], "--disks=", 8)) {
			char *end;

			n = (unsigned)strtoul(argv[i] + 8, &end, 10);
			if (*end || n < 2 || n > 30)
				die_usage("parity: --disks=%s: expected data disks from 2 to 30", argv[i] + 8);
		} else if (!strcmp(argv[i], "--json")) {
			as_json = 1;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			printf("usage: bootbench parity [--disks=N] [--json]\n\nRAID5 (XOR) and RAID6 (P+Q) parity "
			       "throughput of this CPU for N data disks (default 4),\nper implementation on one core "
			       "and on all cores, beside the kernel's raid6:/xor: figures.\n");
			return EXIT_OK;
		} else {
			die_usage("parity: unknown argument '%s'", argv[i]);
		}
	}
	if (cpus < 1 || cpus > 256)
		cpus = 1;
	if (!as_json)
		printf("%-10s %16s %16s   (%u data disks, %u KiB each, MB/s of data)\n", "one core", "RAID5 (P)",
		       "RAID6 (P+Q)", n, BLOCK / 1024);
	if (as_json) {
		json_init(&j, stdout);
		json_obj_open(&j, NULL);
		json_uint(&j, "data_disks", n);
		json_arr_open(&j, "one_core");
	}
	for (i = 0; i < parity_impl_count; i++) {
		const struct parity_impl *im = &parity_impls[i];
		double x, pq;

		if (!im->available())
			continue;
		x = measure(im, n, 0, 1);
		pq = measure(im, n, 1, 1);
		if (as_json) {
			json_obj_open(&j, NULL);
			json_str(&j, "impl", im->name);
			json_double(&j, "raid5_mbs", x);
			json_double(&j, "raid6_mbs", pq);
			json_obj_close(&j);
		} else {
			printf("%-10s %16.0f %16.0f%s\n", im->name, x, pq, im == best ? "   <- used" : "");
		}
	}
	xor_best = measure(best, n, 0, 1);
	pq_best = measure(best, n, 1, 1);
	xor_all = measure(best, n, 0, cpus);
	pq_all = measure(best, n, 1, cpus);
	klines = kernel_lines();
	if (as_json) {
		json_arr_close(&j);
		json_obj_open(&j, "all_cores");
		json_str(&j, "impl", best->name);
		json_uint(&j, "cores", cpus);
		json_double(&j, "raid5_mbs", xor_all);
		json_double(&j, "raid6_mbs", pq_all);
		json_obj_close(&j);
		json_str(&j, "kernel_log", klines ? klines : "");
		json_obj_close(&j);
		putchar('\n');
	} else {
		printf("%-10s %16.0f %16.0f   (%s on %u cores; one core: %.0f / %.0f)\n", "all cores", xor_all,
		       pq_all, best->name, cpus, xor_best, pq_best);
		printf("\nThe kernel's own choice and figures (raid6:/xor: lines of its log):\n%s",
		       klines ? klines : "  none logged: load raid456 (modprobe raid456) and run again\n");
	}
	free(klines);
	return EXIT_OK;
}
