// SPDX-License-Identifier: MIT
/*
 * save.c - `bootbench save`: one result folder to every destination named
 * (save/url.h), the stick first when there is one; undelivered ones are
 * spooled. `--pending` retries the spool.
 *
 * usage: bootbench save [OPTIONS] DEST... RESULT-DIR
 *        bootbench save --pending [OPTIONS]
 *        bootbench save --test [OPTIONS] DEST...
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "deliver.h"
#include "util.h"

#define RUNDIR "/run/bootbench"

static void usage(void)
{
	printf("usage: bootbench save [OPTIONS] DEST... RESULT-DIR\n"
	       "       bootbench save --pending [OPTIONS]\n"
	       "       bootbench save --test [OPTIONS] DEST...\n\n"
	       "Sends a result folder to each DEST, whole or not at all: under a temporary name,\n"
	       "MANIFEST.sha256 last, then one rename. With a stick mounted for results its copy is\n"
	       "written first. Each other DEST is retried with backoff (1, 2, 4 ... 32 s, then every\n"
	       "60 s) until --timeout; what is not delivered stays in the spool for --pending.\n\n"
	       "DEST: usb | console | nfs://host[:port]/export/path | nfs3://host[:port]/export/path\n"
	       "      | smb://[domain;]user@host[:port]/share/path | http[s]://[user@]host[:port]/path/\n\n"
	       "Options:\n"
	       "  --pending          retry what the spool holds\n"
	       "  --check            only check that the destinations are well-formed\n"
	       "  --test             write, find and remove a test file on each DEST (one attempt each,\n"
	       "                     nothing delivered, the stick not written)\n"
	       "  --timeout=S        give up on a destination after S seconds (default 600)\n"
	       "  --credentials=F    \"URL PASSWORD\" lines (default " RUNDIR "/credentials)\n"
	       "  --ca=F             HTTPS: verify servers against this CA file\n"
	       "  --smb-vers=V       SMB dialect for cifs (default 3: 3.0 or newer)\n"
	       "  --stick=DIR|none   the stick's mount point (default: the results medium /init mounted)\n"
	       "  --spool=F          the spool (default: results/.pending on the stick, else " RUNDIR "/pending)\n\n"
	       "Exit status: 0 all delivered, 1 some not (spooled), 2 bad input (nothing sent).\n");
}

/* The stick /init mounted read-write for results, if any. */
static const char *default_stick(void)
{
	const char *env = getenv("BOOTBENCH_STICK");
	char line[256];
	FILE *f;
	int results = 0;

	if (env)
		return *env ? env : NULL;
	f = fopen(RUNDIR "/media", "re");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "results ", 8))
			results = 1;
	if (f)
		fclose(f);
	return results ? "/media/bootbench" : NULL;
}

static const char *opt_value(const char *arg, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(arg, name, n) && arg[n] == '=' ? arg + n + 1 : NULL;
}

/* Reads the spool into jobs and empties it (what fails again is added back). */
static unsigned spool_take(const char *spool, struct save_job **jobs)
{
	char line[4096];
	unsigned n = 0;
	/* on the stick: a link there is not followed */
	int fd = open(spool, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
	struct stat st;
	char manifest[PATH_MAX + 32];

	*jobs = NULL;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t');
		struct save_job j = { 0 };
		unsigned i;

		line[strcspn(line, "\n")] = 0;
		if (!tab)
			continue;
		*tab = 0;
		if (url_parse(line, &j.url)) {
			note("save: spool: %s", bb_err);
			continue;
		}
		snprintf(j.dir, sizeof(j.dir), "%s", tab + 1);
		if (lstat(j.dir, &st)) {
			note("save: spool: %s for %s is gone: dropped", j.dir, line);
			continue;
		}
		/*
		 * The spool lies on the stick, which anyone may have edited: it
		 * names only a finished run folder (bootbench's manifest in it),
		 * never a link or any other local folder to send away.
		 */
		snprintf(manifest, sizeof(manifest), "%s/" MANIFEST_NAME, j.dir);
		if (!S_ISDIR(st.st_mode) || lstat(manifest, &st) || !S_ISREG(st.st_mode)) {
			note("save: spool: %s is no finished run folder (a link, or no " MANIFEST_NAME " in it): dropped",
			     j.dir);
			continue;
		}
		for (i = 0; i < n; i++)
			if (!strcmp((*jobs)[i].url.text, j.url.text) && !strcmp((*jobs)[i].dir, j.dir))
				break;
		if (i < n)
			continue;	/* listed twice */
		*jobs = xrealloc(*jobs, (n + 1) * sizeof(**jobs));
		(*jobs)[n++] = j;
	}
	fclose(f);
	if (write_file_atomic(spool, "", 0))
		note("save: cannot empty the spool %s: %s", spool, bb_err);
	return n;
}

