// SPDX-License-Identifier: MIT
/*
 * cmd_disks.c - `bootbench disks`: every disk, what is on it, who uses it,
 * and its health, as a table (80 columns) or JSON.
 *
 * usage: bootbench disks [--json] [DEVICE ...]
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "disks.h"
#include "util.h"

static void usage(void)
{
	printf("usage: bootbench disks [--json] [DEVICE ...]\n"
	       "       bootbench disks --identity=DEVICE | --media\n\n"
	       "Lists every disk (or the ones named): model, serial, size, transport, what is on it,\n"
	       "who uses it, whether it is the boot or results medium, and NVMe health.\n"
	       "--identity prints what names a device whatever the kernel calls it (model, serial,\n"
	       "size; a loop device's file; a partition's place): what /init records of the boot and\n"
	       "results media. --media prints the whole disks that are those media now.\n"
	       "Exit status: 0 ok, 2 bad input (an unknown device).\n");
}

/* The whole disks that are the boot or results medium, by identity: /dev/NAME lines. */
static int print_media(void)
{
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	char why[256];
	dev_t rdev;

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' && !disk_rdev_of(e->d_name, &rdev) && disk_is_our_medium(rdev, why, sizeof(why)))
			printf("/dev/%s\n", e->d_name);
	if (d)
		closedir(d);
	return EXIT_OK;
}

static void table(const struct disk *v, unsigned n)
{
	char size[32], why[512];
	unsigned i;

	printf("%-9s %8s %-7s %-22.22s %-14.14s %s\n", "DEVICE", "SIZE", "BUS", "MODEL", "SERIAL", "CONTENTS / USE");
	for (i = 0; i < n; i++) {
		const struct disk *d = &v[i];
		const char *content = d->content[0] ? d->content : d->nparts ? "partitions" : "blank";

		fmt_iec((double)d->size, size, sizeof(size));
		disk_refusal(d, why, sizeof(why));
		printf("%-9s %8s %-7s %-22.22s %-14.14s %s%s%s\n", d->name, size, d->transport,
		       d->model[0] ? d->model : "-", d->serial[0] ? d->serial : "-", content,
		       why[0] ? "; " : "", why);
		for (unsigned k = 0; k < d->nparts; k++) {
			fmt_iec((double)d->parts[k].size, size, sizeof(size));
			printf("  %-7s %8s %s\n", d->parts[k].name, size,
			       d->parts[k].content[0] ? d->parts[k].content : "-");
		}
		if (d->health.valid)
			printf("  health: %d C, %u%% used, spare %u%%, %llu media errors, %llu unsafe shutdowns, "
			       "%llu h on%s\n", d->health.temperature_c, d->health.percentage_used,
			       d->health.available_spare, (unsigned long long)d->health.media_errors,
			       (unsigned long long)d->health.unsafe_shutdowns,
			       (unsigned long long)d->health.power_on_hours,
			       d->health.critical_warning ? ", CRITICAL WARNING" : "");
		if (d->smart.valid) {
			printf("  health (SMART): %s", d->smart.passed < 0 ? "no overall assessment" :
			       d->smart.passed ? "passed" : "FAILED");
			if (d->smart.temperature_c >= 0)
				printf(", %d C", d->smart.temperature_c);
			if (d->smart.power_on_hours >= 0)
				printf(", %lld h on", d->smart.power_on_hours);
			putchar('\n');
		}
	}
	if (!n)
		printf("(no disks)\n");
}

int cmd_disks(int argc, char **argv)
{
	struct disk *v = NULL;
	unsigned n = 0;
	int as_json = 0, i, named = 0;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			as_json = 1;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage();
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--media")) {
			return print_media();
		} else if (!strncmp(argv[i], "--identity=", 11)) {
			char id[600];
			struct stat st;

			if (stat(argv[i] + 11, &st) || !S_ISBLK(st.st_mode))
				die_usage("disks: --identity=%s: not a block device", argv[i] + 11);
			if (disk_identity(st.st_rdev, -1, id, sizeof(id)))
				die_usage("disks: --identity=%s: %s", argv[i] + 11, bb_err);
			printf("%s\n", id);
			return EXIT_OK;
		} else if (argv[i][0] == '-') {
			die_usage("disks: unknown option '%s'", argv[i]);
		} else {
			named++;
		}
	}
	if (named) {
		v = xcalloc(named, sizeof(*v));
		for (i = 0; i < argc; i++)
			if (argv[i][0] != '-' && disk_find(argv[i], &v[n++]))
				die_usage("disks: no such disk: %s", argv[i]);
	} else {
		n = disks_scan(&v);
	}
	if (as_json) {
		struct json j;

		json_init(&j, stdout);
		json_obj_open(&j, NULL);
		json_arr_open(&j, "disks");
		for (unsigned k = 0; k < n; k++)
			disk_json(&j, &v[k]);
		json_arr_close(&j);
		json_obj_close(&j);
		putchar('\n');
	} else {
		table(v, n);
	}
	free(v);
	return EXIT_OK;
}
