/* SPDX-License-Identifier: MIT */
/*
 * net.h - the net component's rules that need no network (net.c), for its
 * unit test: how many iperf3 streams a link takes, and the bar a bond's
 * mode can give one iperf3 peer.
 */
#ifndef BB_BURNIN_NET_H
#define BB_BURNIN_NET_H

#include <stddef.h>
#include <stdint.h>

#include "sys/nics.h"

/* what one TCP stream is asked to carry at most: one core's worth, with room */
#define NET_STREAM_MBPS 10000
/* iperf3's own limit on -P (MAX_STREAMS) */
#define NET_STREAMS_MAX 128
/* a hashing bond's least flows a member (burnin_net_bond_spread) */
#define NET_SPREAD_PER_MEMBER 12

/*
 * The iperf3 streams (-P) for a path of MBPS (<= 0: not known, one stream):
 * enough that none carries over NET_STREAM_MBPS, no more than CPUS (a
 * stream is a thread in iperf3 3.16 and later), at least SPREAD (the flows a
 * bond's hashing needs, which cost no core each), at most
 * NET_STREAMS_MAX. WHY: how the number came, in words.
 */
unsigned burnin_net_streams(double mbps, unsigned cpus, unsigned spread, char *why, size_t len);

/*
 * The least streams through bond B, whose fastest member runs at MBPS:
 * none for a mode that gives one peer one member (active-backup,
 * broadcast, tlb, alb); for balance-rr, balance-xor and 802.3ad (whose
 * hashing, or the peer's, spreads flows, not bytes) enough a member that an
 * uneven hash still leaves each one the streams to fill it: three times
 * what its speed asks, and NET_SPREAD_PER_MEMBER at least. For two 25G
 * members, 24 streams: a member is left under the 3 it needs in 1 run in
 * 28000, with none in 1 in 8 million (were each stream's member a coin toss).
 */
unsigned burnin_net_bond_spread(const struct bond *b, double mbps);

/* One member of a bond, as a run of iperf3 found it. */
struct net_member {
	char name[32];
	long speed;			/* Mb/s, -1 not known */
	int up;				/* carrier and MII status up */
	uint64_t bytes;			/* what it carried of the run's direction (tx sending, rx receiving) */
};

/*
 * The bar's base (Mb/s) for one direction through bond B, from its N
 * members M after a run of STREAMS (SEND: this machine sent): what its mode
 * can give one peer. Where the mode spreads that direction over every
 * member (balance-rr sending; balance-xor and 802.3ad sending with port
 * hashing and streams to hash), the sum of the members up, and IDLE[i] is
 * set for each member up that carried under a tenth of its even share;
 * active-backup and broadcast: the active member's speed; otherwise (the
 * peer's hashing decides, or the mode gives a peer one member) the sum of
 * the members that carried their tenth. WHY says which bar and why. Returns
 * the base, -1 when no speed is known.
 */
double burnin_net_bond_base(const struct bond *b, const struct net_member *m, unsigned n, int send,
			    unsigned streams, int *idle, char *why, size_t len);

#endif
