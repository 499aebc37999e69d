// SPDX-License-Identifier: MIT
/* registry.c - the burn-in's components, in the order they run (burnin.h). */
#include <string.h>

#include "burnin/burnin.h"
#include "lib/util.h"

/* set by Ctrl-C (cmd/burnin.c); each component and its programs stop (spawn_for) */
volatile sig_atomic_t burnin_stop;

const struct burnin_component burnin_components[] = {
	{ "disks", "each disk's own self-test, the burnin profile's verified passes with consent (one read "
		   "without), its health counters before and after", 1, NULL, burnin_disks },
	{ "cpu", "every CPU under stress-ng's self-checking stressors; temperatures, throttling, frequency, "
		 "machine checks", 1, NULL, burnin_cpu },
	{ "memory", "what is free after boot, mlocked, under memtester's patterns (a thread a CPU), then "
		    "stress-ng's vm stressors with --verify; EDAC's counts per DIMM, machine checks", 1, NULL,
	  burnin_memory },
	{ "net", "each link's speed against the best its port advertises, its errors and carrier changes, a "
		 "bond by its members; iperf3 to the server named, each way, its parallel streams' sum against "
		 "a bar", 1, NULL, burnin_net },
	{ "bmc", "the BMC's event log (ipmitool) from the start of the burn-in to its end: a critical event "
		 "logged meanwhile FAILs, a full log (it logs nothing new) is an ERROR; --clear-sel saves it with "
		 "the results and clears it first; its sensors and their thresholds", 0, burnin_bmc_begin, burnin_bmc },
	{ "pcie", "each PCIe device's AER error counters from the start of the burn-in to its end (an "
		  "uncorrectable error, or corrected ones over pcie_ce_max, FAILs naming its slot); each link's "
		  "speed and width against what both its ends can, read before, during and after the load: a link "
		  "below it or retrained FAILs", 0, burnin_pcie_begin, burnin_pcie },
};
const unsigned burnin_ncomponents = ARRAY_SIZE(burnin_components);

const struct burnin_component *burnin_component(const char *name)
{
	for (unsigned i = 0; i < burnin_ncomponents; i++)
		if (!strcmp(burnin_components[i].name, name))
			return &burnin_components[i];
	return NULL;
}
