/* SPDX-License-Identifier: MIT */
/*
 * smbios.h - the firmware's SMBIOS table (/sys/firmware/dmi/tables/DMI, the
 * kernel's copy of it; or a recorded one under BOOTBENCH_SYSROOT, as
 * `dmidecode --dump-bin` writes it too) read for the inventory: system,
 * board, BIOS, processor sockets and every memory slot, filled or empty.
 * Every string is the firmware's, so untrusted: cut to printable ASCII.
 */
#ifndef BB_SYS_SMBIOS_H
#define BB_SYS_SMBIOS_H

#include <stdint.h>

#define SMBIOS_STR 72
#define SMBIOS_MAX_DIMMS 128
#define SMBIOS_MAX_SOCKETS 16

struct smbios_dimm {
	char slot[SMBIOS_STR], bank[SMBIOS_STR];	/* device and bank locators */
	uint64_t size;		/* bytes; 0: the slot is empty */
	char type[16];		/* DDR4, DDR5, RAM, ... */
	unsigned speed_mts, configured_mts;	/* 0: not said */
	char manufacturer[SMBIOS_STR], part[SMBIOS_STR], serial[SMBIOS_STR];
};

struct smbios_socket {
	char socket[SMBIOS_STR], manufacturer[SMBIOS_STR], version[SMBIOS_STR];
	int populated;
	unsigned cores, threads, max_mhz;	/* 0: not said */
};

struct smbios {
	char version[16];	/* of the table: "3.0", "2.8" */
	char sys_vendor[SMBIOS_STR], sys_product[SMBIOS_STR], sys_version[SMBIOS_STR], sys_serial[SMBIOS_STR];
	char sys_uuid[40], sys_sku[SMBIOS_STR], sys_family[SMBIOS_STR];
	char board_vendor[SMBIOS_STR], board_product[SMBIOS_STR], board_version[SMBIOS_STR];
	char board_serial[SMBIOS_STR];
	char bios_vendor[SMBIOS_STR], bios_version[SMBIOS_STR], bios_date[SMBIOS_STR];
	struct smbios_socket sockets[SMBIOS_MAX_SOCKETS];
	unsigned nsockets;
	struct smbios_dimm dimms[SMBIOS_MAX_DIMMS];
	unsigned ndimms;
};

/* Reads the machine's table into S. -1 with bb_err when there is none or it is not one. */
int smbios_read(struct smbios *s);
/* Parses a table (the structures, without the entry point) of LEN bytes. */
int smbios_parse(struct smbios *s, const uint8_t *table, size_t len);

#endif
