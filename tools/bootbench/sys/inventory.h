/* SPDX-License-Identifier: MIT */
/*
 * inventory.h - what this machine is made of, for a rack to diff: system,
 * board and BIOS (SMBIOS), CPUs, every memory slot, NICs, disks, PCI
 * devices with their PCIe links, the BMC. `bootbench inventory` prints it;
 * every burn-in and every unattended run saves it as inventory.json, which
 * `bootbench compare --inventory` reads back (results/inventory.h).
 */
#ifndef BB_SYS_INVENTORY_H
#define BB_SYS_INVENTORY_H

#include <stdint.h>
#include <stdio.h>

#include "lib/json.h"
#include "sys/disks.h"
#include "sys/nics.h"
#include "sys/pci.h"
#include "sys/smbios.h"

/* inventory.json's "format": a reader refuses a newer one */
#define INVENTORY_FORMAT 1

struct inventory {
	char machine[128];	/* sys/machine.h's one name */
	char taken[32];		/* UTC, ISO 8601 */
	struct smbios sm;
	char smbios_note[256];	/* why there is no table, "" when there is */
	char cpu_model[128], microcode[32];
	unsigned sockets, cores, threads;
	uint64_t memory_bytes;	/* what the kernel sees (MemTotal) */
	struct nic nics[NICS_MAX];
	unsigned nnics;
	struct disk *disks;
	unsigned ndisks;
	char disks_note[128];
	struct pci_device pci[PCI_MAX];
	unsigned npci;
	int bmc_present;
	char bmc_firmware[64], bmc_manufacturer[96], bmc_product[96], bmc_ipmi[16], bmc_note[256];
};

/* Takes this machine's inventory (or a recorded tree's: BOOTBENCH_SYSROOT). Free with inventory_free. */
struct inventory *inventory_take(void);
void inventory_free(struct inventory *inv);
/* inventory.json's object (key NULL: at the top). */
void inventory_json(struct json *j, const char *key, const struct inventory *inv);
/* The readable form, folded to the console's width. */
void inventory_print(const struct inventory *inv);
/* DIR/inventory.json written whole (a temporary name, then renamed); -1 with bb_err. */
int inventory_save(const struct inventory *inv, const char *dir);

#endif
