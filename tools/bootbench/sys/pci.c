// SPDX-License-Identifier: MIT
/*
 * pci.c - the PCI devices (pci.h), from sysfs: the IDs and class files,
 * the driver link, the slot whose address is the device's (bus and device
 * number: every function of a card is in its slot), and PCIe's
 * current_link_speed/width against max_link_speed/width. Narrower or
 * slower than the device can is marked; some devices drop their speed when
 * idle (a GPU saving power), so the mark is a question, and the fleet's
 * comparison (results/inventory.h) names the card that trained unlike its
 * twins in the other machines. For the burn-in's pcie component: the link
 * as numbers, a device's place below its host bridge (the sysfs link's
 * path), its power state, and Linux's AER counters (aer_dev_* and
 * aer_rootport_total_err_*, as drivers/pci/pcie/aer.c writes them).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
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

void pci_driver_of(const char *addr, char *out, size_t len)
{
	char path[4096], link[4096];
	ssize_t n;

	*out = 0;
	root_path(path, sizeof(path), "/sys/bus/pci/devices/%s/driver", addr);
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = 0;
		snprintf(out, len, "%s", strrchr(link, '/') ? strrchr(link, '/') + 1 : link);
	}
}

void pci_slot_of(const char *address, char *slot, size_t len)
{
	char dir[PATH_MAX];
	struct dirent **names;
	size_t plen = strcspn(address, ".");
	int n, i;

	slot[0] = 0;
	root_path(dir, sizeof(dir), "/sys/bus/pci/slots");
	n = scandir(dir, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		char path[PATH_MAX], addr[32];

		/* the slot's address ("0000:3b:00") is the device's without its function */
		root_path(path, sizeof(path), "/sys/bus/pci/slots/%s/address", names[i]->d_name);
		if (!slot[0] && names[i]->d_name[0] != '.' && !read_attr(path, addr, sizeof(addr)) &&
		    strlen(addr) == plen && !strncmp(addr, address, plen))
			snprintf(slot, len, "%.39s", names[i]->d_name);
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
		pci_driver_of(name, d->driver, sizeof(d->driver));
		pci_slot_of(d->address, d->slot, sizeof(d->slot));
		link_of(d);
		n++;
		free(names[i]);
	}
	if (count > 0)
		free(names);
	return n;
}

