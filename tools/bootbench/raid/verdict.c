// SPDX-License-Identifier: MIT
/*
 * verdict.c - parity throughput measured on this CPU (one core, all
 * cores), and the verdict on disks that take a given data rate: does md's
 * one raid5d thread keep up (verdict.h).
 */
#include "raid/verdict.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib/json.h"
#include "lib/util.h"

#define RUN_NS 300000000ull	/* per measurement */

struct bench {
	const struct parity_impl *im;
	unsigned n;
	size_t block;
	int raid6;
	double mbs;
};

static void *bench_thread(void *arg)
{
	struct bench *b = arg;
	uint8_t *data[32], *p = xcalloc(1, b->block), *q = xcalloc(1, b->block);
	uint64_t start, bytes = 0;
	unsigned i;

	for (i = 0; i < b->n; i++) {
		size_t k;

		data[i] = xcalloc(1, b->block);
		for (k = 0; k < b->block; k++)
			data[i][k] = (uint8_t)(k * 131 + i * 7);
	}
	start = now_ns();
	do {
		for (i = 0; i < 16; i++)
			b->im->gen(b->n, b->block, data, p, b->raid6 ? q : NULL);
		bytes += 16ull * b->block * b->n;
	} while (now_ns() - start < RUN_NS);
	b->mbs = bytes / ((now_ns() - start) / 1e9) / 1e6;
	for (i = 0; i < b->n; i++)
		free(data[i]);
	free(p);
	free(q);
	return NULL;
}

double parity_measure(const struct parity_impl *im, unsigned n, int raid6, unsigned threads)
{
	struct bench b[256];
	pthread_t t[256];
	double sum = 0;
	unsigned i;

	for (i = 0; i < threads; i++) {
		b[i] = (struct bench){ .im = im, .n = n, .block = PARITY_BLOCK, .raid6 = raid6 };
		pthread_create(&t[i], NULL, bench_thread, &b[i]);
	}
	for (i = 0; i < threads; i++) {
		pthread_join(t[i], NULL);
		sum += b[i].mbs;
	}
	return sum;
}

void parity_verdict(FILE *f, struct json *j, const char *level, unsigned ndisks, int raid6, double data_bw)
{
	const struct parity_impl *best = parity_best();
	unsigned ndata = ndisks - (raid6 ? 2 : 1), cpus = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	double one, all, disks_mbs = data_bw / 1e6;
	int bound;

	if (ndata < 2)
		ndata = 2;
	if (cpus < 1 || cpus > 256)
		cpus = 1;
	one = parity_measure(best, ndata, raid6, 1);
	all = parity_measure(best, ndata, raid6, cpus);
	bound = one < disks_mbs;
	if (f) {
		fprintf(f, "%s on %u disks: they take %.0f MB/s of data (%u data disks);\n"
			   "  parity makes %.0f MB/s on one core (%s), %.0f MB/s on %u cores\n", level, ndisks,
			disks_mbs, ndata, one, best->name, all, cpus);
		if (bound)
			fprintf(f, "  -> bound by the CPU: md's raid5d thread caps full-stripe writes near\n"
				   "     %.0f MB/s, %.2fx of what the disks take; more threads\n"
				   "     (group_thread_cnt) give up to %.0f MB/s%s\n", one, one / disks_mbs, all,
				all < disks_mbs ? ", still below the disks" : "");
		else
			fprintf(f, "  -> not bound by the CPU: one core makes %.1fx what the disks take\n",
				one / disks_mbs);
	}
	if (j) {
		json_obj_open(j, NULL);
		json_str(j, "level", level);
		json_uint(j, "disks", ndisks);
		json_uint(j, "data_disks", ndata);
		json_double(j, "disks_data_mbs", disks_mbs);
		json_str(j, "impl", best->name);
		json_double(j, "parity_one_core_mbs", one);
		json_double(j, "parity_all_cores_mbs", all);
		json_uint(j, "cores", cpus);
		json_bool(j, "cpu_bound", bound);
		json_double(j, "cpu_limit_vs_disks", one / disks_mbs);
		json_obj_close(j);
	}
}

