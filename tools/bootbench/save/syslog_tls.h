/* SPDX-License-Identifier: MIT */
/*
 * syslog_tls.h - the TLS of syslog over TLS (RFC 5425: tls://HOST[:PORT],
 * port 6514): wolfSSL's client (TLS 1.2 and 1.3), the server's certificate
 * verified against a CA file and matched to the host's name or address;
 * never unverified. The TLS is wolfSSL's, not ours: this file only drives
 * it over a socket syslog.c connected.
 */
#ifndef BB_SYSLOG_TLS_H
#define BB_SYSLOG_TLS_H

#include <stddef.h>

struct syslog_tls;		/* the CA and the settings, for every connection */
struct syslog_tls_session;	/* one connection's TLS */

/* The CAs of CA_FILE (PEM, one or many); NULL with bb_err naming what is wrong. */
struct syslog_tls *syslog_tls_new(const char *ca_file);
void syslog_tls_free(struct syslog_tls *t);

/*
 * TLS over FD, connected to HOST (a name or an address, matched against the
 * certificate's names), its handshake given WAIT_S seconds; NULL with WHY
 * saying what failed (the certificate's verdict among them).
 */
struct syslog_tls_session *syslog_tls_connect(struct syslog_tls *t, int fd, const char *host, double wait_s,
					      char *why, size_t why_len);
/* Sends all of BUF; 0, or -1 with WHY. */
int syslog_tls_send(struct syslog_tls_session *s, const char *buf, size_t len, char *why, size_t why_len);
/* Ends the session (a close_notify, not waited for) and frees it; the socket stays the caller's. */
void syslog_tls_close(struct syslog_tls_session *s);

#endif
