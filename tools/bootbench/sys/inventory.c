// SPDX-License-Identifier: MIT
/*
 * inventory.c - this machine's parts (inventory.h): SMBIOS for what the
 * firmware knows (system, board, BIOS, sockets, memory slots), /proc for
 * what the kernel counts (CPUs, microcode, memory), sys/nics, sys/disks
 * and sys/pci for the devices, and the BMC's own answer to `ipmitool mc
 * info`. Reading it changes nothing; a part that cannot be read is said
 * so in its place, never left out silently.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/json.h"
#include "lib/util.h"
#include "lib/wrap.h"
#include "sys/cpuname.h"
#include "sys/inventory.h"
#include "sys/machine.h"
#include "sys/meminfo.h"
#include "sys/root.h"

static const char *const ipmi_devices[] = { "/dev/ipmi0", "/dev/ipmi/0", "/dev/ipmidev/0" };

struct cpu_count {
	long ids[1024][2];	/* (socket, core) pairs seen */
	unsigned nids, sockets[64], nsockets;
};

/* One CPU's block read: its socket and core counted once each. */
static void cpu_counted(struct cpu_count *c, long phys, long core)
{
	unsigned i;

	for (i = 0; i < c->nsockets && c->sockets[i] != (unsigned)phys; i++)
		;
	if (i == c->nsockets && c->nsockets < ARRAY_SIZE(c->sockets))
		c->sockets[c->nsockets++] = (unsigned)phys;
	if (core < 0)
		return;
	for (i = 0; i < c->nids && (c->ids[i][0] != phys || c->ids[i][1] != core); i++)
		;
	if (i == c->nids && c->nids < ARRAY_SIZE(c->ids)) {
		c->ids[c->nids][0] = phys;
		c->ids[c->nids++][1] = core;
	}
}

/* The CPUs as the kernel counts them: threads, distinct sockets and cores, the first model and microcode. */
static void cpus(struct inventory *inv)
{
	struct cpu_count *c = xcalloc(1, sizeof(*c));
	char path[PATH_MAX], line[512];
	long phys = 0, core = -1;
	FILE *f;

	root_path(path, sizeof(path), "/proc/cpuinfo");
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		char *v = cpuinfo_value(line);

		if (!v)
			continue;
		if (!strncmp(line, "processor", 9)) {
			if (inv->threads++)
				cpu_counted(c, phys, core);	/* the one before */
			phys = 0;
			core = -1;
		} else if (!strncmp(line, "microcode", 9) && !inv->microcode[0]) {
			snprintf(inv->microcode, sizeof(inv->microcode), "%s", v);
		} else if (!strncmp(line, "physical id", 11)) {
			phys = strtol(v, NULL, 10);
		} else if (!strncmp(line, "core id", 7)) {
			core = strtol(v, NULL, 10);
		}
	}
	if (f)
		fclose(f);
	if (inv->threads)
		cpu_counted(c, phys, core);
	inv->sockets = c->nsockets ? c->nsockets : 1;
	inv->cores = c->nids ? c->nids : inv->threads;
	free(c);
	cpu_name(inv->cpu_model, sizeof(inv->cpu_model));
	/* printable only: a microcode string goes onto the console */
	printable_ascii(inv->microcode);
}

/* The machine's disks: not loop or RAM devices, not our boot or results medium (they come and go with us). */
static void disks(struct inventory *inv)
{
	struct disk *all;
	unsigned n, i;

	if (root_recorded()) {
		snprintf(inv->disks_note, sizeof(inv->disks_note), "not read: a recorded tree (BOOTBENCH_SYSROOT)");
		return;
	}
	n = disks_scan(&all);
	inv->disks = xcalloc(n ? n : 1, sizeof(*inv->disks));
	for (i = 0; i < n; i++) {
		const struct disk *d = &all[i];

		if (!strcmp(d->transport, "loop") || !strncmp(d->name, "ram", 3) || !strncmp(d->name, "zram", 4) ||
		    d->boot_medium || d->results_medium)
			continue;
		inv->disks[inv->ndisks++] = *d;
	}
	free(all);
}

/* "Firmware Revision         : 1.23" from ipmitool's answer. */
static void ipmi_field(const char *out, const char *name, char *buf, size_t len)
{
	const char *p = strstr(out, name), *v;
	size_t k = 0;

	buf[0] = 0;
	if (!p || !(v = strchr(p, ':')))
		return;
	for (v++; *v == ' '; v++)
		;
	for (; *v && *v != '\n' && k + 1 < len; v++)
		buf[k++] = *v >= 0x20 && *v < 0x7f ? *v : '?';
	while (k && buf[k - 1] == ' ')
		k--;
	buf[k] = 0;
}

