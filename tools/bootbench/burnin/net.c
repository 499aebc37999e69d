// SPDX-License-Identifier: MIT
/*
 * net.c - the net component: each wired link's negotiated speed against
 * the best its own port advertises (ethtool: a 25G port at 10G FAILs), its
 * error counters and carrier changes before and after (an error, or the
 * link going down, FAILs), and iperf3's throughput to the server named
 * (--iperf, bootbench.iperf=HOST[:PORT]) each way, against net_min_mbps or
 * else net_ratio of what the link the traffic takes can carry. No server
 * named, no link, or a server that cannot be reached: an ERROR, never a
 * silent pass.
 *
 * One TCP stream is one core's worth, short of a 25 or 100 GbE link: iperf3
 * runs enough streams (-P) that none need carry over NET_STREAM_MBPS, and
 * the sum of its streams (its JSON's end.sum_received) is judged. A bond is
 * judged by its members: each one up, at its siblings' speed, none failing
 * meanwhile, in the active 802.3ad aggregator; the bar is what its mode can
 * give one peer, and each member's byte counters around each run say which
 * members carried the streams (net.h).
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "burnin/burnin.h"
#include "burnin/net.h"
#include "lib/util.h"
#include "sys/nics.h"
#include "sys/root.h"

#define LINKS 64
#define BONDS 8

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

static long speed_of(const char *ifc)
{
	char path[PATH_MAX], buf[32];
	long v;

	root_path(path, sizeof(path), "/sys/class/net/%s/speed", ifc);
	/* no link reads -1 (or EINVAL) */
	return read_attr(path, buf, sizeof(buf)) || (v = strtol(buf, NULL, 10)) <= 0 ? -1 : v;
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

/*
 * A link's speed as a figure: its number the negotiated Mb/s; a speed the
 * driver or ethtool does not give is "not reported" and no number (null in
 * burnin.json, no series pushed), never -1 or 0 (issue 48).
 */
static void link_figure(struct burnin_result *r, const struct link *l)
{
	char speed[32], best[48];

	if (l->speed > 0)
		snprintf(speed, sizeof(speed), "%ld Mb/s", l->speed);
	else
		snprintf(speed, sizeof(speed), "speed not reported");
	if (l->best > 0)
		snprintf(best, sizeof(best), "%ld Mb/s", l->best);
	else
		snprintf(best, sizeof(best), "not reported (ethtool)");
	burnin_figure(r, l->name, l->speed > 0 ? (double)l->speed : NAN, "%s, best advertised %s", speed, best);
}

/* The link called NAME among the N of V, added (a link of no device: a bond's, the route's) when missing. */
static struct link *link_named(struct link *v, unsigned *n, const char *name)
{
	struct link *l;

