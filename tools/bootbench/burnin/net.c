// SPDX-License-Identifier: MIT
/*
 * net.c - the net component: each wired link's negotiated speed against
 * the best its own port advertises (ethtool: a 25G port at 10G FAILs), its
 * error counters and carrier changes before and after (an error, or the
 * link going down, FAILs), and iperf3's throughput to the server named
 * (--iperf, bootbench.iperf=HOST[:PORT]) each way, against net_min_mbps or
 * else net_ratio of the speed of the link the traffic takes. No server
 * named, no link, or a server that cannot be reached: an ERROR, never a
 * silent pass.
 */
#include <arpa/inet.h>
#include <limits.h>
#include <jansson.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "burnin/burnin.h"
#include "lib/util.h"
#include "sys/nics.h"
#include "sys/root.h"

#define LINKS 32

/* the counters that only a fault moves (drops are counted, not judged) */
static const char *const error_counters[] = {
	"rx_errors", "tx_errors", "rx_crc_errors", "rx_frame_errors", "rx_length_errors", "rx_fifo_errors",
	"tx_carrier_errors", "tx_aborted_errors", "tx_fifo_errors",
};

struct link {
	char name[32];
	long speed;			/* Mb/s, -1 unknown */
	long best;			/* the best its port advertises, -1 unknown */
	uint64_t errors, drops, carrier_changes;
};

static uint64_t stat_of(const char *ifc, const char *name)
{
	char path[PATH_MAX], buf[32];

	root_path(path, sizeof(path), "/sys/class/net/%s/%s", ifc, name);
	return read_attr(path, buf, sizeof(buf)) ? 0 : strtoull(buf, NULL, 10);
}

static void read_counters(struct link *l)
{
	char name[64];

	l->errors = l->drops = 0;
	for (unsigned i = 0; i < ARRAY_SIZE(error_counters); i++) {
		snprintf(name, sizeof(name), "statistics/%s", error_counters[i]);
		l->errors += stat_of(l->name, name);
	}
	l->drops = stat_of(l->name, "statistics/rx_dropped") + stat_of(l->name, "statistics/tx_dropped");
	l->carrier_changes = stat_of(l->name, "carrier_changes");
}

