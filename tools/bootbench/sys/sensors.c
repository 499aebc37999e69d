// SPDX-License-Identifier: MIT
/*
 * sensors.c - CPU temperatures (hwmon), thermal-throttle counters and
 * frequencies (sensors.h), after the kernel's sysfs ABI:
 * Documentation/ABI/testing/sysfs-class-hwmon (tempN_input, tempN_label,
 * tempN_crit in millidegrees), Documentation/arch/x86/... thermal_throttle
 * (core_throttle_count, package_throttle_count) and cpufreq
 * (scaling_cur_freq, base_frequency in kHz).
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "sys/root.h"
#include "sys/sensors.h"

/* hwmon drivers whose sensors are the CPU's; apm_xgene: xgene-hwmon, the SoC's
 * temperature on APM/Ampere X-Gene servers (arm64; ACPI APMC0D29, APMC0D8A),
 * read through their firmware's mailbox */
static const char *const cpu_chips[] = { "coretemp", "k10temp", "zenpower", "cpu_thermal", "via_cputemp", "apm_xgene" };

static int read_int(const char *path, long long *v)
{
	char buf[64], *end;

	if (read_attr(path, buf, sizeof(buf)))
		return -1;
	*v = strtoll(buf, &end, 10);
	return end == buf ? -1 : 0;
}

static int is_cpu_chip(const char *name)
{
	for (unsigned i = 0; i < ARRAY_SIZE(cpu_chips); i++)
		if (!strcmp(name, cpu_chips[i]))
			return 1;
	return 0;
}

unsigned sensors_cpu(struct temp_sensor *v, unsigned max)
{
	char dir[160], path[600], chip[32], link[420], hwdir[400];
	struct dirent **hw = NULL;
	unsigned n = 0;
	int nhw;

	root_path(dir, sizeof(dir), "/sys/class/hwmon");
	nhw = scandir(dir, &hw, NULL, alphasort);
	for (int h = 0; h < nhw; h++) {
		char *real;
		int fits;

		if (hw[h]->d_name[0] == '.')
			continue;
		/* by its device's path (hwmonN is a link to it): read there, a sensor stays its
		 * device's; a number another chip takes after an unbind is another path */
		snprintf(link, sizeof(link), "%s/%s", dir, hw[h]->d_name);
		if (!(real = realpath(link, NULL)))
			continue;
		fits = (size_t)snprintf(hwdir, sizeof(hwdir), "%s", real) < sizeof(hwdir);
		free(real);
		if (!fits)
			continue;
		snprintf(path, sizeof(path), "%s/name", hwdir);
		if (read_attr(path, chip, sizeof(chip)) || !is_cpu_chip(chip))
			continue;
		for (unsigned t = 1; t <= 256 && n < max; t++) {
			struct temp_sensor *s = &v[n];
			long long crit;

			memset(s, 0, sizeof(*s));
			snprintf(s->path, sizeof(s->path), "%s/temp%u_input", hwdir, t);
			if (sensor_sample(s))
				continue;
			snprintf(s->chip, sizeof(s->chip), "%s", chip);
			snprintf(path, sizeof(path), "%s/temp%u_label", hwdir, t);
			if (read_attr(path, s->label, sizeof(s->label)))
				snprintf(s->label, sizeof(s->label), "temp%u", t);
			snprintf(path, sizeof(path), "%s/temp%u_crit", hwdir, t);
			if (!read_int(path, &crit) && crit > 0 && crit < 200000)
				s->crit_millic = (int)crit;
			n++;
		}
	}
	for (int h = 0; h < nhw; h++)
		free(hw[h]);
	free(hw);
	return n;
}

int sensor_sample(struct temp_sensor *s)
{
	long long v;

	/* a sensor that reads nothing sensible (-273, 255 C) is not read */
	if (read_int(s->path, &v) || v < -60000 || v > 200000)
		return -1;
	s->millic = (int)v;
	return 0;
}

int throttle_counts(unsigned cpu, uint64_t *core, uint64_t *package)
{
	char path[160];
	long long c, p = 0;

	root_path(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/thermal_throttle/core_throttle_count", cpu);
	if (read_int(path, &c))
		return -1;
	root_path(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/thermal_throttle/package_throttle_count", cpu);
	read_int(path, &p);
	*core = (uint64_t)c;
	*package = (uint64_t)p;
	return 0;
}

void cpu_freq_khz(unsigned cpu, unsigned *cur, unsigned *base)
{
	char path[160];
	long long v;

	*cur = *base = 0;
	root_path(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/cpufreq/scaling_cur_freq", cpu);
	if (!read_int(path, &v) && v > 0)
		*cur = (unsigned)v;
	/* the base (rated, all-core sustained) frequency: intel_pstate and
	 * amd-pstate give it; cpuinfo_max_freq is a boost figure, no rating */
	root_path(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/cpufreq/base_frequency", cpu);
	if (!read_int(path, &v) && v > 0)
		*base = (unsigned)v;
}
