// SPDX-License-Identifier: MIT
/*
 * health.c - what a disk says of its own health: the NVMe SMART / Health
 * Information log (Get Log Page 02h through the admin ioctl), and for ATA,
 * SAS, SCSI and USB disks smartctl's JSON (smartmontools >= 7), when the
 * image has smartctl. Both only read.
 */
#include <fcntl.h>
#include <linux/nvme_ioctl.h>
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
		d->health.available_spare = log[3];
		d->health.percentage_used = log[5];
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

/* The number after "key": inside the object that follows "object": in JSON text. */
static int json_number_in(const char *text, const char *object, const char *key, long long *out)
{
	const char *o = strstr(text, object), *k, *end;

	if (!o)
		return -1;
	end = strchr(o, '}');
	k = strstr(o, key);
	if (!k || (end && k > end))
		return -1;
	k = strchr(k + strlen(key), ':');
	return k && sscanf(k + 1, " %lld", out) == 1 ? 0 : -1;
}

/* ATA/SCSI health: smartctl's JSON (smartmontools >= 7), read with strstr. */
static void smart_health(struct disk *d)
{
	static const char *const dirs[] = { "/usr/sbin/smartctl", "/sbin/smartctl", "/usr/bin/smartctl" };
	char cmd[256], *buf;
	const char *tool = NULL, *st;
	long long v;
	size_t n;
	unsigned i;
	FILE *p;

	for (i = 0; i < ARRAY_SIZE(dirs) && !tool; i++)
		if (!access(dirs[i], X_OK))
			tool = dirs[i];
	if (!tool)
		return;
	snprintf(cmd, sizeof(cmd), "%s -j -H -A -i /dev/%s 2>/dev/null", tool, d->name);
	p = popen(cmd, "r");	/* consent: smartctl -j only reads */
	if (!p)
		return;
	buf = xcalloc(1, 1 << 20);
	n = fread(buf, 1, (1 << 20) - 1, p);
	pclose(p);
	buf[n] = 0;
	if (strstr(buf, "\"smartctl\"")) {
		d->smart.valid = 1;
		d->smart.passed = -1;
		st = strstr(buf, "\"smart_status\"");
		if (st && strstr(st, "\"passed\"")) {
			const char *b = strchr(strstr(st, "\"passed\"") + 8, ':');

			if (b) {
				b += 1 + strspn(b + 1, " ");
				d->smart.passed = !strncmp(b, "true", 4);
			}
		}
		d->smart.temperature_c = json_number_in(buf, "\"temperature\"", "\"current\"", &v) ? -1 : (int)v;
		d->smart.power_on_hours = json_number_in(buf, "\"power_on_time\"", "\"hours\"", &v) ? -1 : v;
	}
	free(buf);
}

void disk_health(struct disk *d)
{
	if (!strcmp(d->transport, "nvme"))
		nvme_health(d);
	else if (!strncmp(d->name, "sd", 2))	/* ATA, SAS, SCSI, USB, virtio-scsi */
		smart_health(d);
}
