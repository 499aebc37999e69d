// SPDX-License-Identifier: MIT
/*
 * syslog.c - RFC 5424 (or RFC 3164) messages to a syslog server over UDP
 * or TCP (syslog.h). Nothing here waits longer than it is told to, a name's
 * lookup included: the boot goes on, and a power-off is not held up,
 * whether the server (or the DNS server) is there or not.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "lib/util.h"
#include "save/syslog.h"
#include "save/syslog_tls.h"

int syslog_parse(const char *s, struct syslog_dest *d)
{
	const char *host, *end, *p;
	size_t n;

	memset(d, 0, sizeof(*d));
	if (!strncmp(s, "udp://", 6))
		d->tcp = 0;
	else if (!strncmp(s, "tcp://", 6))
		d->tcp = 1;
	else if (!strncmp(s, "tls://", 6))
		d->tcp = d->tls = 1;
	else
		return set_err("syslog server '%.200s': expected udp://HOST[:PORT], tcp://HOST[:PORT] or tls://HOST[:PORT]", s);
	host = s + 6;
	if (*host == '[') {
		end = strchr(++host, ']');
		if (!end || end == host || strspn(host, "0123456789abcdefABCDEF:.") != (size_t)(end - host))
			return set_err("syslog server '%.200s': an IPv6 address is written [ADDRESS]", s);
		p = end + 1;
	} else {
		end = host + strspn(host, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-");
		if (end == host || *host == '-' || *host == '.')
			return set_err("syslog server '%.200s': no host name or address after %.6s", s, s);
		p = end;
	}
	n = end - host;
	if (n >= sizeof(d->host))
		return set_err("syslog server '%.200s': the host name is too long", s);
	memcpy(d->host, host, n);
	/* RFC 5425 section 4.1: syslog over TLS has a port of its own */
	snprintf(d->port, sizeof(d->port), d->tls ? "6514" : "514");
	if (*p == ':') {
		char *q;
		unsigned long port = strtoul(p + 1, &q, 10);

		if (q == p + 1 || port < 1 || port > 65535 || strspn(p + 1, "0123456789") != (size_t)(q - p - 1))
			return set_err("syslog server '%.200s': the port is not a number from 1 to 65535", s);
		snprintf(d->port, sizeof(d->port), "%lu", port);
		p = q;
	}
	if (*p && strcmp(p, "/"))
		return set_err("syslog server '%.200s': unexpected '%.40s' after the host and port", s, p);
	snprintf(d->text, sizeof(d->text), "%s://%s%s%s:%s", d->tls ? "tls" : d->tcp ? "tcp" : "udp", strchr(d->host, ':') ? "[" : "",
		 d->host, strchr(d->host, ':') ? "]" : "", d->port);
	return 0;
}

int syslog_format_parse(const char *s, enum syslog_format_kind *kind)
{
	if (!strcmp(s, "rfc5424"))
		*kind = SYSLOG_RFC5424;
	else if (!strcmp(s, "rfc3164"))
		*kind = SYSLOG_RFC3164;
	else
		return set_err("syslog format '%.40s': expected rfc5424 or rfc3164", s);
	return 0;
}

int syslog_hostname_ok(const char *name)
{
	size_t n = strlen(name), i;

	if (!n || n > 255)
		return 0;
	for (i = 0; i < n; i++)
		if (name[i] < 33 || name[i] > 126)
			return 0;
	return 1;
}

size_t syslog_format(char *buf, size_t len, int facility, int severity, const struct timespec *when,
		     const char *hostname, const char *app, unsigned long seq, const char *msg)
{
	struct tm tm;
	size_t n;
	int k;

	if (len > SYSLOG_MAX + 1)
		len = SYSLOG_MAX + 1;
	gmtime_r(&when->tv_sec, &tm);
	/* RFC 5424 section 7.3.1: the meta sequenceId lets the receiver see a lost datagram */
	k = snprintf(buf, len, "<%d>1 %04d-%02d-%02dT%02d:%02d:%02d.%06ldZ %s %s - - [meta sequenceId=\"%lu\"] ",
		     facility * 8 + severity, tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
		     tm.tm_sec, when->tv_nsec / 1000, hostname, app, seq % 2147483647 + 1);
	if (k < 0)
		return 0;
	n = (size_t)k < len ? (size_t)k : len - 1;
	for (; *msg && n + 1 < len; msg++)
		buf[n++] = (unsigned char)*msg < 32 || *msg == 127 ? ' ' : *msg;
	buf[n] = 0;
	return n;
}

