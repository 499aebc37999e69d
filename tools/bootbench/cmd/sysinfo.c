// SPDX-License-Identifier: MIT
/*
 * sysinfo.c - `bootbench sysinfo`: this machine described (sys/sysinfo.h),
 * as a table or JSON, or its one name (sys/machine.h). Its flags and help:
 * the declaration at the end (lib/args.h).
 */
#include <stdio.h>

#include "lib/args.h"
#include "lib/json.h"
#include "lib/util.h"
#include "sys/bootsource.h"
#include "sys/machine.h"
#include "sys/sysinfo.h"

struct sysinfo_opts {
	int json, machine_id, booted_via;
};

static int sysinfo_main(void *opts, int argc, char **argv)
{
	struct sysinfo_opts *o = opts;

	if (argc)
		die_usage("sysinfo: unknown argument '%s'", argv[0]);
	if (o->booted_via) {
		struct boot_source b;

		boot_source_read(&b);
		printf("%s%s%s\n", boot_via_name(b.via), b.mac[0] ? " " : "", b.mac);
	} else if (o->machine_id) {
		char id[128];

		machine_id(id, sizeof(id));
		printf("%s\n", id);
	} else if (o->json) {
		struct json j;

		json_init(&j, stdout);
		sysinfo_json(&j, NULL);
		putchar('\n');
	} else {
		sysinfo_print();
	}
	return EXIT_OK;
}

static const struct arg sysinfo_args[] = {
	{ .name = "--json", .kind = ARG_FLAG, .offset = ARG_AT(struct sysinfo_opts, json), .help = "as JSON" },
	{ .name = "--machine-id", .kind = ARG_FLAG, .offset = ARG_AT(struct sysinfo_opts, machine_id),
	  .help = "its one name: the DMI serial unless it is a vendor's placeholder, else\n"
		  "mac- and the first wired NIC's MAC, else the hostname (result folders,\n"
		  "${serial} in bootbench.conf URLs, the Pushgateway's group)" },
	{ .name = "--booted-via", .kind = ARG_FLAG, .offset = ARG_AT(struct sysinfo_opts, booted_via),
	  .help = "what the firmware booted (UEFI's BootCurrent): http (UEFI HTTP boot) or pxe,\n"
		  "each with the NIC's MAC; medium; or unknown (BIOS, or the variables unreadable\n"
		  "or malformed): /init asks, as an ISO booted over HTTP runs from a RAM disk Linux\n"
		  "cannot see, and the booting NIC's DHCP lease is the one to take a config from" },
	{ NULL },
};

const struct command sysinfo_command = {
	.name = "sysinfo",
	.summary = "describe this machine: CPU, memory, firmware, DMI, NICs",
	.usage = "[--json | --machine-id | --booted-via]",
	.help = "Describes this machine: CPU, memory, kernel, DMI, firmware and Secure Boot, NICs.\n",
	.args = sysinfo_args,
	.opts_size = sizeof(struct sysinfo_opts),
	.run = sysinfo_main,
};
