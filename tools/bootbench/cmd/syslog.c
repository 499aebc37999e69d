// SPDX-License-Identifier: MIT
/*
 * syslog.c - `bootbench syslog`: this boot's log streamed to a syslog
 * server (bootbench.syslog=), so that a rack's consoles are read in one
 * place. It follows two logs from their first lines: the kernel's
 * (/dev/kmsg, its own records only: what bootbench writes there is in the
 * console log too) and the console log the boot's steps write
 * (/run/bootbench/console.log). Each line is stamped when it was logged and
 * kept in memory until the server takes it, so the lines from before the
 * network was up, or while the server was away, arrive later and in order
 * (4 MiB at most: past that the oldest go, and the server is told how
 * many). Stopped (SIGTERM, at power-off), it sends what is left for a few
 * seconds at most (--drain: a DNS server that does not answer takes no
 * more), and not at all when the server cannot be reached: a server that
 * is down never holds up a power-off. Its own notices go into the console
 * log (so into the results) as bootbench's do. --format=rfc3164 writes the
 * BSD messages of receivers older than RFC 5424.
 *
 * Its flags and help: the declaration at the end (lib/args.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/args.h"
#include "lib/util.h"
#include "save/syslog.h"
#include "save/syslog_tls.h"
#include "sys/kmsg.h"
#include "sys/machine.h"

#define KEEP_BYTES (4u << 20)
/* the image's CA bundle (Debian's ca-certificates), what tls:// verifies against without --ca */
#define CA_BUNDLE "/etc/ssl/certs/ca-certificates.crt"
#define FACILITY_KERN 0
#define FACILITY_USER 1
#define SEVERITY_NOTICE 5

struct syslog_opts {
	const char *to, *hostname, *format, *ca;
	unsigned drain;
	int check;
};

static const struct syslog_opts syslog_defaults = { .drain = 5 };

static volatile sig_atomic_t stopping;

static void on_stop(int sig)
{
	(void)sig;
	stopping = 1;
}

/*
 * A line waiting for the server. It keeps its time since boot, and is
 * written as a message only when it is sent: the wall clock may be set
 * meanwhile (bootbench.ntp, 44-clock.sh), and a line logged before that is
 * then stamped with the right time, not the firmware's.
 */
struct held {
	struct held *next;
	int facility, severity;
	const char *app;
	unsigned long seq;
	double since_boot;
	size_t len;
	char msg[];
};

struct follower {
	struct syslog_link link;
	const char *hostname;
	enum syslog_format_kind format;
	struct held *head, *tail;
	size_t held_bytes;
	unsigned long seq, sent, dropped, dropped_told;
	int notes_fd;		/* the console log, appended to; -1: stderr */
	int was_up;
	char told_why[256];	/* the reason last said for not sending, "" while sending */
	char line[SYSLOG_MAX];	/* the console log's line being read */
	size_t line_len;
};

/*
 * A notice of this command's own: on stderr (the screen, at boot), and into
 * the console log as bootbench's lines are (so it is sent and saved too).
 */
static void say(struct follower *f, const char *fmt, ...)
{
	char msg[448], line[512];
	struct timespec up;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "bootbench: syslog: %s\n", msg);
	if (f->notes_fd < 0)
		return;
	clock_gettime(CLOCK_BOOTTIME, &up);
	snprintf(line, sizeof(line), "bootbench: [%ld.%02ld] syslog: %s\n", (long)up.tv_sec, up.tv_nsec / 10000000, msg);
	if (write(f->notes_fd, line, strlen(line)) < 0)
		f->notes_fd = -1;
}

static void hold(struct follower *f, int facility, int severity, double since_boot, const char *app,
		 const char *msg)
{
	size_t n = strnlen(msg, SYSLOG_MAX);
	struct held *h = malloc(sizeof(*h) + n + 1);

	if (!h)
		return;
	h->next = NULL;
	h->facility = facility;
	h->severity = severity;
	h->app = app;
	h->seq = f->seq++;
	h->since_boot = since_boot;
	h->len = n;
	memcpy(h->msg, msg, n);
	h->msg[n] = 0;
	if (f->tail)
		f->tail->next = h;
	else
		f->head = h;
	f->tail = h;
	f->held_bytes += n;
	/* the oldest go first: the newest lines say what the machine is doing now */
	while (f->held_bytes > KEEP_BYTES && f->head != f->tail) {
		struct held *old = f->head;

		f->head = old->next;
		f->held_bytes -= old->len;
		free(old);
		f->dropped++;
	}
}

