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
	int carrier;		/* /sys's carrier: 1, 0, or -1 where it cannot be read (the interface set down) */
};

/*
 * A card's link in words, from what the kernel says (OPERSTATE, CARRIER as
 * above, SPEED in Mb/s or <= 0): "10000 Mb/s", "link up, speed not
 * reported", "no link", "link not ready (dormant|testing)", or "link not
 * reported (STATE)". Drivers that keep no operstate say "unknown" with
 * their carrier up: that is a link, not "no link"; a carrier off is no
 * link whatever the operstate.
 */
void nic_link_words(const char *operstate, int carrier, double speed_mbps, char *buf, size_t len);

/*
 * Fills OUT with up to MAX cards, sorted by name; returns how many. Read
 * from /sys/class/net (under BOOTBENCH_SYSROOT for a recorded tree, where
 * the driver's firmware and the addresses, asked of the kernel, are left
 * empty).
 */
unsigned nics_scan(struct nic *out, unsigned max);
/* One card as a JSON object (in an array): sysinfo.json's and inventory.json's. */
void nic_json(struct json *j, const struct nic *n);

/*
 * A bond (the kernel's bonding driver) and its members, as
 * /sys/class/net/BOND/bonding/ and each member's bonding_slave/ say, with
 * /proc/net/bonding/BOND for what those lack (under BOOTBENCH_SYSROOT for a
 * recorded tree). A member's link, speed and counters are its own link's
 * (/sys/class/net/MEMBER): they are read where they are judged.
 */
#define BOND_MEMBERS 16

enum bond_mode {
	BOND_UNKNOWN = -1, BOND_RR = 0, BOND_ACTIVE_BACKUP = 1, BOND_XOR = 2, BOND_BROADCAST = 3,
	BOND_8023AD = 4, BOND_TLB = 5, BOND_ALB = 6,
};

struct bond_member {
	char name[32];
	char mii[16];			/* "up", "down", "going down", "going back"; "" not said */
	char state[16];			/* "active", "backup"; "" not said */
	long link_failures;		/* the driver's link failure count, -1 not said */
	int aggregator;			/* 802.3ad: its aggregator's id, -1 none or not said */
};

struct bond {
	char name[32];
	char mode_name[32];		/* the kernel's word: "balance-rr", "802.3ad", ... */
	enum bond_mode mode;
	char hash[32];			/* xmit_hash_policy's word ("layer2", "layer3+4"), "" not said */
	char mii[16];			/* the bond's own: "up" or "down" */
	char active[32];		/* the member in use (active-backup, tlb, alb), "" none */
	int aggregator;			/* 802.3ad: the active aggregator's id, -1 none or not said */
	unsigned n;
	struct bond_member m[BOND_MEMBERS];
};

/* Reads the bond NAME into B: 0, or -1 when NAME is no bond. */
int bond_read(const char *name, struct bond *b);
/* The names of the bonds there are (sorted), up to MAX: how many. */
unsigned bonds_scan(char (*names)[32], unsigned max);
/* Whether the bond's hashing of a flow takes its ports (layer3+4, encap3+4): flows of one peer spread. */
int bond_hash_spreads(const struct bond *b);

#endif
