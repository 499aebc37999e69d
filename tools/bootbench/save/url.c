// SPDX-License-Identifier: MIT
/*
 * url.c - the destination URL parser, the config URL expansion and the
 * credentials lookup (url.h). Strict: whatever is not understood is refused
 * with one line saying what, never guessed.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "save/url.h"

static const struct scheme {
	const char *name;
	enum dest_kind kind;
	unsigned default_port;
} schemes[] = {
	{ "nfs", DEST_NFS4, 2049 },
	{ "nfs3", DEST_NFS3, 2049 },
	{ "smb", DEST_SMB, 445 },
	{ "http", DEST_HTTP, 80 },
	{ "https", DEST_HTTPS, 443 },
};

static int hexval(int c)
{
	return isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : -1;
}

/* Copies N bytes of S to OUT, decoding %XX; -1 on a bad escape, a NUL or an overflow. */
static int decode(const char *s, size_t n, char *out, size_t len, const char *what, const char *url)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		int c = (unsigned char)s[i];

		if (c == '%') {
			int hi = i + 1 < n ? hexval(s[i + 1]) : -1;
			int lo = i + 2 < n ? hexval(s[i + 2]) : -1;

			if (hi < 0 || lo < 0 || (hi == 0 && lo == 0))
				return set_err("destination '%s': bad %%-escape in the %s", url, what);
			c = hi << 4 | lo;
			i += 2;
		}
		if (o + 1 >= len)
			return set_err("destination '%s': the %s is too long", url, what);
		out[o++] = (char)c;
	}
	out[o] = 0;
	return 0;
}

static int valid_host(const char *h)
{
	if (h[0] == '[')
		return strlen(h) > 2 && h[strlen(h) - 1] == ']' && strspn(h + 1, "0123456789abcdefABCDEF:.") == strlen(h) - 2;
	return *h && strspn(h, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_") == strlen(h);
}

const char *url_redact(const char *url, char *buf, size_t len)
{
	const char *auth = strstr(url, "://"), *colon, *at;

	snprintf(buf, len, "%s", url);
	if (!auth)
		return buf;
	auth += 3;
	/* user:password@: whatever stands between the first ':' and the '@' after it (a
	 * password holding '/' included: more is hidden rather than less) */
	at = strchr(auth, '@');
	colon = strchr(auth, ':');
	if (at && colon && colon < at)
		snprintf(buf, len, "%.*s***%s", (int)(colon + 1 - url), url, at);
	return buf;
}

/* KEY: a credentials line's URL, which names no path. */
static int parse(const char *s, struct dest_url *u, int key)
{
	char shown[sizeof(u->text)];
	const char *p, *auth, *slash, *at, *hp, *colon;
	const struct scheme *sc = NULL;
	size_t n;
	unsigned i;

	memset(u, 0, sizeof(*u));
	/* every message shows the URL without a password it may carry */
	url_redact(s, shown, sizeof(shown));
	if (strlen(s) >= sizeof(u->text))
		return set_err("destination '%.60s...': too long", shown);
	snprintf(u->text, sizeof(u->text), "%s", s);
	if (!strcmp(s, "usb") || !strcmp(s, "console")) {
		u->kind = s[0] == 'u' ? DEST_USB : DEST_CONSOLE;
		snprintf(u->scheme, sizeof(u->scheme), "%s", s);
		return 0;
	}
	p = strstr(s, "://");
	if (!p)
		return set_err("destination '%s': expected usb, console, or a URL "
			       "(nfs://, nfs3://, smb://, http://, https://)", shown);
	for (i = 0; i < ARRAY_SIZE(schemes); i++)
		if ((size_t)(p - s) == strlen(schemes[i].name) && !strncmp(s, schemes[i].name, p - s))
			sc = &schemes[i];
	if (!sc)
		return set_err("destination '%s': unknown scheme '%.*s' (known: nfs, nfs3, smb, http, https)", shown,
			       (int)(p - s), shown);
	u->kind = sc->kind;
	snprintf(u->scheme, sizeof(u->scheme), "%s", sc->name);
	auth = p + 3;
	slash = strchr(auth, '/');
	if (!slash)
		slash = auth + strlen(auth);
	if (strpbrk(auth, "?#"))
		return set_err("destination '%s': a query or fragment (?, #) is not understood here", shown);
	at = memchr(auth, '@', slash - auth);
	hp = auth;
	if (at) {
		const char *semi = memchr(auth, ';', at - auth);
		const char *user = semi ? semi + 1 : auth;

		if (memchr(auth, ':', at - auth))
			return set_err("destination '%s': no password in the URL: put it in the credentials "
				       "(bootbench.conf: credential=URL PASSWORD)", shown);
		if (semi) {
			if (u->kind != DEST_SMB)
				return set_err("destination '%s': a domain (DOMAIN;user@) is for smb:// only", shown);
			if (decode(auth, semi - auth, u->domain, sizeof(u->domain), "domain", shown))
				return -1;
		}
		if (decode(user, at - user, u->user, sizeof(u->user), "user name", shown))
			return -1;
		if (!u->user[0])
			return set_err("destination '%s': empty user name before '@'", shown);
		if (u->kind == DEST_NFS4 || u->kind == DEST_NFS3)
			return set_err("destination '%s': NFS takes no user name", shown);
		hp = at + 1;
	}
	/* host, [v6] or name, then :port */
	if (*hp == '[') {
		const char *close = memchr(hp, ']', slash - hp);

		if (!close)
			return set_err("destination '%s': unclosed '[' in the host", shown);
		colon = close + 1 < slash && close[1] == ':' ? close + 1 : NULL;
		if (close + 1 < slash && !colon)
			return set_err("destination '%s': junk after the host's ']'", shown);
	} else {
		colon = memchr(hp, ':', slash - hp);
	}
	n = (colon ? colon : slash) - hp;
	if (n == 0 || n >= sizeof(u->host))
		return set_err("destination '%s': %s host", shown, n ? "too long a" : "no");
	memcpy(u->host, hp, n);
	u->host[n] = 0;
	if (!valid_host(u->host))
		return set_err("destination '%s': '%s' is not a host name or address", shown, u->host);
	if (colon) {
		char *end;
		unsigned long port;

		errno = 0;
		port = strtoul(colon + 1, &end, 10);
		if (end != slash || colon + 1 == slash || port < 1 || port > 65535 || !isdigit((unsigned char)colon[1]))
			return set_err("destination '%s': the port must be a number from 1 to 65535", shown);
		u->port = (unsigned)port;
	}
	if (!*slash)
		snprintf(u->path, sizeof(u->path), "/");
	else if (decode(slash, strlen(slash), u->path, sizeof(u->path), "path", shown))
		return -1;
	if (strstr(u->path, "/../") || (strlen(u->path) >= 3 && !strcmp(u->path + strlen(u->path) - 3, "/..")))
		return set_err("destination '%s': '..' in the path", shown);
	if (key)
		return 0;
	if ((u->kind == DEST_NFS4 || u->kind == DEST_NFS3) && !strcmp(u->path, "/"))
		return set_err("destination '%s': name the export path (nfs://host/export/path)", shown);
	if (u->kind == DEST_SMB) {
		if (!u->user[0])
			return set_err("destination '%s': name the user (smb://[domain;]user@host/share/path)", shown);
		if (!strcmp(u->path, "/") || u->path[1] == '/')
			return set_err("destination '%s': name the share (smb://user@host/share/path)", shown);
	}
	return 0;
}

int url_parse(const char *s, struct dest_url *u)
{
	return parse(s, u, 0);
}

int url_parse_key(const char *s, struct dest_url *u)
{
	return parse(s, u, 1);
}

const char *url_where(const struct dest_url *u, char *buf, size_t len)
{
	if (u->kind == DEST_USB || u->kind == DEST_CONSOLE)
		snprintf(buf, len, "%s", u->scheme);
	else if (u->port)
		snprintf(buf, len, "%s://%s:%u%s", u->scheme, u->host, u->port, u->path);
	else
		snprintf(buf, len, "%s://%s%s", u->scheme, u->host, u->path);
	return buf;
}

/* Appends S percent-encoded (all but unreserved characters). */
static int put_encoded(char *out, size_t len, size_t *o, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (isalnum(c) || strchr("-._~", c)) {
			if (*o + 1 >= len)
				return -1;
			out[(*o)++] = (char)c;
		} else {
			if (*o + 3 >= len)
				return -1;
			*o += (size_t)snprintf(out + *o, len - *o, "%%%02X", c);
		}
	}
	return 0;
}

