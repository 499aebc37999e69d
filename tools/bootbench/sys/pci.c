// SPDX-License-Identifier: MIT
/*
 * pci.c - the PCI devices (pci.h), from sysfs: the IDs and class files,
 * the driver link, the slot whose address is the device's (bus and device
 * number: every function of a card is in its slot), and PCIe's
 * current_link_speed/width against max_link_speed/width. Narrower or
 * slower than the device can is marked; some devices drop their speed when
 * idle (a GPU saving power), so the mark is a question, and the fleet's
 * comparison (results/inventory.h) names the card that trained unlike its
 * twins in the other machines.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "sys/pci.h"
#include "sys/root.h"

static unsigned hex_attr(const char *dev, const char *name)
{
	char path[PATH_MAX], buf[32];

	root_path(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", dev, name);
	return read_attr(path, buf, sizeof(buf)) ? 0 : (unsigned)strtoul(buf, NULL, 16);
}

static void text_attr(const char *dev, const char *name, char *out, size_t len)
{
	char path[PATH_MAX], buf[64];
	size_t i, k = 0;

	root_path(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", dev, name);
	read_attr(path, buf, sizeof(buf));
	for (i = 0; buf[i] && k + 1 < len; i++)
		out[k++] = buf[i] >= 0x20 && buf[i] < 0x7f ? buf[i] : '?';
	out[k] = 0;
	if (!strncmp(out, "Unknown", 7))
		out[0] = 0;
}

/* The slot whose address ("0000:3b:00") is the device's without its function. */
static void slot_of(struct pci_device *d)
{
	char dir[PATH_MAX];
	struct dirent **names;
	size_t plen = strcspn(d->address, ".");
	int n, i;

	root_path(dir, sizeof(dir), "/sys/bus/pci/slots");
	n = scandir(dir, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		char path[PATH_MAX], addr[32];

		root_path(path, sizeof(path), "/sys/bus/pci/slots/%s/address", names[i]->d_name);
		if (!d->slot[0] && names[i]->d_name[0] != '.' && !read_attr(path, addr, sizeof(addr)) &&
		    strlen(addr) == plen && !strncmp(addr, d->address, plen))
			snprintf(d->slot, sizeof(d->slot), "%.39s", names[i]->d_name);
		free(names[i]);
	}
	if (n > 0)
		free(names);
}

static void link_of(struct pci_device *d)
{
	char w[16];

	text_attr(d->address, "current_link_speed", d->link_speed, sizeof(d->link_speed));
	text_attr(d->address, "max_link_speed", d->max_speed, sizeof(d->max_speed));
	text_attr(d->address, "current_link_width", w, sizeof(w));
	d->link_width = (unsigned)strtoul(w, NULL, 10);
	text_attr(d->address, "max_link_width", w, sizeof(w));
	d->max_width = (unsigned)strtoul(w, NULL, 10);
	d->downtrained = (d->link_width && d->max_width && d->link_width < d->max_width) ||
			 (d->link_speed[0] && d->max_speed[0] && strtod(d->link_speed, NULL) < strtod(d->max_speed, NULL));
}

unsigned pci_scan(struct pci_device *out, unsigned max)
{
	char dir[PATH_MAX];
	struct dirent **names;
	int count, i;
	unsigned n = 0;

	root_path(dir, sizeof(dir), "/sys/bus/pci/devices");
	count = scandir(dir, &names, NULL, alphasort);
	for (i = 0; i < count; i++) {
		const char *name = names[i]->d_name;
		struct pci_device *d = &out[n];
		char path[PATH_MAX], link[PATH_MAX];
		ssize_t len;

		if (name[0] == '.' || n == max || strlen(name) >= sizeof(d->address)) {
			free(names[i]);
			continue;
		}
		memset(d, 0, sizeof(*d));
		snprintf(d->address, sizeof(d->address), "%s", name);
		d->class = hex_attr(name, "class");
		if (d->class >> 16 == 0x06) {	/* bridges: host, ISA, PCI-to-PCI */
			free(names[i]);
			continue;
		}
		d->vendor = hex_attr(name, "vendor");
		d->device = hex_attr(name, "device");
		root_path(path, sizeof(path), "/sys/bus/pci/devices/%s/driver", name);
		len = readlink(path, link, sizeof(link) - 1);
		if (len > 0) {
			link[len] = 0;
			snprintf(d->driver, sizeof(d->driver), "%.47s", strrchr(link, '/') ? strrchr(link, '/') + 1 : link);
		}
		slot_of(d);
		link_of(d);
		n++;
		free(names[i]);
	}
	if (count > 0)
		free(names);
	return n;
}
