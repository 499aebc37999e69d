// SPDX-License-Identifier: MIT
/*
 * disks.c - `bootbench disks`: every disk, what is on it, who uses it,
 * and its health, as a table (80 columns, or $COLUMNS) or JSON; a device's identity, and
 * which disks are the boot and results media. Its flags and help: the
 * declaration at the end (lib/args.h).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/args.h"
#include "lib/util.h"
#include "lib/wrap.h"
#include "sys/disks.h"

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

/*
 * The table: a row a disk whose columns fit 72 of a console's 80, with
 * WRITES (allowed or refused); under it, indented and folded at words to
 * the width ($COLUMNS, the menu's box), what is on it, why writes are
 * refused, its partitions and its health.
 */
static void table(const struct disk *v, unsigned n)
{
	char size[32], why[512], text[1024];
	int width = wrap_width();
	unsigned i;

	printf("%-9s %8s %-7s %-22s %-14s %s\n", "DEVICE", "SIZE", "BUS", "MODEL", "SERIAL", "WRITES");
	for (i = 0; i < n; i++) {
		const struct disk *d = &v[i];
		const char *content = d->content[0] ? d->content : d->nparts ? "partitions" : "blank";

		fmt_iec((double)d->size, size, sizeof(size));
		disk_refusal(d, why, sizeof(why));
		const char *model = d->model[0] ? d->model : "-", *serial = d->serial[0] ? d->serial : "-";
		char mc[DISK_STR + 2], sc[DISK_STR + 2];
		/* a model or serial cut to its column is given whole under the row: the serial
		 * is what a person matches to the label on the drive */
		int long_model = wrap_cell(mc, sizeof(mc), model, 22), long_serial = wrap_cell(sc, sizeof(sc), serial, 14);

		printf("%-9s %8s %-7s %-22s %-14s %s\n", d->name, size, d->transport, mc, sc, why[0] ? "refused" : "allowed");
		if (long_model)
			wrap_print(stdout, "  model:    ", model, width);
		if (long_serial)
			wrap_print(stdout, "  serial:   ", serial, width);
		wrap_print(stdout, "  contents: ", content, width);
		if (why[0])
			wrap_print(stdout, "  refused:  ", why, width);
		for (unsigned k = 0; k < d->nparts; k++) {
			char lead[64];

			fmt_iec((double)d->parts[k].size, size, sizeof(size));
			snprintf(lead, sizeof(lead), "  %-9s %8s ", d->parts[k].name, size);
			wrap_print(stdout, lead, d->parts[k].content[0] ? d->parts[k].content : "-", width);
		}
		if (d->health.valid) {
			char temp[32] = "temperature not reported", spare[32], used[32];

			if (d->health.temperature_reported)
				snprintf(temp, sizeof(temp), "%d C", d->health.temperature_c);
			nvme_wear_words(&d->health, used, spare);
			snprintf(text, sizeof(text), "%s, %s, %s, %llu media errors, "
				 "%llu unsafe shutdowns, %llu h on%s", temp, used, spare,
				 (unsigned long long)d->health.media_errors,
				 (unsigned long long)d->health.unsafe_shutdowns,
				 (unsigned long long)d->health.power_on_hours,
				 d->health.critical_warning ? ", CRITICAL WARNING" : "");
			wrap_print(stdout, "  health:   ", text, width);
		}
		if (d->smart.valid) {
			int at = snprintf(text, sizeof(text), "SMART %s", d->smart.passed < 0 ? "no overall assessment" :
					  d->smart.passed ? "passed" : "FAILED");

			if (d->smart.temperature_reported)
				at += snprintf(text + at, sizeof(text) - at, ", %d C", d->smart.temperature_c);
			else
				at += snprintf(text + at, sizeof(text) - at, ", temperature not reported");
			if (d->smart.power_on_hours >= 0)
				snprintf(text + at, sizeof(text) - at, ", %lld h on", d->smart.power_on_hours);
			wrap_print(stdout, "  health:   ", text, width);
		}
	}
	if (!n)
		printf("(no disks)\n");
}

struct disks_opts {
	int json, media;
	const char *identity;
};

static int disks_main(void *opts, int argc, char **argv)
{
	struct disks_opts *o = opts;
	struct disk *v = NULL;
	unsigned n = 0;
	int i;

	if (o->media)
		return print_media();
	if (o->identity) {
		char id[600];
		struct stat st;

		if (stat(o->identity, &st) || !S_ISBLK(st.st_mode))
			die_usage("disks: --identity=%s: not a block device", o->identity);
		if (disk_identity(st.st_rdev, -1, id, sizeof(id)))
			die_usage("disks: --identity=%s: %s", o->identity, bb_err);
		printf("%s\n", id);
		return EXIT_OK;
	}
	if (argc) {
		v = xcalloc(argc, sizeof(*v));
		for (i = 0; i < argc; i++)
			if (disk_find(argv[i], &v[n++]))
				die_usage("disks: no such disk: %s", argv[i]);
	} else {
		n = disks_scan(&v);
	}
	if (o->json) {
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

static const struct arg disks_args[] = {
	{ .name = "--json", .kind = ARG_FLAG, .offset = ARG_AT(struct disks_opts, json), .help = "as JSON" },
	{ .name = "--identity", .kind = ARG_STR, .offset = ARG_AT(struct disks_opts, identity), .meta = "DEVICE",
	  .help = "what names DEVICE whatever the kernel calls it (model, serial, size;\n"
		  "a loop device's file; a partition's place): /init records the media by it" },
	{ .name = "--media", .kind = ARG_FLAG, .offset = ARG_AT(struct disks_opts, media),
	  .help = "the whole disks that are the boot or results medium now" },
	{ NULL },
};

const struct command disks_command = {
	.name = "disks",
	.summary = "list disks: identity, size, contents, users, health",
	.usage = "[--json] [DEVICE ...]\n--identity=DEVICE | --media",
	.help = "Lists every disk (or the ones named): model, serial, size, transport, whether it\n"
		"may be written, what is on it, who uses it, whether it is the boot or results\n"
		"medium, and its health (NVMe's log, SMART). The table fits 80 columns, or\n"
		"$COLUMNS: long text is folded at words under its disk.\n",
	.exit_status = "0 ok, 2 bad input (an unknown device).",
	.args = disks_args,
	.opts_size = sizeof(struct disks_opts),
	.run = disks_main,
};
