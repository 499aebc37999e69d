/* SPDX-License-Identifier: MIT */
/*
 * syslog.h - log lines to a syslog server: RFC 5424 messages over UDP (RFC
 * 5426, a datagram a message) or TCP (RFC 6587, octet-counted frames), the
 * transports rsyslog, syslog-ng and journald's remote all take; or, for
 * receivers older than those, RFC 3164's BSD messages (over TCP each ended
 * by a newline: RFC 6587's non-transparent framing, all they know). Or
 * over TLS (RFC 5425: octet-counted frames in a TLS stream, the server's
 * certificate verified: syslog_tls.h). Where the server is:
 * udp://HOST[:PORT] or tcp://HOST[:PORT] (port 514 by default), or
 * tls://HOST[:PORT] (port 6514); HOST a name, IPv4 or [IPv6].
 */
#ifndef BB_SYSLOG_H
#define BB_SYSLOG_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* RFC 5426: a receiver takes 2048 octets at least; longer lines are cut there. */
#define SYSLOG_MAX 2048
/* RFC 3164 section 4.1: a packet is 1024 octets at most. */
#define SYSLOG_BSD_MAX 1024

/* How messages are written: RFC 5424 (the default) or RFC 3164 (BSD). */
enum syslog_format_kind { SYSLOG_RFC5424, SYSLOG_RFC3164 };

struct syslog_tls;
struct syslog_tls_session;

struct syslog_dest {
	int tcp;		/* a stream: TCP, or TLS over it */
	int tls;		/* RFC 5425 */
	struct syslog_tls *tls_ctx;	/* with tls: the CA the server is verified against (the caller's) */
	enum syslog_format_kind format;	/* RFC 3164's frames end with a newline over TCP */
	char host[256];		/* without the brackets of an IPv6 address */
	char port[8];
	char text[300];		/* scheme://host:port, for messages */
};

/* Parses udp://, tcp:// or tls://HOST[:PORT]; -1 with bb_err naming what is wrong. */
int syslog_parse(const char *s, struct syslog_dest *d);
/* rfc5424 or rfc3164 into *KIND; -1 with bb_err naming what is wrong. */
int syslog_format_parse(const char *s, enum syslog_format_kind *kind);

/* Whether NAME may stand as RFC 5424's HOSTNAME: 1 to 255 printable ASCII characters, no blank. */
int syslog_hostname_ok(const char *name);

/*
 * One RFC 5424 message in BUF: <PRI>1 TIMESTAMP HOSTNAME APP - - [meta
 * sequenceId="SEQ"] MSG. PRI is FACILITY * 8 + SEVERITY; control characters
 * in MSG become blanks; the whole is cut to SYSLOG_MAX. Returns its length.
 */
size_t syslog_format(char *buf, size_t len, int facility, int severity, const struct timespec *when,
		     const char *hostname, const char *app, unsigned long seq, const char *msg);
/*
 * One RFC 3164 message in BUF: <PRI>Mmm dd hh:mm:ss HOSTNAME APP: MSG, the
 * time in UTC (the format has no zone, and this machine has no other),
 * control characters in MSG as blanks, cut to SYSLOG_BSD_MAX. RFC 3164 has
 * no sequence number: a receiver sees a lost line only by its absence.
 */
size_t syslog_format_bsd(char *buf, size_t len, int facility, int severity, const struct timespec *when,
			 const char *hostname, const char *app, const char *msg);

struct syslog_lookup;

/* A connection to the server, made (and made again) when a message is sent. */
struct syslog_link {
	const struct syslog_dest *dest;
	int fd;			/* -1 while there is none */
	struct syslog_tls_session *tls;	/* with tls, over fd */
	struct syslog_lookup *lookup;	/* the name's lookup still going, or NULL */
	int send_ms;		/* the sends' timeout set on fd (SO_SNDTIMEO) */
	unsigned long sent;	/* datagrams sent on this socket (UDP's pacing) */
	char why[256];		/* why the last try did not send: "" when it did */
};

void syslog_link_init(struct syslog_link *l, const struct syslog_dest *d);
/*
 * Sends one formatted message. 1 sent; 0 not now (no route yet, the name
 * does not resolve yet, the server refused or the connection broke: l->why
 * says which; keep the message and try again later). It takes WAIT_S
 * seconds at most for each of its steps: the name's lookup (a DNS server
 * that does not answer holds getaddrinfo for 5 s and more: the lookup
 * goes on in a thread of its own, and the next call waits for the same
 * one), a TCP connection, a send; a signal ends a wait sooner. UDP is paced: nothing acknowledges a
 * datagram, and a burst (the lines kept while the network was not up) is
 * lost where the path cannot hold it: the kernel keeps 64 KiB for a
 * neighbour whose address it is still resolving, and drops the oldest
 * beyond that; a receiver's socket buffer overflows. So the first datagram
 * on a new socket is followed by 200 ms for the neighbour to answer, and
 * every 32nd by a millisecond.
 */
int syslog_send(struct syslog_link *l, const char *msg, size_t len, double wait_s);
void syslog_link_close(struct syslog_link *l);

#endif
