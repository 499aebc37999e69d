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
 *
 * A full event log logs nothing new: its state (`ipmitool sel info`) is
 * read first. Full (overflow set, or no room for a record) is an ERROR:
 * no verdict can be had from it. With --clear-sel (consent) the log is
 * saved whole to bmc-sel-before-clear.txt in the run's folder, cleared,
 * and seen empty before the burn-in; never cleared unless saved. Nearly
 * full is a note. A log that fills during the burn-in, loses records, or
 * whose listing counts fewer records than the BMC does is an ERROR too: an
 * event of the burn-in may be missing from it.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* A SEL record takes 16 bytes, whatever its type (IPMI 2.0, 31.6). */
#define SEL_RECORD_BYTES 16
/*
 * Nearly full: 90% used, or room for fewer than 64 records. One fault
 * logs several: a temperature or a fan crossing its thresholds asserts up
 * to three going one way (non-critical, critical, non-recoverable) and
 * deasserts them coming back, and a flapping sensor repeats that every
 * few minutes; a DIMM going bad logs its corrected errors until the
 * BMC's logging limit. 64 records hold a few such bursts in a day's
 * burn-in; a log of 128 records (QEMU's) is nearly full from 65.
 */
#define SEL_NEARLY_PERCENT 90.0
#define SEL_NEARLY_ROOM 64
/* the whole log as it was before --clear-sel cleared it, in the run's folder */
#define SEL_SAVED "bmc-sel-before-clear.txt"
/* how long a BMC may take to erase its log (ipmitool: "Please allow a few
 * seconds to erase"), and how many records a cleared log may hold: those
 * the BMC logs about the clearing itself ("Log area reset/cleared") */
#define SEL_ERASE_SECONDS 10
#define SEL_CLEARED_RECORDS_MAX 4

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
	/* sel clear empties the BMC's own log, with consent (--clear-sel) */
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

/* The records of a listing. */
static unsigned count_records(const char *sel)
{
	unsigned n = 0, id;

	for (const char *l = sel; *l; l = next_line(l))
		n += record_id(l, &id);
	return n;
}

/*
 * A record's key: its whole line (ID, time, sensor, event), FNV-1a, the
 * blanks around it left out. Not its ID alone: IDs are used again (QEMU's
 * BMC numbers records by their slot, from 0 after a clear; a log that
 * wraps overwrites its oldest), and a new event under an old ID is new.
 */
static uint64_t record_key(const char *l)
{
	uint64_t h = 14695981039346656037ull;
	size_t len;

	l += strspn(l, " ");
	len = strcspn(l, "\n");
	while (len && (l[len - 1] == ' ' || l[len - 1] == '\r'))
		len--;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)l[i]) * 1099511628211ull;
	return h;
}

static int key_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The keys of a listing's records, in its order, into *KEYS (the caller's to free): how many. */
static size_t keys_of(const char *sel, uint64_t **keys)
{
	size_t n = 0;
	unsigned id;

	*keys = xcalloc(count_records(sel) + 1, sizeof(**keys));
	for (const char *l = sel; *l; l = next_line(l))
		if (record_id(l, &id))
			(*keys)[n++] = record_key(l);
	return n;
}

/* KEYS sorted, each once: how many are left. */
static size_t sort_unique(uint64_t *keys, size_t n)
{
	size_t u = 0;

	qsort(keys, n, sizeof(*keys), key_cmp);
	for (size_t i = 0; i < n; i++)
		if (!u || keys[u - 1] != keys[i])
			keys[u++] = keys[i];
	return u;
}

