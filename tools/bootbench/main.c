// SPDX-License-Identifier: MIT
/*
 * main.c - bootbench: the storage benchmark and rescue tool of the
 * bootbench appliance. One static binary; subcommands come from one table.
 *
 * usage: bootbench COMMAND [ARGS...]
 */
#include <stdio.h>
#include <string.h>

#include "util.h"

int cmd_run(int argc, char **argv);
int cmd_disks(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_parity(int argc, char **argv);
int cmd_raid(int argc, char **argv);
int cmd_sysinfo(int argc, char **argv);
int cmd_save(int argc, char **argv);
int cmd_fetch_config(int argc, char **argv);
int cmd_chroot(int argc, char **argv);
int cmd_fsck(int argc, char **argv);
int cmd_fio_server(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);
static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);

static const struct command {
	const char *name;
	const char *summary;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "run", "run fio-style jobs (options or job files) on io_uring", cmd_run },
	{ "profile", "run one of the field's methods (quick, yabs, ars, ...) with its summary", cmd_profile },
	{ "raid", "compare md RAID levels on the same disks, relative to one disk", cmd_raid },
	{ "parity", "RAID5/RAID6 parity throughput of this CPU beside the kernel's figures", cmd_parity },
	{ "save", "send a result folder to the stick, NFS, SMB or WebDAV, whole or not at all", cmd_save },
	{ "fetch-config", "fetch this machine's config from a PXE server (http, https, tftp)", cmd_fetch_config },
	{ "chroot", "into an installed system to repair it (or --list the systems on this machine)", cmd_chroot },
	{ "fsck", "check filesystems without changing them; repair with consent", cmd_fsck },
	{ "fio-server", "fio's server for fio's clients, confined to the disks named (lab networks only)",
	  cmd_fio_server },
	{ "report", "one self-contained HTML page of a run: identity, tables, latency curves, series",
	  cmd_report },
	{ "compare", "many machines' results side by side: groups by model, the outliers named", cmd_compare },
	{ "disks", "list disks: identity, size, contents, users, health", cmd_disks },
	{ "sysinfo", "describe this machine: CPU, memory, firmware, DMI, NICs", cmd_sysinfo },
	{ "version", "print the version", cmd_version },
	{ "help", "list the commands", cmd_help },
};

static int cmd_help(int argc, char **argv)
{
	unsigned i;

	(void)argc;
	(void)argv;
	printf("usage: bootbench COMMAND [ARGS...]\n\nCommands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		printf("  %-10s %s\n", commands[i].name, commands[i].summary);
	printf("\n'bootbench COMMAND --help' tells more. Exit status: 0 ok, 1 failure, 2 bad input.\n");
	return EXIT_OK;
}

static int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("%s %s\n", BB_NAME, BB_VERSION);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	unsigned i;

	if (argc < 2) {
		cmd_help(0, NULL);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return cmd_help(0, NULL);
	if (!strcmp(argv[1], "--version"))
		return cmd_version(0, NULL);
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 2, argv + 2);
	die_usage("unknown command '%s' (see 'bootbench help')", argv[1]);
}
