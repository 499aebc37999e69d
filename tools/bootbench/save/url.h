/* SPDX-License-Identifier: MIT */
/*
 * url.h - where results go, as one string everywhere (bootbench save, the
 * boot parameter bootbench.save=, the menu):
 *   usb | console
 *   nfs://host[:port]/export/path      NFSv4.x (kernel client)
 *   nfs3://host[:port]/export/path     NFSv3, nolock
 *   smb://[domain;]user@host[:port]/share/path   SMB 3.x (kernel cifs)
 *   http[s]://[user@]host[:port]/path/ WebDAV (curl)
 * Hosts may be names, IPv4 or [IPv6]; %XX is decoded in user and path.
 * Passwords never stand in a URL: they come from a credentials file.
 */
#ifndef BB_URL_H
#define BB_URL_H

#include <stddef.h>

enum dest_kind { DEST_USB, DEST_CONSOLE, DEST_NFS4, DEST_NFS3, DEST_SMB, DEST_HTTP, DEST_HTTPS };

struct dest_url {
	enum dest_kind kind;
	char scheme[8];
	char domain[64], user[128];
	char host[256];
	unsigned port;		/* 0: the scheme's default */
	char path[1024];	/* decoded; "/" at least; for smb the share is its first element */
	char text[1600];	/* the URL as given: for messages and the spool */
};

/* Parses one destination; -1 with bb_err naming what is wrong. */
int url_parse(const char *s, struct dest_url *u);
/* Parses a credential's URL: a destination that need not name a path. */
int url_parse_key(const char *s, struct dest_url *u);

/*
 * URL for a message: a password written in it (user:password@) replaced by
 * ***, everything else as given. Every message that shows a URL someone
 * typed shows it through this (the shell's is redact_url in boot.sh).
 */
const char *url_redact(const char *url, char *buf, size_t len);

/* The URL without user info and with the default port left out: a key that
 * says where, not who (results folder names, messages). */
const char *url_where(const struct dest_url *u, char *buf, size_t len);

/*
 * Expands ${serial} and ${mac} in a config URL template (bootbench.conf=),
 * percent-encoding what they stand for; any other ${...} is an error. -1
 * with bb_err if it does not fit or a variable is unknown or has no value.
 */
int url_expand(const char *tmpl, const char *serial, const char *mac, char *out, size_t len);

/*
 * The password for U from a credentials file: lines "URL PASSWORD", where
 * URL names scheme, [domain;]user and host[:port] as U does (its path is not
 * compared) and PASSWORD is the rest of the line, as it is (commas, quotes
 * and spaces included). 0 found, 1 none, -1 unreadable.
 */
int cred_lookup(const char *file, const struct dest_url *u, char *pw, size_t len);

#endif
