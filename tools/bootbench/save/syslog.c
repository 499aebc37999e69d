// SPDX-License-Identifier: MIT
/*
 * syslog.c - RFC 5424 messages to a syslog server over UDP or TCP
 * (syslog.h). Nothing here waits longer than it is told to: the boot goes
 * on whether the server is there or not.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "lib/util.h"
#include "save/syslog.h"

int syslog_parse(const char *s, struct syslog_dest *d)
{
	const char *host, *end, *p;
	size_t n;

	memset(d, 0, sizeof(*d));
	if (!strncmp(s, "udp://", 6))
		d->tcp = 0;
	else if (!strncmp(s, "tcp://", 6))
		d->tcp = 1;
	else
		return set_err("syslog server '%.200s': expected udp://HOST[:PORT] or tcp://HOST[:PORT]", s);
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
	snprintf(d->port, sizeof(d->port), "514");
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
	snprintf(d->text, sizeof(d->text), "%s://%s%s%s:%s", d->tcp ? "tcp" : "udp", strchr(d->host, ':') ? "[" : "",
		 d->host, strchr(d->host, ':') ? "]" : "", d->port);
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

void syslog_link_init(struct syslog_link *l, const struct syslog_dest *d)
{
	memset(l, 0, sizeof(*l));
	l->dest = d;
	l->fd = -1;
}

void syslog_link_close(struct syslog_link *l)
{
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

/* A socket connected to the server; TCP's connect waits CONNECT_S at most. */
static int link_open(struct syslog_link *l, double connect_s)
{
	struct addrinfo hints = { .ai_socktype = l->dest->tcp ? SOCK_STREAM : SOCK_DGRAM }, *res, *a;
	int rc = getaddrinfo(l->dest->host, l->dest->port, &hints, &res), err = 0;

	if (rc)
		return why(l, "cannot resolve the host", gai_strerror(rc));
	for (a = res; a; a = a->ai_next) {
		int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		struct pollfd pfd = { .fd = fd, .events = POLLOUT };
		struct timeval tv = { 2, 0 };
		socklen_t elen = sizeof(err);

		if (fd < 0) {
			err = errno;
			continue;
		}
		err = 0;
		if (connect(fd, a->ai_addr, a->ai_addrlen)) {
			err = errno;
			if (err == EINPROGRESS) {
				err = poll(&pfd, 1, (int)(connect_s * 1000)) == 1 &&
				      !getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen) ? err : ETIMEDOUT;
			}
		}
		if (err) {
			close(fd);
			continue;
		}
		/* sends block (2 s at most) from here: this process has nothing else to do meanwhile */
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		l->fd = fd;
		break;
	}
	freeaddrinfo(res);
	if (l->fd < 0)
		return why(l, "cannot connect", strerror(err ? err : EHOSTUNREACH));
	return 1;
}

int syslog_send(struct syslog_link *l, const char *msg, size_t len, double connect_s)
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
	if (l->fd < 0 && !link_open(l, connect_s))
		return 0;
	if (len > SYSLOG_MAX)
		len = SYSLOG_MAX;
	if (l->dest->tcp) {
		/* RFC 6587 octet counting: the length, a blank, the message */
		n = (size_t)snprintf(frame, sizeof(frame), "%zu ", len);
		memcpy(frame + n, msg, len);
		n += len;
	} else {
		memcpy(frame, msg, len);
		n = len;
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
