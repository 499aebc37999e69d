// SPDX-License-Identifier: MIT
/*
 * edac.c - EDAC's counters (edac.h), after the kernel's sysfs ABI
 * (Documentation/ABI/testing/sysfs-devices-edac): mcN/ce_count, ue_count,
 * ce_noinfo_count, ue_noinfo_count; mcN/dimmM/ (or rankM/ on csrow drivers)
 * dimm_ce_count, dimm_ue_count, dimm_label.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "sys/edac.h"
#include "sys/root.h"

static uint64_t count(const char *dir, const char *name)
{
	char path[1024], buf[32];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return read_attr(path, buf, sizeof(buf)) ? 0 : strtoull(buf, NULL, 10);
}

static void read_dimms(struct edac *e, const char *mc_dir, const char *mc)
{
	struct dirent **d = NULL;
	int n = scandir(mc_dir, &d, NULL, alphasort);

	for (int i = 0; i < n; i++) {
		const char *name = d[i]->d_name;
		char dir[900], path[1000];

		if ((!strncmp(name, "dimm", 4) || !strncmp(name, "rank", 4)) && e->ndimms < EDAC_DIMMS &&
		    name[4] >= '0' && name[4] <= '9') {
			struct edac_dimm *m = &e->dimm[e->ndimms++];

			snprintf(dir, sizeof(dir), "%s/%s", mc_dir, name);
			snprintf(m->id, sizeof(m->id), "%.8s/%.12s", mc, name);
			snprintf(path, sizeof(path), "%s/dimm_label", dir);
			if (read_attr(path, m->label, sizeof(m->label)) || !m->label[0])
				memcpy(m->label, m->id, sizeof(m->id));
			m->ce = count(dir, "dimm_ce_count");
			m->ue = count(dir, "dimm_ue_count");
		}
		free(d[i]);
	}
	free(d);
}

int edac_read(struct edac *e)
{
	char dir[160], mc_dir[600];
	struct dirent **d = NULL;
	int n;

	memset(e, 0, sizeof(*e));
	root_path(dir, sizeof(dir), "/sys/devices/system/edac/mc");
	n = scandir(dir, &d, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		const char *name = d[i]->d_name;

		if (!strncmp(name, "mc", 2) && name[2] >= '0' && name[2] <= '9') {
			snprintf(mc_dir, sizeof(mc_dir), "%s/%s", dir, name);
			e->controllers++;
			e->ce += count(mc_dir, "ce_count");
			e->ue += count(mc_dir, "ue_count");
			read_dimms(e, mc_dir, name);
		}
		free(d[i]);
	}
	free(d);
	return e->controllers ? 0 : -1;
}
