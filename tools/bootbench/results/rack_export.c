// SPDX-License-Identifier: MIT
/*
 * rack_export.c - the rack's list as Prometheus exposition text
 * (rack_export.h), for the Pushgateway (a group of its own:
 * curl --data-binary @- http://GATEWAY:9091/metrics/job/bootbench_rack) or
 * a node exporter's textfile folder. The machine label is sys/ident.h's
 * key, the one rule by which a machine names itself when it pushes, so a
 * listed serial "abc 123/4" meets the ABC_123_4 its machine pushes. A
 * position listed without a machine (an empty U) is no machine expected.
 */
#include "results/rack_export.h"

#include "sys/ident.h"
#include "save/metrics.h"

unsigned rack_export(const struct rack *r, FILE *out)
{
	unsigned i, n = 0;

	fputs("# HELP bootbench_expected_machine_info A machine of the rack's list (bootbench fleet --export): machine "
	      "is the name it pushes under.\n# TYPE bootbench_expected_machine_info gauge\n", out);
	for (i = 0; i < r->listed; i++) {
		const struct rack_machine *m = &r->m[i];
		char key[128], machine[256], serial[256], mac[40], position[128];

		if (machine_key(m->serial[0] ? m->serial : NULL, m->mac[0] ? m->mac : NULL, key, sizeof(key)))
			continue;
		/* the list's text is printable ASCII already (rack_read_csv): escaped as any label */
		metrics_label(machine, sizeof(machine), key);
		metrics_label(serial, sizeof(serial), m->serial);
		metrics_label(mac, sizeof(mac), m->mac);
		metrics_label(position, sizeof(position), m->position);
		fprintf(out, "bootbench_expected_machine_info{machine=\"%s\",serial=\"%s\",mac=\"%s\",position=\"%s\"} 1\n",
			machine, serial, mac, position);
		n++;
	}
	return n;
}
