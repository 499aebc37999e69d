// SPDX-License-Identifier: MIT
/*
 * bmc.c - the bmc component: the BMC's System Event Log through ipmitool
 * (in-band, /dev/ipmi0: the image loads ipmi_si and ipmi_devintf) read
 * before and after the other components' time, and its sensors with their
 * thresholds. An event logged during the burn-in that speaks of memory
 * ECC, power, temperature, fans, the processor or a critical interrupt is
 * a FAIL quoting it; a sensor in a critical or non-recoverable state is a
 * FAIL naming it. No IPMI device is an ERROR said plainly. The readings go
 * to bmc-sensors.txt and the event log to bmc-sel.txt in the run's folder.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "burnin/burnin.h"
#include "lib/util.h"
#include "sys/root.h"

static const char *const devices[] = { "/dev/ipmi0", "/dev/ipmi/0", "/dev/ipmidev/0" };

/* The words of an event that make it critical for a burn-in. */
static const char *const critical[] = {
	"ECC", "Memory", "Uncorrectable", "Critical", "Non-recoverable", "Power Supply", "Power Unit", "AC lost",
	"Failure", "Fault", "Temperature", "Fan", "Processor", "IERR", "Machine Check", "Thermal Trip",
	"Critical Interrupt", "PCI SERR", "PCI PERR", "Bus Uncorrectable",
};

static const char *ipmi_device(void)
{
	for (unsigned i = 0; i < ARRAY_SIZE(devices); i++)
		if (!access(devices[i], R_OK | W_OK))
			return devices[i];
	return NULL;
}

/* BMC text is untrusted: printable ASCII only in what we repeat */
static void printable(char *s)
{
	for (; *s; s++)
		if (!isprint((unsigned char)*s) && *s != '\n')
			*s = '?';
}

static int ipmitool(const char *what, char *out, size_t len, double seconds)
{
	char *argv[8] = { "ipmitool" };
	char copy[128];
	int k = 1, stopped;

	snprintf(copy, sizeof(copy), "%s", what);
	for (char *save = NULL, *w = strtok_r(copy, " ", &save); w && k < 7; w = strtok_r(NULL, " ", &save))
		argv[k++] = w;
	argv[k] = NULL;
	k = spawn_for(argv, seconds, &burnin_stop, out, len, &stopped);	/* consent: ipmitool asks the BMC, writes no disk */
	printable(out);
	return k;
}

/* The record IDs of `sel elist` lines ("   1a | date | time | sensor | event | Asserted") */
static unsigned record_ids(const char *sel, unsigned *ids, unsigned max)
{
	unsigned n = 0;

	for (const char *l = sel; *l && n < max; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
		unsigned id;

		if (sscanf(l, " %x |", &id) == 1 && strchr(l, '|'))
			ids[n++] = id;
	}
	return n;
}

static int is_critical(const char *line)
{
	for (unsigned i = 0; i < ARRAY_SIZE(critical); i++)
		if (strstr(line, critical[i]))
			return 1;
	return 0;
}