int url_expand(const char *tmpl, const char *serial, const char *mac, char *out, size_t len)
{
	size_t o = 0;
	const char *p = tmpl;
	char shown[2048];

	url_redact(tmpl, shown, sizeof(shown));

	while (*p) {
		if (p[0] == '$' && p[1] == '{') {
			const char *end = strchr(p, '}');
			const char *val;

			if (!end)
				return set_err("config URL '%s': unclosed ${", shown);
			if (end - p == 8 && !strncmp(p, "${serial}", 9))
				val = serial;
			else if (end - p == 5 && !strncmp(p, "${mac}", 6))
				val = mac;
			else
				return set_err("config URL '%s': unknown variable '%.*s' (known: ${serial}, ${mac})", shown,
					       (int)(end - p + 1), p);
			if (!val || !*val)
				return set_err("config URL '%s': this machine has no %.*s", shown, (int)(end - p - 2), p + 2);
			if (put_encoded(out, len, &o, val))
				return set_err("config URL '%s': too long once expanded", shown);
			p = end + 1;
			continue;
		}
		if (o + 1 >= len)
			return set_err("config URL '%s': too long once expanded", shown);
		out[o++] = *p++;
	}
	out[o] = 0;
	return 0;
}

int cred_lookup(const char *file, const struct dest_url *u, char *pw, size_t len)
{
	char line[4096];
	FILE *f = fopen(file, "re");
	int found = 1;

	if (!f)
		return errno == ENOENT ? 1 : set_err("cannot read the credentials %s: %s", file, strerror(errno));
	while (found && fgets(line, sizeof(line), f)) {
		struct dest_url c;
		char *sp;

		line[strcspn(line, "\r\n")] = 0;
		sp = strchr(line, ' ');
		if (!sp || line[0] == '#')
			continue;
		*sp = 0;
		if (parse(line, &c, 1))
			continue;
		if (strcmp(c.scheme, u->scheme) || strcmp(c.host, u->host) || c.port != u->port ||
		    strcmp(c.user, u->user) || strcmp(c.domain, u->domain))
			continue;
		if (strlen(sp + 1) >= len) {
			fclose(f);
			return set_err("the password for %s is too long", line);
		}
		snprintf(pw, len, "%s", sp + 1);
		found = 0;
	}
	fclose(f);
	bb_err[0] = 0;
	return found;
}