static void bmc(struct inventory *inv)
{
	char path[PATH_MAX], out[8192];
	const char *dev = NULL;
	unsigned i;
	int rc, stopped;

	for (i = 0; i < ARRAY_SIZE(ipmi_devices) && !dev; i++) {
		root_path(path, sizeof(path), "%s", ipmi_devices[i]);
		if (!access(path, F_OK))
			dev = ipmi_devices[i];
	}
	if (!dev) {
		snprintf(inv->bmc_note, sizeof(inv->bmc_note), "no BMC: no IPMI device (/dev/ipmi0)");
		return;
	}
	inv->bmc_present = 1;
	if (root_recorded()) {
		snprintf(inv->bmc_note, sizeof(inv->bmc_note), "not asked: a recorded tree (BOOTBENCH_SYSROOT)");
		return;
	}
	{
		char *argv[] = { "ipmitool", "mc", "info", NULL };

		rc = spawn_for(argv, 30, NULL, out, sizeof(out), &stopped);	/* consent: asks the BMC, writes nothing */
	}
	if (rc) {
		snprintf(inv->bmc_note, sizeof(inv->bmc_note), "the BMC did not answer (ipmitool mc info, exit %d): %.180s",
			 rc, out);
		return;
	}
	ipmi_field(out, "Firmware Revision", inv->bmc_firmware, sizeof(inv->bmc_firmware));
	ipmi_field(out, "Manufacturer Name", inv->bmc_manufacturer, sizeof(inv->bmc_manufacturer));
	ipmi_field(out, "Product Name", inv->bmc_product, sizeof(inv->bmc_product));
	ipmi_field(out, "IPMI Version", inv->bmc_ipmi, sizeof(inv->bmc_ipmi));
}

struct inventory *inventory_take(void)
{
	struct inventory *inv = xcalloc(1, sizeof(*inv));
	time_t now = time(NULL);

