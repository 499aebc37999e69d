// SPDX-License-Identifier: MIT
/*
 * save.c - `bootbench save`: one result folder to every destination named
 * (save/url.h), the stick first when there is one; undelivered ones are
 * spooled. `--pending` retries the spool.
 *
 * Its flags and help: the declaration at the end (lib/args.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/args.h"
#include "lib/util.h"
#include "save/deliver.h"

#define RUNDIR "/run/bootbench"

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

struct save_opts {
	int pending, check, test;
	const char *check_credential, *credentials, *ca, *smb_vers, *stick, *spool;
	unsigned timeout, heartbeat;
};

static volatile sig_atomic_t heartbeat_stop;

static void stop_beating(int sig)
{
	(void)sig;
	heartbeat_stop = 1;
}

static int beating(const char *status)
{
	return !heartbeat_stop && access(status, F_OK) && getppid() != 1;
}

/*
 * --heartbeat: while the run in DIR goes on (until its status.json is
 * there, the shell that started it is gone, or SIGTERM/SIGINT), its
 * heartbeat on each destination every EVERY seconds. A signal ends the
 * loop after the beat in hand: killed in the middle of one, a share
 * would keep its mount or a temporary file.
 */
static int heartbeats(const struct save_job *jobs, unsigned n, int want_usb, const struct dest_settings *set,
		      const char *dir, unsigned every)
{
	struct dest_url *urls = xcalloc(n + 1, sizeof(*urls));
	/* SA_RESTART: the beat in hand goes on to its end; the wait between beats looks at the flag */
	struct sigaction sa = { .sa_handler = stop_beating, .sa_flags = SA_RESTART };
	char status[PATH_MAX + 16];
	unsigned i, nu = 0;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	for (i = 0; i < n; i++)
		urls[nu++] = jobs[i].url;
	if (want_usb)
		url_parse("usb", &urls[nu++]);
	snprintf(status, sizeof(status), "%s/status.json", dir);
	while (beating(status)) {
		heartbeat_all(urls, nu, set, dir);
		for (i = 0; i < every * 10 && beating(status); i++)
			sleep_ns(100000000);
	}
	free(urls);
	return EXIT_OK;
}

