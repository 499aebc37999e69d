// SPDX-License-Identifier: MIT
/*
 * sysinfo.c - what a result needs to be compared with another: CPU,
 * memory, kernel, DMI identity, firmware (BIOS/UEFI, Secure Boot from the
 * SecureBoot EFI variable), NICs with driver, link and address (sys/nics.h).
 * All from /proc and /sys: nothing is run. The command is cmd/sysinfo.c.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "lib/json.h"
#include "lib/util.h"
#include "lib/wrap.h"
#include "sys/bootsource.h"
#include "sys/cpuname.h"
#include "sys/efivar.h"
#include "sys/meminfo.h"
#include "sys/nics.h"
#include "sys/sysinfo.h"


static const char *const dmi_fields[] = {
	"sys_vendor", "product_name", "product_serial", "board_name", "bios_vendor", "bios_version", "bios_date",
};

struct sysinfo_data {
	char cpu[128], kernel[256], boot_mode[8], secure_boot[16];
	struct boot_source booted;
	unsigned cpus;
	unsigned long long mem_kib;
	char dmi[ARRAY_SIZE(dmi_fields)][128];
	struct nic nics[NICS_MAX];
	unsigned nnics;
};

static void secure_boot(struct sysinfo_data *s)
{
	unsigned char var[1];

	strcpy(s->secure_boot, s->boot_mode[0] == 'U' ? "unknown" : "n/a");
	if (efi_global_var("SecureBoot", var, sizeof(var)) == 1)
		strcpy(s->secure_boot, var[0] ? "enabled" : "disabled");
}

static void collect(struct sysinfo_data *s)
{
	char path[PATH_MAX];
	struct utsname u;
	unsigned i;

	memset(s, 0, sizeof(*s));
	cpu_name(s->cpu, sizeof(s->cpu));
	s->cpus = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	s->mem_kib = meminfo_bytes("MemTotal") >> 10;
	if (!uname(&u))
		snprintf(s->kernel, sizeof(s->kernel), "%s %s", u.release, u.version);
	for (i = 0; i < ARRAY_SIZE(dmi_fields); i++) {
		snprintf(path, sizeof(path), "/sys/class/dmi/id/%s", dmi_fields[i]);
		read_attr(path, s->dmi[i], sizeof(s->dmi[i]));
	}
	strcpy(s->boot_mode, access("/sys/firmware/efi", F_OK) ? "BIOS" : "UEFI");
	secure_boot(s);
	boot_source_read(&s->booted);
	s->nnics = nics_scan(s->nics, ARRAY_SIZE(s->nics));
}

static void write_json(struct json *j, const char *key, const struct sysinfo_data *s)
{
	unsigned i;

	json_obj_open(j, key);
	json_obj_open(j, "cpu");
	json_str(j, "model", s->cpu);
	json_uint(j, "cpus", s->cpus);
	json_obj_close(j);
	json_uint(j, "memory_bytes", s->mem_kib * 1024);
	json_str(j, "kernel", s->kernel);
	json_obj_open(j, "dmi");
	for (i = 0; i < ARRAY_SIZE(dmi_fields); i++)
		json_str(j, dmi_fields[i], s->dmi[i]);
	json_obj_close(j);
	json_obj_open(j, "firmware");
	json_str(j, "boot_mode", s->boot_mode);
	json_str(j, "secure_boot", s->secure_boot);
	/* what the firmware booted (UEFI's BootCurrent): http, pxe, medium; null when it did not say */
	if (s->booted.via != BOOT_VIA_UNKNOWN) {
		json_str(j, "booted_via", boot_via_name(s->booted.via));
		json_str(j, "booted_option", s->booted.description);
	} else {
		json_null_member(j, "booted_via");
		json_null_member(j, "booted_option");
	}
	json_obj_close(j);
	json_arr_open(j, "nics");
	for (i = 0; i < s->nnics; i++)
		nic_json(j, &s->nics[i]);
	json_arr_close(j);
	json_obj_close(j);
}

void sysinfo_json(struct json *j, const char *key)
{
	struct sysinfo_data s;

	collect(&s);
	write_json(j, key, &s);
}

static void print_table(const struct sysinfo_data *s)
{
	char mem[32];
	unsigned i;

	wrap_field("CPU:", "%s, %u logical CPUs", s->cpu[0] ? s->cpu : "unknown", s->cpus);
	wrap_field("Memory:", "%s", fmt_iec((double)s->mem_kib * 1024, mem, sizeof(mem)));
	wrap_field("Kernel:", "%s", s->kernel);
	wrap_field("System:", "%s %s, serial %s", s->dmi[0], s->dmi[1], s->dmi[2][0] ? s->dmi[2] : "-");
	wrap_field("Firmware:", "%s %s (%s), %s, Secure Boot %s", s->dmi[4], s->dmi[5], s->dmi[6], s->boot_mode,
	      s->secure_boot);
	if (s->booted.via != BOOT_VIA_UNKNOWN)
		wrap_field("Booted:", "Boot%04X \"%s\"%s", s->booted.option, s->booted.description,
			   s->booted.via == BOOT_VIA_HTTP ? " (UEFI HTTP boot)" : s->booted.via == BOOT_VIA_PXE ? " (PXE)" : "");
	for (i = 0; i < s->nnics; i++) {
		char speed[48];

		nic_link_words(s->nics[i].operstate, s->nics[i].carrier, (double)s->nics[i].speed_mbps, speed,
			       sizeof(speed));
		wrap_field("NIC:", "%s %s (%s), %s%s%s", s->nics[i].name, s->nics[i].mac,
		      s->nics[i].driver[0] ? s->nics[i].driver : "-", speed,
		      s->nics[i].ipv4[0] ? ", " : "", s->nics[i].ipv4);
	}
}

void sysinfo_print(void)
{
	struct sysinfo_data s;

	collect(&s);
	print_table(&s);
}
