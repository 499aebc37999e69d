// SPDX-License-Identifier: MIT
/*
 * nics.c - the network cards (nics.h). The driver's name is its sysfs
 * link's; the firmware version and bus address are the driver's answer to
 * ETHTOOL_GDRVINFO (what `ethtool -i` prints), asked through a socket.
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
	json_int(j, "speed_mbps", n->speed_mbps);
	json_str(j, "ipv4", n->ipv4);
	json_obj_close(j);
}
