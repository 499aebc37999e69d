// SPDX-License-Identifier: MIT
/*
 * edac.c - EDAC's counters (edac.h), after the kernel's sysfs ABI
 * (Documentation/ABI/testing/sysfs-devices-edac): mcN/ce_count, ue_count,
 * ce_noinfo_count, ue_noinfo_count; mcN/dimmM/ (or rankM/ on csrow drivers)
 * dimm_ce_count, dimm_ue_count, dimm_label. The kernel log's reports after
 * drivers/edac/edac_mc.c's edac_ce_error() and edac_ue_error().
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "sys/edac.h"
#include "sys/kmsg.h"
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

int edac_log_report(const char *msg, struct edac_report *rep)
{
	const char *ce, *ue, *kind, *p, *end;
	unsigned long n;
	size_t len;

	/* kmsg.c's is_hw_error() takes these very lines as EDAC's: the two
	 * must agree, edac_log_machine_checks() subtracts one from the other */
	if (strncmp(msg, "EDAC ", 5))
		return 0;
	ce = strstr(msg, " CE ");
	ue = strstr(msg, " UE ");
	if (!ce && !ue)
		return 0;
	kind = !ce || (ue && ue < ce) ? ue : ce;
	memset(rep, 0, sizeof(*rep));
	rep->uncorrected = kind == ue;
	/* "1 CE": the number just before the word; "MC0: CE row": one */
	for (p = kind; p > msg && p[-1] >= '0' && p[-1] <= '9'; p--)
		;
	n = p < kind ? strtoul(p, NULL, 10) : 1;
	rep->count = n ? (unsigned)n : 1;
	if ((p = strstr(kind, " label \"")) != NULL) {
		p += 8;
		end = strchr(p, '"');
	} else if ((p = strstr(kind, " on ")) != NULL) {
		p += 4;
		end = strstr(p, " (");
	} else {
		return 1;
	}
	len = end ? (size_t)(end - p) : strlen(p);
	snprintf(rep->label, sizeof(rep->label), "%.*s", (int)len, p);
	return 1;
}

static void log_add(struct edac_log *l, uint64_t seq, const char *msg, const struct edac_report *rep)
{
	struct edac_dimm *d = NULL;

	l->seq = xrealloc(l->seq, (l->lines + 1) * sizeof(*l->seq));
	l->seq[l->lines++] = seq;
	for (unsigned i = 0; i < l->ndimms && !d; i++)
		if (!strcmp(l->dimm[i].label, rep->label))
			d = &l->dimm[i];
	if (!d && l->ndimms < EDAC_DIMMS) {
		d = &l->dimm[l->ndimms++];
		snprintf(d->label, sizeof(d->label), "%s", rep->label);
	}
	if (rep->uncorrected) {
		if (!l->ue)
			snprintf(l->first_ue, sizeof(l->first_ue), "%.*s", (int)sizeof(l->first_ue) - 1, msg);
		l->ue += rep->count;
		if (d)
			d->ue += rep->count;
	} else {
		l->ce += rep->count;
		if (d)
			d->ce += rep->count;
	}
}

int edac_log_read(uint64_t after, struct edac_log *l)
{
	struct kmsg_record *rec = xcalloc(1, sizeof(*rec));
	struct edac_report rep;
	int fd = kmsg_follow(), rc;

	memset(l, 0, sizeof(*l));
	if (fd < 0) {
		free(rec);
		return -1;
	}
	while ((rc = kmsg_next(fd, rec)) > 0)
		if (rec->seq > after && edac_log_report(rec->msg, &rep))
			log_add(l, rec->seq, rec->msg, &rep);
	close(fd);
	free(rec);
	return rc < 0 ? -1 : 0;
}

void edac_log_free(struct edac_log *l)
{
	free(l->seq);
	l->seq = NULL;
}

int edac_log_machine_checks(uint64_t after, char *first, size_t len)
{
	struct edac_log *l = xcalloc(1, sizeof(*l));
	int all, others, lo, hi;

	if (len)
		first[0] = 0;
	/* the whole log before EDAC's part: a report logged between the two
	 * reads can hide a machine check logged with it, never make one up */
	all = kmsg_hw_errors(after, first, len);
	if (all < 0 || edac_log_read(after, l)) {
		others = -1;
		goto out_free;
	}
	others = all - (int)l->lines;
	if (others <= 0) {
		others = 0;
		if (len)
			first[0] = 0;
		goto out_free;
	}
	if (!l->lines || !len)
		goto out_free;
	{
		struct edac_report rep;

		if (!edac_log_report(first, &rep))
			goto out_free;
	}
	/*
	 * The first hardware-error line is EDAC's: the first machine check
	 * follows the last EDAC report K before which all of them come. The
	 * machine checks after report k, kmsg_hw_errors(seq[k]) less the
	 * reports after it, only fall as k grows: halve the range (a failing
	 * DIMM logs hundreds of reports; each look reads the whole log).
	 */
	lo = 0;			/* every machine check is after report 0: the first line was it */
	hi = (int)l->lines - 1;
	while (lo < hi) {
		int mid = lo + (hi - lo + 1) / 2;

		if (kmsg_hw_errors(l->seq[mid], NULL, 0) - ((int)l->lines - 1 - mid) == others)
			lo = mid;
		else
			hi = mid - 1;
	}
	kmsg_hw_errors(l->seq[lo], first, len);
out_free:
	edac_log_free(l);
	free(l);
	return others;
}