static int has_key(const uint64_t *sorted, size_t n, uint64_t key)
{
	return n && bsearch(&key, sorted, n, sizeof(key), key_cmp) != NULL;
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

/* The event log's state, as `ipmitool sel info` gives it. */
struct sel_state {
	unsigned entries;
	unsigned free_bytes;
	int free_more;		/* "65535 bytes or more": the field's most */
	int overflow;		/* the BMC dropped events for want of room */
	double used_pct;	/* ours: ipmitool's own wraps past 4095 records */
	char last_add[64];	/* "Last Add Time": a record added shows here */
};

/* The value of the line of TEXT that starts with NAME (then blanks and ':'), NULL if none. */
static const char *info_field(const char *text, const char *name, size_t *len)
{
	size_t n = strlen(name);

	for (const char *l = text; *l; l = next_line(l)) {
		const char *v = l + n;

		if (strncmp(l, name, n) || (*v != ' ' && *v != ':'))
			continue;
		v += strspn(v, " ");
		if (*v != ':')
			continue;
		v += 1 + strspn(v + 1, " ");
		*len = strcspn(v, "\n");
		return v;
	}
	return NULL;
}

static int info_number(const char *text, const char *name, unsigned *value, const char **rest)
{
	size_t len;
	const char *v = info_field(text, name, &len);
	char *end;
	unsigned long n;

	if (!v || !isdigit((unsigned char)*v))
		return -1;
	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno || n > 0xffff)
		return -1;
	*value = (unsigned)n;
	if (rest)
		*rest = end;
	return 0;
}

/*
 * `ipmitool sel info` into *S: 0, or -1 with the component's ERROR set
 * (WHEN as for sel_list). The share used is computed here, from the
 * entries and the free space: ipmitool's "Percent Used" multiplies the
 * entries by 16 in 16 bits (0% for 4096 records) and says "unknown" for
 * any log of 64 KiB or more.
 */
static int sel_info(struct burnin_result *r, const char *when, struct sel_state *s)
{
	char info[4096];
	const char *rest, *v;
	size_t len;
	double used;
	int rc = ipmitool("sel info", info, sizeof(info), 60);

	memset(s, 0, sizeof(*s));
	if (rc) {
		burnin_set(r, BURNIN_ERROR, "the BMC's event log's state could not be read %s (ipmitool sel info, exit "
			   "%d): %.300s; whether it has room for the burn-in's events is not known", when, rc, info);
		return -1;
	}
	v = info_field(info, "Overflow", &len);
	if (info_number(info, "Entries", &s->entries, NULL) ||
	    info_number(info, "Free Space", &s->free_bytes, &rest) || !v ||
	    (strncmp(v, "true", 4) && strncmp(v, "false", 5))) {
		burnin_set(r, BURNIN_ERROR, "the BMC's event log's state could not be read %s: ipmitool sel info gave "
			   "no Entries, Free Space or Overflow: %.300s", when, info);
		return -1;
	}
	s->overflow = !strncmp(v, "true", 4);
	s->free_more = s->free_bytes == 0xffff || !strncmp(rest + strspn(rest, " "), "bytes or more", 13);
	v = info_field(info, "Last Add Time", &len);
	if (v)
		snprintf(s->last_add, sizeof(s->last_add), "%.*s", (int)len, v);
	used = (double)s->entries * SEL_RECORD_BYTES;
	/* a log with no room at all is wholly used, even empty */
	s->used_pct = used + s->free_bytes > 0 ? 100 * used / (used + s->free_bytes) : 100;
	return 0;
}

static int sel_full(const struct sel_state *s)
{
	return s->overflow || s->free_bytes < SEL_RECORD_BYTES;
}

static int sel_nearly_full(const struct sel_state *s)
{
	return !sel_full(s) && !s->free_more &&
	       (s->used_pct >= SEL_NEARLY_PERCENT || s->free_bytes / SEL_RECORD_BYTES < SEL_NEARLY_ROOM);
}