int cmd_save(int argc, char **argv)
{
	struct dest_settings set = { .credentials = RUNDIR "/credentials", .mount_dir = RUNDIR "/mnt",
				     .timeout_s = 10 };
	char spool_buf[PATH_MAX], stick_copy[PATH_MAX], dir[PATH_MAX];
	const char *spool = NULL, *v, *dir_arg = NULL;
	struct save_job *jobs = NULL, usb = { 0 };
	unsigned n = 0, total_s = 600, i, ndest = 0;
	int pending = 0, check_only = 0, test_only = 0, want_usb = 0, stick_set = 0, failed = 0;
	struct stat st;

	for (i = 0; i < (unsigned)argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage();
			return EXIT_OK;
		} else if (!strcmp(a, "--pending")) {
			pending = 1;
		} else if (!strcmp(a, "--check")) {
			check_only = 1;
		} else if (!strcmp(a, "--test")) {
			test_only = 1;
		} else if ((v = opt_value(a, "--check-credential"))) {
			struct dest_url key;

			/* a credential line's URL (bootbench.conf credential=) */
			if (url_parse_key(v, &key) || !key.user[0])
				die_usage("save: credential URL '%s': %s", v, key.user[0] || bb_err[0] ? bb_err : "no user@");
			return EXIT_OK;
		} else if ((v = opt_value(a, "--timeout"))) {
			char *end;

			total_s = (unsigned)strtoul(v, &end, 10);
			if (*end || !*v || total_s > 86400)
				die_usage("save: --timeout=%s: expected seconds from 0 to 86400", v);
		} else if ((v = opt_value(a, "--credentials"))) {
			set.credentials = v;
		} else if ((v = opt_value(a, "--ca"))) {
			if (access(v, R_OK))
				die_usage("save: --ca=%s: %s", v, strerror(errno));
			set.ca_file = v;
		} else if ((v = opt_value(a, "--smb-vers"))) {
			if (!*v || strspn(v, "0123456789.") != strlen(v))
				die_usage("save: --smb-vers=%s: expected a dialect such as 3, 3.0, 3.02 or 3.1.1", v);
			set.smb_vers = v;
		} else if ((v = opt_value(a, "--stick"))) {
			set.stick = strcmp(v, "none") ? v : NULL;
			stick_set = 1;
		} else if ((v = opt_value(a, "--spool"))) {
			spool = v;
		} else if (a[0] == '-') {
			die_usage("save: unknown option '%s' (see 'bootbench save --help')", a);
		} else if (!strstr(a, "://") && strcmp(a, "usb") && strcmp(a, "console") && i == (unsigned)argc - 1 &&
			   !pending && !check_only && !test_only) {
			dir_arg = a;
		} else {
			struct save_job j = { 0 };

			if (url_parse(a, &j.url))
				die_usage("save: %s", bb_err);
			ndest++;
			if (j.url.kind == DEST_USB && !test_only) {
				want_usb = 1;
				continue;
			}
			jobs = xrealloc(jobs, (n + 1) * sizeof(*jobs));
			jobs[n++] = j;
		}
	}
	if (check_only) {
		free(jobs);
		return ndest ? EXIT_OK : (die_usage("save: --check: name the destinations to check"), EXIT_USAGE);
	}
	if (!stick_set)
		set.stick = default_stick();
	if (set.stick && (stat(set.stick, &st) || !S_ISDIR(st.st_mode)))
		die_usage("save: the stick %s is not a folder", set.stick);
	if (test_only) {
		struct dest_url *urls;

		if (!n || pending)
			die_usage("save: --test: name the destinations to test%s", pending ? ", without --pending" : "");
		urls = xcalloc(n, sizeof(*urls));
		for (i = 0; i < n; i++)
			urls[i] = jobs[i].url;
		failed = probe_all(urls, n, &set);
		free(urls);
		free(jobs);
		return failed ? EXIT_FAIL : EXIT_OK;
	}
	if (!spool) {
		if (set.stick)
			snprintf(spool_buf, sizeof(spool_buf), "%s/results/.pending", set.stick);
		else
			snprintf(spool_buf, sizeof(spool_buf), RUNDIR "/pending");
		spool = spool_buf;
	}
	if (pending) {
		if (ndest || dir_arg)
			die_usage("save: --pending takes no destinations or folder: it retries the spool %s", spool);
		free(jobs);
		n = spool_take(spool, &jobs);
		if (!n) {
			printf("save: nothing pending in %s\n", spool);
			return EXIT_OK;
		}
		failed = deliver_all(jobs, n, &set, total_s, spool);
		free(jobs);
		return failed ? EXIT_FAIL : EXIT_OK;
	}
	if (!ndest)
		die_usage("save: name at least one destination (see 'bootbench save --help')");
	if (!dir_arg)
		die_usage("save: name the result folder to send, after the destinations");
	if (!realpath(dir_arg, dir) || stat(dir, &st) || !S_ISDIR(st.st_mode))
		die_usage("save: %s is not a result folder", dir_arg);
	if (want_usb && !set.stick)
		die_usage("save: usb: no stick is mounted read-write for results");
	if (manifest_write(dir)) {
		note("save: %s", bb_err);
		return EXIT_FAIL;
	}
	/* the stick first: the other destinations, and the spool, then read its copy */
	if (set.stick) {
		url_parse("usb", &usb.url);
		snprintf(usb.dir, sizeof(usb.dir), "%s", dir);
		if (deliver_all(&usb, 1, &set, 0, NULL)) {
			failed = 1;
			/* a stick that failed part-way (pulled, broken): the results must not stay in RAM alone */
			for (i = 0; i < n && jobs[i].url.kind != DEST_CONSOLE; i++)
				;
			if (i == n) {
				printf("save: the stick failed: the results follow on the console\n");
				jobs = xrealloc(jobs, (n + 1) * sizeof(*jobs));
				memset(&jobs[n], 0, sizeof(jobs[n]));
				url_parse("console", &jobs[n++].url);
			}
		} else {
			snprintf(stick_copy, sizeof(stick_copy), "%s/results/%s", set.stick, strrchr(dir, '/') + 1);
			if (strcmp(stick_copy, dir))
				snprintf(dir, sizeof(dir), "%s", stick_copy);
		}
	}
	for (i = 0; i < n; i++)
		snprintf(jobs[i].dir, sizeof(jobs[i].dir), "%s", dir);
	if (n && deliver_all(jobs, n, &set, total_s, spool))
		failed = 1;
	free(jobs);
	return failed ? EXIT_FAIL : EXIT_OK;
}
