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
 * The event log is read whole, never its tail: a tail's first line is cut,
 * and a cut line read as a record is an event that never happened. An
 * event log too long to hold is an ERROR, not a guess.
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

/* `ipmitool sel elist` of a full SEL: 65535 records (IDs are 16 bits) of
 * at most about 250 characters each */
#define SEL_TEXT_MAX (16u << 20)

/* The IPMI device; under BOOTBENCH_SYSROOT the recorded tree's (a test's
 * ipmitool is then a program of its own on PATH). */
static const char *ipmi_device(void)
{
	char path[4096];

	for (unsigned i = 0; i < ARRAY_SIZE(devices); i++) {
		root_path(path, sizeof(path), "%s", devices[i]);
		if (!access(path, R_OK | W_OK))
			return devices[i];
	}
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

/*
 * Whether L is a record of `sel elist` ("   1a | date | time | sensor |
 * event | Asserted"), its ID in *ID: a record ID is 1 to 4 hex digits
 * (16 bits), then " |"; any other line (ipmitool's words) is none.
 */
static int record_id(const char *l, unsigned *id)
{
	size_t digits;

	l += strspn(l, " ");
	digits = strspn(l, "0123456789abcdefABCDEF");
	if (!digits || digits > 4 || strncmp(l + digits + strspn(l + digits, " "), "|", 1))
		return 0;
	*id = (unsigned)strtoul(l, NULL, 16);
	return 1;
}

static const char *next_line(const char *l)
{
	const char *nl = strchr(l, '\n');

	return nl ? nl + 1 : l + strlen(l);
}

/*
 * `ipmitool sel elist`, whole, into a buffer of the caller's to free: NULL
 * with the component's ERROR set (WHEN: "at the start", "at the end") when
 * it fails or its listing is more than the buffer holds (its tail alone
 * would begin with a cut line).
 */
static char *sel_list(struct burnin_result *r, const char *when)
{
	char *sel = xcalloc(1, SEL_TEXT_MAX);
	/* a whole SEL over KCS takes minutes: a record a few milliseconds */
	int rc = ipmitool("sel elist", sel, SEL_TEXT_MAX, 600);

	if (rc) {
		burnin_set(r, BURNIN_ERROR, "the BMC's event log could not be read %s (ipmitool sel elist, exit %d): "
			   "%.300s", when, rc, sel);
		goto out_free;
	}
	if (strlen(sel) == SEL_TEXT_MAX - 1) {
		burnin_set(r, BURNIN_ERROR, "the BMC's event log could not be read whole %s: its listing is over %u "
			   "MiB", when, SEL_TEXT_MAX >> 20);
		goto out_free;
	}
	return sel;
out_free:
	free(sel);
	return NULL;
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
	unsigned char seen[65536 / 8];	/* a bit a record ID */
} at_start;

static int seen_at_start(unsigned id)
{
	return at_start.seen[id / 8] >> (id % 8) & 1;
}

void burnin_bmc_begin(const struct burnin_ctx *c, struct burnin_result *r)
{
	static char info[8192];
	char *before;
	unsigned id;
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
	before = sel_list(r, "at the start");
	if (!before)
		return;
	for (const char *l = before; *l; l = next_line(l))
		if (record_id(l, &id) && !seen_at_start(id)) {
			at_start.seen[id / 8] |= (unsigned char)(1 << (id % 8));
			at_start.nids++;
		}
	free(before);
	at_start.ready = 1;
}

void burnin_bmc(const struct burnin_ctx *c, struct burnin_result *r)
{
	static char sensors[65536];
	unsigned events = 0, critical = 0, bad_sensors = 0, nsensors = 0;
	char *after;
	int rc;

	if (!at_start.ready)
		return;		/* begin said why */
	after = sel_list(r, "at the end");
	if (!after)
		return;
	save_text(c, "bmc-sel.txt", after);
	for (const char *l = after; *l; l = next_line(l)) {
		unsigned id;
		int len = (int)strcspn(l, "\n");
		char line[512];

		if (!record_id(l, &id) || seen_at_start(id))
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
	free(after);
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
