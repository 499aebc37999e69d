// SPDX-License-Identifier: MIT
/*
 * dest_webdav.c - WebDAV (RFC 4918) through curl: MKCOL for folders, PUT
 * for files, MOVE with "Overwrite: F" for the final rename, DELETE for a
 * stale temporary folder. HTTPS servers are verified against the CA file
 * given (or curl's bundle in the image). The user and password reach curl
 * on its standard input (--config -), never on its command line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "save/deliver.h"
#include "save/dest.h"

/* Appends S to OUT percent-encoded for a URL path ('/' kept). */
static void path_encode(char *out, size_t len, const char *s)
{
	size_t o = strlen(out);

	for (; *s && o + 4 < len; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("-._~/", c))
			out[o++] = (char)c;
		else
			o += (size_t)snprintf(out + o, len - o, "%%%02X", c);
	}
	out[o] = 0;
}

/* curl's config syntax: a double-quoted string with \ and " escaped. */
static void config_quote(char *out, size_t len, const char *s)
{
	size_t o = 0;

	out[o++] = '"';
	for (; *s && o + 3 < len; s++) {
		if (*s == '"' || *s == '\\')
			out[o++] = '\\';
		out[o++] = *s;
	}
	out[o++] = '"';
	out[o] = 0;
}

/*
 * One request: METHOD on URL (REL below the base), with an optional file to
 * upload and extra headers (NULL-terminated). Returns the HTTP status, or a negative
 * dest_error with bb_err set when curl could not get one.
 */
static int request(struct dest *d, const char *method, const char *rel, const char *upload,
		   const char *const *headers)
{
	char url[4096], cfg[1024] = "", maxtime[16], conntime[16], out[256], up[600];
	char *argv[32];
	int argc = 0, rc, status;

	snprintf(url, sizeof(url), "%s", d->base_url);
	path_encode(url, sizeof(url), rel);
	snprintf(conntime, sizeof(conntime), "%u", d->set->timeout_s);
	snprintf(maxtime, sizeof(maxtime), "%u", d->set->timeout_s * 6);
	argv[argc++] = "curl";
	argv[argc++] = "--silent";
	argv[argc++] = "--config";
	argv[argc++] = "-";
	argv[argc++] = "--connect-timeout";
	argv[argc++] = conntime;
	argv[argc++] = "--max-time";
	argv[argc++] = maxtime;
	argv[argc++] = "--output";
	argv[argc++] = "/dev/null";
	argv[argc++] = "--write-out";
	argv[argc++] = "%{http_code}";
	if (d->set->ca_file && d->url.kind == DEST_HTTPS) {
		argv[argc++] = "--cacert";
		argv[argc++] = (char *)d->set->ca_file;
	}
	if (upload) {
		argv[argc++] = "--upload-file";
		argv[argc++] = (char *)upload;
	} else if (!strcmp(method, "HEAD")) {
		argv[argc++] = "--head";	/* --request HEAD would wait for a body */
	} else {
		argv[argc++] = "--request";
		argv[argc++] = (char *)method;
	}
	for (; headers && *headers && argc < 28; headers++) {
		argv[argc++] = "--header";
		argv[argc++] = (char *)*headers;
	}
	argv[argc++] = url;
	argv[argc] = NULL;
	if (d->url.user[0]) {
		snprintf(up, sizeof(up), "%s:%s", d->url.user, d->has_password ? d->password : "");
		strcpy(cfg, "user = ");
		config_quote(cfg + strlen(cfg), sizeof(cfg) - strlen(cfg), up);
		strcat(cfg, "\n");
		memset(up, 0, sizeof(up));
	}
	rc = spawn(argv, cfg, 1, out, sizeof(out));	/* consent: curl talks HTTP, writes no file */
	memset(cfg, 0, sizeof(cfg));
	status = atoi(out);
	switch (rc) {
	case 0:
		return status;
	case 6:
		set_err("cannot resolve %s", d->url.host);
		return -DEST_RETRY;
	case 7:
		set_err("cannot connect to %s port %u", d->url.host,
			d->url.port ? d->url.port : d->url.kind == DEST_HTTPS ? 443 : 80);
		return -DEST_RETRY;
	case 28:
		set_err("%s did not answer within the time limit", d->url.host);
		return -DEST_RETRY;
	case 35:
		/* also what a server that dies during the handshake gives: retried (a bad certificate is 60) */
		set_err("the TLS handshake with %s failed", d->url.host);
		return -DEST_RETRY;
	case 60:
		set_err("the certificate of %s does not verify against %s", d->url.host,
			d->set->ca_file ? d->set->ca_file : "the image's CA bundle");
		return -DEST_PERMANENT;
	case 77:
		set_err("cannot read the CA file %s", d->set->ca_file ? d->set->ca_file : "(curl's default)");
		return -DEST_PERMANENT;
	case 127:
		set_err("curl is not installed: %s", out);
		return -DEST_PERMANENT;
	default:
		set_err("curl failed (exit status %d) on %s %s", rc, method, rel[0] ? rel : "/");
		return -DEST_RETRY;
	}
}