/* "16.0 GT/s PCIe", "8 GT/s" (older kernels): GT/s; "Unknown", "Unknown speed", nothing: 0 */
static double speed_attr(const char *dev, const char *name, int *found)
{
	char path[PATH_MAX], buf[64];
	double v;

	root_path(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", dev, name);
	if (read_attr(path, buf, sizeof(buf)))
		return 0;
	*found = 1;
	v = strtod(buf, NULL);
	return v > 0 && v < 1000 ? v : 0;
}

static unsigned width_attr(const char *dev, const char *name, int *found)
{
	char path[PATH_MAX], buf[32], *end;
	unsigned long v;

	root_path(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", dev, name);
	if (read_attr(path, buf, sizeof(buf)))
		return 0;
	*found = 1;
	v = strtoul(buf, &end, 10);
	return end != buf && v < 1000 ? (unsigned)v : 0;
}

int pci_link_read(const char *address, struct pci_link *l)
{
	int found = 0;

	l->speed = speed_attr(address, "current_link_speed", &found);
	l->max_speed = speed_attr(address, "max_link_speed", &found);
	l->width = width_attr(address, "current_link_width", &found);
	l->max_width = width_attr(address, "max_link_width", &found);
	return found ? 0 : -1;
}

int pci_link_up(const struct pci_link *l)
{
	return l->speed > 0 && l->width >= 1 && l->width <= 32;
}

/* "pci0000:00", "pci10000:00" (a VMD domain): a host bridge's name under /sys/devices */
static int host_bridge(const char *c, size_t n)
{
	return n > 3 && !strncmp(c, "pci", 3) && memchr(c, ':', n);
}

int pci_place(const char *address, char *path, size_t plen, char *parent, size_t parlen, int *depth)
{
	char link[PATH_MAX], target[PATH_MAX];
	const char *from = NULL, *c, *prev = NULL, *last = NULL;
	ssize_t n;

	path[0] = parent[0] = 0;
	*depth = 0;
	root_path(link, sizeof(link), "/sys/bus/pci/devices/%s", address);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return -1;
	target[n] = 0;
	/* the components after the last host bridge: the ports down to the device */
	for (c = target; *c; c += strcspn(c, "/"), c += *c == '/') {
		size_t len = strcspn(c, "/");

		if (host_bridge(c, len)) {
			from = c;
			*depth = 0;
			prev = last = NULL;
		} else if (from) {
			(*depth)++;
			prev = last;
			last = c;
		}
	}
	if (!from || !last || strcmp(last, address))
		return -1;
	snprintf(path, plen, "%s", from);
	if (prev)
		snprintf(parent, parlen, "%.*s", (int)strcspn(prev, "/"), prev);
	return 0;
}

int pci_powered(const char *address, char *state, size_t len)
{
	char path[PATH_MAX], buf[32];

	/* power_state (newer kernels): the D-state Linux keeps for it, read without waking it */
	root_path(path, sizeof(path), "/sys/bus/pci/devices/%s/power_state", address);
	if (!read_attr(path, buf, sizeof(buf)) && buf[0]) {
		snprintf(state, len, "%s", buf);
		if (!strcmp(buf, "D0"))
			return 1;
		return strcmp(buf, "unknown") ? 0 : -1;
	}
	/* older kernels: runtime PM's word ("unsupported": never suspended) */
	root_path(path, sizeof(path), "/sys/bus/pci/devices/%s/power/runtime_status", address);
	if (!read_attr(path, buf, sizeof(buf)) && buf[0]) {
		snprintf(state, len, "runtime %s", buf);
		if (!strcmp(buf, "active") || !strcmp(buf, "unsupported"))
			return 1;
		return !strcmp(buf, "suspended") || !strcmp(buf, "suspending") ? 0 : -1;
	}
	snprintf(state, len, "unknown");
	return -1;
}

const char *const pci_aer_files[PCI_AER_NFILES] = { "aer_dev_correctable", "aer_dev_fatal", "aer_dev_nonfatal" };
const char *const pci_aer_rootport_files[PCI_AER_NFILES] = {
	"aer_rootport_total_err_cor", "aer_rootport_total_err_fatal", "aer_rootport_total_err_nonfatal",
};
static const char *const aer_totals[PCI_AER_NFILES] = { "TOTAL_ERR_COR", "TOTAL_ERR_FATAL", "TOTAL_ERR_NONFATAL" };

/* "RxErr 0\nBadTLP 3\n...TOTAL_ERR_COR 3\n" (aer_stats_dev_attr in Linux's drivers/pci/pcie/aer.c) */
static int aer_parse(char *text, unsigned which, struct pci_aer_file *f)
{
	int total = 0;

	memset(f, 0, sizeof(*f));
	for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char name[64], *end;
		unsigned long long v;
		int k = 0;

		if (sscanf(l, "%63s %n", name, &k) != 1 || !k || !isdigit((unsigned char)l[k]))
			return -1;
		v = strtoull(l + k, &end, 10);
		if (*end && *end != ' ')
			return -1;
		if (!strcmp(name, aer_totals[which])) {
			f->total = v;
			total = 1;
		} else if (f->nkinds < PCI_AER_KINDS) {
			snprintf(f->kind[f->nkinds], sizeof(f->kind[0]), "%.27s", name);
			f->count[f->nkinds++] = v;
		}
	}
	return total ? 0 : -1;
}

int pci_aer_read(const char *address, struct pci_aer *a)
{
	char path[PATH_MAX], buf[4096];

	memset(a, 0, sizeof(*a));
	root_path(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", address, pci_aer_files[0]);
	if (access(path, F_OK))
		return 0;
	for (unsigned i = 0; i < PCI_AER_NFILES; i++) {
		root_path(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", address, pci_aer_files[i]);
		if (read_attr(path, buf, sizeof(buf)))
			return set_err("%s does not read: %s", pci_aer_files[i], strerror(errno));
		if (aer_parse(buf, i, &a->f[i]))
			return set_err("%s reads as no counter Linux writes (no %s line)", pci_aer_files[i],
				       aer_totals[i]);
	}
	root_path(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", address, pci_aer_rootport_files[0]);
	if (access(path, F_OK))
		return 1;
	for (unsigned i = 0; i < PCI_AER_NFILES; i++) {
		char *end;

		root_path(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", address, pci_aer_rootport_files[i]);
		if (read_attr(path, buf, sizeof(buf)))
			return set_err("%s does not read: %s", pci_aer_rootport_files[i], strerror(errno));
		a->rp[i] = strtoull(buf, &end, 10);
		if (end == buf || *end)
			return set_err("%s reads '%.20s', not a count", pci_aer_rootport_files[i], buf);
	}
	a->rootport = 1;
	return 1;
}

int pci_aer_native(void)
{
	char dir[PATH_MAX];
	struct dirent **names;
	int n, native = 0;

	/* the port service driver binds "0000:00:01.0:pcie002" and the like
	 * where Linux owns AER (_OSC granted it, or pcie_ports=native) */
	root_path(dir, sizeof(dir), "/sys/bus/pci_express/drivers/aer");
	n = scandir(dir, &names, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		if (strchr(names[i]->d_name, ':'))
			native = 1;
		free(names[i]);
	}
	if (n > 0)
		free(names);
	return native;
}
