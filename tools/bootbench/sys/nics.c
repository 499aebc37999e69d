// SPDX-License-Identifier: MIT
/*
 * nics.c - the network cards (nics.h). The driver's name is its sysfs
 * link's; the firmware version and bus address are the driver's answer to
 * ETHTOOL_GDRVINFO (what `ethtool -i` prints), asked through a socket.
 * Bonds as the bonding driver shows them: bonding/ and each member's
 * bonding_slave/ in sysfs, /proc/net/bonding/BOND for what those lack.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <ifaddrs.h>
#include <limits.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/util.h"
#include "sys/nics.h"
#include "sys/root.h"

/* Printable ASCII only: a driver's strings go into results and onto the console. */
static void clean_copy(char *dst, size_t len, const char *src, size_t srclen)
{
	size_t i, k = 0;

	for (i = 0; i < srclen && src[i] && k + 1 < len; i++)
		dst[k++] = src[i] >= 0x20 && src[i] < 0x7f ? src[i] : '?';
	dst[k] = 0;
}

static void drvinfo(struct nic *n)
{
	struct ethtool_drvinfo info = { .cmd = ETHTOOL_GDRVINFO };
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%.15s", n->name);
	ifr.ifr_data = (void *)&info;
	if (!ioctl(fd, SIOCETHTOOL, &ifr)) {
		clean_copy(n->firmware, sizeof(n->firmware), info.fw_version, sizeof(info.fw_version));
		clean_copy(n->bus, sizeof(n->bus), info.bus_info, sizeof(info.bus_info));
		if (!strcmp(n->firmware, "N/A"))
			n->firmware[0] = 0;
	}
	close(fd);
}

static void addresses(struct nic *nics, unsigned n)
{
	struct ifaddrs *ifa, *i;

	if (getifaddrs(&ifa))
		return;
	for (i = ifa; i; i = i->ifa_next) {
		unsigned k;

		if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET)
			continue;
		for (k = 0; k < n; k++)
			if (!strcmp(nics[k].name, i->ifa_name) && !nics[k].ipv4[0])
				inet_ntop(AF_INET, &((struct sockaddr_in *)i->ifa_addr)->sin_addr, nics[k].ipv4,
					  sizeof(nics[k].ipv4));
	}
	freeifaddrs(ifa);
}

static void attr(const char *ifc, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX], raw[256];

	root_path(path, sizeof(path), "/sys/class/net/%s/%s", ifc, name);
	read_attr(path, raw, sizeof(raw));
	clean_copy(buf, len, raw, sizeof(raw));
}

unsigned nics_scan(struct nic *out, unsigned max)
{
	char dir[PATH_MAX];
	struct dirent **names;
	int count, i;
	unsigned n = 0;

	root_path(dir, sizeof(dir), "/sys/class/net");
	count = scandir(dir, &names, NULL, alphasort);
	for (i = 0; i < count; i++) {
		const char *name = names[i]->d_name;
		char path[PATH_MAX], link[PATH_MAX], speed[32];
		struct nic *k = &out[n];
		ssize_t len;

		root_path(path, sizeof(path), "/sys/class/net/%s/device", name);
		if (name[0] == '.' || n == max || strlen(name) >= sizeof(k->name) || access(path, F_OK)) {
			free(names[i]);
			continue;	/* lo, bridges, tunnels: not hardware */
		}
		memset(k, 0, sizeof(*k));
		snprintf(k->name, sizeof(k->name), "%s", name);
		attr(name, "address", k->mac, sizeof(k->mac));
		attr(name, "operstate", k->operstate, sizeof(k->operstate));
		attr(name, "carrier", speed, sizeof(speed));
		k->carrier = !strcmp(speed, "1") ? 1 : !strcmp(speed, "0") ? 0 : -1;
		attr(name, "speed", speed, sizeof(speed));
		k->speed_mbps = speed[0] ? strtol(speed, NULL, 10) : -1;
		if (k->speed_mbps <= 0)
			k->speed_mbps = -1;	/* no link reads -1, or EINVAL */
		root_path(path, sizeof(path), "/sys/class/net/%s/device/driver", name);
		len = readlink(path, link, sizeof(link) - 1);
		if (len > 0) {
			link[len] = 0;
			clean_copy(k->driver, sizeof(k->driver), strrchr(link, '/') ? strrchr(link, '/') + 1 : link,
				   sizeof(k->driver));
		}
		if (!root_recorded())
			drvinfo(k);
		n++;
		free(names[i]);
	}
	if (count > 0)
		free(names);
	if (!root_recorded())
		addresses(out, n);
	return n;
}