static int save_main(void *opts, int argc, char **argv)
{
	struct save_opts *o = opts;
	struct dest_settings set = { .credentials = RUNDIR "/credentials", .mount_dir = RUNDIR "/mnt",
				     .timeout_s = 10 };
	char spool_buf[PATH_MAX], stick_copy[PATH_MAX], dir[PATH_MAX];
	const char *spool = o->spool, *dir_arg = NULL;
	struct save_job *jobs = NULL, usb = { 0 };
	unsigned n = 0, total_s = o->timeout, i, ndest = 0;
	int pending = o->pending, check_only = o->check, test_only = o->test, want_usb = 0, stick_set = 0, failed = 0;
	struct stat st;

	if (o->check_credential) {
		struct dest_url key;

		/* a credential line's URL (bootbench.conf credential=) */
		if (url_parse_key(o->check_credential, &key) || !key.user[0])
			die_usage("save: credential URL: %s", key.user[0] || bb_err[0] ? bb_err : "no user@");
		return EXIT_OK;
	}
	if (o->credentials)
		set.credentials = o->credentials;
	if (o->ca && access(o->ca, R_OK))
		die_usage("save: --ca=%s: %s", o->ca, strerror(errno));
	set.ca_file = o->ca;
	if (o->smb_vers && strspn(o->smb_vers, "0123456789.") != strlen(o->smb_vers))
		die_usage("save: --smb-vers=%s: expected a dialect such as 3, 3.0, 3.02 or 3.1.1", o->smb_vers);
	set.smb_vers = o->smb_vers;
	if (o->stick) {
		set.stick = strcmp(o->stick, "none") ? o->stick : NULL;
		stick_set = 1;
	}
	for (i = 0; i < (unsigned)argc; i++) {
		const char *a = argv[i];

		if (!strstr(a, "://") && strcmp(a, "usb") && strcmp(a, "console") && i == (unsigned)argc - 1 &&
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
	if (o->heartbeat) {
		i = heartbeats(jobs, n, want_usb, &set, dir, o->heartbeat);
		free(jobs);
		return (int)i;
	}
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

static const struct arg save_args[] = {
	{ .name = "--pending", .kind = ARG_FLAG, .offset = ARG_AT(struct save_opts, pending),
	  .help = "retry what the spool holds" },
	{ .name = "--check", .kind = ARG_FLAG, .offset = ARG_AT(struct save_opts, check),
	  .help = "only check that the destinations are well-formed" },
	{ .name = "--test", .kind = ARG_FLAG, .offset = ARG_AT(struct save_opts, test),
	  .help = "write, find and remove a test file on each DEST (one attempt each,\n"
		  "nothing delivered, the stick not written)" },
	{ .name = "--timeout", .kind = ARG_UINT, .offset = ARG_AT(struct save_opts, timeout), .meta = "S",
	  .help = "give up on a destination after S seconds [600]", .max = 86400 },
	{ .name = "--credentials", .kind = ARG_STR, .offset = ARG_AT(struct save_opts, credentials), .meta = "F",
	  .help = "\"URL PASSWORD\" lines [" RUNDIR "/credentials]" },
	{ .name = "--ca", .kind = ARG_STR, .offset = ARG_AT(struct save_opts, ca), .meta = "F",
	  .help = "HTTPS: verify servers against this CA file" },
	{ .name = "--smb-vers", .kind = ARG_STR, .offset = ARG_AT(struct save_opts, smb_vers), .meta = "V",
	  .help = "SMB dialect for cifs [3: 3.0 or newer]" },
	{ .name = "--stick", .kind = ARG_STR, .offset = ARG_AT(struct save_opts, stick), .meta = "DIR|none",
	  .help = "the stick's mount point [the results medium /init mounted]" },
	{ .name = "--spool", .kind = ARG_STR, .offset = ARG_AT(struct save_opts, spool), .meta = "F",
	  .help = "the spool [results/.pending on the stick, else " RUNDIR "/pending]" },
	{ .name = "--heartbeat", .kind = ARG_UINT, .offset = ARG_AT(struct save_opts, heartbeat), .meta = "S",
	  .help = "while the run in RESULT-DIR goes on (until its status.json), write\n"
		  "its heartbeat (NAME.heartbeat.json, beside the result folders) on\n"
		  "each DEST every S seconds, one attempt each; bootbench fleet reads it",
	  .min = 5, .max = 3600 },
	{ .name = "--check-credential", .kind = ARG_STR, .offset = ARG_AT(struct save_opts, check_credential), .meta = "URL",
	  .help = "only check a credential line's URL (smb://user@host, https://user@host)" },
	{ NULL },
};

const struct command save_command = {
	.name = "save",
	.summary = "send a result folder to the stick, NFS, SMB or WebDAV, whole or not at all",
	.usage = "[OPTIONS] DEST... RESULT-DIR\n--heartbeat=S [OPTIONS] DEST... RESULT-DIR\n--pending [OPTIONS]\n"
		 "--test [OPTIONS] DEST...",
	.help = "Sends a result folder to each DEST, whole or not at all: under a temporary name,\n"
		"MANIFEST.sha256 last, then one rename. With a stick mounted for results its copy is\n"
		"written first. Each other DEST is retried with backoff (1, 2, 4 ... 32 s, then every\n"
		"60 s) until --timeout; what is not delivered stays in the spool for --pending. No link\n"
		"found on a destination is followed.\n\n"
		"DEST: usb | console | nfs://host[:port]/export/path | nfs3://host[:port]/export/path\n"
		"      | smb://[domain;]user@host[:port]/share/path | http[s]://[user@]host[:port]/path/\n",
	.exit_status = "0 all delivered, 1 some not (spooled), 2 bad input (nothing sent).",
	.args = save_args,
	.opts_size = sizeof(struct save_opts),
	.defaults = &(const struct save_opts){ .timeout = 600 },
	.run = save_main,
};
