// SPDX-License-Identifier: MIT
/*
 * health.c - what a disk says of its own health: the NVMe SMART / Health
 * Information log (Get Log Page 02h through the admin ioctl), and for ATA,
 * SAS, SCSI and USB disks smartctl's JSON (smartmontools >= 7, read by
 * jansson), when the image has smartctl. Both only read.
 */
#include <fcntl.h>
#include <jansson.h>
#include <linux/nvme_ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "lib/util.h"
#include "sys/disks.h"

/* NVMe SMART / Health Information log (NVMe base spec, log page 02h). */
static void nvme_health(struct disk *d)
{
	unsigned char log[512];
	char ctrl[64], *p;
	struct nvme_admin_cmd cmd = { 0 };
	int fd;

	snprintf(ctrl, sizeof(ctrl), "/dev/%s", d->name);
	p = strchr(ctrl + 9, 'n');	/* /dev/nvme0n1 -> /dev/nvme0 */
	if (!p)
		return;
	*p = 0;
	fd = open(ctrl, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	cmd.opcode = 0x02;		/* Get Log Page */
	cmd.nsid = 0xffffffff;
	cmd.addr = (uintptr_t)log;
	cmd.data_len = sizeof(log);
	cmd.cdw10 = 0x02 | ((sizeof(log) / 4 - 1) << 16);
	if (ioctl(fd, NVME_IOCTL_ADMIN_CMD, &cmd) == 0) {
		uint64_t v;

		d->health.valid = 1;
		d->health.critical_warning = log[0];
		d->health.temperature_c = (int)(log[1] | log[2] << 8) - 273;
		/* 0 K: a controller that fills no temperature in */
		d->health.temperature_reported = (log[1] | log[2] << 8) != 0;
		d->health.available_spare = log[3];
		d->health.percentage_used = log[5];
		/* byte 4: the spare's threshold; bit 0 of the warning: spare low */
		d->health.spare_reported = log[3] || log[4] || log[5] || (log[0] & 1);
		/* 128-bit little-endian counters: the low 64 bits are plenty */
		memcpy(&v, log + 128, 8);
		d->health.power_on_hours = v;
		memcpy(&v, log + 144, 8);
		d->health.unsafe_shutdowns = v;
		memcpy(&v, log + 160, 8);
		d->health.media_errors = v;
	}
	close(fd);
}

/* The raw value of ATA attribute ID in smartctl's table; -1 when absent. */
static long long ata_raw(json_t *root, int id)
{
	json_t *table = json_object_get(json_object_get(root, "ata_smart_attributes"), "table"), *row;
	size_t i;

	json_array_foreach(table, i, row)
		if (json_integer_value(json_object_get(row, "id")) == id) {
			json_t *v = json_object_get(json_object_get(row, "raw"), "value");

			return json_is_integer(v) ? json_integer_value(v) : -1;
		}
	return -1;
}

/* ATA/SCSI health: smartctl's JSON (smartmontools >= 7), read by jansson. */
static void smart_health(struct disk *d)
{
	char dev[64], *out = xcalloc(1, 1 << 20);
	char *argv[] = { "smartctl", "-j", "-H", "-A", "-i", dev, NULL };
	json_error_t e;
	json_t *root, *v;

	snprintf(dev, sizeof(dev), "/dev/%s", d->name);
	spawn(argv, NULL, 0, out, 1 << 20);	/* consent: smartctl -j -H -A -i only reads */
	root = json_loads(out, 0, &e);
	free(out);
	if (!json_is_object(root) || !json_object_get(root, "smartctl")) {
		json_decref(root);
		return;
	}
	d->smart.valid = 1;
	v = json_object_get(json_object_get(root, "smart_status"), "passed");
	d->smart.passed = json_is_boolean(v) ? json_is_true(v) : -1;
	v = json_object_get(json_object_get(root, "temperature"), "current");
	d->smart.temperature_c = json_is_integer(v) ? (int)json_integer_value(v) : -1;
	/* smartctl says 0 for a SCSI drive without a temperature log page
	 * (QEMU's scsi-hd): not a reading, as no running drive is at 0 C */
	d->smart.temperature_reported = d->smart.temperature_c > 0 ||
		(d->smart.temperature_c == 0 && json_object_get(root, "ata_smart_attributes"));
	v = json_object_get(json_object_get(root, "power_on_time"), "hours");
	d->smart.power_on_hours = json_is_integer(v) ? json_integer_value(v) : -1;
	/* the counters that grow as a disk fails (Backblaze's and Google's studies) */
	d->smart.reallocated = ata_raw(root, 5);
	d->smart.pending = ata_raw(root, 197);
	d->smart.offline_uncorrectable = ata_raw(root, 198);
	d->smart.crc_errors = ata_raw(root, 199);
	json_decref(root);
}

void disk_health(struct disk *d)
{
	if (!strcmp(d->transport, "nvme"))
		nvme_health(d);
	else if (!strncmp(d->name, "sd", 2))	/* ATA, SAS, SCSI, USB, virtio-scsi */
		smart_health(d);
}

void nvme_wear_words(const struct nvme_health *h, char used[32], char spare[32])
{
	/* the wear is not filled in where the spare is not (disks.h) */
	if (h->spare_reported) {
		snprintf(used, 32, "%u%% used", h->percentage_used);
		snprintf(spare, 32, "spare %u%%", h->available_spare);
	} else {
		snprintf(used, 32, "wear not reported");
		snprintf(spare, 32, "spare not reported");
	}
}
