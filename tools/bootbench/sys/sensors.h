/* SPDX-License-Identifier: MIT */
/*
 * sensors.h - a CPU's heat and speed as the kernel exposes them: the
 * temperature sensors of the CPU's hwmon drivers (coretemp, k10temp,
 * zenpower), the thermal-throttle event counters of each CPU, and the
 * frequency each CPU runs at against its base (rated) one. All read-only,
 * from /sys (or a recorded copy: sys/root.h).
 */
#ifndef BB_SYS_SENSORS_H
#define BB_SYS_SENSORS_H

#include <stdint.h>

#define SENSORS_MAX 128

struct temp_sensor {
	char chip[32];		/* the hwmon driver: coretemp, k10temp */
	char label[48];		/* "Package id 0", "Core 3", "Tctl" (temp1 when unlabelled) */
	char path[600];		/* its tempN_input at its device's path, read again for each sample */
	int millic;		/* the last reading, thousandths of a degree C */
	int crit_millic;	/* its own critical limit (tempN_crit), 0 if none */
};

/* The CPU temperature sensors: their count (0: none) in V, each read once. */
unsigned sensors_cpu(struct temp_sensor *v, unsigned max);
/* Reads S again; -1 when it no longer reads (its device gone, or unbound and
 * bound again: a new hwmonN, and its old number maybe another chip's). */
int sensor_sample(struct temp_sensor *s);

/* A CPU's thermal-throttle events so far: core and package counts; -1 when
 * the CPU has no counters (no thermal_throttle directory: a VM, AMD). */
int throttle_counts(unsigned cpu, uint64_t *core, uint64_t *package);

/* A CPU's current and base (rated) frequency in kHz; 0 where unknown (the
 * base: intel_pstate's and amd-pstate's base_frequency). */
void cpu_freq_khz(unsigned cpu, unsigned *cur, unsigned *base);

#endif