/* "1200 records, 93.8% used (1280 bytes free: room for 80 more)" */
static const char *sel_describe(const struct sel_state *s, char *buf, size_t len)
{
	if (s->free_more)
		snprintf(buf, len, "%u records, at most %.1f%% used (%u bytes or more free)", s->entries, s->used_pct,
			 s->free_bytes);
	else
		snprintf(buf, len, "%u records, %.1f%% used (%u bytes free: room for %u more)%s", s->entries,
			 s->used_pct, s->free_bytes, s->free_bytes / SEL_RECORD_BYTES,
			 s->overflow ? ", overflow: the BMC has dropped events" : "");
	return buf;
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

/*
 * TEXT to NAME in the run's folder, made new (an earlier run's is never
 * overwritten: it may be the only copy of a log cleared since), written
 * whole and on disk before this returns 0; else -1, nothing left there,
 * and why in WHY.
 */
static int save_new(const char *dir, const char *name, const char *text, char *why, size_t len)
{
	char path[4096];
	size_t n = strlen(text), done = 0;
	struct stat st;
	int fd, err;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);	/* consent: a regular file, made new, in the run's folder */
	if (fd < 0) {
		snprintf(why, len, "%s could not be made (%s)", path,
			 errno == EEXIST ? "an earlier run's is there, never overwritten" : strerror(errno));
		return -1;
	}
	while (done < n) {
		ssize_t w = write(fd, text + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			goto fail;
		done += (size_t)w;
	}
	if (fsync(fd) || fstat(fd, &st))
		goto fail;
	if ((size_t)st.st_size != n) {
		errno = EIO;
		goto fail;
	}
	if (close(fd)) {
		fd = -1;
		goto fail;
	}
	return 0;
fail:
	err = errno ? errno : ENOSPC;	/* a write of 0 bytes: no room */
	if (fd >= 0)
		close(fd);
	unlink(path);
	snprintf(why, len, "%s could not be written whole (%s)", path, strerror(err));
	return -1;
}

/* Whether every record of SEL is one a BMC logs about its log's clearing. */
static int only_clearing_records(const char *sel)
{
	unsigned id;

	for (const char *l = sel; *l; l = next_line(l)) {
		size_t len = strcspn(l, "\n");

		if (record_id(l, &id) && !memmem(l, len, "Log area reset/cleared", 22))
			return 0;
	}
	return 1;
}

/*
 * --clear-sel: the log (its state in *S) saved whole to SEL_SAVED in the
 * run's folder, cleared, and seen cleared. 1: cleared, *S its state now;
 * 0: not cleared (nothing asked of the BMC), why in WHY; -1: the ERROR
 * set (the log could not be read, or the clearing failed).
 *
 * Saved whole: the listing holds as many records as the BMC counts (a
 * listing cut short exits 0: ipmitool stops at a record it cannot read),
 * the file is written to its end and synced. The log is read again after
 * the save: a record added meanwhile (the count or the last addition's
 * time moved) means it is listed and saved again, so the clear drops
 * nothing unsaved. Cleared: the BMC then counts no record but those it
 * logs about the clearing, and no overflow; ipmitool's exit 0 alone is no
 * proof (a BMC erases after it answered, or not at all).
 */
static int sel_save_and_clear(const struct burnin_ctx *c, struct burnin_result *r, struct sel_state *s,
			      char *why, size_t len)
{
	char out[4096], was[160], *sel = NULL;
	struct sel_state after;
	unsigned listed = 0;
	int saved = 0;

	if (!c->outdir) {
		snprintf(why, len, "there is no run's folder to save it in first (--output)");
		return 0;
	}
	for (int tries = 0; tries < 3 && !saved; tries++) {
		char path[4096];

		if (tries) {
			snprintf(path, sizeof(path), "%s/%s", c->outdir, SEL_SAVED);
			unlink(path);	/* this run's own, of a log that has grown since */
		}
		sel = sel_list(r, "before it was cleared");
		if (!sel)
			return -1;
		listed = count_records(sel);
		if (listed < s->entries) {
			snprintf(why, len, "its listing holds %u records where the BMC counts %u: a listing cut short "
				 "is not saved whole", listed, s->entries);
			free(sel);
			return 0;
		}
		if (save_new(c->outdir, SEL_SAVED, sel, why, len)) {
			free(sel);
			return 0;
		}
		free(sel);
		if (sel_info(r, "before it was cleared", &after))
			return -1;
		saved = after.entries == s->entries && after.overflow == s->overflow &&
			!strcmp(after.last_add, s->last_add);
		*s = after;
	}
	if (!saved) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/%s", c->outdir, SEL_SAVED);
		unlink(path);
		snprintf(why, len, "records were added to it while it was saved, three times over");
		return 0;
	}
	if (burnin_stop) {
		snprintf(why, len, "the burn-in was stopped (saved in %s)", SEL_SAVED);
		return 0;
	}
	sel_describe(s, was, sizeof(was));
	int rc = ipmitool("sel clear", out, sizeof(out), 60);

	if (rc) {
		burnin_set(r, BURNIN_ERROR, "the BMC's event log (%s) could not be cleared (ipmitool sel clear, exit "
			   "%d): %.300s; it is saved in %s", was, rc, out, SEL_SAVED);
		return -1;
	}
	for (uint64_t t0 = now_ns();;) {
		if (sel_info(r, "after it was cleared", &after))
			return -1;
		if (!after.overflow && after.entries <= SEL_CLEARED_RECORDS_MAX) {
			char *now = after.entries ? sel_list(r, "after it was cleared") : NULL;
			int cleared = !after.entries ||
				      (now && count_records(now) >= after.entries && only_clearing_records(now));

			free(now);
			if (after.entries && !now)
				return -1;
			if (cleared)
				break;
		}
		if (burnin_stop || now_ns() - t0 > SEL_ERASE_SECONDS * 1000000000ull) {
			burnin_set(r, BURNIN_ERROR, "the BMC's event log was not cleared: ipmitool sel clear exited 0, "
				   "but %s the BMC still counted %u records%s (before: %s); it is saved in %s",
				   burnin_stop ? "when the burn-in was stopped" : "10 s later", after.entries,
				   after.overflow ? " and its overflow" : "", was, SEL_SAVED);
			return -1;
		}
		sleep_ns(500000000);
	}
	burnin_note(r, "the BMC's event log (%s) was saved to %s and cleared before the run (--clear-sel)", was,
		    SEL_SAVED);
	*s = after;
	return 1;
}