static void save_text(const struct burnin_ctx *c, const char *name, const char *text)
{
	char path[4096];
	FILE *f;

	if (!c->outdir)
		return;
	snprintf(path, sizeof(path), "%s/%s", c->outdir, name);
	f = fopen(path, "we");	/* consent: a regular file in the run's folder */
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* What the start of the burn-in saw, for the end to compare with. */
static struct {
	const char *dev;
	int ready;
	unsigned nids;
	unsigned ids[8192];
} at_start;

void burnin_bmc_begin(const struct burnin_ctx *c, struct burnin_result *r)
{
	static char before[65536], info[8192];
	int rc;

	(void)c;
	if (!root_recorded()) {
		char *argv[] = { "modprobe", "-qa", "ipmi_si", "ipmi_devintf", "ipmi_ssif", NULL };

		spawn(argv, NULL, 0, NULL, 0);	/* consent: loads drivers, writes no disk */
	}
	at_start.dev = ipmi_device();
	if (!at_start.dev) {
		burnin_set(r, BURNIN_ERROR, "no BMC: no IPMI device (/dev/ipmi0) after loading ipmi_si and ipmi_ssif; "
			   "this machine has no BMC, or its BMC is not reachable in-band");
		return;
	}
	rc = ipmitool("mc info", info, sizeof(info), 60);
	if (rc) {
		burnin_set(r, BURNIN_ERROR, "the BMC does not answer (ipmitool mc info, exit %d): %.300s", rc, info);
		return;
	}
	const char *fw = strstr(info, "Firmware Revision");
	const char *colon = fw ? strchr(fw, ':') : NULL;

	if (colon)
		burnin_figure(r, "firmware", 0, "%.*s", (int)strcspn(colon + 2, "\n"), colon + 2);
	rc = ipmitool("sel elist", before, sizeof(before), 120);
	if (rc) {
		burnin_set(r, BURNIN_ERROR, "the BMC's event log could not be read (ipmitool sel elist, exit %d): %.300s",
			   rc, before);
		return;
	}
	at_start.nids = record_ids(before, at_start.ids, ARRAY_SIZE(at_start.ids));
	at_start.ready = 1;
}

void burnin_bmc(const struct burnin_ctx *c, struct burnin_result *r)
{
	static char after[65536], sensors[65536];
	unsigned events = 0, critical = 0, bad_sensors = 0, nsensors = 0;
	int rc;

	if (!at_start.ready)
		return;		/* begin said why */
	rc = ipmitool("sel elist", after, sizeof(after), 120);
	if (rc) {
		burnin_set(r, BURNIN_ERROR, "the BMC's event log could not be read at the end (exit %d): %.300s", rc,
			   after);
		return;
	}
	save_text(c, "bmc-sel.txt", after);
	for (const char *l = after; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
		unsigned id, seen = 0;
		int len = (int)strcspn(l, "\n");
		char line[512];

		if (sscanf(l, " %x |", &id) != 1 || !memchr(l, '|', len))
			continue;
		for (unsigned i = 0; i < at_start.nids && !seen; i++)
			seen = at_start.ids[i] == id;
		if (seen)
			continue;
		events++;
		snprintf(line, sizeof(line), "%.*s", len, l);
		if (is_critical(line)) {
			critical++;
			burnin_set(r, BURNIN_FAIL, "the BMC logged during the burn-in: %s", line);
		} else
			burnin_note(r, "a BMC event, not critical: %s", line);
	}
	burnin_figure(r, "sel_new_events", events, "%u new in the event log during the burn-in (%u before)", events,
		      at_start.nids);
	burnin_figure(r, "sel_critical_events", critical, "%u of them critical (memory ECC, power, temperature, fans, "
		      "processor)", critical);
	rc = ipmitool("sensor", sensors, sizeof(sensors), 120);
	if (rc) {
		burnin_set(r, BURNIN_ERROR, "the BMC's sensors could not be read (ipmitool sensor, exit %d)", rc);
	} else {
		save_text(c, "bmc-sensors.txt", sensors);
		/* "name | reading | unit | status | lnr | lcr | lnc | unc | ucr | unr" */
		for (const char *l = sensors; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
			char name[64], reading[32], unit[32], status[16];

			if (sscanf(l, "%63[^|]| %31[^|]| %31[^|]| %15[^| ]", name, reading, unit, status) != 4)
				continue;
			nsensors++;
			if (!strcmp(status, "cr") || !strcmp(status, "nr")) {
				bad_sensors++;
				for (int e = (int)strlen(name) - 1; e >= 0 && name[e] == ' '; e--)
					name[e] = 0;
				burnin_set(r, BURNIN_FAIL, "BMC sensor %s reads %.*s %.*s, %s", name,
					   (int)strcspn(reading, " "), reading, (int)strcspn(unit, " "), unit,
					   !strcmp(status, "cr") ? "critical" : "non-recoverable");
			}
		}
		burnin_figure(r, "sensors", nsensors, "%u read, %u critical (bmc-sensors.txt)", nsensors, bad_sensors);
	}
	if (r->verdict == BURNIN_SKIPPED)
		burnin_set(r, BURNIN_PASS, "no critical event logged by the BMC during the burn-in, no sensor critical "
			   "(through %s)", at_start.dev);
}
