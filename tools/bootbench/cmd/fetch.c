// SPDX-License-Identifier: MIT
/*
 * fetch.c - `bootbench fetch-config URL FILE`: the per-host configuration
 * a PXE server offers (bootbench.conf=URL), fetched at boot. ${serial} and
 * ${mac} in URL become this machine's name (its DMI serial, or mac-MAC when
 * the serial is a vendor's placeholder: sys/machine.c) and first wired MAC
 * (52-54-00-12-34-56, as pxelinux names its per-host files), so a rack has
 * one file per machine or one for all. http and https go through curl
 * (servers verified against --ca or the image's bundle), tftp through
 * busybox's tftp. FILE is written whole or not at all.
 * Its flags and help: the declaration at the end (lib/args.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/args.h"
#include "lib/util.h"
#include "save/url.h"
#include "sys/machine.h"

/* HOST[:PORT] then '/' or the end: a name or IPv4 of letters, digits, '.', '-', or an [IPv6]. */
static int names_host(const char *p)
{
	const char *h = p;

	if (*p == '[') {
		p = strchr(p, ']');
		if (!p || p == h + 1)
			return 0;
		p++;
	} else {
		while (isalnum((unsigned char)*p) || *p == '.' || *p == '-' || *p == '_')
			p++;
		if (p == h)
			return 0;
	}
	if (*p == ':') {
		const char *d = ++p;

		while (isdigit((unsigned char)*p))
			p++;
		if (p == d || p - d > 5)
			return 0;
	}
	return !*p || *p == '/';
}

struct fetch_opts {
	const char *ca;
	int print_url;
};

static int fetch_main(void *opts, int argc, char **argv)
{
	struct fetch_opts *o = opts;
	char serial[128], mac[64], url[2048], shown[2048], out[512], tmp[4200];
	const char *ca = o->ca, *tmpl = argc > 0 ? argv[0] : NULL, *file = argc > 1 ? argv[1] : NULL;
	int print_only = o->print_url, rc;

	if (argc > 2)
		die_usage("fetch-config: one URL and one FILE");
	if (!tmpl || (!file && !print_only))
		die_usage("fetch-config: give the URL and the FILE to write");
	/* ${serial}: the machine's one name, the MAC's form when its serial is a placeholder */
	machine_unique_id(serial, sizeof(serial));
	machine_mac(mac, sizeof(mac));
	if (url_expand(tmpl, serial, mac, url, sizeof(url)))
		die_usage("fetch-config: %s", bb_err);
	url_redact(url, shown, sizeof(shown));
	if (strncmp(url, "http://", 7) && strncmp(url, "https://", 8) && strncmp(url, "tftp://", 7))
		die_usage("fetch-config: '%s': expected an http://, https:// or tftp:// URL", shown);
	if (!names_host(strstr(url, "://") + 3))
		die_usage("fetch-config: '%s': expected SCHEME://HOST[:PORT]/PATH", shown);
	if (file) {
		struct stat st;
		char dir[4096];
		const char *slash = strrchr(file, '/');

		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - file) + 1 : 1, slash ? file : ".");
		if (!stat(file, &st) && S_ISDIR(st.st_mode))
			die_usage("fetch-config: %s is a folder, not a file to write", file);
		if (stat(dir, &st) || !S_ISDIR(st.st_mode))
			die_usage("fetch-config: %s: its folder %s is not there", file, dir);
	}
	if (print_only) {
		printf("%s\n", url);
		return EXIT_OK;
	}
	snprintf(tmp, sizeof(tmp), "%s.part", file);
	if (!strncmp(url, "tftp://", 7)) {
		/* tftp://host[:port]/path: busybox tftp -g -r path -l file host [port] */
		char host[300], port[16] = "69";
		const char *h = url + 7, *slash = strchr(h, '/'), *colon;
		char *args[] = { "tftp", "-g", "-r", NULL, "-l", tmp, host, port, NULL };

		if (!slash || slash == h)
			die_usage("fetch-config: '%s': expected tftp://host/path", shown);
		colon = memchr(h, ':', slash - h);
		snprintf(host, sizeof(host), "%.*s", (int)((colon ? colon : slash) - h), h);
		if (colon)
			snprintf(port, sizeof(port), "%.*s", (int)(slash - colon - 1), colon + 1);
		args[3] = (char *)slash + 1;
		rc = spawn(args, NULL, 0, out, sizeof(out));	/* consent: tftp writes FILE.part */
	} else {
		char *args[] = { "curl", "--silent", "--show-error", "--fail", "--connect-timeout", "10", "--max-time",
				 "30", "--output", tmp, "--cacert", (char *)ca, url, NULL };

		if (!ca) {
			args[10] = url;
			args[11] = NULL;
		}
		rc = spawn(args, NULL, 0, out, sizeof(out));	/* consent: curl writes FILE.part */
	}
	if (rc) {
		unlink(tmp);
		note("fetch-config: %s: %s", shown, out[0] ? out : "failed");
		return EXIT_FAIL;
	}
	if (rename(tmp, file)) {
		note("fetch-config: cannot write %s: %s", file, strerror(errno));
		unlink(tmp);
		return EXIT_FAIL;
	}
	printf("fetch-config: %s -> %s\n", shown, file);
	return EXIT_OK;
}

static const struct arg fetch_args[] = {
	{ .name = "--ca", .kind = ARG_STR, .offset = ARG_AT(struct fetch_opts, ca), .meta = "FILE",
	  .help = "https: verify the server against this CA file" },
	{ .name = "--print-url", .kind = ARG_FLAG, .offset = ARG_AT(struct fetch_opts, print_url),
	  .help = "print the URL with ${serial} and ${mac} expanded, fetch nothing" },
	{ NULL },
};

const struct command fetch_config_command = {
	.name = "fetch-config",
	.summary = "fetch this machine's config from a PXE server (http, https, tftp)",
	.usage = "[--ca=FILE] [--print-url] URL [FILE]",
	.help = "Fetches the per-host config (http, https, tftp) into FILE, whole or not at all;\n"
		"${serial} and ${mac} in URL become this machine's DMI serial (mac-aabbccddeeff when\n"
		"the vendor left a placeholder) and its first wired MAC (aa-bb-cc-dd-ee-ff).\n",
	.args = fetch_args,
	.opts_size = sizeof(struct fetch_opts),
	.run = fetch_main,
};
