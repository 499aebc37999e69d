// SPDX-License-Identifier: MIT
/*
 * test_net.c - the net component's rules that need no network
 * (burnin/net.h): the iperf3 streams follow the link's speed (a veth, the
 * CLI test's link, only ever says 10000 Mb/s), capped by the CPUs and by
 * iperf3's 128, with a hashing bond's least; and the bar each bond mode
 * gives one peer, with the member that should have carried and did not;
 * and a bond read as the kernel writes it (sys/nics.h: bonding/ and
 * bonding_slave/ in sysfs, /proc/net/bonding for what they lack), from a
 * recorded tree (BOOTBENCH_SYSROOT), as the host's kernel may have no
 * bonding driver.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "burnin/net.h"

static unsigned streams(double mbps, unsigned cpus, unsigned spread)
{
	char why[256];
	unsigned n = burnin_net_streams(mbps, cpus, spread, why, sizeof(why));

	printf("%8.0f Mb/s, %3u CPUs, spread %2u: %3u (%s)\n", mbps, cpus, spread, n, why);
	return n;
}

static struct bond bond_of(enum bond_mode mode, const char *word, const char *hash, const char *active)
{
	struct bond b;

	memset(&b, 0, sizeof(b));
	snprintf(b.name, sizeof(b.name), "bond0");
	b.mode = mode;
	snprintf(b.mode_name, sizeof(b.mode_name), "%s", word);
	snprintf(b.hash, sizeof(b.hash), "%s", hash);
	snprintf(b.active, sizeof(b.active), "%s", active);
	b.n = 2;
	snprintf(b.m[0].name, sizeof(b.m[0].name), "eth0");
	snprintf(b.m[1].name, sizeof(b.m[1].name), "eth1");
	return b;
}

/* the base for bond B whose two 25G members carried A and B bytes */
static double base(const struct bond *b, uint64_t a, uint64_t c, int send, unsigned n, int *idle)
{
	struct net_member m[2] = { { "eth0", 25000, 1, a }, { "eth1", 25000, 1, c } };
	char why[256];
	double v = burnin_net_bond_base(b, m, 2, send, n, idle, why, sizeof(why));

	printf("%-13s %-8s %s %3u streams, %llu/%llu bytes: %.0f Mb/s (%s)%s%s\n", b->mode_name, b->hash,
	       send ? "send   " : "receive", n, (unsigned long long)a, (unsigned long long)c, v, why,
	       idle[0] ? " eth0 idle" : "", idle[1] ? " eth1 idle" : "");
	return v;
}

