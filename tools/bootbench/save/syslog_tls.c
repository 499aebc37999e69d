// SPDX-License-Identifier: MIT
/*
 * syslog_tls.c - syslog over TLS (RFC 5425) through wolfSSL (syslog_tls.h).
 * RFC 5425 section 5.1: the client authenticates the server by its
 * certificate's chain to a trusted CA and its name; bootbench offers no
 * way around that (a syslog stream is a machine's whole console: who reads
 * it matters).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <wolfssl/wolfcrypt/settings.h>
#include <wolfssl/ssl.h>
#include <wolfssl/error-ssl.h>

#include "lib/util.h"
#include "save/syslog_tls.h"

/* a CA bundle is a few hundred KiB; more than this is not one */
#define CA_MAX (8u << 20)

struct syslog_tls {
	WOLFSSL_CTX *ctx;
};

struct syslog_tls_session {
	WOLFSSL *ssl;
};

struct syslog_tls *syslog_tls_new(const char *ca_file)
{
	struct syslog_tls *t = NULL;
	unsigned char *pem = NULL;
	struct stat st;
	ssize_t n;
	int fd = open(ca_file, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0) {
		set_err("the CA file %.200s: %s", ca_file, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0 || st.st_size > CA_MAX) {
		set_err("the CA file %.200s: not a file of 1 byte to %u MiB", ca_file, CA_MAX >> 20);
		goto out_close;
	}
	pem = malloc(st.st_size);
	if (!pem || (n = read(fd, pem, st.st_size)) != st.st_size) {
		set_err("the CA file %.200s: cannot read it", ca_file);
		goto out_free;
	}
	wolfSSL_Init();
	t = calloc(1, sizeof(*t));
	if (!t || !(t->ctx = wolfSSL_CTX_new(wolfSSLv23_client_method()))) {
		set_err("TLS: cannot make wolfSSL's context");
		goto out_t;
	}
	rc = wolfSSL_CTX_load_verify_buffer(t->ctx, pem, st.st_size, WOLFSSL_FILETYPE_PEM);
	if (rc != WOLFSSL_SUCCESS) {
		set_err("the CA file %.200s: no CA certificate in it wolfSSL reads (%s)", ca_file,
			wolfSSL_ERR_reason_error_string(rc));
		goto out_ctx;
	}
	/* RFC 5425 section 5.1: the server's certificate, always */
	wolfSSL_CTX_set_verify(t->ctx, WOLFSSL_VERIFY_PEER, NULL);
	free(pem);
	close(fd);
	return t;

out_ctx:
	wolfSSL_CTX_free(t->ctx);
out_t:
	free(t);
	t = NULL;
out_free:
	free(pem);
out_close:
	close(fd);
	return NULL;
}

void syslog_tls_free(struct syslog_tls *t)
{
	if (!t)
		return;
	wolfSSL_CTX_free(t->ctx);
	free(t);
}

static void tls_why(WOLFSSL *ssl, int rc, const char *what, char *why, size_t why_len)
{
	int err = wolfSSL_get_error(ssl, rc);
	char text[WOLFSSL_MAX_ERROR_SZ];

	if (err == WOLFSSL_ERROR_WANT_READ || err == WOLFSSL_ERROR_WANT_WRITE)
		snprintf(why, why_len, "%s: no answer in time", what);
	else if (err == WOLFSSL_ERROR_SYSCALL || err == SOCKET_ERROR_E)
		snprintf(why, why_len, "%s: %s", what, errno ? strerror(errno) : "the connection broke");
	else
		snprintf(why, why_len, "%s: %s", what, wolfSSL_ERR_error_string(err, text));
}

/* A host that is an address: matched as one (the certificate's IP names), and no SNI for it. */
static int is_address(const char *host)
{
	return strspn(host, "0123456789.") == strlen(host) || strchr(host, ':');
}

struct syslog_tls_session *syslog_tls_connect(struct syslog_tls *t, int fd, const char *host, double wait_s,
					      char *why, size_t why_len)
{
	struct syslog_tls_session *s = calloc(1, sizeof(*s));
	int ms = wait_s < 0.001 ? 1 : (int)(wait_s * 1000), rc;
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };

	if (!s || !(s->ssl = wolfSSL_new(t->ctx))) {
		snprintf(why, why_len, "TLS: out of memory");
		free(s);
		return NULL;
	}
	/* the handshake's reads and writes end by WAIT_S (the socket blocks) */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	wolfSSL_set_fd(s->ssl, fd);
	if (!is_address(host))
		wolfSSL_UseSNI(s->ssl, WOLFSSL_SNI_HOST_NAME, host, (unsigned short)strlen(host));
	/* the certificate names this host (a DNS name, or an IP address with WOLFSSL_IP_ALT_NAME) */
	wolfSSL_check_domain_name(s->ssl, host);
	errno = 0;
	rc = wolfSSL_connect(s->ssl);
	if (rc != WOLFSSL_SUCCESS) {
		tls_why(s->ssl, rc, "TLS handshake", why, why_len);
		wolfSSL_free(s->ssl);
		free(s);
		return NULL;
	}
	return s;
}

int syslog_tls_send(struct syslog_tls_session *s, const char *buf, size_t len, char *why, size_t why_len)
{
	size_t done = 0;

	while (done < len) {
		int k;

		errno = 0;
		k = wolfSSL_write(s->ssl, buf + done, (int)(len - done));
		if (k <= 0) {
			tls_why(s->ssl, k, "cannot send", why, why_len);
			return -1;
		}
		done += (size_t)k;
	}
	return 0;
}

void syslog_tls_close(struct syslog_tls_session *s)
{
	if (!s)
		return;
	wolfSSL_shutdown(s->ssl);
	wolfSSL_free(s->ssl);
	free(s);
}