size_t syslog_format_bsd(char *buf, size_t len, int facility, int severity, const struct timespec *when,
			 const char *hostname, const char *app, const char *msg)
{
	static const char month[12][4] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
					   "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	struct tm tm;
	size_t n;
	int k;

	if (len > SYSLOG_BSD_MAX + 1)
		len = SYSLOG_BSD_MAX + 1;
	gmtime_r(&when->tv_sec, &tm);
	/* RFC 3164 section 4.1.2: the day blank-padded ("Jan  5"); the TAG then a colon */
	k = snprintf(buf, len, "<%d>%s %2d %02d:%02d:%02d %s %s: ", facility * 8 + severity, month[tm.tm_mon],
		     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, hostname, app);
	if (k < 0)
		return 0;
	n = (size_t)k < len ? (size_t)k : len - 1;
	for (; *msg && n + 1 < len; msg++)
		buf[n++] = (unsigned char)*msg < 32 || *msg == 127 ? ' ' : *msg;
	buf[n] = 0;
	return n;
}

void syslog_link_init(struct syslog_link *l, const struct syslog_dest *d)
{
	memset(l, 0, sizeof(*l));
	l->dest = d;
	l->fd = -1;
}

void syslog_link_close(struct syslog_link *l)
{
	syslog_tls_close(l->tls);
	l->tls = NULL;
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	l->sent = 0;
}

static int why(struct syslog_link *l, const char *what, const char *err)
{
	snprintf(l->why, sizeof(l->why), "%s: %s", what, err);
	syslog_link_close(l);
	return 0;
}

/*
 * A name's lookup in a thread of its own: getaddrinfo has no timeout, and
 * with the DNS server down it takes the resolver's (musl: 5 s, and a
 * stop's drain is 5 s in all). The thread writes a byte into a pipe when
 * the answer is there; whoever waits polls that pipe as long as it may,
 * and a lookup not done yet stays the link's, waited for again at the
 * next try, never started twice. The thread frees nothing: the waiter
 * takes the answer and frees the lookup.
 */
struct syslog_lookup {
	char host[256], port[8];
	int socktype;
	int pipe[2];
	int rc;
	struct addrinfo *res;
};

static void *lookup_run(void *arg)
{
	struct syslog_lookup *q = arg;
	struct addrinfo hints = { .ai_socktype = q->socktype };

	q->rc = getaddrinfo(q->host, q->port, &hints, &q->res);
	/* after this write the waiter owns q: nothing of it is touched here again */
	if (write(q->pipe[1], "", 1) < 0)
		return NULL;
	return NULL;
}

static void lookup_free(struct syslog_lookup *q)
{
	close(q->pipe[0]);
	close(q->pipe[1]);
	free(q);
}

/* Starts the lookup of the link's host; 0, or an errno. */
static int lookup_start(struct syslog_link *l)
{
	struct syslog_lookup *q = calloc(1, sizeof(*q));
	pthread_attr_t attr;
	pthread_t t;
	int err;

	if (!q)
		return ENOMEM;
	snprintf(q->host, sizeof(q->host), "%s", l->dest->host);
	snprintf(q->port, sizeof(q->port), "%s", l->dest->port);
	q->socktype = l->dest->tcp ? SOCK_STREAM : SOCK_DGRAM;
	if (pipe2(q->pipe, O_CLOEXEC)) {
		err = errno;
		free(q);
		return err;
	}
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	err = pthread_create(&t, &attr, lookup_run, q);
	pthread_attr_destroy(&attr);
	if (err) {
		lookup_free(q);
		return err;
	}
	l->lookup = q;
	return 0;
}

/*
 * The host's addresses in *RES: an address as written at once; a name
 * looked up, waited for WAIT_S seconds at most (less when a signal comes).
 * 1 with *RES; 0 with l->why saying why not.
 */