/* ROOT/PATH with TEXT, its folders made */
static void put(const char *root, const char *path, const char *text)
{
	char full[512];
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	for (char *p = full + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(full, 0755);
		*p = '/';
	}
	f = fopen(full, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* an 802.3ad bond as Debian 12's kernel shows it: eth1 in an aggregator not the active one */
static void bonds_read(void)
{
	char root[] = "/tmp/bbunit-net.XXXXXX", cmd[64], names[4][32];
	struct bond b;

	if (!mkdtemp(root))
		return;
	put(root, "/sys/class/net/bond0/bonding/mode", "802.3ad 4\n");
	put(root, "/sys/class/net/bond0/bonding/xmit_hash_policy", "layer3+4 1\n");
	put(root, "/sys/class/net/bond0/bonding/slaves", "eth0 eth1\n");
	put(root, "/sys/class/net/bond0/bonding/mii_status", "up\n");
	put(root, "/sys/class/net/bond0/bonding/active_slave", "");
	put(root, "/sys/class/net/bond0/bonding/ad_aggregator", "1\n");
	put(root, "/sys/class/net/eth0/bonding_slave/mii_status", "up\n");
	put(root, "/sys/class/net/eth0/bonding_slave/state", "active\n");
	put(root, "/sys/class/net/eth0/bonding_slave/link_failure_count", "0\n");
	put(root, "/sys/class/net/eth0/bonding_slave/ad_aggregator_id", "1\n");
	put(root, "/sys/class/net/eth1/bonding_slave/mii_status", "going down\n");
	put(root, "/sys/class/net/eth1/bonding_slave/state", "backup\n");
	put(root, "/sys/class/net/eth1/bonding_slave/link_failure_count", "3\n");
	put(root, "/sys/class/net/eth1/bonding_slave/ad_aggregator_id", "2\n");
	put(root, "/sys/class/net/bonding_masters", "bond0 bond1\n");
	put(root, "/sys/class/net/eth0/speed", "25000\n");
	/* bond1: /proc/net/bonding alone (a kernel whose sysfs said less) */
	put(root, "/sys/class/net/bond1/bonding/.keep", "");
	put(root, "/proc/net/bonding/bond1",
	    "Ethernet Channel Bonding Driver: v6.1.0-18-amd64\n\n"
	    "Bonding Mode: fault-tolerance (active-backup)\nPrimary Slave: None\nCurrently Active Slave: eno2\n"
	    "MII Status: up\nMII Polling Interval (ms): 100\nUp Delay (ms): 0\nDown Delay (ms): 0\n"
	    "Peer Notification Delay (ms): 0\n\n"
	    "Slave Interface: eno1\nMII Status: down\nSpeed: Unknown\nDuplex: Unknown\nLink Failure Count: 7\n"
	    "Permanent HW addr: 3c:ec:ef:00:00:01\nSlave queue ID: 0\n\n"
	    "Slave Interface: eno2\nMII Status: up\nSpeed: 10000 Mbps\nDuplex: full\nLink Failure Count: 0\n"
	    "Permanent HW addr: 3c:ec:ef:00:00:02\nSlave queue ID: 0\n");
	/* an 802.3ad bond's /proc lines: the active aggregator's id indented under its heading */
	put(root, "/sys/class/net/bond2/bonding/.keep", "");
	put(root, "/proc/net/bonding/bond2",
	    "Bonding Mode: IEEE 802.3ad Dynamic link aggregation\nTransmit Hash Policy: layer2 (0)\nMII Status: up\n\n"
	    "802.3ad info\nLACP active: on\nLACP rate: slow\nActive Aggregator Info:\n\tAggregator ID: 5\n"
	    "\tNumber of ports: 1\n\nSlave Interface: ens1f0\nMII Status: up\nSpeed: 100000 Mbps\n"
	    "Link Failure Count: 1\nAggregator ID: 5\nActor Churn State: none\n"
	    "details actor lacp pdu:\n    system priority: 65535\n    port state: 61\n");
	setenv("BOOTBENCH_SYSROOT", root, 1);
	CHECK(bonds_scan(names, 4) == 3 && !strcmp(names[0], "bond0") && !strcmp(names[2], "bond2"),
	      "three bonds: bond0, bond1, bond2 (not bonding_masters)");
	CHECK(!bond_read("bond0", &b), "bond0 is a bond");
	CHECK(b.mode == BOND_8023AD && !strcmp(b.mode_name, "802.3ad") && !strcmp(b.hash, "layer3+4") &&
	      bond_hash_spreads(&b) && b.aggregator == 1 && !strcmp(b.mii, "up") && !b.active[0],
	      "bond0: 802.3ad, layer3+4, aggregator 1: %d %s %s %d", b.mode, b.mode_name, b.hash, b.aggregator);
	CHECK(b.n == 2 && !strcmp(b.m[0].name, "eth0") && !strcmp(b.m[0].mii, "up") && b.m[0].aggregator == 1 &&
	      b.m[0].link_failures == 0 && !strcmp(b.m[1].mii, "going down") && !strcmp(b.m[1].state, "backup") &&
	      b.m[1].link_failures == 3 && b.m[1].aggregator == 2, "bond0's members as their bonding_slave/ says");
	CHECK(!bond_read("bond1", &b) && b.mode == BOND_ACTIVE_BACKUP && !strcmp(b.mode_name, "active-backup") &&
	      !strcmp(b.active, "eno2") && !bond_hash_spreads(&b) && b.n == 2 && !strcmp(b.m[0].name, "eno1") &&
	      !strcmp(b.m[0].mii, "down") && b.m[0].link_failures == 7 && !strcmp(b.m[1].mii, "up"),
	      "bond1 from /proc/net/bonding: active-backup, eno2 active, eno1 down with 7 failures");
	CHECK(!bond_read("bond2", &b) && b.mode == BOND_8023AD && !strcmp(b.hash, "layer2") && !bond_hash_spreads(&b) &&
	      b.aggregator == 5 && b.n == 1 && b.m[0].aggregator == 5 && b.m[0].link_failures == 1,
	      "bond2 from /proc: 802.3ad layer2, the active aggregator 5 (not a member's line)");
	CHECK(bond_read("eth0", &b) == -1, "eth0 is no bond");
	unsetenv("BOOTBENCH_SYSROOT");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	CHECK(system(cmd) == 0, "the tree removed");
}

int main(void)
{
	struct bond b;
	int idle[BOND_MEMBERS];

	/* the speed decides: no stream asked to carry over 10 Gb/s */
	CHECK(streams(1000, 64, 0) == 1, "1 GbE: one stream");
	CHECK(streams(10000, 64, 0) == 1, "10 GbE: one stream");
	CHECK(streams(25000, 64, 0) == 3, "25 GbE: three streams");
	CHECK(streams(40000, 64, 0) == 4, "40 GbE: four");
	CHECK(streams(100000, 64, 0) == 10, "100 GbE: ten");
	CHECK(streams(400000, 64, 0) == 40, "400 GbE: forty");
	/* the CPUs cap it, iperf3's 128 too */
	CHECK(streams(100000, 4, 0) == 4, "100 GbE on 4 CPUs: four");
	CHECK(streams(4 * 400000, 256, 0) == 128, "1.6 Tb/s: iperf3's most, 128");
	CHECK(streams(4 * 400000, 0, 0) == 128, "CPUs not known: not capped by them");
	/* not known: one, unless the bar asked for says more (the caller passes net_min_mbps) */
	CHECK(streams(-1, 64, 0) == 1, "speed not known: one");
	CHECK(streams(0, 64, 0) == 1, "speed 0: one");
	/* a hashing bond's flows (burnin_net_bond_spread): past the CPUs, under 128 */
	CHECK(streams(50000, 2, 16) == 16, "2x25G hashing bond on 2 CPUs: 16 flows");
	CHECK(streams(50000, 64, 16) == 16, "2x25G hashing bond: 16 (5 for the speed)");
	CHECK(streams(16 * 100000, 256, 128) == 128, "16x100G: 128");
	CHECK(streams(8 * 100000, 256, 64) == 80, "8x100G: the speed's 80 over the bond's 64");

	/* a bond's least: none where a peer gets one member; 12 a member, or three times a member's need */
	b = bond_of(BOND_ACTIVE_BACKUP, "active-backup", "", "eth0");
	CHECK(burnin_net_bond_spread(&b, 25000) == 0, "active-backup: no least");
	b = bond_of(BOND_ALB, "balance-alb", "", "");
	CHECK(burnin_net_bond_spread(&b, 25000) == 0, "balance-alb: no least");
	b = bond_of(BOND_8023AD, "802.3ad", "layer3+4", "");
	CHECK(burnin_net_bond_spread(&b, 10000) == 24, "2x10G 802.3ad: 12 a member");
	CHECK(burnin_net_bond_spread(&b, 25000) == 24, "2x25G: 12 a member (3 needed, 9 for three times)");
	CHECK(burnin_net_bond_spread(&b, 100000) == 60, "2x100G: 30 a member (three times 10)");
	CHECK(streams(200000, 8, burnin_net_bond_spread(&b, 100000)) == 60, "... past the CPUs");
	b = bond_of(BOND_RR, "balance-rr", "", "");
	CHECK(burnin_net_bond_spread(&b, -1) == 24, "balance-rr, speeds not known: 12 a member");

	/* active-backup: one member, the active one, either way */
	b = bond_of(BOND_ACTIVE_BACKUP, "active-backup", "", "eth0");
	CHECK(base(&b, 1000000, 0, 1, 3, idle) == 25000 && !idle[0] && !idle[1], "active-backup sends on one member");
	CHECK(base(&b, 1000000, 0, 0, 3, idle) == 25000, "active-backup receives on one member");
	/* balance-rr sends on both: the sum, and a member left out is idle */
	b = bond_of(BOND_RR, "balance-rr", "", "");
	CHECK(base(&b, 500000, 500000, 1, 16, idle) == 50000 && !idle[0] && !idle[1], "balance-rr sends on the sum");
	CHECK(base(&b, 1000000, 1000, 1, 16, idle) == 50000 && !idle[0] && idle[1],
	      "balance-rr with one member carrying everything: the other idle, the bar still the sum");
	/* receiving, the peer's hashing decides: the members it arrived on */
	CHECK(base(&b, 1000000, 1000, 0, 16, idle) == 25000 && !idle[0] && !idle[1],
	      "balance-rr receiving on one member: its speed, no member blamed");
	CHECK(base(&b, 600000, 400000, 0, 16, idle) == 50000, "receiving on both: the sum");
	/* 802.3ad: layer3+4 hashes the streams' ports, layer2 puts one peer on one member */
	b = bond_of(BOND_8023AD, "802.3ad", "layer3+4", "");
	CHECK(base(&b, 700000, 300000, 1, 16, idle) == 50000 && !idle[0] && !idle[1], "802.3ad layer3+4: the sum");
	CHECK(base(&b, 1000000, 0, 1, 16, idle) == 50000 && idle[1], "802.3ad layer3+4, eth1 carried nothing: idle");
	CHECK(base(&b, 1000000, 0, 1, 1, idle) == 25000 && !idle[1], "802.3ad layer3+4, one stream: one member");
	b = bond_of(BOND_8023AD, "802.3ad", "layer2", "");
	CHECK(base(&b, 1000000, 0, 1, 16, idle) == 25000 && !idle[1], "802.3ad layer2: one member, none blamed");
	b = bond_of(BOND_XOR, "balance-xor", "layer2+3", "");
	CHECK(base(&b, 0, 1000000, 1, 16, idle) == 25000 && !idle[0], "balance-xor layer2+3: one member");
	b = bond_of(BOND_ALB, "balance-alb", "", "");
	CHECK(base(&b, 1000000, 2000, 1, 16, idle) == 25000, "balance-alb: one peer, one member");
	/* the other way's ACKs (a few percent) do not make a member count */
	b = bond_of(BOND_8023AD, "802.3ad", "layer3+4", "");
	CHECK(base(&b, 1000000, 30000, 1, 16, idle) == 50000 && idle[1], "3%% of the bytes: not carrying");
	CHECK(base(&b, 1000000, 30000, 0, 16, idle) == 25000, "... nor counted receiving");
	/* no bytes at all (a run that sent nothing): one member up, not a sum */
	b = bond_of(BOND_BROADCAST, "broadcast", "", "");
	CHECK(base(&b, 0, 0, 1, 3, idle) == 25000, "broadcast: one member's speed");
	bonds_read();
	return unit_done();
}
