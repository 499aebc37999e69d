// SPDX-License-Identifier: MIT
/*
 * inventory.c - `bootbench inventory`: what this machine is made of
 * (sys/inventory.h), readable or as inventory.json, and saved into a
 * results folder. Its flags and help: the declaration at the end
 * (lib/args.h).
 */
#include <stdio.h>
#include <sys/stat.h>

#include "lib/args.h"
#include "lib/json.h"
#include "lib/util.h"
#include "sys/inventory.h"

struct inventory_opts {
	int json;
	const char *output;
};

static int inventory_main(void *opts, int argc, char **argv)
{
	struct inventory_opts *o = opts;
	struct inventory *inv;
	struct stat st;
	int rc = EXIT_OK;

	if (argc)
		die_usage("inventory: unknown argument '%s'", argv[0]);
	if (o->output && (lstat(o->output, &st) || !S_ISDIR(st.st_mode)))
		die_usage("inventory: --output=%s: not a folder", o->output);
	inv = inventory_take();
	if (o->json) {
		struct json j;

		json_init(&j, stdout);
		inventory_json(&j, NULL, inv);
		putchar('\n');
	} else {
		inventory_print(inv);
	}
	if (o->output && inventory_save(inv, o->output)) {
		fprintf(stderr, "inventory: %s\n", bb_err);
		rc = EXIT_FAIL;
	}
	inventory_free(inv);
	return rc;
}

static const struct arg inventory_args[] = {
	{ .name = "--json", .kind = ARG_FLAG, .offset = ARG_AT(struct inventory_opts, json),
	  .help = "print inventory.json rather than the readable form" },
	{ .name = "--output", .kind = ARG_STR, .offset = ARG_AT(struct inventory_opts, output), .meta = "DIR",
	  .help = "also save it as DIR/inventory.json (a results folder)" },
	{ NULL },
};

const struct command inventory_command = {
	.name = "inventory",
	.summary = "what this machine is made of: DMI, CPUs, DIMMs, NICs, disks, PCIe, BMC",
	.usage = "[--json] [--output=DIR]",
	.help = "Lists this machine's parts for a rack to diff: system, board and BIOS from the\n"
		"firmware's SMBIOS table; the CPUs (model, sockets, cores, threads, microcode); every\n"
		"memory slot, filled or empty (size, type, speed, maker, part number, serial); the NICs\n"
		"(driver, firmware, bus, link); the disks (model, serial, firmware, size; not the boot\n"
		"or results medium); the PCI devices with each PCIe link's width and speed against the\n"
		"device's maximum; the BMC's firmware (ipmitool mc info, from the burnin pack). Nothing\n"
		"is changed. Every burn-in and every unattended run saves it as inventory.json, and\n"
		"'bootbench compare --inventory' names the machines that differ from their model's\n"
		"majority.\n",
	.exit_status = "0 taken, 1 it could not be saved, 2 bad input.",
	.args = inventory_args,
	.opts_size = sizeof(struct inventory_opts),
	.run = inventory_main,
};