/* What the start of the burn-in saw, for the end to compare with. */
static struct {
	const char *dev;
	int ready;
	int cleared;		/* by --clear-sel, saved in SEL_SAVED */
	uint64_t *order;	/* the records' keys in the listing's order (oldest first) */
	size_t norder;
	uint64_t *seen;		/* the same, sorted, each once */
	size_t nseen;
} at_start;

void burnin_bmc_begin(const struct burnin_ctx *c, struct burnin_result *r)
{
	static char info[8192];
	char why[4200] = "", desc[160];
	struct sel_state s;
	char *before;
	int rc, cleared = 0;

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
		burnin_figure(r, "firmware", NAN, "%.*s", (int)strcspn(colon + 2, "\n"), colon + 2);
	if (sel_info(r, "at the start", &s))
		return;
	sel_describe(&s, desc, sizeof(desc));
	burnin_figure(r, "sel_entries", s.entries, "%u in the BMC's event log at the start%s", s.entries,
		      c->clear_sel && c->outdir && (s.entries || s.overflow) ? " (before --clear-sel)" : "");
	if (s.free_more)
		burnin_figure(r, "sel_used_percent", s.used_pct, "at most %.1f%% (%u bytes or more free)", s.used_pct,
			      s.free_bytes);
	else
		burnin_figure(r, "sel_used_percent", s.used_pct, "%.1f%% (%u bytes free: room for %u more records%s)",
			      s.used_pct, s.free_bytes, s.free_bytes / SEL_RECORD_BYTES, s.overflow ? "; overflow" : "");
	if (c->clear_sel && !s.entries && !s.overflow)
		burnin_note(r, "the BMC's event log held no record: nothing to save or clear (--clear-sel)");
	if (c->clear_sel && (s.entries || s.overflow)) {
		cleared = sel_save_and_clear(c, r, &s, why, sizeof(why));
		if (cleared < 0)
			return;
		if (!cleared && !sel_full(&s))
			burnin_note(r, "the BMC's event log was not cleared (--clear-sel): %s", why);
	}
	if (sel_full(&s)) {
		if (c->clear_sel && !why[0])
			snprintf(why, sizeof(why), "it holds no record, and clearing it makes no room");
		burnin_set(r, BURNIN_ERROR, "the BMC's event log is full (%s): an event during the burn-in may not be "
			   "logged, so the bmc verdict cannot be established; %s%s", desc,
			   c->clear_sel ? "it was not cleared (--clear-sel): " : "--clear-sel (consent) saves it with "
			   "the results (--output) and clears it before the run",
			   c->clear_sel ? why : "");
		return;
	}
	if (sel_nearly_full(&s))
		burnin_note(r, "the BMC's event log is nearly full (%s): the burn-in's events may fill it, which "
			    "leaves no verdict; --clear-sel (consent) saves it with the results and clears it", desc);
	before = sel_list(r, "at the start");
	if (!before)
		return;
	if (count_records(before) < s.entries) {
		burnin_set(r, BURNIN_ERROR, "the BMC's event log could not be read whole at the start: its listing "
			   "holds %u records where the BMC counts %u", count_records(before), s.entries);
		free(before);
		return;
	}
	at_start.norder = keys_of(before, &at_start.order);
	at_start.seen = xcalloc(at_start.norder + 1, sizeof(*at_start.seen));
	memcpy(at_start.seen, at_start.order, at_start.norder * sizeof(*at_start.seen));
	at_start.nseen = sort_unique(at_start.seen, at_start.norder);
	at_start.cleared = cleared > 0;
	free(before);
	at_start.ready = 1;
}

