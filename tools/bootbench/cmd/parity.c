// SPDX-License-Identifier: MIT
/*
 * parity.c - `bootbench parity`: how fast this CPU makes RAID5 (XOR) and
 * RAID6 (P+Q) parity, per implementation on one core and with the best one
 * on every core, beside the kernel's own choice and figures (the "raid6:"
 * and "xor:" lines it logs when raid456 loads). Throughput counts data bytes
 * in, as the kernel's figures do.
 *
 * Given disks, the verdict: their aggregate sequential write bandwidth,
 * measured on all of them at once, against parity throughput: will RAID5/6
 * on these disks be bound by the CPU, and by how much.
 *
 * Its flags and help: the declaration at the end (lib/args.h).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/args.h"
#include "lib/json.h"
#include "lib/util.h"
#include "lib/wrap.h"
#include "raid/collect.h"
#include "raid/parity.h"
#include "raid/verdict.h"
#include "sys/disks.h"

/*
 * The disks' aggregate sequential write bandwidth in bytes/s: 1 MiB writes
 * at queue depth 32, one job per disk, all at once for 10 s (scaled).
 */
static int disks_write_bw(char **disks, unsigned n, const char *destroy, double *bw)
{
	char *argv[16 + 2 * 64], names[64][80], files[64][80], dest[4200];
	static struct jobset js;
	struct cells cs;
	unsigned argc = 0, i;
	int rc;

	snprintf(dest, sizeof(dest), "--destroy=%s", destroy);
	argv[argc++] = "--ioengine=io_uring";
	argv[argc++] = "--direct=1";
	argv[argc++] = "--rw=write";
	argv[argc++] = "--bs=1m";
	argv[argc++] = "--iodepth=32";
	argv[argc++] = "--time_based";
	argv[argc++] = "--runtime=10";
	argv[argc++] = dest;
	for (i = 0; i < n; i++) {
		snprintf(names[i], sizeof(names[i]), "--name=seqwrite-%s", disks[i] + 5);
		snprintf(files[i], sizeof(files[i]), "--filename=%s", disks[i]);
		argv[argc++] = names[i];
		argv[argc++] = files[i];
	}
	argv[argc] = NULL;
	if (jobset_parse_args(&js, (int)argc, argv) || jobset_finish(&js)) {
		note("parity: %s", bb_err);
		*bw = 0;
		return EXIT_USAGE;
	}
	rc = collect_run(&js, NULL, &cs);
	*bw = 0;
	for (i = 0; i < cs.n; i++)
		if (!strcmp(cs.c[i].dir, "write"))
			*bw += cs.c[i].bw;
	cells_free(&cs);
	return rc;
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

/*
 * Ours against the kernel's own figures, each measured the way the kernel
 * measures its own at boot (Linux 6.1, lib/raid6/algos.c and crypto/xor.c):
 *   - RAID6: gen() over 6 data disks of one 4 KiB page, P and Q on two more,
 *     calls counted in a window of 16 jiffies (64 ms at Debian's HZ=250);
 *     data bytes in MiB/s, which the kernel prints as "MB/s";
 *   - XOR: 800 calls of one 4 KiB block into another, timed; decimal MB/s
 *     of the block written. Our P of two disks into a third reads and
 *     writes the same bytes and counts as one block.
 * The kernel's figure is the best of its tries (XOR: of three timings;
 * RAID6: of its candidate routines, one window each), so ours is the best
 * of three tries too. Buffers are page-aligned, as the kernel's pages are.
 */
struct vs_kernel {
	char pq_name[32], xor_name[32];
	double pq_kernel, pq_ours, xor_kernel, xor_ours;
};

#define KERNEL_PAGE 4096
#define KERNEL_RAID6_WINDOW_NS 64000000ull
#define KERNEL_XOR_CALLS 800
#define KERNEL_TRIES 3

static double measure_kernel_way(const struct parity_impl *im, int raid6)
{
	unsigned n = raid6 ? 6 : 2, i, try;
	uint8_t *raw = xcalloc(n + 3, KERNEL_PAGE), *data[8];
	uint8_t *pages = (uint8_t *)(((uintptr_t)raw + KERNEL_PAGE - 1) & ~(uintptr_t)(KERNEL_PAGE - 1));
	double best = 0;

	for (i = 0; i < (n + 2) * KERNEL_PAGE; i++)
		pages[i] = (uint8_t)(i * 131 + i / KERNEL_PAGE * 7);
	for (i = 0; i < n + 2; i++)
		data[i] = pages + i * KERNEL_PAGE;
	for (try = 0; try < KERNEL_TRIES; try++) {
		uint64_t start = now_ns(), calls = 0, ns;
		double rate;

		if (raid6) {
			/* the clock read every 8 calls, as the kernel reads jiffies: cheaply */
			do {
				for (i = 0; i < 8; i++)
					im->gen(n, KERNEL_PAGE, data, data[n], data[n + 1]);
				calls += 8;
			} while (now_ns() - start < KERNEL_RAID6_WINDOW_NS);
		} else {
			for (; calls < KERNEL_XOR_CALLS; calls++)
				im->gen(n, KERNEL_PAGE, data, data[n], NULL);
		}
		ns = now_ns() - start;
		rate = raid6 ? calls * n * KERNEL_PAGE / (ns / 1e9) / (1024 * 1024)
			     : calls * KERNEL_PAGE / (ns / 1e9) / 1e6;
		if (rate > best)
			best = rate;
	}
	free(raw);
	return best;
}

/* The last line starting with PREFIX: the figures of the module loaded now. */
static const char *last_line(const char *lines, const char *prefix)
{
	const char *m, *found = NULL;

	for (m = lines; (m = strstr(m, prefix)); m++)
		if (m == lines || m[-1] == '\n')
			found = m;
	return found;
}

static void compare_kernel(const char *klines, const struct parity_impl *best, struct vs_kernel *v)
{
	const char *m;

	memset(v, 0, sizeof(*v));
	if (!klines)
		return;
	m = last_line(klines, "raid6: using algorithm ");
	if (m && sscanf(m, "raid6: using algorithm %31s gen() %lf MB/s", v->pq_name, &v->pq_kernel) == 2)
		v->pq_ours = measure_kernel_way(best, 1);
	m = last_line(klines, "xor: using function: ");
	if (m && sscanf(m, "xor: using function: %31s (%lf MB/sec)", v->xor_name, &v->xor_kernel) == 2)
		v->xor_ours = measure_kernel_way(best, 0);
}

static void print_vs_kernel(const struct vs_kernel *v, const char *impl)
{
	if (!v->pq_kernel && !v->xor_kernel)
		return;
	printf("\nOurs against the kernel, one core, measured as the kernel measures\n"
	       "(RAID6: 6 data disks of 4 KiB, in MiB/s, which the kernel's log calls\n"
	       "MB/s; XOR: one 4 KiB block into another, MB/s; best of 3 tries each):\n");
	if (v->pq_kernel)
		printf("  RAID6: %.2fx, ours %.0f MiB/s (%s), kernel %.0f MiB/s (%s)\n", v->pq_ours / v->pq_kernel,
		       v->pq_ours, impl, v->pq_kernel, v->pq_name);
	if (v->xor_kernel)
		printf("  XOR: %.2fx, ours %.0f MB/s (%s), kernel %.0f MB/s (%s)\n", v->xor_ours / v->xor_kernel,
		       v->xor_ours, impl, v->xor_kernel, v->xor_name);
}

static void json_vs_kernel(struct json *j, const struct vs_kernel *v)
{
	json_obj_open(j, "vs_kernel");
	if (v->pq_kernel) {
		json_str(j, "raid6_kernel_algorithm", v->pq_name);
		json_double(j, "raid6_kernel_mibs", v->pq_kernel);
		json_double(j, "raid6_ours_mibs", v->pq_ours);
		json_double(j, "raid6_ratio", v->pq_ours / v->pq_kernel);
	}
	if (v->xor_kernel) {
		json_str(j, "xor_kernel_function", v->xor_name);
		json_double(j, "xor_kernel_mbs", v->xor_kernel);
		json_double(j, "xor_ours_mbs", v->xor_ours);
		json_double(j, "xor_ratio", v->xor_ours / v->xor_kernel);
	}
	json_obj_close(j);
}

struct parity_opts {
	unsigned disks;
	int json;
	const char *destroy;
};

static int parity_main(void *opts, int argc, char **argv)
{
	struct parity_opts *o = opts;
	unsigned n = 4, cpus = (unsigned)sysconf(_SC_NPROCESSORS_ONLN), i;
	const struct parity_impl *best = parity_best();
	double xor_best, pq_best, xor_all, pq_all;
	int as_json = o->json, rc = EXIT_OK;
	const char *destroy = o->destroy;
	char *klines, *disks[64];
	struct vs_kernel vk;
	unsigned ndisks = 0;
	double disks_bw = 0;
	struct json j;

	if (o->disks)
		n = o->disks;
	for (i = 0; i < (unsigned)argc; i++) {
		if (ndisks == ARRAY_SIZE(disks))
			die_usage("parity: at most %zu disks", ARRAY_SIZE(disks));
		if (strncmp(argv[i], "/dev/", 5) || access(argv[i], F_OK))
			die_usage("parity: %s is not a device", argv[i]);
		disks[ndisks++] = argv[i];
	}
	if (ndisks == 1 || ndisks > 32)
		die_usage("parity: a RAID5 verdict needs 2 to 32 disks, %u given", ndisks);
	for (i = 0; i < ndisks; i++) {
		struct stat st;

		if (stat(disks[i], &st) || !S_ISBLK(st.st_mode) || !destroy_list_has(destroy, st.st_rdev))
			die_usage("parity: refusing to write %s: name it in --destroy=%s to measure it", disks[i],
				  disks[i]);
	}
	if (ndisks) {
		n = ndisks - 1;
		rc = disks_write_bw(disks, ndisks, destroy, &disks_bw);
		if (rc == EXIT_USAGE)
			return rc;
		if (rc || disks_bw <= 0) {
			note("parity: the write measurement on the disks failed (its messages are above)");
			return EXIT_FAIL;
		}
	}
	/* the kernel logs its raid6:/xor: choice when raid456 loads */
	{
		char *modprobe[] = { "modprobe", "-q", "raid456", NULL };

		spawn(modprobe, NULL, 0, NULL, 0);	/* consent: loads a module, writes no device */
	}
	if (cpus < 1 || cpus > 256)
		cpus = 1;
	if (!as_json)
		printf("Parity made, MB/s of data (%u data disks, %u KiB each):\n%-10s %14s %14s\n", n,
		       PARITY_BLOCK / 1024, "one core", "RAID5 (P)", "RAID6 (P+Q)");
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
		x = parity_measure(im, n, 0, 1);
		pq = parity_measure(im, n, 1, 1);
		if (as_json) {
			json_obj_open(&j, NULL);
			json_str(&j, "impl", im->name);
			json_double(&j, "raid5_mbs", x);
			json_double(&j, "raid6_mbs", pq);
			json_obj_close(&j);
		} else {
			printf("%-10s %14.0f %14.0f%s\n", im->name, x, pq, im == best ? "   <- used" : "");
		}
	}
	xor_best = parity_measure(best, n, 0, 1);
	pq_best = parity_measure(best, n, 1, 1);
	xor_all = parity_measure(best, n, 0, cpus);
	pq_all = parity_measure(best, n, 1, cpus);
	klines = kernel_lines();
	compare_kernel(klines, best, &vk);
	if (as_json) {
		json_arr_close(&j);
		json_obj_open(&j, "all_cores");
		json_str(&j, "impl", best->name);
		json_uint(&j, "cores", cpus);
		json_double(&j, "raid5_mbs", xor_all);
		json_double(&j, "raid6_mbs", pq_all);
		json_obj_close(&j);
		json_str(&j, "kernel_log", klines ? klines : "");
		json_vs_kernel(&j, &vk);
		if (ndisks) {
			json_double(&j, "disks_write_mbs", disks_bw / 1e6);
			json_arr_open(&j, "verdict");
			parity_verdict(NULL, &j, "raid5", ndisks, 0, disks_bw * (ndisks - 1) / ndisks);
			if (ndisks >= 4)
				parity_verdict(NULL, &j, "raid6", ndisks, 1, disks_bw * (ndisks - 2) / ndisks);
			json_arr_close(&j);
		}
		json_obj_close(&j);
		putchar('\n');
	} else {
		printf("%-10s %14.0f %14.0f   (%s on %u cores;\n%43s one core: %.0f / %.0f)\n", "all cores",
		       xor_all, pq_all, best->name, cpus, "", xor_best, pq_best);
		printf("\nThe kernel's own choice and figures (raid6:/xor: lines of its log):\n");
		if (klines)
			fputs(klines, stdout);
		else
			wrap_print(stdout, "  ", "none logged (raid456 is built in and logged before the log "
				   "wrapped, or it could not load)", wrap_width());
		print_vs_kernel(&vk, best->name);
		if (ndisks) {
			printf("\nThe verdict: %u disks write %.0f MB/s at once (1 MiB sequential)\n",
			       ndisks, disks_bw / 1e6);
			parity_verdict(stdout, NULL, "raid5", ndisks, 0, disks_bw * (ndisks - 1) / ndisks);
			if (ndisks >= 4)
				parity_verdict(stdout, NULL, "raid6", ndisks, 1, disks_bw * (ndisks - 2) / ndisks);
		}
	}
	free(klines);
	return rc;
}