static void drop_first(struct follower *f)
{
	struct held *h = f->head;

	f->head = h->next;
	if (!f->head)
		f->tail = NULL;
	f->held_bytes -= h->len;
	free(h);
}

/* The wall clock SECONDS after boot, by the wall clock now (set or not since). */
static struct timespec after_boot(double seconds)
{
	struct timespec real, mono;
	long long ns;

	clock_gettime(CLOCK_REALTIME, &real);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	ns = (real.tv_sec - mono.tv_sec) * 1000000000LL + real.tv_nsec - mono.tv_nsec + (long long)(seconds * 1e9);
	return (struct timespec){ .tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000 };
}

/* The first line held, as a message now; its length. */
static size_t write_first(const struct follower *f, char *buf, size_t len)
{
	const struct held *h = f->head;
	struct timespec when = after_boot(h->since_boot);

	if (f->format == SYSLOG_RFC3164)
		return syslog_format_bsd(buf, len, h->facility, h->severity, &when, f->hostname, h->app, h->msg);
	return syslog_format(buf, len, h->facility, h->severity, &when, f->hostname, h->app, h->seq, h->msg);
}

/* Sends the first line held; 1 sent (and let go), 0 not (l->why says why). */
static int send_first(struct follower *f, double wait_s)
{
	char buf[SYSLOG_MAX + 1];
	size_t n = write_first(f, buf, sizeof(buf));

	if (!syslog_send(&f->link, buf, n, wait_s))
		return 0;
	drop_first(f);
	f->sent++;
	return 1;
}

/* The kernel's new records: its own only (facility 0), stamped with their time since boot. */
static void read_kernel(struct follower *f, int kfd)
{
	struct kmsg_record r;

	while (kfd >= 0 && kmsg_next(kfd, &r) == 1)
		if (r.facility == FACILITY_KERN)
			hold(f, FACILITY_KERN, r.level, r.usec / 1e6, "kernel", r.msg);
}

/* One console log line: bootbench's own carry their time since boot ("bootbench: [12.34] ..."). */
static void console_line(struct follower *f, const char *text)
{
	struct timespec now;
	double up;
	char *end;

	if (strncmp(text, "bootbench: [", 12) || (up = strtod(text + 12, &end)) <= 0 || *end != ']') {
		clock_gettime(CLOCK_MONOTONIC, &now);
		up = now.tv_sec + now.tv_nsec / 1e9;
	}
	hold(f, FACILITY_USER, SEVERITY_NOTICE, up, "bootbench", text);
}

/* The console log's new lines; the last one's unfinished part waits for its newline, but at the END. */
static void read_console(struct follower *f, int cfd, int end)
{
	char buf[8192];
	ssize_t n;

	while (cfd >= 0 && (n = read(cfd, buf, sizeof(buf))) > 0) {
		ssize_t i;

		for (i = 0; i < n; i++) {
			if (buf[i] == '\n' || f->line_len == sizeof(f->line) - 1) {
				f->line[f->line_len] = 0;
				console_line(f, f->line);
				f->line_len = 0;
				if (buf[i] == '\n')
					continue;
			}
			if (buf[i] != '\r')
				f->line[f->line_len++] = buf[i];
		}
	}
	if (end && f->line_len) {
		f->line[f->line_len] = 0;
		console_line(f, f->line);
		f->line_len = 0;
	}
}

