// SPDX-License-Identifier: MIT
/*
 * limits.c - what each verdict is measured against: one row a limit, with
 * its default and where that comes from (bootbench burnin --help, the docs'
 * table and bootbench.conf's burnin_NAME lines all read this table).
 */
#include <stdlib.h>
#include <string.h>

#include "burnin/burnin.h"
#include "lib/util.h"

#define AT(field) offsetof(struct burnin_limits, field)

const struct burnin_limit_row burnin_limit_rows[] = {
	{ "disks_need_selftest", AT(disks_need_selftest), 1, 0, 1, "0|1",
	  "1: a drive that will not run its own self-test (a VM's, a USB bridge's) is an ERROR, as it "
	  "was not tested; 0 accepts the write/read pass alone" },
	{ "cpu_temp_max", AT(cpu_temp_max), 90, 40, 125, "C",
	  "a CPU sensor above it under load FAILs (and above the sensor's own critical limit): "
	  "Intel parts throttle at TjMax, typically 100 C, AMD's Tctl at 95 C; 90 leaves the "
	  "margin a healthy cooler keeps" },
	{ "cpu_need_sensors", AT(cpu_need_sensors), 1, 0, 1, "0|1",
	  "1: a machine without CPU temperature sensors (hwmon) is an ERROR, as heat was not "
	  "tested; 0 for a VM, which has none" },
	{ "cpu_need_all", AT(cpu_need_all), 1, 0, 1, "0|1",
	  "1: a burn-in that may run on fewer CPUs than are on line (its affinity: taskset, a "
	  "cpuset) is an ERROR, as the others were not tested; 0 accepts the CPUs it may run on, and "
	  "says how many" },
	{ "cpu_freq_min", AT(cpu_freq_min), 0.9, 0, 1, "ratio",
	  "the frequency sustained under load against the base frequency the CPU gives "
	  "(intel_pstate, amd-pstate): a CPU under it in over a tenth of the samples taken while a "
	  "stressor runs FAILs: power or thermal capping. 0: not checked" },
	{ "memory_fraction", AT(memory_fraction), 0.9, 0.1, 0.95, "ratio",
	  "the share of the memory available after boot that is tested (MemAvailable; the "
	  "kernel and the image keep the rest)" },
	{ "memory_ce_max", AT(memory_ce_max), 10, 0, 1000000, "errors",
	  "corrected errors a DIMM may log during the burn-in; more FAILs, naming it. A failing "
	  "DIMM logs hundreds; 10 lets a stray one by" },
	{ "memory_need_edac", AT(memory_need_edac), 1, 0, 1, "0|1",
	  "1: no EDAC memory controller (non-ECC memory, no driver, a VM) is an ERROR, as ECC "
	  "errors were not counted; 0 accepts the pattern tests alone" },
	{ "memory_loops", AT(memory_loops), 3, 1, 1000, "loops",
	  "times memtester's patterns run over the share, as their time allows (3/4 of the "
	  "memory's): memtester's own advice is several; a loop writes and reads it back ~1300 times" },
	{ "net_ratio", AT(net_ratio), 0.9, 0.1, 1, "ratio",
	  "iperf3's throughput each way (its streams' sum) must reach this share of the speed of the "
	  "link it takes (a bond: what its mode gives one peer); a healthy 10G or 25G link carries over "
	  "90% of it in TCP payload" },
	{ "net_min_mbps", AT(net_min_mbps), 0, 0, 1000000, "Mb/s",
	  "the bar in Mb/s instead (0: net_ratio of the link's speed); for a peer or a path slower than "
	  "the link" },
	{ "together_overlap_min", AT(together_overlap_min), 0.5, 0, 1, "ratio",
	  "the share of the together phase during which every load asked for must be seen at once "
	  "(the CPUs it may run on 90% busy, half the memory's share resident in the memory component's "
	  "processes, disks and network moving); less is an "
	  "ERROR: the worst case of heat and power was not held. Starting (the memory locked, the "
	  "disks measured) and ending take the rest" },
	{ "pcie_ce_max", AT(pcie_ce_max), 10, 0, 1000000, "errors",
	  "corrected PCIe errors (AER: a bad TLP or DLLP replayed, a receiver error) a device may log "
	  "during the burn-in; more FAILs, naming it and its slot. A sound link logs none for hours; a "
	  "marginal one (a riser, a dirty edge connector, a lane going bad) logs them by the hundred "
	  "under load; 10 lets a stray one by, as at a power-state change" },
	{ "pcie_need_aer", AT(pcie_need_aer), 1, 0, 1, "0|1",
	  "1: no PCI device with AER counters (a kernel without AER, a VM) is an ERROR, as PCIe errors "
	  "were not counted; 0 lets the links alone decide" },
};
const unsigned burnin_nlimits = ARRAY_SIZE(burnin_limit_rows);

void burnin_limits_default(struct burnin_limits *l)
{
	for (unsigned i = 0; i < burnin_nlimits; i++)
		*(double *)((char *)l + burnin_limit_rows[i].offset) = burnin_limit_rows[i].def;
}

int burnin_limits_parse(struct burnin_limits *l, const char *list)
{
	char *copy = xstrdup(list), *save = NULL, *item;
	int rc = 0;

	for (item = strtok_r(copy, ",", &save); item && !rc; item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '='), *end;
		const struct burnin_limit_row *row = NULL;
		double v;

		if (!eq) {
			rc = set_err("--limits: '%.60s': expected NAME=VALUE", item);
			break;
		}
		*eq = 0;
		for (unsigned i = 0; i < burnin_nlimits; i++)
			if (!strcmp(burnin_limit_rows[i].name, item))
				row = &burnin_limit_rows[i];
		if (!row) {
			rc = set_err("--limits: unknown limit '%.60s' (see 'bootbench burnin --help')", item);
			break;
		}
		v = strtod(eq + 1, &end);
		if (end == eq + 1 || *end || v != v || v < row->min || v > row->max) {
			rc = set_err("--limits: %s=%.60s: expected a number from %g to %g (%s)", row->name, eq + 1,
				     row->min, row->max, row->unit);
			break;
		}
		*(double *)((char *)l + row->offset) = v;
	}
	free(copy);
	return rc ? -1 : 0;
}