	for (unsigned i = 0; i < *n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	if (*n == LINKS)
		return NULL;
	l = memset(&v[(*n)++], 0, sizeof(*l));
	snprintf(l->name, sizeof(l->name), "%.31s", name);
	l->speed = speed_of(name);
	l->best = -1;
	read_counters(l);
	return l;
}

/* The wired links (sys/nics.h: those with a device behind them), with their counters now. */
static unsigned find_links(struct link *v)
{
	struct nic nics[NICS_MAX];
	unsigned n = nics_scan(nics, NICS_MAX), k;

	for (k = 0; k < n; k++) {
		struct link *l = memset(&v[k], 0, sizeof(v[k]));

		_Static_assert(sizeof(l->name) == sizeof(nics[k].name), "a link's name is a NIC's");
		memcpy(l->name, nics[k].name, sizeof(l->name));
		l->speed = nics[k].speed_mbps;
		/* the counters first: ethtool's spawn below takes its time, and a link lost meanwhile counts */
		read_counters(l);
		l->best = best_advertised(l->name);
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

/* The bond a link rides on: itself, or the one link under it (a VLAN on a bond: lower_bond0). */
static int bond_under(const char *dev, struct bond *b)
{
	char dir[PATH_MAX], lower[32] = "";
	struct dirent **names;
	int count, found = 0;

	if (!bond_read(dev, b))
		return 0;
	root_path(dir, sizeof(dir), "/sys/class/net/%s", dev);
	count = scandir(dir, &names, NULL, alphasort);
	for (int i = 0; i < count; i++) {
		if (!strncmp(names[i]->d_name, "lower_", 6)) {
			found++;
			snprintf(lower, sizeof(lower), "%.31s", names[i]->d_name + 6);
		}
		free(names[i]);
	}
	if (count > 0)
		free(names);
	return found == 1 && !bond_read(lower, b) ? 0 : -1;
}

unsigned burnin_net_streams(double mbps, unsigned cpus, unsigned spread, char *why, size_t len)
{
	unsigned n = mbps > 0 ? (unsigned)fmin(ceil(mbps / NET_STREAM_MBPS), 1e6) : 1;

	why[0] = 0;
	if (mbps > 0)
		str_appendf(why, len, "%.0f Mb/s at %d Mb/s a stream at most", mbps, NET_STREAM_MBPS);
	else
		str_appendf(why, len, "one: the speed is not known");
	if (cpus && n > cpus) {
		n = cpus;
		str_appendf(why, len, ", %u for the %u CPUs", n, cpus);
	}
	if (spread > n) {
		n = spread;
		str_appendf(why, len, ", %u for a bond's hashing (or its peer's) to spread", n);
	}
	if (n > NET_STREAMS_MAX) {
		n = NET_STREAMS_MAX;
		str_appendf(why, len, ", %d: iperf3's most", NET_STREAMS_MAX);
	}
	return n ? n : 1;
}

unsigned burnin_net_bond_spread(const struct bond *b, double mbps)
{
	unsigned need = mbps > 0 ? (unsigned)fmin(ceil(mbps / NET_STREAM_MBPS), 1000) : 1;

	if (b->mode != BOND_RR && b->mode != BOND_XOR && b->mode != BOND_8023AD)
		return 0;
	return b->n * (3 * need > NET_SPREAD_PER_MEMBER ? 3 * need : NET_SPREAD_PER_MEMBER);
}

static const char *names_of(const struct net_member *m, unsigned n, const int *pick, char *buf, size_t len)
{
	buf[0] = 0;
	for (unsigned i = 0; i < n; i++)
		if (pick[i])
			str_appendf(buf, len, "%s%s", buf[0] ? ", " : "", m[i].name);
	return buf;
}

double burnin_net_bond_base(const struct bond *b, const struct net_member *m, unsigned n, int send,
			    unsigned streams, int *idle, char *why, size_t len)
{
	uint64_t total = 0;
	unsigned up = 0;
	int carried[BOND_MEMBERS] = { 0 };
	double base = 0;
	char who[256];

	n = n > BOND_MEMBERS ? BOND_MEMBERS : n;
	for (unsigned i = 0; i < n; i++) {
		total += m[i].bytes;
		up += m[i].up;
		idle[i] = 0;
	}
	/* a member carried the run when it took a tenth of an even share
	 * (another program's traffic on an idle member does not count) */
	for (unsigned i = 0; i < n; i++)
		carried[i] = total && m[i].bytes * 10 * (up ? up : 1) >= total;
	if (send && (b->mode == BOND_RR || (bond_hash_spreads(b) && streams > 1))) {
		for (unsigned i = 0; i < n; i++)
			if (m[i].up) {
				base += m[i].speed > 0 ? m[i].speed : 0;
				idle[i] = !carried[i];
			}
		if (b->mode == BOND_RR)
			snprintf(why, len, "the sum of its %u members' speeds (those up): balance-rr sends on each in "
				 "turn", up);
		else
			snprintf(why, len, "the sum of its %u members' speeds (those up): %s hashing spreads the %u "
				 "streams' ports over them", up, b->hash, streams);
	} else if (b->mode == BOND_ACTIVE_BACKUP || b->mode == BOND_BROADCAST) {
		for (unsigned i = 0; i < n; i++)
			if (m[i].up && m[i].speed > base && (!b->active[0] || !strcmp(b->active, m[i].name)))
				base = m[i].speed;
		/* no active member up (said): the best member up, which the driver fails over to */
		for (unsigned i = 0; i < n && !base; i++)
			if (m[i].up && m[i].speed > base)
				base = m[i].speed;
		if (b->mode == BOND_BROADCAST)
			snprintf(why, len, "one member's speed: broadcast sends every packet on every member");
		else
			snprintf(why, len, "one member's speed: active-backup %s on its active member%s%s alone",
				 send ? "sends" : "receives", b->active[0] ? " " : "", b->active);
	} else {
		int any = 0;

		for (unsigned i = 0; i < n; i++)
			if (carried[i] && m[i].speed > 0) {
				base += m[i].speed;
				any = 1;
			}
		/* nothing counted (no bytes, or no speed): one member up, the best */
		for (unsigned i = 0; i < n && !any; i++)
			if (m[i].up && m[i].speed > base)
				base = m[i].speed;
		names_of(m, n, carried, who, sizeof(who));
		if (!who[0])
			snprintf(who, sizeof(who), "none counted");
		if (!send)
			snprintf(why, len, "the speeds of the members it arrived on (%s): the peer's hashing (or its "
				 "switch's) chose them", who);
		else if (b->mode == BOND_TLB || b->mode == BOND_ALB)
			snprintf(why, len, "the speeds of the members it left on (%s): %s gives one peer one member", who,
				 b->mode_name);
		else if (bond_hash_spreads(b))
			snprintf(why, len, "the speeds of the members it left on (%s): one stream hashes to one member", who);
		else
			snprintf(why, len, "the speeds of the members it left on (%s): %s hashing puts one peer's every "
				 "stream on one member", who, b->hash[0] ? b->hash : b->mode_name);
	}
	return base > 0 ? base : -1;
}

/* One iperf3 run's findings. */
struct iperf_run {
	double mbps;			/* the streams' sum, as received */
	double sender_cpu, receiver_cpu;	/* each side's iperf3, % of a CPU; -1 not said */
	int threads;			/* iperf3 3.16 and later: a thread a stream */
	double busy_s;			/* how long the server was busy with another client first */
	char version[32];
};

/*
 * iperf3's server runs one test at a time and turns others away ("the
 * server is busy running a test"): a rack's machines share one peer, and a
 * client's next run can reach the server before it has let the last one
 * go. Such a run is tried again, a second or so apart (jittered, so that
 * machines turned away together do not come back together), for up to
 * NET_BUSY_WAIT_S a direction (scaled by BOOTBENCH_SCALE, never under
 * NET_BUSY_WAIT_MIN_S): both directions' waits stay inside the watchdog's
 * least grace (30 s). Still busy: an ERROR that says so.
 */
#define NET_BUSY_WAIT_S 12.0
#define NET_BUSY_WAIT_MIN_S 3.0
#define IPERF_BUSY "the server is busy"
/* what a run may take past its time (connecting, the results' exchange), and
 * iperf()'s answer when it did not end by then: the other direction is not
 * tried (a second wait would take the component past the watchdog's grace) */
#define IPERF_END_S 30
#define IPERF_NO_ANSWER -2

static double busy_wait_s(void)
{
	double f;

	if (scale_factor(&f) || f > 1)
		f = 1;
	return NET_BUSY_WAIT_S * f < NET_BUSY_WAIT_MIN_S ? NET_BUSY_WAIT_MIN_S : NET_BUSY_WAIT_S * f;
}

/* a pause of about a second, cut short by a stop */
static void busy_pause(void)
{
	long ms = 700 + (long)(now_ns() / 1000 % 600);

	for (; ms > 0 && !burnin_stop; ms -= 100)
		usleep(100000);
}

/* the number at PATH (objects' keys, dot separated) in J, or NULL */
static json_t *json_at(json_t *j, const char *path)
{
	char key[64];

	while (j && *path) {
		size_t n = strcspn(path, ".");

		snprintf(key, sizeof(key), "%.*s", (int)n, path);
		j = json_object_get(j, key);
		path += n + (path[n] == '.');
	}
	return j;
}

/*
 * One iperf3 run of STREAMS (REVERSE: the server sends), its JSON kept in
 * the run's folder (net-iperf3-send.json, -receive.json; -send-alone.json
 * and -receive-alone.json in the each phase after the together one, which
 * keeps its own): 0 with what it
 * found, or -1 with why (IPERF_NO_ANSWER: it did not end in its time).
 */
static int iperf(const struct burnin_ctx *c, const char *host, const char *port, double seconds, int reverse,
		 unsigned streams, struct iperf_run *run, char *why, size_t len)
{
	char secs[16], nstreams[16], path[PATH_MAX], out[4096];
	char *argv[] = { "iperf3", "-c", (char *)host, "-p", (char *)port, "-t", secs, "-P", nstreams, "-i", "0", "-J",
			 "--logfile", path, reverse ? "-R" : NULL, NULL };
	const char *way = reverse ? "from" : "to";
	json_error_t e;
	json_t *j, *bps, *num, *connected;
	int rc, stopped, fd = -1;

	memset(run, 0, sizeof(*run));
	run->sender_cpu = run->receiver_cpu = -1;
	snprintf(secs, sizeof(secs), "%.0f", seconds < 1 ? 1 : seconds);
	snprintf(nstreams, sizeof(nstreams), "%u", streams);
	if (c->outdir) {
		snprintf(path, sizeof(path), "%s/net-iperf3-%s%s.json", c->outdir, reverse ? "receive" : "send",
			 c->phase_suffix ? c->phase_suffix : "");
		unlink(path);	/* iperf3 appends to its log */
	} else {
		snprintf(path, sizeof(path), "/tmp/bootbench-iperf3.XXXXXX");
		if ((fd = mkstemp(path)) < 0) {
			snprintf(why, len, "iperf3 %s %s:%s: no file for its JSON: %s", way, host, port, strerror(errno));
			return -1;
		}
		close(fd);
	}
	for (uint64_t first = now_ns();;) {
		const char *error;
		double waited;

		run->busy_s = (double)(now_ns() - first) / 1e9;
		rc = spawn_for(argv, seconds + IPERF_END_S, &burnin_stop, out, sizeof(out), &stopped);	/* consent: iperf3 sends over the network, writes its JSON to a regular file */
		if (stopped && !burnin_stop) {
			/* our own stop, not iperf3's words ("the client has terminated") */
			if (fd >= 0)
				unlink(path);
			snprintf(why, len, "iperf3 %s %s:%s did not end within %.0f s (the run's %s s and %d more): a server "
				 "that does not answer, or one held by another client that sends nothing", way, host, port,
				 atof(secs) + IPERF_END_S, secs, IPERF_END_S);
			return IPERF_NO_ANSWER;
		}
		j = json_load_file(path, 0, &e);
		if (!j) {
			if (fd >= 0)
				unlink(path);
			snprintf(why, len, "iperf3 %s %s:%s (exit %d) left no JSON: %.200s", way, host, port, rc, out);
			return -1;
		}
		error = json_string_value(json_object_get(j, "error"));
		if (!error || strncmp(error, IPERF_BUSY, strlen(IPERF_BUSY)) || burnin_stop)
			break;
		waited = (double)(now_ns() - first) / 1e9;
		if (waited >= busy_wait_s()) {
			snprintf(why, len, "iperf3 %s %s:%s: the server was busy with another client's test for %.0f s "
				 "(iperf3 serves one at a time): throughput not measured", way, host, port, waited);
			json_decref(j);
			if (fd >= 0)
				unlink(path);
			return -1;
		}
		json_decref(j);
		busy_pause();
		if (truncate(path, 0))	/* iperf3 appends to its log */
			unlink(path);
	}
	if (fd >= 0)
		unlink(path);
	if (json_is_string(json_object_get(j, "error"))) {
		snprintf(why, len, "iperf3 %s %s:%s (exit %d): %.200s", way, host, port, rc,
			 json_string_value(json_object_get(j, "error")));
		json_decref(j);
		return -1;
	}
	/* the fields judged: a JSON without them is not a measurement */
	bps = json_at(j, "end.sum_received.bits_per_second");
	num = json_at(j, "start.test_start.num_streams");
	connected = json_at(j, "start.connected");
	if (!json_is_number(bps) || !json_is_integer(num) || !json_is_array(connected)) {
		snprintf(why, len, "iperf3 %s %s:%s (exit %d): its JSON has no %s", way, host, port, rc,
			 !json_is_number(bps) ? "end.sum_received.bits_per_second" :
			 !json_is_integer(num) ? "start.test_start.num_streams" : "start.connected");
		json_decref(j);
		return -1;
	}
	if (json_integer_value(num) != (json_int_t)streams || json_array_size(connected) != streams) {
		snprintf(why, len, "iperf3 %s %s:%s ran %lld stream(s), %zu connected, not the %u asked", way, host, port,
			 (long long)json_integer_value(num), json_array_size(connected), streams);
		json_decref(j);
		return -1;
	}
	if (rc) {
		snprintf(why, len, "iperf3 %s %s:%s (exit %d): %.200s", way, host, port, rc, out);
		json_decref(j);
		return -1;
	}
	/* a run cut short (a server that stopped early) measured less than it says */
	if (json_is_number(json_at(j, "end.sum_received.seconds")) &&
	    json_number_value(json_at(j, "end.sum_received.seconds")) < 0.5 * atof(secs)) {
		snprintf(why, len, "iperf3 %s %s:%s measured %.1f s of the %s s asked", way, host, port,
			 json_number_value(json_at(j, "end.sum_received.seconds")), secs);
		json_decref(j);
		return -1;
	}
	run->mbps = json_number_value(bps) / 1e6;
	/* this side's iperf3 sends, the server's with -R */
	if (json_is_number(json_at(j, "end.cpu_utilization_percent.host_total")))
		*(reverse ? &run->receiver_cpu : &run->sender_cpu) =
			json_number_value(json_at(j, "end.cpu_utilization_percent.host_total"));
	if (json_is_number(json_at(j, "end.cpu_utilization_percent.remote_total")))
		*(reverse ? &run->sender_cpu : &run->receiver_cpu) =
			json_number_value(json_at(j, "end.cpu_utilization_percent.remote_total"));
	if (json_is_string(json_at(j, "start.version"))) {
		const char *v = json_string_value(json_at(j, "start.version"));
		unsigned major = 0, minor = 0;

		snprintf(run->version, sizeof(run->version), "%.31s", v);
		if (sscanf(v, "iperf %u.%u", &major, &minor) == 2)
			run->threads = major > 3 || (major == 3 && minor >= 16);
	}
	json_decref(j);
	return 0;
}

/* A bond's members now: up, speed, the counter of one direction's bytes (tx, rx). */
static void member_state(const struct bond *b, struct net_member *m, const char *counter)
{
	for (unsigned i = 0; i < b->n; i++) {
		char path[PATH_MAX], carrier[8];

		snprintf(m[i].name, sizeof(m[i].name), "%s", b->m[i].name);
		root_path(path, sizeof(path), "/sys/class/net/%s/carrier", b->m[i].name);
		m[i].up = !read_attr(path, carrier, sizeof(carrier)) && !strcmp(carrier, "1") &&
			  (!b->m[i].mii[0] || !strcmp(b->m[i].mii, "up"));
		m[i].speed = speed_of(b->m[i].name);
		m[i].bytes = counter ? stat_of(b->m[i].name, counter) : 0;
	}
}

/*
 * A bond judged by its members, before the traffic: each one up (its
 * carrier and the driver's MII status), at its siblings' speed, in the
 * active 802.3ad aggregator. Its figure lists them.
 */
static void judge_bond(struct burnin_result *r, const struct bond *b, struct link *links, unsigned *n)
{
	struct net_member m[BOND_MEMBERS];
	char list[512] = "";
	long fastest = -1;
	unsigned up = 0;
	size_t used = 0;
	int hashes;

	if (!b->n) {
		burnin_set(r, BURNIN_FAIL, "bond %s has no member", b->name);
		burnin_figure(r, b->name, 0, "%s, no member", b->mode_name[0] ? b->mode_name : "bond");
		return;
	}
	member_state(b, m, NULL);
	for (unsigned i = 0; i < b->n; i++) {
		unsigned had = *n;
		struct link *l = link_named(links, n, m[i].name);

		/* a member not among the wired links (a veth's): its counters watched, its speed judged, as theirs */
		if (l && *n > had) {
			l->best = best_advertised(l->name);
			if (l->speed > 0 && l->best > 0 && l->speed < l->best)
				burnin_set(r, BURNIN_FAIL, "%s negotiated %ld Mb/s, its port advertises %ld Mb/s", l->name,
					   l->speed, l->best);
			link_figure(r, l);
		}
		if (m[i].speed > fastest)
			fastest = m[i].speed;
	}
	for (unsigned i = 0; i < b->n; i++) {
		const struct bond_member *bm = &b->m[i];
		char path[PATH_MAX], carrier[8], oper[16];

		root_path(path, sizeof(path), "/sys/class/net/%s/carrier", bm->name);
		if (read_attr(path, carrier, sizeof(carrier)))
			snprintf(carrier, sizeof(carrier), "?");
		root_path(path, sizeof(path), "/sys/class/net/%s/operstate", bm->name);
		if (read_attr(path, oper, sizeof(oper)))
			oper[0] = 0;
		if (!m[i].up)
			burnin_set(r, BURNIN_FAIL, "bond %s's member %s is down (carrier %s, MII status %s%s%s)", b->name,
				   bm->name, !strcmp(carrier, "1") ? "on" : !strcmp(carrier, "0") ? "off" : "unreadable",
				   bm->mii[0] ? bm->mii : "not said", oper[0] ? ", operstate " : "", oper);
		else if (m[i].speed > 0 && m[i].speed < fastest)
			burnin_set(r, BURNIN_FAIL, "bond %s's member %s at %ld Mb/s, under its siblings' %ld Mb/s", b->name,
				   bm->name, m[i].speed, fastest);
		if (b->mode == BOND_8023AD && b->aggregator >= 0 && bm->aggregator >= 0 && bm->aggregator != b->aggregator)
			burnin_set(r, BURNIN_FAIL, "bond %s's member %s is in 802.3ad aggregator %d, not the active one (%d): "
				   "its switch port is not in the bond's LAG (the bond sends on the active aggregator's "
				   "members alone)", b->name, bm->name, bm->aggregator, b->aggregator);
		up += m[i].up;
		if (used < sizeof(list)) {
			char at[32] = " (speed not reported)";	/* never "0 Mb/s" (issue 48) */

			if (m[i].speed > 0)
				snprintf(at, sizeof(at), " at %ld Mb/s", m[i].speed);
			used += snprintf(list + used, sizeof(list) - used, "%s%s%s %s%s", used ? ", " : "", bm->name,
					 !strcmp(b->active, bm->name) ? " (active)" : "", m[i].up ? "up" : "DOWN", at);
		}
	}
	if (b->mii[0] && strcmp(b->mii, "up"))
		burnin_set(r, BURNIN_FAIL, "bond %s is down (MII status %s)", b->name, b->mii);
	if (b->mode == BOND_UNKNOWN)
		burnin_set(r, BURNIN_ERROR, "bond %s's mode could not be read (bonding/mode, /proc/net/bonding): what it "
			   "should carry is not known", b->name);
	/* the kernel says a hashing policy for every mode; balance-xor and 802.3ad use it */
	hashes = b->hash[0] && (b->mode == BOND_XOR || b->mode == BOND_8023AD);
	burnin_figure(r, b->name, up, "%s%s%s: %s; %u of %u up", b->mode_name[0] ? b->mode_name : "mode not said",
		      hashes ? ", " : "", hashes ? b->hash : "", list, up, b->n);
}

/* After the traffic: a member the driver saw fail meanwhile (its link failure count). */
static void judge_bond_after(struct burnin_result *r, const struct bond *before)
{
	struct bond now;

	if (bond_read(before->name, &now)) {
		burnin_set(r, BURNIN_FAIL, "bond %s is gone after the test", before->name);
		return;
	}
	for (unsigned i = 0; i < before->n; i++)
		for (unsigned k = 0; k < now.n; k++)
			if (!strcmp(before->m[i].name, now.m[k].name) && before->m[i].link_failures >= 0 &&
			    now.m[k].link_failures > before->m[i].link_failures)
				burnin_set(r, BURNIN_FAIL, "bond %s's member %s failed %ld time(s) during the test (link failure "
					   "count %ld -> %ld)", before->name, now.m[k].name,
					   now.m[k].link_failures - before->m[i].link_failures, before->m[i].link_failures,
					   now.m[k].link_failures);
	for (unsigned i = 0; i < before->n; i++) {
		int kept = 0;

		for (unsigned k = 0; k < now.n; k++)
			kept |= !strcmp(before->m[i].name, now.m[k].name);
		if (!kept)
			burnin_set(r, BURNIN_FAIL, "bond %s lost its member %s during the test", before->name,
				   before->m[i].name);
	}
}

/*
 * One direction through a bond: each member's share of the bytes (device
 * figures), the bar's base its mode gives, and a member that should have
 * carried and did not.
 */
static double bond_direction(struct burnin_result *r, const struct bond *b, const struct net_member *before,
			     int send, unsigned streams, char *why, size_t len)
{
	struct net_member m[BOND_MEMBERS];
	int idle[BOND_MEMBERS];
	uint64_t total = 0;
	double base;

	member_state(b, m, send ? "statistics/tx_bytes" : "statistics/rx_bytes");
	for (unsigned i = 0; i < b->n; i++) {
		m[i].bytes = m[i].bytes >= before[i].bytes ? m[i].bytes - before[i].bytes : 0;
		m[i].up = before[i].up;	/* a member lost meanwhile is named by its carrier changes */
		total += m[i].bytes;
	}
	for (unsigned i = 0; i < b->n; i++)
		burnin_device_figure(r, m[i].name, send ? "send_share" : "receive_share",
				     total ? (double)m[i].bytes / total : 0, "%s: %.0f%% of the %.2f GB %s %s", m[i].name,
				     total ? 100.0 * m[i].bytes / total : 0, total / 1e9, b->name, send ? "sent" : "received");
	base = burnin_net_bond_base(b, m, b->n, send, streams, idle, why, len);
	if (!total) {
		/* counters that do not move cannot say who carried: not "every member idle" */
		burnin_set(r, BURNIN_ERROR, "bond %s's members' %s byte counters did not move while iperf3 ran: which of "
			   "them carried the streams is not known", b->name, send ? "tx" : "rx");
		return base;
	}
	for (unsigned i = 0; i < b->n; i++)
		if (idle[i])
			burnin_set(r, BURNIN_FAIL, "bond %s's member %s carried %.1f%% of the bytes sent (%s): it should carry "
				   "its share, and did not", b->name, m[i].name, total ? 100.0 * m[i].bytes / total : 0,
				   b->mode == BOND_RR ? "balance-rr sends on every member in turn" :
				   "the streams' ports, hashed, spread over every member");
	/* the members up the mode (or the peer) left out: said, as their throughput was not measured */
	{
		char who[256];
		int none[BOND_MEMBERS] = { 0 }, any = 0;

		for (unsigned i = 0; i < b->n; i++)
			any |= none[i] = m[i].up && !idle[i] && m[i].bytes * 10 * b->n < total;
		if (any)
			burnin_note(r, "bond %s's member(s) %s %s next to none of the streams, so their %s was not measured "
				    "(the bar: %s)", b->name, names_of(m, b->n, none, who, sizeof(who)),
				    send ? "sent" : "received", send ? "sending" : "receiving", why);
	}
	return base;
}

/*
 * The words after a throughput under its bar (LIMIT): the streams, each
 * one's share of the bar where it is over what a stream is counted on (the
 * CPUs capped them), and an iperf3 out of CPU: the tool, not only the link,
 * may be what fell short.
 */
static void under_words(char *buf, size_t len, const struct iperf_run *run, unsigned streams, double limit)
{
	size_t used = (size_t)snprintf(buf, len, streams == 1 ? "%u stream" : "%u streams summed", streams);

	if (limit / streams > NET_STREAM_MBPS && used < len)
		used += (size_t)snprintf(buf + used, len - used, "; each had to carry %.0f Mb/s, over the %d Mb/s one "
					 "stream is counted on", limit / streams, NET_STREAM_MBPS);
	for (int side = 0; side < 2 && used < len; side++) {
		double cpu = side ? run->receiver_cpu : run->sender_cpu;

		if (cpu >= 90)
			used += (size_t)snprintf(buf + used, len - used, "; the %s iperf3 used %.0f%% of a CPU%s%s%s",
						 side ? "receiving" : "sending", cpu, run->threads ? "" : " (",
						 run->threads ? "" : run->version[0] ? run->version : "iperf3 before 3.16",
						 run->threads ? "" : " runs every stream in one thread)");
	}
}

void burnin_net(const struct burnin_ctx *c, struct burnin_result *r)
{
	struct link links[LINKS], *route = NULL;
	static struct bond bonds[BONDS];
	struct bond *rbond = NULL;
	char host[256], port[16] = "5201", dev[64] = "", why[512], names[BONDS][32];
	unsigned n = find_links(links), nbonds = 0, nnames, streams = 0;
	double each = c->seconds / 2;

	if (!n)
		burnin_set(r, BURNIN_ERROR, "no wired network link (a device under /sys/class/net)");
	for (unsigned i = 0; i < n; i++) {
		struct link *l = &links[i];

		if (l->speed > 0 && l->best > 0 && l->speed < l->best)
			burnin_set(r, BURNIN_FAIL, "%s negotiated %ld Mb/s, its port advertises %ld Mb/s", l->name,
				   l->speed, l->best);
		link_figure(r, l);
	}
	/* every bond, judged by its members; theirs not already links are watched too */
	nnames = bonds_scan(names, BONDS);
	for (unsigned i = 0; i < nnames; i++) {
		if (bond_read(names[i], &bonds[nbonds]))
			burnin_set(r, BURNIN_ERROR, "bond %s could not be read", names[i]);
		else
			judge_bond(r, &bonds[nbonds++], links, &n);
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
			static struct bond rb;
			struct net_member before[BOND_MEMBERS];
			struct iperf_run up = { .mbps = -1 }, down = { .mbps = -1 };
			double limit_up = -1, limit_down = -1, base = -1;
			char why_up[256] = "", why_down[256] = "", swhy[160], words[512];
			unsigned spread = 0;
			long speed = -1;
			int ok_up, ok_down = -1;

			if (!route_link(addr, dev, sizeof(dev))) {
				/* a link of no device (a bond, a VLAN, a veth) is watched too: the traffic takes it */
				route = link_named(links, &n, dev);
				if (route)
					speed = route->speed;
				if (!bond_under(dev, &rb)) {
					struct net_member m[BOND_MEMBERS];
					int spreads = rb.mode == BOND_RR || bond_hash_spreads(&rb);
					double sum = 0, one = -1;

					for (unsigned i = 0; i < nbonds; i++)
						if (!strcmp(bonds[i].name, rb.name))
							rbond = &bonds[i];
					if (!rbond && nbonds < BONDS) {
						/* not seen by the scan (a recorded tree's): judged as the others */
						bonds[nbonds] = rb;
						rbond = &bonds[nbonds++];
						judge_bond(r, rbond, links, &n);
					}
					if (!rbond)
						rbond = &rb;
					member_state(rbond, m, NULL);
					for (unsigned i = 0; i < rbond->n; i++)
						if (m[i].up && m[i].speed > 0) {
							sum += m[i].speed;
							one = m[i].speed > one ? m[i].speed : one;
						}
					base = spreads ? sum : one;
					spread = burnin_net_bond_spread(rbond, one);
				}
			}
			if (!rbond)
				base = speed;
			/* the streams fill the link: its speed, else the bar asked for */
			streams = burnin_net_streams(base > 0 ? base : c->lim->net_min_mbps, c->cpus, spread, swhy,
						     sizeof(swhy));
			burnin_figure(r, "net_streams", streams, "%u stream%s each way (iperf3 -P): %s", streams,
				      streams == 1 ? "" : "s", swhy);
			if (rbond)
				member_state(rbond, before, "statistics/tx_bytes");
			ok_up = iperf(c, host, port, each, 0, streams, &up, why, sizeof(why));
			if (ok_up)
				burnin_set(r, BURNIN_ERROR, "%s", why);
			if (rbond && !ok_up)
				limit_up = bond_direction(r, rbond, before, 1, streams, why_up, sizeof(why_up));
			if (!burnin_stop && ok_up != IPERF_NO_ANSWER) {
				if (rbond)
					member_state(rbond, before, "statistics/rx_bytes");
				ok_down = iperf(c, host, port, each, 1, streams, &down, why, sizeof(why));
				if (ok_down)
					burnin_set(r, BURNIN_ERROR, "%s", why);
				if (rbond && !ok_down)
					limit_down = bond_direction(r, rbond, before, 0, streams, why_down, sizeof(why_down));
			}
			if (!rbond) {
				limit_up = limit_down = speed;
				snprintf(why_up, sizeof(why_up), "the speed of %s", dev[0] ? dev : "the link");
				snprintf(why_down, sizeof(why_down), "%s", why_up);
			}
			for (int way = 0; way < 2; way++) {
				const struct iperf_run *w = way ? &down : &up;

				if (!(way ? ok_down : ok_up) && w->busy_s >= 0.5)
					burnin_note(r, "the iperf3 server was busy with another client's test: the run %s it "
						    "began %.1f s late", way ? "from" : "to", w->busy_s);
			}
			if (!ok_up)
				burnin_figure(r, "iperf_send_mbps", up.mbps, "%.0f Mb/s to %s through %s, %u stream%s",
					      up.mbps, c->iperf, dev[0] ? dev : "?", streams, streams == 1 ? "" : "s summed");
			if (!ok_down)
				burnin_figure(r, "iperf_receive_mbps", down.mbps, "%.0f Mb/s from %s, %u stream%s",
					      down.mbps, c->iperf, streams, streams == 1 ? "" : "s summed");
			if (c->lim->net_min_mbps) {
				limit_up = limit_down = c->lim->net_min_mbps;
				snprintf(why_up, sizeof(why_up), "net_min_mbps");
				snprintf(why_down, sizeof(why_down), "net_min_mbps");
			} else {
				limit_up = limit_up > 0 ? c->lim->net_ratio * limit_up : -1;
				limit_down = limit_down > 0 ? c->lim->net_ratio * limit_down : -1;
			}
			if ((!ok_up && limit_up <= 0) || (!ok_down && limit_down <= 0))
				burnin_set(r, BURNIN_ERROR, "the link to %s reports no speed: throughput cannot be judged "
					   "(burnin_net_min_mbps sets the bar)", host);
			if (!ok_up && limit_up > 0) {
				if (up.mbps < limit_up) {
					under_words(words, sizeof(words), &up, streams, limit_up);
					burnin_set(r, BURNIN_FAIL, "iperf3 to %s: %.0f Mb/s, under %.0f Mb/s (%s)", c->iperf, up.mbps,
						   limit_up, words);
				}
				burnin_figure(r, "iperf_send_limit_mbps", limit_up, "%.0f Mb/s (%s%s)", limit_up,
					      c->lim->net_min_mbps ? "" : "net_ratio of ", why_up);
			}
			if (!ok_down && limit_down > 0) {
				if (down.mbps < limit_down) {
					under_words(words, sizeof(words), &down, streams, limit_down);
					burnin_set(r, BURNIN_FAIL, "iperf3 from %s: %.0f Mb/s, under %.0f Mb/s (%s)", c->iperf,
						   down.mbps, limit_down, words);
				}
				burnin_figure(r, "iperf_receive_limit_mbps", limit_down, "%.0f Mb/s (%s%s)", limit_down,
					      c->lim->net_min_mbps ? "" : "net_ratio of ", why_down);
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
	for (unsigned i = 0; i < nbonds; i++)
		judge_bond_after(r, &bonds[i]);
	if (r->verdict == BURNIN_SKIPPED) {
		char passed[1024];
		int used = snprintf(passed, sizeof(passed), "every link at its best advertised speed (where ethtool says), "
				    "no error, no link lost; iperf3 over the bar both ways, %u stream%s", streams,
				    streams == 1 ? "" : "s summed");

		for (unsigned i = 0; i < nbonds && used < (int)sizeof(passed); i++) {
			used += snprintf(passed + used, sizeof(passed) - (size_t)used, "; bond %s (%s) judged by its members",
					 bonds[i].name, bonds[i].mode_name);
			for (unsigned k = 0; k < bonds[i].n && used < (int)sizeof(passed); k++)
				used += snprintf(passed + used, sizeof(passed) - (size_t)used, "%s %s", k ? "," : "",
						 bonds[i].m[k].name);
			if (used < (int)sizeof(passed))
				used += snprintf(passed + used, sizeof(passed) - (size_t)used, ": each up at its siblings' "
						 "speed%s", &bonds[i] != rbond ? "" : bonds[i].mode == BOND_RR ||
						 (bond_hash_spreads(&bonds[i]) && streams > 1) ? ", each carrying its share of the "
						 "streams sent" : ", the streams on the members its mode gives one peer");
		}
		burnin_set(r, BURNIN_PASS, "%s", passed);
	}
}