	machine_id(inv->machine, sizeof(inv->machine));
	strftime(inv->taken, sizeof(inv->taken), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	if (smbios_read(&inv->sm))
		snprintf(inv->smbios_note, sizeof(inv->smbios_note), "%.255s", bb_err);
	cpus(inv);
	inv->memory_bytes = meminfo_bytes("MemTotal");
	inv->nnics = nics_scan(inv->nics, ARRAY_SIZE(inv->nics));
	disks(inv);
	inv->npci = pci_scan(inv->pci, ARRAY_SIZE(inv->pci));
	bmc(inv);
	return inv;
}

void inventory_free(struct inventory *inv)
{
	if (inv)
		free(inv->disks);
	free(inv);
}

/* inventory.json's system, board and bios objects: SMBIOS's strings, in order */
static const struct {
	const char *object, *key;
	size_t offset;
} identity[] = {
	{ "system", "vendor", offsetof(struct smbios, sys_vendor) },
	{ "system", "product", offsetof(struct smbios, sys_product) },
	{ "system", "version", offsetof(struct smbios, sys_version) },
	{ "system", "serial", offsetof(struct smbios, sys_serial) },
	{ "system", "uuid", offsetof(struct smbios, sys_uuid) },
	{ "system", "sku", offsetof(struct smbios, sys_sku) },
	{ "system", "family", offsetof(struct smbios, sys_family) },
	{ "board", "vendor", offsetof(struct smbios, board_vendor) },
	{ "board", "product", offsetof(struct smbios, board_product) },
	{ "board", "version", offsetof(struct smbios, board_version) },
	{ "board", "serial", offsetof(struct smbios, board_serial) },
	{ "bios", "vendor", offsetof(struct smbios, bios_vendor) },
	{ "bios", "version", offsetof(struct smbios, bios_version) },
	{ "bios", "date", offsetof(struct smbios, bios_date) },
};

static void json_dimms(struct json *j, const struct smbios *sm)
{
	unsigned i;

	json_arr_open(j, "dimms");
	for (i = 0; i < sm->ndimms; i++) {
		const struct smbios_dimm *d = &sm->dimms[i];

		json_obj_open(j, NULL);
		json_str(j, "slot", d->slot);
		json_str(j, "bank", d->bank);
		json_uint(j, "size_bytes", d->size);
		if (d->size) {
			json_str(j, "type", d->type);
			/* 0 is SMBIOS's "unknown" (and a 2.3-length structure has no field): null, not a speed */
			if (d->speed_mts)
				json_uint(j, "speed_mts", d->speed_mts);
			else
				json_null_member(j, "speed_mts");
			if (d->configured_mts)
				json_uint(j, "configured_mts", d->configured_mts);
			else
				json_null_member(j, "configured_mts");
			json_str(j, "manufacturer", d->manufacturer);
			json_str(j, "part", d->part);
			json_str(j, "serial", d->serial);
		}
		json_obj_close(j);
	}
	json_arr_close(j);
}

void inventory_json(struct json *j, const char *key, const struct inventory *inv)
{
	const struct smbios *sm = &inv->sm;
	unsigned i;

	json_obj_open(j, key);
	json_uint(j, "format", INVENTORY_FORMAT);
	json_str(j, "machine", inv->machine);
	json_str(j, "taken", inv->taken);
	if (inv->smbios_note[0])
		json_str(j, "smbios_note", inv->smbios_note);
	json_str(j, "smbios_version", sm->version);
	for (i = 0; i < ARRAY_SIZE(identity); i++) {
		if (!i || strcmp(identity[i].object, identity[i - 1].object)) {
			if (i)
				json_obj_close(j);
			json_obj_open(j, identity[i].object);
		}
		json_str(j, identity[i].key, (const char *)sm + identity[i].offset);
	}
	json_obj_close(j);
	json_obj_open(j, "cpus");
	json_str(j, "model", inv->cpu_model);
	json_str(j, "microcode", inv->microcode);
	json_uint(j, "sockets", inv->sockets);
	json_uint(j, "cores", inv->cores);
	json_uint(j, "threads", inv->threads);
	json_arr_open(j, "slots");
	for (i = 0; i < sm->nsockets; i++) {
		json_obj_open(j, NULL);
		json_str(j, "socket", sm->sockets[i].socket);
		json_bool(j, "populated", sm->sockets[i].populated);
		json_str(j, "version", sm->sockets[i].version);
		json_uint(j, "cores", sm->sockets[i].cores);
		json_uint(j, "threads", sm->sockets[i].threads);
		json_obj_close(j);
	}
	json_arr_close(j);
	json_obj_close(j);
	json_obj_open(j, "memory");
	json_uint(j, "total_bytes", inv->memory_bytes);
	json_dimms(j, sm);
	json_obj_close(j);
	json_arr_open(j, "nics");
	for (i = 0; i < inv->nnics; i++)
		nic_json(j, &inv->nics[i]);
	json_arr_close(j);
	if (inv->disks_note[0])
		json_str(j, "disks_note", inv->disks_note);
	json_arr_open(j, "disks");
	for (i = 0; i < inv->ndisks; i++) {
		const struct disk *d = &inv->disks[i];

		json_obj_open(j, NULL);
		json_str(j, "name", d->name);
		json_str(j, "model", d->model);
		json_str(j, "serial", d->serial);
		json_str(j, "firmware", d->firmware);
		json_str(j, "transport", d->transport);
		json_uint(j, "size_bytes", d->size);
		json_obj_close(j);
	}
	json_arr_close(j);
	json_arr_open(j, "pci");
	for (i = 0; i < inv->npci; i++) {
		const struct pci_device *d = &inv->pci[i];
		char id[16];

		json_obj_open(j, NULL);
		json_str(j, "address", d->address);
		json_str(j, "slot", d->slot);
		snprintf(id, sizeof(id), "%04x:%04x", d->vendor, d->device);
		json_str(j, "id", id);
		snprintf(id, sizeof(id), "%06x", d->class);
		json_str(j, "class", id);
		json_str(j, "driver", d->driver);
		if (d->max_width) {
			json_str(j, "link_speed", d->link_speed);
			json_uint(j, "link_width", d->link_width);
			json_str(j, "max_speed", d->max_speed);
			json_uint(j, "max_width", d->max_width);
			json_bool(j, "downtrained", d->downtrained);
		}
		json_obj_close(j);
	}
	json_arr_close(j);
	json_obj_open(j, "bmc");
	json_bool(j, "present", inv->bmc_present);
	json_str(j, "firmware", inv->bmc_firmware);
	json_str(j, "manufacturer", inv->bmc_manufacturer);
	json_str(j, "product", inv->bmc_product);
	json_str(j, "ipmi_version", inv->bmc_ipmi);
	if (inv->bmc_note[0])
		json_str(j, "note", inv->bmc_note);
	json_obj_close(j);
	json_obj_close(j);
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

void inventory_print(const struct inventory *inv)
{
	const struct smbios *sm = &inv->sm;
	char a[32], b[32];
	unsigned i, filled = 0;

	wrap_field("Machine:", "%s (taken %s)", inv->machine, inv->taken);
	if (inv->smbios_note[0])
		wrap_field("SMBIOS:", "%s", inv->smbios_note);
	wrap_field("System:", "%s %s %s, serial %s", or_dash(sm->sys_vendor), or_dash(sm->sys_product),
		   sm->sys_version, or_dash(sm->sys_serial));
	wrap_field("Board:", "%s %s %s, serial %s", or_dash(sm->board_vendor), or_dash(sm->board_product),
		   sm->board_version, or_dash(sm->board_serial));
	wrap_field("BIOS:", "%s %s (%s)", or_dash(sm->bios_vendor), or_dash(sm->bios_version), or_dash(sm->bios_date));
	wrap_field("CPUs:", "%s; %u socket(s), %u cores, %u threads, microcode %s", or_dash(inv->cpu_model),
		   inv->sockets, inv->cores, inv->threads, or_dash(inv->microcode));
	for (i = 0; i < sm->ndimms; i++)
		filled += sm->dimms[i].size != 0;
	wrap_field("Memory:", "%s; %u of %u slots filled", fmt_iec((double)inv->memory_bytes, a, sizeof(a)), filled,
		   sm->ndimms);
	for (i = 0; i < sm->ndimms; i++) {
		const struct smbios_dimm *d = &sm->dimms[i];
		char speed[64] = ", speed not reported";

		if (!d->size) {
			wrap_field("  slot", "%s%s%s: empty", d->slot, d->bank[0] ? " " : "", d->bank);
			continue;
		}
		if (d->configured_mts && d->speed_mts)
			snprintf(speed, sizeof(speed), ", %u MT/s (of %u)", d->configured_mts, d->speed_mts);
		else if (d->configured_mts)
			snprintf(speed, sizeof(speed), ", %u MT/s (its rated speed not reported)", d->configured_mts);
		else if (d->speed_mts)
			snprintf(speed, sizeof(speed), ", rated %u MT/s, running speed not reported", d->speed_mts);
		wrap_field("  slot", "%s%s%s: %s %s%s, %s %s, serial %s", d->slot, d->bank[0] ? " " : "", d->bank,
			   fmt_iec((double)d->size, a, sizeof(a)), d->type, speed, or_dash(d->manufacturer),
			   or_dash(d->part), or_dash(d->serial));
	}
	for (i = 0; i < inv->nnics; i++) {
		const struct nic *n = &inv->nics[i];
		char speed[48];

		nic_link_words(n->operstate, n->carrier, (double)n->speed_mbps, speed, sizeof(speed));
		wrap_field("NIC:", "%s %s, %s, firmware %s, %s, %s", n->name, n->mac, or_dash(n->driver),
			   or_dash(n->firmware), or_dash(n->bus), speed);
	}
	if (inv->disks_note[0])
		wrap_field("Disks:", "%s", inv->disks_note);
	for (i = 0; i < inv->ndisks; i++) {
		const struct disk *d = &inv->disks[i];

		wrap_field("Disk:", "%s %s %s, %s, serial %s, firmware %s", d->name,
			   fmt_iec((double)d->size, a, sizeof(a)), d->transport, or_dash(d->model), or_dash(d->serial),
			   or_dash(d->firmware));
	}
	for (i = 0; i < inv->npci; i++) {
		const struct pci_device *d = &inv->pci[i];
		char link[96] = "";

		if (d->max_width)
			snprintf(link, sizeof(link), ", x%u %s (can x%u %s)%s", d->link_width, or_dash(d->link_speed),
				 d->max_width, or_dash(d->max_speed), d->downtrained ? " BELOW ITS MAXIMUM" : "");
		snprintf(a, sizeof(a), "%04x:%04x", d->vendor, d->device);
		snprintf(b, sizeof(b), "%06x", d->class);
		wrap_field("PCI:", "%s %s class %s %s%s%s%s", d->address, a, b, or_dash(d->driver),
			   d->slot[0] ? ", slot " : "", d->slot, link);
	}
	if (inv->bmc_firmware[0])
		wrap_field("BMC:", "%s %s, firmware %s, IPMI %s", or_dash(inv->bmc_manufacturer), or_dash(inv->bmc_product),
			   inv->bmc_firmware, or_dash(inv->bmc_ipmi));
	else
		wrap_field("BMC:", "%s", inv->bmc_note);
}

int inventory_save(const struct inventory *inv, const char *dir)
{
	char path[PATH_MAX], *buf = NULL;
	size_t len = 0;
	struct json j;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f)
		return set_err("inventory: %s", strerror(errno));
	json_init(&j, f);
	inventory_json(&j, NULL, inv);
	fputc('\n', f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/inventory.json", dir);
	rc = write_file_atomic(path, buf, len);	/* consent: a results file, not a device */
	free(buf);
	return rc ? set_err("%s: %s", path, strerror(errno)) : 0;
}