static const struct arg parity_args[] = {
	{ .name = "--disks", .kind = ARG_UINT, .offset = ARG_AT(struct parity_opts, disks), .meta = "N",
	  .help = "data disks of the parity computed [4]", .min = 2, .max = 30 },
	{ .name = "--json", .kind = ARG_FLAG, .offset = ARG_AT(struct parity_opts, json), .help = "as JSON" },
	{ .name = "--destroy", .kind = ARG_STR, .offset = ARG_AT(struct parity_opts, destroy), .meta = "DEV[,DEV...]",
	  .help = "the DISKs the verdict may write (consent)" },
	{ NULL },
};

const struct command parity_command = {
	.name = "parity",
	.summary = "RAID5/RAID6 parity throughput of this CPU beside the kernel's figures",
	.usage = "[--disks=N] [--json] [--destroy=DEV[,DEV...] DISK...]",
	.help = "RAID5 (XOR) and RAID6 (P+Q) parity throughput of this CPU for N data disks\n"
		"(default 4), per implementation on one core and on all cores, beside the\n"
		"kernel's raid6:/xor: figures (raid456 is loaded for them).\n\n"
		"Given DISKs (each named in --destroy: they are written), the verdict: their\n"
		"aggregate sequential write bandwidth, measured on all at once, against parity\n"
		"throughput: whether RAID5/6 on them will be bound by the CPU, and by how much.\n",
	.args = parity_args,
	.opts_size = sizeof(struct parity_opts),
	.run = parity_main,
};