void nic_json(struct json *j, const struct nic *n)
{
	json_obj_open(j, NULL);
	json_str(j, "name", n->name);
	json_str(j, "mac", n->mac);
	json_str(j, "driver", n->driver);
	json_str(j, "firmware", n->firmware);
	json_str(j, "bus", n->bus);
	json_str(j, "state", n->operstate);
	if (n->carrier >= 0)
		json_bool(j, "carrier", n->carrier);
	else
		json_null_member(j, "carrier");
	/* no speed given (no link, a VM's NIC): null, never -1 */
	if (n->speed_mbps > 0)
		json_int(j, "speed_mbps", n->speed_mbps);
	else
		json_null_member(j, "speed_mbps");
	json_str(j, "ipv4", n->ipv4);
	json_obj_close(j);
}

void nic_link_words(const char *operstate, int carrier, double speed_mbps, char *buf, size_t len)
{
	/* up: the kernel says so and the carrier does not say otherwise; or a driver that keeps
	 * no operstate ("unknown") with its carrier on. dormant (802.1X) and testing carry no
	 * traffic yet: not ready, whatever the speed. */
	int up = carrier != 0 && (!strcmp(operstate, "up") || (!strcmp(operstate, "unknown") && carrier == 1));

	if (up && speed_mbps > 0)
		snprintf(buf, len, "%.0f Mb/s", speed_mbps);
	else if (up)
		snprintf(buf, len, "link up, speed not reported");
	else if (carrier == 0 || !strcmp(operstate, "down") || !strcmp(operstate, "lowerlayerdown") ||
		 !strcmp(operstate, "notpresent"))
		snprintf(buf, len, "no link");
	else if (!strcmp(operstate, "dormant") || !strcmp(operstate, "testing"))
		snprintf(buf, len, "link not ready (%s)", operstate);
	else
		snprintf(buf, len, "link not reported (%.16s)", operstate[0] ? operstate : "no state");
}

/* The kernel's words for the modes (bonding/mode's first word) and /proc/net/bonding's */
static const struct {
	const char *word, *proc;
} bond_modes[] = {
	[BOND_RR] = { "balance-rr", "(round-robin)" },
	[BOND_ACTIVE_BACKUP] = { "active-backup", "(active-backup)" },
	[BOND_XOR] = { "balance-xor", "(xor)" },
	[BOND_BROADCAST] = { "broadcast", "(broadcast)" },
	[BOND_8023AD] = { "802.3ad", "802.3ad" },
	[BOND_TLB] = { "balance-tlb", "transmit load balancing" },
	[BOND_ALB] = { "balance-alb", "adaptive load balancing" },
};

/* A bond's file (/sys/class/net/NAME/...), printable, "" when it cannot be read. */
static void bond_attr(const char *ifc, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX], raw[512];

	root_path(path, sizeof(path), "/sys/class/net/%s/%s", ifc, name);
	if (read_attr(path, raw, sizeof(raw)))
		raw[0] = 0;
	clean_copy(buf, len, raw, sizeof(raw));
}

static int number_or(const char *s, int none)
{
	char *end;
	long v = strtol(s, &end, 10);

	return end == s || v < 0 || v > INT_MAX ? none : (int)v;
}

static struct bond_member *member_of(struct bond *b, const char *name)
{
	for (unsigned i = 0; i < b->n; i++)
		if (!strcmp(b->m[i].name, name))
			return &b->m[i];
	return NULL;
}

/*
 * /proc/net/bonding/NAME for what sysfs did not say: the mode, hashing, the
 * members (a "Slave Interface:" block each; "Port Interface:" in kernels
 * without the legacy words), their MII status, link failures and aggregator.
 */
static void bond_proc(struct bond *b)
{
	char path[PATH_MAX], line[512];
	struct bond_member *m = NULL;
	int active_agg = 0;
	FILE *f;

	root_path(path, sizeof(path), "/proc/net/bonding/%s", b->name);
	if (!(f = fopen(path, "re")))
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');

		line[strcspn(line, "\n")] = 0;
		if (!v)
			continue;
		*v++ = 0;
		v += strspn(v, " \t");
		if (!strcmp(line, "Slave Interface") || !strcmp(line, "Port Interface")) {
			m = member_of(b, v);
			if (!m && b->n < BOND_MEMBERS && *v) {
				m = &b->m[b->n++];
				memset(m, 0, sizeof(*m));
				clean_copy(m->name, sizeof(m->name), v, strlen(v));
				m->link_failures = -1;
				m->aggregator = -1;
			}
			active_agg = 0;
		} else if (!m) {
			/* the bond's own lines, before its first member */
			if (!strcmp(line, "Bonding Mode") && b->mode == BOND_UNKNOWN) {
				for (unsigned i = 0; i < ARRAY_SIZE(bond_modes); i++)
					if (strstr(v, bond_modes[i].proc)) {
						b->mode = (enum bond_mode)i;
						snprintf(b->mode_name, sizeof(b->mode_name), "%s", bond_modes[i].word);
					}
			} else if (!strcmp(line, "Transmit Hash Policy") && !b->hash[0]) {
				clean_copy(b->hash, sizeof(b->hash), v, strcspn(v, " "));
			} else if (!strcmp(line, "MII Status") && !b->mii[0]) {
				clean_copy(b->mii, sizeof(b->mii), v, strlen(v));
			} else if ((!strcmp(line, "Currently Active Slave") || !strcmp(line, "Currently Active Port")) &&
				   !b->active[0] && strcmp(v, "None")) {
				clean_copy(b->active, sizeof(b->active), v, strlen(v));
			} else if (!strcmp(line, "Active Aggregator Info")) {
				active_agg = 1;
			} else if (active_agg && !strcmp(line + strspn(line, " \t"), "Aggregator ID") && b->aggregator < 0) {
				b->aggregator = number_or(v, -1);
			}
		} else if (!strcmp(line, "MII Status") && !m->mii[0]) {
			clean_copy(m->mii, sizeof(m->mii), v, strlen(v));
		} else if (!strcmp(line, "Link Failure Count") && m->link_failures < 0) {
			m->link_failures = number_or(v, -1);
		} else if (!strcmp(line, "Aggregator ID") && m->aggregator < 0) {
			m->aggregator = number_or(v, -1);
		}
	}
	fclose(f);
}