/* The outcome of an HTTP status for a request that wanted one of OK. */
static int judge(struct dest *d, int status, const char *what, const char *rel, int ok1, int ok2)
{
	if (status < 0)
		return -status;
	if (status == ok1 || status == ok2)
		return DEST_OK;
	switch (status) {
	case 401:
	case 403:
		set_err("%s %s: HTTP %d: wrong user or password, or no write access", what, rel, status);
		return DEST_PERMANENT;
	case 507:
	case 413:
		set_err("%s %s: HTTP %d: the share is full", what, rel, status);
		return DEST_PERMANENT;
	case 405:
	case 501:
		set_err("%s %s: HTTP %d: the server does not take WebDAV %s here", what, rel, status, what);
		return DEST_PERMANENT;
	case 500:
		if (!strcmp(what, "PUT")) {
			/* nginx answers a full disk with 500, not 507: say both */
			set_err("%s %s: HTTP 500: the server could not store it (full, or another server-side error)",
				what, rel);
			return DEST_RETRY;
		}
		/* fall through */
	default:
		set_err("%s %s: HTTP %d", what, rel, status);
		return status >= 500 || status == 0 ? DEST_RETRY : DEST_PERMANENT;
	}
	(void)d;
}

static int dav_mkdirs(struct dest *d, const char *rel);

static int dav_attach(struct dest *d)
{
	const struct dest_url *u = &d->url;
	char origin[600], path[1024];
	int status, rc;

	snprintf(origin, sizeof(origin), "%s://%s", u->scheme, u->host);
	if (u->port)
		snprintf(origin + strlen(origin), sizeof(origin) - strlen(origin), ":%u", u->port);
	strcat(origin, "/");
	/* OPTIONS on the server's root: reaches it, checks TLS and the password once */
	snprintf(d->base_url, sizeof(d->base_url), "%s", origin);
	status = request(d, "OPTIONS", "", NULL, NULL);
	rc = judge(d, status, "OPTIONS", "/", 200, 204);
	if (rc == DEST_PERMANENT && status == 405)
		rc = DEST_OK;	/* a server that answers OPTIONS with 405 still took the password */
	/* the collections of the path, made from the root down */
	snprintf(path, sizeof(path), "%s", u->path + 1);
	while (*path && path[strlen(path) - 1] == '/')
		path[strlen(path) - 1] = 0;
	if (!rc && *path)
		rc = dav_mkdirs(d, path);
	snprintf(d->base_url, sizeof(d->base_url), "%.*s", (int)strlen(origin) - 1, origin);
	path_encode(d->base_url, sizeof(d->base_url), u->path);
	if (d->base_url[strlen(d->base_url) - 1] != '/')
		strcat(d->base_url, "/");
	return rc;
}

static void dav_detach(struct dest *d)
{
	(void)d;
}

static int dav_exists(struct dest *d, const char *rel)
{
	int status = request(d, "HEAD", rel, NULL, NULL);

	if (status == 200)
		return 1;
	if (status == 404)
		return 0;
	return -judge(d, status, "HEAD", rel, 200, 200);
}

static int dav_mkdirs(struct dest *d, const char *rel)
{
	char part[1024];
	const char *p = rel;
	int rc;

	for (;;) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - rel) : strlen(rel);

		if (n) {
			snprintf(part, sizeof(part), "%.*s/", (int)n, rel);
			/* 201 made, 405 already there */
			rc = judge(d, request(d, "MKCOL", part, NULL, NULL), "MKCOL", part, 201, 405);
			if (rc)
				return rc;
		}
		if (!slash)
			return DEST_OK;
		p = slash + 1;
	}
}

static int dav_put(struct dest *d, const char *local, const char *rel)
{
	return judge(d, request(d, "PUT", rel, local, NULL), "PUT", rel, 201, 204);
}

/* A heartbeat (NAME.heartbeat.json, or its .partial before the rename) is a
 * file, every other name a folder: a collection's URL ends in a slash, a
 * file's must not (nginx answers MOVE and DELETE of "FILE/" with 404). */
static const char *dav_slash(const char *rel)
{
	size_t n = strlen(rel), h = strlen(HEARTBEAT_SUFFIX), p = strlen(HEARTBEAT_SUFFIX ".partial");

	if ((n > h && !strcmp(rel + n - h, HEARTBEAT_SUFFIX)) || (n > p && !strcmp(rel + n - p, HEARTBEAT_SUFFIX ".partial")))
		return "";
	return "/";
}

static int dav_rename(struct dest *d, const char *from, const char *to)
{
	char dest[4200], src[1100];
	const char *headers[] = { dest, "Overwrite: F", NULL };
	int status;

	snprintf(dest, sizeof(dest), "Destination: %s", d->base_url);
	path_encode(dest, sizeof(dest), to);
	strcat(dest, dav_slash(to));
	snprintf(src, sizeof(src), "%s%s", from, dav_slash(from));
	status = request(d, "MOVE", src, NULL, headers);
	if (status == 412) {
		set_err("%s already exists (not made by this run)", to);
		return DEST_PERMANENT;
	}
	return judge(d, status, "MOVE", from, 201, 204);
}

static int dav_remove(struct dest *d, const char *rel)
{
	char col[1100];

	snprintf(col, sizeof(col), "%s%s", rel, dav_slash(rel));
	return judge(d, request(d, "DELETE", col, NULL, NULL), "DELETE", rel, 204, 404);
}

const struct dest_ops dest_webdav_ops = {
	.name = "webdav",
	.attach = dav_attach,
	.detach = dav_detach,
	.exists = dav_exists,
	.mkdirs = dav_mkdirs,
	.put = dav_put,
	.rename = dav_rename,
	.remove = dav_remove,
};
