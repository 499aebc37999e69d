// SPDX-License-Identifier: MIT
/*
 * test_url.c - the destination URL parser (every scheme, what each part
 * becomes, and one refusal per kind of mistake, each naming it), the config
 * URL expansion of ${serial} and ${mac}, and the credentials lookup
 * (passwords with commas, quotes and spaces come back as written).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "save/url.h"
#include "lib/util.h"

static void accepts(const char *s, enum dest_kind kind, const char *domain, const char *user, const char *host,
		    unsigned port, const char *path)
{
	struct dest_url u;
	int rc = url_parse(s, &u);

	CHECK(rc == 0, "%s: refused: %s", s, bb_err);
	if (rc)
		return;
	CHECK(u.kind == kind, "%s: kind %d", s, u.kind);
	CHECK(!strcmp(u.domain, domain), "%s: domain '%s'", s, u.domain);
	CHECK(!strcmp(u.user, user), "%s: user '%s'", s, u.user);
	CHECK(!strcmp(u.host, host), "%s: host '%s'", s, u.host);
	CHECK(u.port == port, "%s: port %u", s, u.port);
	CHECK(!strcmp(u.path, path), "%s: path '%s'", s, u.path);
}

static void refuses(const char *s, const char *why)
{
	struct dest_url u;

	bb_err[0] = 0;
	CHECK(url_parse(s, &u) == -1, "%s: accepted", s);
	CHECK(strstr(bb_err, why) != NULL, "%s: error '%s' lacks '%s'", s, bb_err, why);
	CHECK(!strchr(bb_err, '\n'), "%s: error has more than one line", s);
}

static void expands(const char *tmpl, const char *serial, const char *mac, const char *want)
{
	char out[256];
	int rc = url_expand(tmpl, serial, mac, out, sizeof(out));

	CHECK(rc == 0 && !strcmp(out, want), "%s -> '%s' (rc %d: %s), want '%s'", tmpl, rc ? "" : out, rc, bb_err,
	      want);
}

int main(void)
{
	char where[256], pw[256], file[] = "/tmp/test_url.XXXXXX";
	struct dest_url u;
	FILE *f;
	int fd;

	accepts("usb", DEST_USB, "", "", "", 0, "");
	accepts("console", DEST_CONSOLE, "", "", "", 0, "");
	accepts("nfs://10.0.2.2/srv/results", DEST_NFS4, "", "", "10.0.2.2", 0, "/srv/results");
	accepts("nfs3://nas.lab:20490/export", DEST_NFS3, "", "", "nas.lab", 20490, "/export");
	accepts("smb://RACK;bench@[fd00::2]:4450/results/rack%201", DEST_SMB, "RACK", "bench", "[fd00::2]", 4450,
		"/results/rack 1");
	accepts("smb://bench@fs1/share", DEST_SMB, "", "bench", "fs1", 0, "/share");
	accepts("https://dav.example.org/results/", DEST_HTTPS, "", "", "dav.example.org", 0, "/results/");
	accepts("http://up%40load@10.0.2.2:8080", DEST_HTTP, "", "up@load", "10.0.2.2", 8080, "/");

	refuses("ftp://host/x", "unknown scheme 'ftp'");
	refuses("stick", "expected usb, console, or a URL");
	refuses("nfs://host", "name the export path");
	refuses("nfs://user@host/x", "NFS takes no user name");
	refuses("smb://host/share", "name the user");
	refuses("smb://u@host/", "name the share");
	refuses("smb://u:secret@host/share", "no password in the URL");
	refuses("https://host:0/x", "port must be a number from 1 to 65535");
	refuses("https://host:99999/x", "port must be a number from 1 to 65535");
	refuses("https://host:8a/x", "port must be a number from 1 to 65535");
	refuses("https:///x", "no host");
	refuses("https://ho st/x", "is not a host name or address");
	refuses("https://[fd00::1/x", "unclosed '['");
	refuses("https://host/a/../b", "'..' in the path");
	refuses("https://host/a%2", "bad %-escape in the path");
	refuses("https://host/a%00b", "bad %-escape in the path");
	refuses("https://host/x?y=1", "query or fragment");
	refuses("https://D;u@host/x", "for smb:// only");

	CHECK(!url_parse("smb://D;u@h:4450/s/p", &u) && !strcmp(url_where(&u, where, sizeof(where)), "smb://h:4450/s/p"),
	      "url_where without the user: %s", where);

	expands("http://10.0.2.2/bb/${serial}.conf", "ABC 123/x", "52-54-00-12-34-56", "http://10.0.2.2/bb/ABC%20123%2Fx.conf");
	expands("tftp://s/${mac}", "S", "52-54-00-12-34-56", "tftp://s/52-54-00-12-34-56");
	expands("http://s/all.conf", NULL, NULL, "http://s/all.conf");
	CHECK(url_expand("http://s/${host}", "S", "M", where, sizeof(where)) == -1 && strstr(bb_err, "unknown variable '${host}'"),
	      "unknown variable: %s", bb_err);
	CHECK(url_expand("http://s/${serial}", "", "M", where, sizeof(where)) == -1 && strstr(bb_err, "no serial"),
	      "no serial: %s", bb_err);
	CHECK(url_expand("http://s/${serial", "S", "M", where, sizeof(where)) == -1 && strstr(bb_err, "unclosed"),
	      "unclosed: %s", bb_err);

	fd = mkstemp(file);
	CHECK(fd >= 0, "mkstemp");
	f = fdopen(fd, "w");
	fprintf(f, "# comment\nsmb://other@fs1 nope\nsmb://RACK;bench@fs1:4450 pa,ss \"wo'rd\" x\n"
		   "https://up@dav.example.org s3cr=t,\n");
	fclose(f);
	CHECK(!url_parse("smb://RACK;bench@fs1:4450/share/dir", &u) && cred_lookup(file, &u, pw, sizeof(pw)) == 0 &&
	      !strcmp(pw, "pa,ss \"wo'rd\" x"), "smb password: '%s'", pw);
	CHECK(!url_parse("https://up@dav.example.org/r/", &u) && cred_lookup(file, &u, pw, sizeof(pw)) == 0 &&
	      !strcmp(pw, "s3cr=t,"), "https password: '%s'", pw);
	CHECK(!url_parse("smb://bench@fs1:4450/share", &u) && cred_lookup(file, &u, pw, sizeof(pw)) == 1,
	      "no domain given: no match");
	CHECK(!url_parse("https://dav.example.org/r/", &u) && cred_lookup(file, &u, pw, sizeof(pw)) == 1,
	      "no user: no password");
	unlink(file);
	CHECK(cred_lookup(file, &u, pw, sizeof(pw)) == 1, "no credentials file: none");
	return unit_done();
}