int bond_read(const char *name, struct bond *b)
{
	char path[PATH_MAX], buf[64], list[512], *save = NULL;

	memset(b, 0, sizeof(*b));
	b->mode = BOND_UNKNOWN;
	b->aggregator = -1;
	snprintf(b->name, sizeof(b->name), "%.31s", name);
	root_path(path, sizeof(path), "/sys/class/net/%s/bonding", name);
	if (access(path, F_OK)) {
		root_path(path, sizeof(path), "/proc/net/bonding/%s", name);
		if (access(path, F_OK))
			return -1;
	}
	/* "802.3ad 4": the word, then the number */
	bond_attr(name, "bonding/mode", buf, sizeof(buf));
	if (buf[0]) {
		size_t word = strcspn(buf, " ");
		int id = buf[word] ? number_or(buf + word + 1, -1) : -1;

		clean_copy(b->mode_name, sizeof(b->mode_name), buf, word);
		b->mode = id >= 0 && id < (int)ARRAY_SIZE(bond_modes) ? (enum bond_mode)id : BOND_UNKNOWN;
	}
	bond_attr(name, "bonding/xmit_hash_policy", buf, sizeof(buf));
	clean_copy(b->hash, sizeof(b->hash), buf, strcspn(buf, " "));
	bond_attr(name, "bonding/mii_status", b->mii, sizeof(b->mii));
	bond_attr(name, "bonding/active_slave", b->active, sizeof(b->active));
	bond_attr(name, "bonding/ad_aggregator", buf, sizeof(buf));
	b->aggregator = number_or(buf, -1);
	bond_attr(name, "bonding/slaves", list, sizeof(list));
	for (char *w = strtok_r(list, " ", &save); w && b->n < BOND_MEMBERS; w = strtok_r(NULL, " ", &save)) {
		struct bond_member *m = &b->m[b->n++];

		memset(m, 0, sizeof(*m));
		snprintf(m->name, sizeof(m->name), "%.31s", w);
		bond_attr(m->name, "bonding_slave/mii_status", m->mii, sizeof(m->mii));
		bond_attr(m->name, "bonding_slave/state", m->state, sizeof(m->state));
		bond_attr(m->name, "bonding_slave/link_failure_count", buf, sizeof(buf));
		m->link_failures = buf[0] ? number_or(buf, -1) : -1;
		bond_attr(m->name, "bonding_slave/ad_aggregator_id", buf, sizeof(buf));
		m->aggregator = number_or(buf, -1);	/* "N/A" outside 802.3ad */
	}
	bond_proc(b);
	return 0;
}

unsigned bonds_scan(char (*names)[32], unsigned max)
{
	char dir[PATH_MAX];
	struct dirent **list;
	int count = 0;
	unsigned n = 0;

	/* a bond has bonding/ under /sys/class/net; a recorded tree may give /proc/net/bonding alone */
	for (int pass = 0; pass < 2 && !n; pass++) {
		root_path(dir, sizeof(dir), pass ? "/proc/net/bonding" : "/sys/class/net");
		count = scandir(dir, &list, NULL, alphasort);
		for (int i = 0; i < count; i++) {
			const char *name = list[i]->d_name;
			char path[PATH_MAX];

			root_path(path, sizeof(path), "/sys/class/net/%s/bonding", name);
			if (name[0] != '.' && n < max && strlen(name) < 32 && (pass || !access(path, F_OK)))
				snprintf(names[n++], 32, "%s", name);
			free(list[i]);
		}
		if (count > 0)
			free(list);
	}
	return n;
}

int bond_hash_spreads(const struct bond *b)
{
	return (b->mode == BOND_XOR || b->mode == BOND_8023AD) &&
	       (!strcmp(b->hash, "layer3+4") || !strcmp(b->hash, "encap3+4"));
}
