/* SPDX-License-Identifier: MIT */
/*
 * nics.h - the machine's network cards: those with a device behind them
 * (not lo, bridges or tunnels), by name, with driver, firmware, bus
 * address, link and IPv4 address, for sysinfo and the inventory.
 */
#ifndef BB_SYS_NICS_H
#define BB_SYS_NICS_H

#include <netinet/in.h>

#include "lib/json.h"

#define NICS_MAX 32

struct nic {
	char name[32], mac[32], driver[64], firmware[64], bus[32], operstate[16];
	char ipv4[INET_ADDRSTRLEN];
	long speed_mbps;	/* -1: no link, or the driver does not say */
};

/*
 * Fills OUT with up to MAX cards, sorted by name; returns how many. Read
 * from /sys/class/net (under BOOTBENCH_SYSROOT for a recorded tree, where
 * the driver's firmware and the addresses, asked of the kernel, are left
 * empty).
 */
unsigned nics_scan(struct nic *out, unsigned max);
/* One card as a JSON object (in an array): sysinfo.json's and inventory.json's. */
void nic_json(struct json *j, const struct nic *n);

#endif
