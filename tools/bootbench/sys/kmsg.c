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

/* The kernel's own words for a hardware error (arch/x86 mce, EDAC's
 * edac_mc_handle_error, PCIe AER). */
static int is_hw_error(const char *msg)
{
	return strstr(msg, "[Hardware Error]") || strcasestr(msg, "machine check") ||
	       (!strncmp(msg, "EDAC ", 5) && (strstr(msg, " UE ") || strstr(msg, " CE "))) ||
	       strstr(msg, "AER: Uncorrected") || strstr(msg, "AER: Multiple Uncorrected");
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
};

static void hw_error(uint64_t seq, const char *msg, void *arg)
{
	struct hw_errors *h = arg;

	if (seq <= h->after || !is_hw_error(msg))
		return;
	if (!h->count++ && h->len)
		snprintf(h->first, h->len, "%s", msg);
}

int kmsg_hw_errors(uint64_t after, char *first, size_t len)
{
	struct hw_errors h = { after, 0, first, len };

	if (len)
		first[0] = 0;
	return each_record(hw_error, &h) ? -1 : h.count;
}
