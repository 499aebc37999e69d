/* SPDX-License-Identifier: MIT */
/*
 * syslog.h - log lines to a syslog server: RFC 5424 messages over UDP (RFC
 * 5426, a datagram a message) or TCP (RFC 6587, octet-counted frames), the
 * transports rsyslog, syslog-ng and journald's remote all take. Where the
 * server is: udp://HOST[:PORT] or tcp://HOST[:PORT] (port 514 by default;
 * HOST a name, IPv4 or [IPv6]).
 */
#ifndef BB_SYSLOG_H
#define BB_SYSLOG_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* RFC 5426: a receiver takes 2048 octets at least; longer lines are cut there. */
#define SYSLOG_MAX 2048

struct syslog_dest {
	int tcp;
	char host[256];		/* without the brackets of an IPv6 address */
	char port[8];
	char text[300];		/* scheme://host:port, for messages */
};

/* Parses udp://HOST[:PORT] or tcp://HOST[:PORT]; -1 with bb_err naming what is wrong. */
int syslog_parse(const char *s, struct syslog_dest *d);

/* Whether NAME may stand as RFC 5424's HOSTNAME: 1 to 255 printable ASCII characters, no blank. */
int syslog_hostname_ok(const char *name);

/*
 * One RFC 5424 message in BUF: <PRI>1 TIMESTAMP HOSTNAME APP - - [meta
 * sequenceId="SEQ"] MSG. PRI is FACILITY * 8 + SEVERITY; control characters
 * in MSG become blanks; the whole is cut to SYSLOG_MAX. Returns its length.
 */
size_t syslog_format(char *buf, size_t len, int facility, int severity, const struct timespec *when,
		     const char *hostname, const char *app, unsigned long seq, const char *msg);

/* A connection to the server, made (and made again) when a message is sent. */
struct syslog_link {
	const struct syslog_dest *dest;
	int fd;			/* -1 while there is none */
	unsigned long sent;	/* datagrams sent on this socket (UDP's pacing) */
	char why[256];		/* why the last try did not send: "" when it did */
};

void syslog_link_init(struct syslog_link *l, const struct syslog_dest *d);
/*
 * Sends one formatted message. 1 sent; 0 not now (no route yet, the name
 * does not resolve yet, the server refused or the connection broke: l->why
 * says which; keep the message and try again later). A TCP connection is
 * given CONNECT_S seconds to be made. UDP is paced: nothing acknowledges a
 * datagram, and a burst (the lines kept while the network was not up) is
 * lost where the path cannot hold it: the kernel keeps 64 KiB for a
 * neighbour whose address it is still resolving, and drops the oldest
 * beyond that; a receiver's socket buffer overflows. So the first datagram
 * on a new socket is followed by 200 ms for the neighbour to answer, and
 * every 32nd by a millisecond.
 */
int syslog_send(struct syslog_link *l, const char *msg, size_t len, double connect_s);
void syslog_link_close(struct syslog_link *l);

#endif