/* The best speed among ethtool's "Advertised link modes" (1000baseT/Full ...). */
static long best_advertised(const char *ifc)
{
	char *argv[] = { "ethtool", (char *)ifc, NULL }, out[16384];
	const char *p;
	long best = -1;
	int stopped;

	if (spawn_for(argv, 20, &burnin_stop, out, sizeof(out), &stopped) || !(p = strstr(out, "Advertised link modes:")))	/* consent: ethtool reads the link */
		return -1;
	p += strlen("Advertised link modes:");
	/* the modes run on over the lines indented under it, up to the next "Name:" */
	for (int first = 1;; first = 0) {
		size_t n = strcspn(p, "\n");
		char line[512];

		if (!first && ((p[0] != ' ' && p[0] != '\t') || memchr(p, ':', n)))
			break;
		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		for (char *save = NULL, *w = strtok_r(line, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
			long mbps = strtol(w, NULL, 10);

			if (mbps > best && strstr(w, "base"))
				best = mbps;
		}
		if (!p[n])
			break;
		p += n + 1;
	}
	return best;
}

/* The wired links (sys/nics.h: those with a device behind them), with their counters now. */
static unsigned find_links(struct link *v)
{
	struct nic nics[LINKS];
	unsigned n = nics_scan(nics, LINKS), k;

	for (k = 0; k < n; k++) {
		struct link *l = memset(&v[k], 0, sizeof(v[k]));

		_Static_assert(sizeof(l->name) == sizeof(nics[k].name), "a link's name is a NIC's");
		memcpy(l->name, nics[k].name, sizeof(l->name));
		l->speed = nics[k].speed_mbps;
		l->best = best_advertised(l->name);
		read_counters(l);
	}
	return n;
}

/* The link the kernel routes ADDRESS through ("dev NAME" of ip route get). */
static int route_link(const char *address, char *name, size_t len)
{
	char *argv[] = { "ip", "-o", "route", "get", (char *)address, NULL }, out[1024];
	const char *dev;
	int stopped;

	if (spawn_for(argv, 10, &burnin_stop, out, sizeof(out), &stopped) || !(dev = strstr(out, " dev ")))	/* consent: ip reads the route */
		return -1;
	snprintf(name, len, "%.*s", (int)strcspn(dev + 5, " \n"), dev + 5);
	return 0;
}

/* One iperf3 run (REVERSE: the server sends): Mb/s received, or -1 with why. */
static double iperf(const char *host, const char *port, double seconds, int reverse, char *why, size_t len)
{
	char secs[16], out[65536];
	char *argv[] = { "iperf3", "-c", (char *)host, "-p", (char *)port, "-t", secs, "-J",
			 reverse ? "-R" : NULL, NULL };
	json_error_t e;
	json_t *j, *bps;
	double v = -1;
	int rc, stopped;

	snprintf(secs, sizeof(secs), "%.0f", seconds < 1 ? 1 : seconds);
	rc = spawn_for(argv, seconds + 30, &burnin_stop, out, sizeof(out), &stopped);	/* consent: iperf3 sends over the network, writes no disk */
	j = json_loads(out, 0, &e);
	bps = j ? json_object_get(json_object_get(json_object_get(j, "end"), "sum_received"), "bits_per_second")
		: NULL;
	if (!rc && json_is_number(bps)) {
		v = json_number_value(bps) / 1e6;
	} else {
		const char *err = j ? json_string_value(json_object_get(j, "error")) : NULL;

		snprintf(why, len, "iperf3 %s %s:%s (exit %d): %.200s", reverse ? "from" : "to", host, port, rc,
			 err ? err : out);
	}
	json_decref(j);
	return v;
}

void burnin_net(const struct burnin_ctx *c, struct burnin_result *r)
{
	struct link links[LINKS], *route = NULL;
	char host[256], port[16] = "5201", dev[64], why[512];
	unsigned n = find_links(links);
	double each = c->seconds / 2;

	if (!n)
		burnin_set(r, BURNIN_ERROR, "no wired network link (a device under /sys/class/net)");
	for (unsigned i = 0; i < n; i++) {
		struct link *l = &links[i];

		if (l->speed > 0 && l->best > 0 && l->speed < l->best)
			burnin_set(r, BURNIN_FAIL, "%s negotiated %ld Mb/s, its port advertises %ld Mb/s", l->name,
				   l->speed, l->best);
		burnin_figure(r, l->name, l->speed, "%ld Mb/s%s, best advertised %ld Mb/s%s", l->speed,
			      l->speed < 0 ? " (unknown)" : "", l->best, l->best < 0 ? " (ethtool reports none)" : "");
	}
	if (!c->iperf || !*c->iperf) {
		burnin_set(r, BURNIN_ERROR, "no iperf3 server named (--iperf=HOST[:PORT], bootbench.iperf=): "
			   "throughput was not tested");
	} else {
		const char *colon = strrchr(c->iperf, ':');
		struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai = NULL;
		char addr[INET6_ADDRSTRLEN] = "";

		snprintf(host, sizeof(host), "%.*s", colon ? (int)(colon - c->iperf) : (int)strlen(c->iperf), c->iperf);
		if (colon)
			snprintf(port, sizeof(port), "%.15s", colon + 1);
		if (!getaddrinfo(host, port, &hints, &ai) && ai)
			getnameinfo(ai->ai_addr, ai->ai_addrlen, addr, sizeof(addr), NULL, 0, NI_NUMERICHOST);
		freeaddrinfo(ai);
		if (!addr[0]) {
			burnin_set(r, BURNIN_ERROR, "the iperf3 server %s does not resolve", host);
		} else {
			double up, down, limit = c->lim->net_min_mbps;
			long speed = -1;

			if (!route_link(addr, dev, sizeof(dev))) {
				for (unsigned i = 0; i < n; i++)
					if (!strcmp(links[i].name, dev))
						route = &links[i];
				/* a link of no device (a bond, a VLAN, a veth) is watched too: the traffic takes it */
				if (!route && n < LINKS) {
					char path[160], buf[32];

					route = &links[n++];
					memset(route, 0, sizeof(*route));
					snprintf(route->name, sizeof(route->name), "%.31s", dev);
					snprintf(path, sizeof(path), "/sys/class/net/%s/speed", dev);
					route->speed = read_attr(path, buf, sizeof(buf)) ? -1 : strtol(buf, NULL, 10);
					route->best = -1;
					read_counters(route);
				}
				if (route)
					speed = route->speed;
			}
			if (!limit && speed > 0)
				limit = c->lim->net_ratio * speed;
			up = iperf(host, port, each, 0, why, sizeof(why));
			if (up < 0)
				burnin_set(r, BURNIN_ERROR, "%s", why);
			down = burnin_stop ? -1 : iperf(host, port, each, 1, why, sizeof(why));
			if (down < 0 && !burnin_stop)
				burnin_set(r, BURNIN_ERROR, "%s", why);
			if (up >= 0)
				burnin_figure(r, "iperf_send_mbps", up, "%.0f Mb/s to %s through %s", up, c->iperf,
					      dev[0] ? dev : "?");
			if (down >= 0)
				burnin_figure(r, "iperf_receive_mbps", down, "%.0f Mb/s from %s", down, c->iperf);
			if (!limit) {
				burnin_set(r, BURNIN_ERROR, "the link to %s reports no speed: throughput cannot be judged "
					   "(burnin_net_min_mbps sets the bar)", host);
			} else {
				if (up >= 0 && up < limit)
					burnin_set(r, BURNIN_FAIL, "iperf3 to %s: %.0f Mb/s, under %.0f Mb/s", c->iperf, up,
						   limit);
				if (down >= 0 && down < limit)
					burnin_set(r, BURNIN_FAIL, "iperf3 from %s: %.0f Mb/s, under %.0f Mb/s", c->iperf,
						   down, limit);
				burnin_figure(r, "iperf_limit_mbps", limit, "%.0f Mb/s (%s)", limit,
					      c->lim->net_min_mbps ? "net_min_mbps" : "net_ratio of the link's speed");
			}
		}
	}
	/* the counters since the start */
	for (unsigned i = 0; i < n; i++) {
		struct link now = links[i];

		read_counters(&now);
		if (now.errors > links[i].errors)
			burnin_set(r, BURNIN_FAIL, "%s counted %llu error(s) during the test", now.name,
				   (unsigned long long)(now.errors - links[i].errors));
		if (now.carrier_changes > links[i].carrier_changes)
			burnin_set(r, BURNIN_FAIL, "%s lost its link during the test (carrier changes %llu -> %llu)",
				   now.name, (unsigned long long)links[i].carrier_changes,
				   (unsigned long long)now.carrier_changes);
		if (now.drops > links[i].drops)
			burnin_note(r, "%s dropped %llu packet(s)", now.name, (unsigned long long)(now.drops - links[i].drops));
	}
	if (r->verdict == BURNIN_SKIPPED)
		burnin_set(r, BURNIN_PASS, "every link at its best advertised speed (where ethtool says), no error, no "
			   "link lost; iperf3 over the bar both ways");
}