static int resolve(struct syslog_link *l, double wait_s, struct addrinfo **res)
{
	struct addrinfo hints = { .ai_socktype = l->dest->tcp ? SOCK_STREAM : SOCK_DGRAM,
				  .ai_flags = AI_NUMERICHOST };
	struct syslog_lookup *q;
	struct pollfd p;
	char c;
	int rc, err;

	/* an address needs no DNS, nor a thread */
	if (!getaddrinfo(l->dest->host, l->dest->port, &hints, res))
		return 1;
	if (!l->lookup && (err = lookup_start(l)))
		return why(l, "cannot resolve the host", strerror(err));
	q = l->lookup;
	p = (struct pollfd){ .fd = q->pipe[0], .events = POLLIN };
	rc = poll(&p, 1, wait_s > 0 ? (int)(wait_s * 1000) : 0);
	if (rc != 1 || read(q->pipe[0], &c, 1) != 1) {
		snprintf(l->why, sizeof(l->why), "cannot resolve the host: no answer from DNS yet%s",
			 rc < 0 && errno == EINTR ? " (stopped)" : "");
		return 0;
	}
	l->lookup = NULL;
	rc = q->rc;
	*res = q->res;
	lookup_free(q);
	if (rc)
		return why(l, "cannot resolve the host", gai_strerror(rc));
	return 1;
}

/* Sends wait WAIT_S at most (SO_SNDTIMEO), set again only when it changes. */
static void send_timeout(struct syslog_link *l, double wait_s)
{
	int ms = wait_s < 0.001 ? 1 : (int)(wait_s * 1000);
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };

	if (ms != l->send_ms && !setsockopt(l->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)))
		l->send_ms = ms;
}

/* A socket connected to the server; the lookup and TCP's connect wait WAIT_S each at most. */
static int link_open(struct syslog_link *l, double wait_s)
{
	struct addrinfo *res, *a;
	int err = 0;

	if (!resolve(l, wait_s, &res))
		return 0;
	for (a = res; a; a = a->ai_next) {
		int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		struct pollfd pfd = { .fd = fd, .events = POLLOUT };
		socklen_t elen = sizeof(err);

		if (fd < 0) {
			err = errno;
			continue;
		}
		err = 0;
		if (connect(fd, a->ai_addr, a->ai_addrlen)) {
			err = errno;
			if (err == EINPROGRESS) {
				err = poll(&pfd, 1, (int)(wait_s * 1000)) == 1 &&
				      !getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen) ? err : ETIMEDOUT;
			}
		}
		if (err) {
			close(fd);
			continue;
		}
		/* sends block (WAIT_S at most) from here: this process has nothing else to do meanwhile */
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
		l->fd = fd;
		l->send_ms = 0;
		break;
	}
	freeaddrinfo(res);
	if (l->fd < 0)
		return why(l, "cannot connect", strerror(err ? err : EHOSTUNREACH));
	if (l->dest->tls && !(l->tls = syslog_tls_connect(l->dest->tls_ctx, l->fd, l->dest->host, wait_s, l->why,
							    sizeof(l->why)))) {
		syslog_link_close(l);
		return 0;
	}
	return 1;
}

int syslog_send(struct syslog_link *l, const char *msg, size_t len, double wait_s)
{
	char frame[SYSLOG_MAX + 16];
	size_t n, done = 0;

	l->why[0] = 0;
	if (l->fd >= 0 && l->dest->tcp) {
		char c;

		/* a server that closed its end: a new connection, not a send into the void */
		if (recv(l->fd, &c, 1, MSG_DONTWAIT | MSG_PEEK) == 0)
			syslog_link_close(l);
	}
	if (l->fd < 0 && !link_open(l, wait_s))
		return 0;
	send_timeout(l, wait_s);
	if (len > SYSLOG_MAX)
		len = SYSLOG_MAX;
	if (l->dest->tcp && !l->dest->tls && l->dest->format == SYSLOG_RFC3164) {
		/* RFC 6587 section 3.4.2: a newline ends the frame, as old receivers read it */
		memcpy(frame, msg, len);
		frame[len] = '\n';
		n = len + 1;
	} else if (l->dest->tcp) {
		/* RFC 6587 octet counting (RFC 5425's only framing): the length, a blank, the message */
		n = (size_t)snprintf(frame, sizeof(frame), "%zu ", len);
		memcpy(frame + n, msg, len);
		n += len;
	} else {
		memcpy(frame, msg, len);
		n = len;
	}
	if (l->tls) {
		if (syslog_tls_send(l->tls, frame, n, l->why, sizeof(l->why))) {
			syslog_link_close(l);
			return 0;
		}
		return 1;
	}
	while (done < n) {
		ssize_t k = send(l->fd, frame + done, n - done, MSG_NOSIGNAL);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return why(l, "cannot send", strerror(errno));
		done += (size_t)k;
	}
	if (!l->dest->tcp && !l->sent++)
		sleep_ns(200000000ull);
	else if (!l->dest->tcp && !(l->sent % 32))
		sleep_ns(1000000ull);
	return 1;
}
