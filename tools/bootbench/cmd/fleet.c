// SPDX-License-Identifier: MIT
/*
 * fleet.c - `bootbench fleet`: the answer to "which of the machines I
 * booted has not reported?". Every machine of the rack's CSV with its
 * state (results/rack.h): passed, failed and what failed, running, silent
 * since its last push, never seen; and every machine that reported but is
 * not on the list. From the runs saved on a share and, given Prometheus,
 * from the live runs it scraped off the Pushgateway. Printed, and written
 * as a page (--output). Exit status 0 only when every listed machine
 * passed.
 *
 * Its flags and help: the declaration at the end (lib/args.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/args.h"
#include "lib/util.h"
#include "report/html.h"
#include "results/rack.h"

struct fleet_opts {
	const char *expect, *prometheus, *output;
	unsigned silent_after;
};

static const struct fleet_opts fleet_defaults = { .silent_after = 300 };

/* Prometheus' address: http(s)://HOST[:PORT][/PATH], no user or password (it would be shown), nothing a shell reads. */
static int prometheus_url_ok(const char *u)
{
	const char *rest = !strncmp(u, "http://", 7) ? u + 7 : !strncmp(u, "https://", 8) ? u + 8 : NULL;

	return rest && *rest && *rest != '/' && !strchr(rest, '@') &&
	       strspn(rest, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_:/[]%~") == strlen(rest);
}

/* How the list names a machine: its serial, else its MAC; an unlisted one by bootbench's name for it. */
static const char *named(const struct rack_machine *m)
{
	if (m->serial[0])
		return m->serial;
	if (m->mac[0])
		return m->mac;
	return m->saved.seen ? m->saved.machine : m->live.machine;
}

static void print_text(const struct rack *r, const unsigned *count, unsigned unlisted)
{
	unsigned i;

	printf("%-6s %-12s %-20s %-10s %s\n", "line", "position", "machine", "state", "detail");
	for (i = 0; i < r->n; i++) {
		const struct rack_machine *m = &r->m[i];

		if (i == r->listed)
			printf("\nreported, but not on the list:\n");
		if (m->line)
			printf("%-6u ", m->line);
		else
			printf("%-6s ", "-");
		printf("%-12s %-20s %-10s %s\n", m->position[0] ? m->position : "-", named(m),
		       m->line ? rack_state_name(m->state) : "unlisted", m->detail);
	}
	printf("\n%u listed: %u passed, %u failed, %u running, %u silent, %u never seen; %u reported but not listed\n",
	       r->listed, count[RACK_PASSED], count[RACK_FAILED], count[RACK_RUNNING], count[RACK_SILENT],
	       count[RACK_NEVER_SEEN], unlisted);
}

static int write_html(const struct rack *r, const unsigned *count, unsigned unlisted, const char *sources,
		      const char *path)
{
	char *buf = NULL, when[40];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	time_t now = time(NULL);
	struct tm tm;
	unsigned i;
	int rc;

	if (!f)
		return set_err("%s: %s", path, strerror(errno));
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	html_begin(f, "bootbench fleet: the rack's machines");
	fprintf(f, "<p>%s. %u listed: %u passed, %u failed, %u running, %u silent, %u never seen; %u reported but "
		   "not listed. From ", when, r->listed, count[RACK_PASSED], count[RACK_FAILED], count[RACK_RUNNING],
		count[RACK_SILENT], count[RACK_NEVER_SEEN], unlisted);
	html_escape(f, sources);
	fputs(".</p>\n<table>\n<tr><th>line</th><th>position</th><th>machine</th><th>state</th><th>detail</th></tr>\n", f);
	for (i = 0; i < r->n; i++) {
		const struct rack_machine *m = &r->m[i];
		int bad = !m->line || m->state != RACK_PASSED;

		if (i == r->listed)
			fputs("<tr><th colspan=\"5\">reported, but not on the list</th></tr>\n", f);
		if (m->line)
			fprintf(f, "<tr><td class=\"n\">%u</td><td>", m->line);
		else
			fputs("<tr><td></td><td>", f);
		html_escape(f, m->position);
		fputs("</td><td>", f);
		html_escape(f, named(m));
		fprintf(f, "</td><td%s>%s</td><td>", bad ? " class=\"bad\"" : "",
			m->line ? rack_state_name(m->state) : "unlisted");
		html_escape(f, m->detail);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	html_end(f);
	if (fclose(f)) {
		free(buf);
		return set_err("%s: cannot make the page", path);
	}
	rc = write_file_atomic(path, buf, len);
	if (rc)
		set_err("%s: %s", path, strerror(errno));
	free(buf);
	return rc;
}

static int fleet_main(void *opts, int argc, char **argv)
{
	struct fleet_opts *o = opts;
	struct rack r = { 0 };
	unsigned count[RACK_STATES] = { 0 }, unlisted = 0, i;
	char sources[1024] = "";
	int bad, failed = 0;

	if (!o->expect)
		die_usage("fleet: --expect=RACK.CSV is needed (the machines, by serial or MAC)");
	if (!argc && !o->prometheus)
		die_usage("fleet: a share's folder of results, or --prometheus=URL, or both");
	if (o->prometheus && !prometheus_url_ok(o->prometheus))
		die_usage("fleet: --prometheus: expected http[s]://HOST[:PORT][/PATH], without a user or password");
	if (o->output && (!*o->output || o->output[strlen(o->output) - 1] == '/'))
		die_usage("fleet: --output=%s: expected a file name", o->output);
	bad = rack_read_csv(&r, o->expect, stderr);
	if (bad < 0)
		die_usage("fleet: --expect: %s", bb_err);
	if (bad) {
		/* each bad line was said, with its number: nothing is checked against a list half read */
		rack_free(&r);
		return EXIT_USAGE;
	}
	for (int k = 0; k < argc; k++) {
		if (rack_read_saved(&r, argv[k], stderr)) {
			note("fleet: %s", bb_err);
			rack_free(&r);
			return EXIT_USAGE;
		}
		snprintf(sources + strlen(sources), sizeof(sources) - strlen(sources), "%s%s", k ? ", " : "", argv[k]);
	}
	if (o->prometheus) {
		snprintf(sources + strlen(sources), sizeof(sources) - strlen(sources), "%sPrometheus at %s",
			 argc ? " and " : "", o->prometheus);
		if (rack_read_live(&r, o->prometheus)) {
			/* the share still says what it says; the live states are not known */
			note("fleet: %s; the live states are not known", bb_err);
			failed = 1;
		}
	}
	rack_judge(&r, time(NULL), o->silent_after);
	for (i = 0; i < r.n; i++) {
		if (r.m[i].line)
			count[r.m[i].state]++;
		else
			unlisted++;
	}
	print_text(&r, count, unlisted);
	if (r.bad)
		printf("%u result file(s) could not be read (said above)\n", r.bad);
	if (o->output && write_html(&r, count, unlisted, sources, o->output)) {
		note("fleet: %s", bb_err);
		failed = 1;
	}
	failed |= count[RACK_PASSED] != r.listed;
	rack_free(&r);
	return failed ? EXIT_FAIL : EXIT_OK;
}

static const struct arg fleet_args[] = {
	{ .name = "--expect", .kind = ARG_STR, .offset = ARG_AT(struct fleet_opts, expect), .meta = "RACK.CSV",
	  .help = "the machines expected: a header line naming the columns serial, mac,\n"
		  "position (others are left out; one of serial and mac at least), then a\n"
		  "machine a line" },
	{ .name = "--prometheus", .kind = ARG_STR, .offset = ARG_AT(struct fleet_opts, prometheus), .meta = "URL",
	  .help = "also the live runs, from Prometheus' HTTP API (http://HOST:9090)" },
	{ .name = "--silent-after", .kind = ARG_UINT, .offset = ARG_AT(struct fleet_opts, silent_after), .meta = "S",
	  .help = "a running machine with no push for S seconds is silent [300]", .min = 10, .max = 86400 },
	{ .name = "--output", .kind = ARG_STR, .offset = ARG_AT(struct fleet_opts, output), .meta = "FILE.html",
	  .help = "also write the list as a page" },
	{ NULL },
};

const struct command fleet_command = {
	.name = "fleet",
	.summary = "a rack's list of machines, each with its state: passed, failed, running, silent",
	.usage = "--expect=RACK.CSV [--prometheus=URL] [--silent-after=S] [--output=FILE.html] [FOLDER...]",
	.help = "Names every machine of RACK.CSV with its state: passed; failed, and what failed\n"
		"(the burn-in's components, the disks whose run failed); running, with its\n"
		"progress and last push; silent since its last push, while its run had not\n"
		"ended; never seen. Then every machine that reported but is not listed. A\n"
		"machine is matched by its DMI serial (or bootbench's name for it) or by any of\n"
		"its NICs' MACs. FOLDER is a share's results (mounted here) or any folder of\n"
		"result folders, searched recursively: each run's status.json, burnin.json and\n"
		"inventory.json; the newest run of a machine counts. --prometheus adds what the\n"
		"machines pushed (bootbench.metrics): the runs going, and those that ended\n"
		"after the share's newest. Bad lines of RACK.CSV are each named with their line\n"
		"number, and nothing is checked.\n",
	.exit_status = "0 every listed machine passed, 1 not (or Prometheus could not be asked, or the page\n"
		       "not written), 2 bad input (a bad CSV line, an unreadable folder).",
	.args = fleet_args,
	.opts_size = sizeof(struct fleet_opts),
	.defaults = &fleet_defaults,
	.run = fleet_main,
};