/* Sends what is held, oldest first, until the server does not take one; 0 then. */
static int send_held(struct follower *f, double connect_s)
{
	if (f->dropped > f->dropped_told) {
		say(f, "%lu line(s) were dropped while %s was away (%u MiB are kept)", f->dropped - f->dropped_told,
		    f->link.dest->text, KEEP_BYTES >> 20);
		f->dropped_told = f->dropped;
	}
	while (f->head) {
		if (!send_first(f, connect_s)) {
			/* said once, and again when the reason changes (no route yet, then no server) */
			if (strcmp(f->told_why, f->link.why))
				say(f, "%s: %s%s; the log is kept until it can be sent", f->link.dest->text, f->link.why,
				    f->was_up ? "" : " (not reachable yet)");
			snprintf(f->told_why, sizeof(f->told_why), "%s", f->link.why);
			return 0;
		}
		if (!f->was_up || f->told_why[0])
			say(f, "streaming this boot's log to %s as %s", f->link.dest->text, f->hostname);
		f->was_up = 1;
		f->told_why[0] = 0;
	}
	return 1;
}

static int syslog_main(void *opts, int argc, char **argv)
{
	struct syslog_opts *o = opts;
	struct syslog_dest dest;
	struct follower f = { .notes_fd = -1 };
	char id[256];
	int cfd = -1, kfd, sent_all;
	double retry_s = 0.5;
	uint64_t next_try = 0, deadline;
	struct sigaction sa = { .sa_handler = on_stop };

	if (!o->to)
		die_usage("syslog: --to=udp://HOST[:PORT], tcp://HOST[:PORT] or tls://HOST[:PORT] is needed");
	if (syslog_parse(o->to, &dest))
		die_usage("syslog: %s", bb_err);
	if (o->format && syslog_format_parse(o->format, &dest.format))
		die_usage("syslog: --format: %s", bb_err);
	if (o->ca && !dest.tls)
		die_usage("syslog: --ca is for a tls:// server, not %s", dest.text);
	if (o->check)
		return EXIT_OK;
	if (dest.tls && !(dest.tls_ctx = syslog_tls_new(o->ca ? o->ca : CA_BUNDLE)))
		die_usage("syslog: %s", bb_err);
	if (argc > 1)
		die_usage("syslog: one console log to follow, not %d", argc);
	if (o->hostname && !syslog_hostname_ok(o->hostname))
		die_usage("syslog: --hostname: 1 to 255 printable ASCII characters without blanks");
	if (!o->hostname) {
		machine_id(id, sizeof(id));
		o->hostname = id[0] ? id : "-";
	}
	if (argc) {
		/* the console log is ours (the boot's tmpfs): no link to follow */
		cfd = open(argv[0], O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (cfd < 0)
			die_usage("syslog: cannot read %s: %s", argv[0], strerror(errno));
		f.notes_fd = open(argv[0], O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);	/* consent: a log file, appended to */
	}
	kfd = kmsg_follow();
	if (kfd < 0)
		note("syslog: the kernel's log is not readable (%s): only the console log is sent", strerror(errno));
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	syslog_link_init(&f.link, &dest);
	f.hostname = o->hostname;
	f.format = dest.format;

	while (!stopping) {
		struct pollfd p = { .fd = kfd, .events = POLLIN };

		read_kernel(&f, kfd);
		read_console(&f, cfd, 0);
		if (f.head && now_ns() >= next_try) {
			if (send_held(&f, 2)) {
				retry_s = 0.5;
			} else {
				/* no route yet, no name yet, or no server: try again soon, then less often */
				next_try = now_ns() + (uint64_t)(retry_s * 1e9);
				retry_s = retry_s * 2 > 5 ? 5 : retry_s * 2;
			}
		}
		poll(&p, kfd >= 0 ? 1 : 0, 200);
	}

	/* Stopped: the logs' last lines, then a few seconds to send them, and
	 * one try only when the server is not there now. Every wait in it (a
	 * lookup, a connection, a send) ends by the deadline. */
	read_kernel(&f, kfd);
	read_console(&f, cfd, 1);
	deadline = now_ns() + (uint64_t)o->drain * 1000000000ull;
	sent_all = 1;
	while (f.head) {
		double left = (double)(deadline - now_ns()) / 1e9;

		if (now_ns() >= deadline || !send_first(&f, left < 2 ? left : 2)) {
			sent_all = 0;
			break;
		}
	}
	{
		unsigned long left = 0;
		char summary[1024];

		for (struct held *h = f.head; h; h = h->next)
			left++;
		if (sent_all && !f.dropped)
			snprintf(summary, sizeof(summary), "%lu line(s) sent to %s, none left", f.sent, dest.text);
		else
			snprintf(summary, sizeof(summary), "%lu line(s) sent to %s; %lu not sent at the end (%s), %lu "
				 "dropped before", f.sent, dest.text, left, f.link.why[0] ? f.link.why : "out of time",
				 f.dropped);
		/* on the screen too: the log's tee has ended at a power-off */
		say(&f, "%s", summary);
	}
	while (f.head)
		drop_first(&f);
	syslog_link_close(&f.link);
	syslog_tls_free(dest.tls_ctx);
	return sent_all && !f.dropped ? EXIT_OK : EXIT_FAIL;
}

static const struct arg syslog_args[] = {
	{ .name = "--to", .kind = ARG_STR, .offset = ARG_AT(struct syslog_opts, to), .meta = "URL",
	  .help = "the server: udp://HOST[:PORT] or tcp://HOST[:PORT] (port 514 by default), or\n"
		  "tls://HOST[:PORT] (RFC 5425, port 6514 by default)" },
	{ .name = "--ca", .kind = ARG_STR, .offset = ARG_AT(struct syslog_opts, ca), .meta = "FILE",
	  .help = "tls://: the CA (PEM) the server's certificate must chain to\n"
		  "[" CA_BUNDLE "]" },
	{ .name = "--hostname", .kind = ARG_STR, .offset = ARG_AT(struct syslog_opts, hostname), .meta = "NAME",
	  .help = "the HOSTNAME of every message [the machine's serial, else its MAC]" },
	{ .name = "--format", .kind = ARG_STR, .offset = ARG_AT(struct syslog_opts, format), .meta = "F",
	  .help = "rfc5424, or rfc3164 for older receivers (BSD syslog; over TCP a newline ends each) [rfc5424]" },
	{ .name = "--drain", .kind = ARG_UINT, .offset = ARG_AT(struct syslog_opts, drain), .meta = "S",
	  .help = "when stopped, send what is left for S seconds at most [5]", .min = 0, .max = 60 },
	{ .name = "--check", .kind = ARG_FLAG, .offset = ARG_AT(struct syslog_opts, check),
	  .help = "only check --to (the boot parameter's check) and exit" },
	{ NULL },
};

const struct command syslog_command = {
	.name = "syslog",
	.summary = "stream this boot's log to a syslog server (RFC 5424 or 3164, UDP, TCP or TLS)",
	.usage = "--to=URL [--ca=FILE] [--hostname=NAME] [--format=F] [--drain=S] [CONSOLE-LOG]",
	.help = "Sends the kernel's log and CONSOLE-LOG (the boot's: /run/bootbench/console.log) to a\n"
		"syslog server, each line an RFC 5424 message from its first line on, with the\n"
		"machine's serial as HOSTNAME and APP-NAME kernel or bootbench; over UDP a\n"
		"datagram a line (RFC 5426), over TCP octet-counted frames (RFC 6587), over TLS\n"
		"the same frames (RFC 5425), the server's certificate verified against --ca and\n"
		"its name or address, always (wolfSSL's TLS 1.2 and 1.3). With\n"
		"--format=rfc3164, BSD syslog messages (no year, no sequence number; over TCP a\n"
		"newline ends each) for receivers that predate RFC 5424. Lines are kept (4 MiB)\n"
		"while the network is not up or the server is away, and sent when it is. It\n"
		"runs until it is stopped (SIGTERM), then sends what is left for --drain seconds\n"
		"at most (a DNS server that does not answer included), or not at all when the\n"
		"server cannot be reached. bootbench.syslog=URL starts it at boot\n"
		"(bootbench.syslog_format=rfc3164 for --format).\n",
	.exit_status = "0 every line sent, 1 some not (or dropped), 2 bad input.",
	.args = syslog_args,
	.opts_size = sizeof(struct syslog_opts),
	.defaults = &syslog_defaults,
	.run = syslog_main,
};