/*
 * Records of the start gone at the end: a log that wraps overwrites its
 * oldest, as many as it logged new (the start's first records gone, the
 * log as long as it was); anything else is a log cleared or records
 * deleted during the burn-in, and an event logged before then may have
 * gone with them: an ERROR. END: the end's keys, sorted; NEND its records.
 */
static void records_gone(struct burnin_result *r, const uint64_t *end, size_t nend, size_t end_records)
{
	size_t gone = 0, oldest = 0;

	for (size_t i = 0; i < at_start.norder; i++)
		if (!has_key(end, nend, at_start.order[i])) {
			gone++;
			if (oldest == i)
				oldest++;
		}
	if (!gone)
		return;
	if (gone == oldest && gone < at_start.norder && end_records >= at_start.norder)
		burnin_note(r, "the BMC's event log wraps: its %zu oldest records were overwritten during the burn-in",
			    gone);
	else
		burnin_set(r, BURNIN_ERROR, "%zu of the %zu records the BMC's event log held at the start are gone at "
			   "the end (cleared or deleted during the burn-in): an event logged meanwhile may have gone "
			   "with them", gone, at_start.norder);
}

void burnin_bmc(const struct burnin_ctx *c, struct burnin_result *r)
{
	static char sensors[65536];
	unsigned events = 0, critical = 0, bad_sensors = 0, nsensors = 0, listed;
	struct sel_state end;
	uint64_t *keys;
	size_t nkeys;
	char *after, desc[160];
	int rc;

	if (!at_start.ready)
		return;		/* begin said why */
	/* the state first: the listing after it holds at least its records */
	if (sel_info(r, "at the end", &end))
		return;
	after = sel_list(r, "at the end");
	if (!after)
		return;
	save_text(c, "bmc-sel.txt", after);
	listed = count_records(after);
	if (listed < end.entries)
		burnin_set(r, BURNIN_ERROR, "the BMC's event log could not be read whole at the end: its listing holds "
			   "%u records where the BMC counts %u, so an event of the burn-in may be missing from it",
			   listed, end.entries);
	for (const char *l = after; *l; l = next_line(l)) {
		unsigned id;
		int len = (int)strcspn(l, "\n");
		char line[512];

		if (!record_id(l, &id) || has_key(at_start.seen, at_start.nseen, record_key(l)))
			continue;
		events++;
		snprintf(line, sizeof(line), "%.*s", len, l);
		if (is_critical(line)) {
			critical++;
			burnin_set(r, BURNIN_FAIL, "the BMC logged during the burn-in: %s", line);
		} else
			burnin_note(r, "a BMC event, not critical: %s", line);
	}
	burnin_figure(r, "sel_new_events", events, "%u new in the event log during the burn-in (%zu before%s)", events,
		      at_start.nseen, at_start.cleared ? ", after --clear-sel cleared it" : "");
	burnin_figure(r, "sel_critical_events", critical, "%u of them critical (memory ECC, power, temperature, fans, "
		      "processor)", critical);
	nkeys = keys_of(after, &keys);
	nkeys = sort_unique(keys, nkeys);
	records_gone(r, keys, nkeys, listed);
	free(keys);
	free(after);
	if (sel_full(&end))
		burnin_set(r, BURNIN_ERROR, "the BMC's event log filled during the burn-in (%s): an event after that "
			   "was not logged, so the bmc verdict cannot be established; --clear-sel (consent) saves it "
			   "with the results and clears it before the run", sel_describe(&end, desc, sizeof(desc)));
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
			   "(through %s)%s", at_start.dev, at_start.cleared ? "; its event log saved to " SEL_SAVED
			   " and cleared before the run" : "");
}
