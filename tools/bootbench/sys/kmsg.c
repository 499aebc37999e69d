// SPDX-License-Identifier: MIT
/*
 * kmsg.c - hardware errors in the kernel log (kmsg.h). /dev/kmsg gives one
 * record a read, "PRIORITY,SEQUENCE,MICROSECONDS,FLAGS;MESSAGE" (the
 * kernel's Documentation/ABI/testing/dev-kmsg); a recorded copy holds the
 * same records a line each.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "sys/kmsg.h"
#include "sys/root.h"

/*
 * What a record is, read in the log's order (a machine-check record spans
 * several lines). AMD's decoder (drivers/edac/mce_amd.c) opens each record
 * with its status in words: "[Hardware Error]: Corrected error, no action
 * required.", then "CPU:2 (19:21:0) MC17_STATUS[-|CE|...]", the address,
 * the IPID, the bank's "DRAM ECC error" lines; amd64_edac's "EDAC MC0: 1
 * CE ..." report follows. Every line of a corrected record is corrected:
 * the DIMM's count (EDAC's report) judges it, never a machine check. A
 * record of any other status (uncorrected, deferred, fatal), a status line
 * that says UE, and a hardware error line outside a corrected record are
 * machine checks. "Machine check events logged" only says records were
 * logged: it is the corrected ones' when a corrected record or EDAC CE
 * report is next to it, else a machine check (fails closed).
 */
enum kmsg_kind kmsg_kind(struct kmsg_scan *s, const char *msg)
{
	const char *hw = strstr(msg, "[Hardware Error]");

	if (!strncmp(msg, "EDAC ", 5) && (strstr(msg, " UE ") || strstr(msg, " CE "))) {
		/* edac.c's edac_log_report() reads these very lines as EDAC's */
		s->corrected = !strstr(msg, " UE ") && (s->corrected || strstr(msg, " CE "));
		return KMSG_EDAC;
	}
	if (strstr(msg, "Machine check events logged"))
		return s->corrected ? KMSG_CORRECTED : KMSG_NOTICE;
	if (hw) {
		if (strstr(hw, "Corrected error"))
			s->corrected = 1;
		else if (strstr(hw, "Uncorrected") || strstr(hw, "Deferred error") || strstr(hw, "Fatal error") ||
			 strcasestr(hw, "machine check") || (strstr(hw, "_STATUS[") && !strstr(hw, "|CE|")))
			s->corrected = 0;
		return s->corrected ? KMSG_CORRECTED : KMSG_MACHINE_CHECK;
	}
	if (strcasestr(msg, "machine check") || strstr(msg, "AER: Uncorrected") ||
	    strstr(msg, "AER: Multiple Uncorrected")) {
		s->corrected = 0;
		return KMSG_MACHINE_CHECK;
	}
	return KMSG_NONE;
}

/* Calls SEEN for each record: its sequence number and message. */
static int each_record(void (*seen)(uint64_t seq, const char *msg, void *arg), void *arg)
{
	char path[160], rec[8192];
	int fd;

	root_path(path, sizeof(path), "/dev/kmsg");
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (root_recorded()) {
		/* a recorded copy: a record a line */
		FILE *f = fdopen(fd, "r");

		if (!f) {
			close(fd);
			return -1;
		}
		while (fgets(rec, sizeof(rec), f)) {
			char *semi = strchr(rec, ';'), *comma = strchr(rec, ',');

			rec[strcspn(rec, "\n")] = 0;
			if (semi && comma && comma < semi)
				seen(strtoull(comma + 1, NULL, 10), semi + 1, arg);
		}
		fclose(f);
		return 0;
	}
	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec) - 1);
		char *semi, *comma;

		if (n < 0 && errno == EPIPE)
			continue;	/* records overwritten while reading: go on with the next */
		if (n <= 0)
			break;
		rec[n] = 0;
		rec[strcspn(rec, "\n")] = 0;
		semi = strchr(rec, ';');
		comma = strchr(rec, ',');
		if (semi && comma && comma < semi)
			seen(strtoull(comma + 1, NULL, 10), semi + 1, arg);
	}
	close(fd);
	return 0;
}

int kmsg_follow(void)
{
	char path[160];

	root_path(path, sizeof(path), "/dev/kmsg");
	return open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
}

int kmsg_next(int fd, struct kmsg_record *r)
{
	char rec[8192], *semi, *p;
	unsigned long long pri;
	ssize_t n;

	for (;;) {
		if (root_recorded()) {
			/* a recorded copy: a record a line, read to its newline */
			for (n = 0; n < (ssize_t)sizeof(rec) - 1 && read(fd, rec + n, 1) == 1 && rec[n] != '\n'; n++)
				;
		} else {
			n = read(fd, rec, sizeof(rec) - 1);
		}
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten while we were away: the next one is still there */
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n <= 0)
			return n ? -1 : 0;
		rec[n] = 0;
		/* "PRI,SEQ,USEC,FLAGS[,...];TEXT\n" then " KEY=VALUE" lines (kept out) */
		rec[strcspn(rec, "\n")] = 0;
		semi = strchr(rec, ';');
		if (!semi)
			continue;
		*semi = 0;
		pri = strtoull(rec, &p, 10);
		if (*p != ',')
			continue;
		r->facility = (int)(pri >> 3);
		r->level = (int)(pri & 7);
		r->seq = strtoull(p + 1, &p, 10);
		r->usec = *p == ',' ? strtoull(p + 1, NULL, 10) : 0;
		snprintf(r->msg, sizeof(r->msg), "%s", semi + 1);
		return 1;
	}
}

static void newest(uint64_t seq, const char *msg, void *arg)
{
	(void)msg;
	if (seq > *(uint64_t *)arg)
		*(uint64_t *)arg = seq;
}

uint64_t kmsg_newest(void)
{
	uint64_t seq = 0;

	each_record(newest, &seq);
	return seq;
}

struct hw_errors {
	uint64_t after;
	int count;
	char *first;
	size_t len;
	struct kmsg_scan scan;	/* from the log's oldest record: a record may begin before AFTER */
	char notice[1024];	/* "Machine check events logged" not yet told corrected or not */
	int noticed;
};

static void counted(struct hw_errors *h, const char *msg)
{
	if (!h->count++ && h->len)
		snprintf(h->first, h->len, "%s", msg);
}

static void hw_error(uint64_t seq, const char *msg, void *arg)
{
	struct hw_errors *h = arg;
	enum kmsg_kind k = kmsg_kind(&h->scan, msg);

	if (h->noticed && k != KMSG_NONE) {
		/* the notice before a corrected record or report is its notice */
		if (k != KMSG_CORRECTED && !(k == KMSG_EDAC && h->scan.corrected))
			counted(h, h->notice);
		h->noticed = 0;
	}
	if (seq <= h->after)
		return;
	if (k == KMSG_NOTICE) {
		snprintf(h->notice, sizeof(h->notice), "%s", msg);
		h->noticed = 1;
	} else if (k == KMSG_MACHINE_CHECK || k == KMSG_EDAC) {
		counted(h, msg);
	}
}

int kmsg_hw_errors(uint64_t after, char *first, size_t len)
{
	static struct hw_errors h;

	memset(&h, 0, sizeof(h));
	h.after = after;
	h.first = first;
	h.len = len;

	if (len)
		first[0] = 0;
	if (each_record(hw_error, &h))
		return -1;
	if (h.noticed)
		counted(&h, h.notice);	/* nothing after it told what it was */
	return h.count;
}
