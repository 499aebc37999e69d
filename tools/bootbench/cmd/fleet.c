// SPDX-License-Identifier: MIT
/*
 * fleet.c - `bootbench fleet`: the answer to "which of the machines I
 * booted has not reported?". Every machine of the rack's CSV with its
 * state (results/rack.h): passed, failed and what failed, running, silent
 * since its last push, never seen; and every machine that reported but is
 * not on the list. From the runs saved on a share and, given Prometheus,
 * from the live runs it scraped off the Pushgateway. Printed, and written
 * as a page (--output), or as CSV or JSON for scripts (--format), whose
 * exit status says which: 0 all passed, 1 some failed or never seen, 3
 * some still running or silent, 2 bad input or what could not be known.
 *
 * Its flags and help: the declaration at the end (lib/args.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/args.h"
#include "lib/json.h"
#include "lib/util.h"
#include "lib/wrap.h"
#include "report/html.h"
#include "results/rack.h"
#include "results/rack_export.h"

struct fleet_opts {
	const char *expect, *prometheus, *output, *format, *since;
	unsigned silent_after;
	int export;
};

/* fleet's own exit status beside the contract's three: nothing failed, but a machine is still running or silent */
enum { FLEET_GOING = 3 };

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

/* The counts in one line: "12 listed: 6 passed, ...". */
static const char *summary(const struct rack *r, const unsigned *count, unsigned unlisted)
{
	static char line[300];

	snprintf(line, sizeof(line), "%u listed: %u passed, %u failed, %u running, %u silent, %u never seen, %u unreadable; "
		 "%u reported but not listed", r->listed - r->empty, count[RACK_PASSED], count[RACK_FAILED],
		 count[RACK_RUNNING], count[RACK_SILENT], count[RACK_NEVER_SEEN], count[RACK_UNREADABLE], unlisted);
	if (r->empty)
		snprintf(line + strlen(line), sizeof(line) - strlen(line), "; %u empty position(s)", r->empty);
	if (r->before_since)
		snprintf(line + strlen(line), sizeof(line) - strlen(line), "; %u run(s) before --since left out",
			 r->before_since);
	return line;
}

/*
 * The list as a table. On a terminal the detail is folded to its width:
 * beside the row when 40 columns are left there, else on the lines under
 * it, indented (a console of 80 columns); into a file or a pipe, a row is
 * one line, for grep.
 */
static void print_text(const struct rack *r, const unsigned *count, unsigned unlisted)
{
	int width = wrap_width();
	char lead[300], num[16], first[24];
	unsigned i;

	printf("%-6s %-12s %-20s %-10s %s\n", "line", "position", "machine", "state", "detail");
	for (i = 0; i < r->n; i++) {
		const struct rack_machine *m = &r->m[i];

		if (i == r->listed)
			printf("\nreported, but not on the list:\n");
		snprintf(num, sizeof(num), "%u", m->line);
		snprintf(first, sizeof(first), "%-6s ", m->line ? num : "-");
		snprintf(lead, sizeof(lead), "%s%-12s %-20s %-10s ", first, m->position[0] ? m->position : "-",
			 named(m)[0] ? named(m) : "-", m->line ? rack_state_name(m->state) : "unlisted");
		if (width && (int)strlen(lead) + 40 > width) {
			/* the detail under the row; the row in its columns where it fits, else folded
			 * after its line number (a long position or machine name alone runs past) */
			while (lead[strlen(lead) - 1] == ' ')
				lead[strlen(lead) - 1] = 0;
			if ((int)strlen(lead) <= width)
				printf("%s\n", lead);
			else
				wrap_print(stdout, first, lead + strlen(first), width);
			wrap_print(stdout, "       ", m->detail, width);
		} else {
			wrap_print(stdout, lead, m->detail, width);
		}
	}
	putchar('\n');
	wrap_print(stdout, "", summary(r, count, unlisted), width);
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
	fprintf(f, "<p>%s. %s. From ", when, summary(r, count, unlisted));
	html_escape(f, sources);
	fputs(".</p>\n<table>\n<tr><th>line</th><th>position</th><th>machine</th><th>state</th><th>detail</th></tr>\n", f);
	for (i = 0; i < r->n; i++) {
		const struct rack_machine *m = &r->m[i];
		int bad = !m->line || (m->state != RACK_PASSED && m->state != RACK_EMPTY);

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

static const char *utc_or_empty(time_t t, char *buf, size_t len)
{
	struct tm tm;

	buf[0] = 0;
	if (t) {
		gmtime_r(&t, &tm);
		strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	}
	return buf;
}

static void csv_field(const char *s, char after)
{
	csv_quote(stdout, s);
	putchar(after);
}

/* --format=csv: a header, then a machine a row; the states as the text names them. */
static void print_csv(const struct rack *r)
{
	char a[32], b[32], c[32];

	printf("line,position,serial,mac,machine,state,detail,run,folder,started,ended,last_seen\n");
	for (unsigned i = 0; i < r->n; i++) {
		const struct rack_machine *m = &r->m[i];
		const struct rack_report *s = &m->saved, *l = &m->live;
		time_t seen = s->when > l->when ? s->when : l->when;

		if (m->line)
			printf("%u,", m->line);
		else
			printf(",");
		csv_field(m->position, ',');
		csv_field(m->serial, ',');
		csv_field(m->mac, ',');
		csv_field(s->seen ? s->machine : l->seen ? l->machine : "", ',');
		csv_field(m->line ? rack_state_name(m->state) : "unlisted", ',');
		csv_field(m->detail, ',');
		csv_field(s->run, ',');
		csv_field(s->heartbeat ? "" : s->where, ',');
		csv_field(utc_or_empty(s->started, a, sizeof(a)), ',');
		csv_field(utc_or_empty(s->ended, b, sizeof(b)), ',');
		csv_field(utc_or_empty(seen, c, sizeof(c)), '\n');
	}
}

/* --format=json: the counts, then every machine. */
static void print_json(const struct rack *r, const unsigned *count, unsigned unlisted)
{
	struct json j;
	char a[32];

	json_init(&j, stdout);
	json_obj_open(&j, NULL);
	json_uint(&j, "listed", r->listed - r->empty);
	json_obj_open(&j, "states");
	for (unsigned k = 0; k < RACK_EMPTY; k++)
		json_uint(&j, rack_state_name(k), count[k]);
	json_obj_close(&j);
	json_uint(&j, "unlisted", unlisted);
	json_uint(&j, "empty_positions", r->empty);
	json_uint(&j, "unreadable_folders", r->bad);
	json_uint(&j, "runs_before_since", r->before_since);
	json_arr_open(&j, "machines");
	for (unsigned i = 0; i < r->n; i++) {
		const struct rack_machine *m = &r->m[i];
		const struct rack_report *s = &m->saved, *l = &m->live;

		json_obj_open(&j, NULL);
		json_uint(&j, "line", m->line);
		json_str(&j, "position", m->position);
		json_str(&j, "serial", m->serial);
		json_str(&j, "mac", m->mac);
		json_str(&j, "machine", s->seen ? s->machine : l->seen ? l->machine : "");
		json_str(&j, "state", m->line ? rack_state_name(m->state) : "unlisted");
		json_str(&j, "detail", m->detail);
		json_str(&j, "run", s->run);
		json_str(&j, "folder", s->heartbeat ? "" : s->where);
		json_str(&j, "started", utc_or_empty(s->started, a, sizeof(a)));
		json_str(&j, "ended", utc_or_empty(s->ended, a, sizeof(a)));
		json_uint(&j, "runs", s->runs);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	json_obj_close(&j);
	putchar('\n');
}

/* --since: a date (YYYY-MM-DD) or a time (YYYY-MM-DDTHH:MM:SSZ), UTC; -1 when it is neither. */
static time_t since_of(const char *v)
{
	struct tm tm = { 0 };
	const char *end = strptime(v, "%Y-%m-%dT%H:%M:%SZ", &tm);

	if (!end || *end) {
		memset(&tm, 0, sizeof(tm));
		end = strptime(v, "%Y-%m-%d", &tm);
	}
	return end && !*end ? timegm(&tm) : (time_t)-1;
}

static int fleet_main(void *opts, int argc, char **argv)
{
	struct fleet_opts *o = opts;
	struct rack r = { 0 };
	unsigned count[RACK_STATES] = { 0 }, unlisted = 0, i;
	char sources[1024] = "";
	int bad, unknown = 0, rc;
	enum { AS_TEXT, AS_CSV, AS_JSON } format = AS_TEXT;

	/* fleet's 1 says a machine failed: memory running out says nothing of the machines */
	oom_exit_status = EXIT_USAGE;
	if (!o->expect)
		die_usage("fleet: --expect=RACK.CSV is needed (the machines, by serial or MAC)");
	if (o->export && (argc || o->prometheus || o->output))
		die_usage("fleet: --export prints the list for Prometheus: no FOLDER, --prometheus or --output with it");
	if (!argc && !o->prometheus && !o->export)
		die_usage("fleet: a share's folder of results, or --prometheus=URL, or both");
	if (o->prometheus && !prometheus_url_ok(o->prometheus))
		die_usage("fleet: --prometheus: expected http[s]://HOST[:PORT][/PATH], without a user or password");
	if (o->output && (!*o->output || o->output[strlen(o->output) - 1] == '/'))
		die_usage("fleet: --output=%s: expected a file name", o->output);
	if (o->format && strcmp(o->format, "text") && strcmp(o->format, "csv") && strcmp(o->format, "json"))
		die_usage("fleet: --format=%s: expected text, csv or json", o->format);
	if (o->format)
		format = !strcmp(o->format, "csv") ? AS_CSV : !strcmp(o->format, "json") ? AS_JSON : AS_TEXT;
	if (o->since && (r.since = since_of(o->since)) == (time_t)-1)
		die_usage("fleet: --since=%s: expected a UTC date, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ", o->since);
	bad = rack_read_csv(&r, o->expect, stderr);
	if (bad < 0)
		die_usage("fleet: --expect: %s", bb_err);
	if (bad) {
		/* each bad line was said, with its number: nothing is checked against a list half read */
		rack_free(&r);
		return EXIT_USAGE;
	}
	if (o->export) {
		/* the list for Prometheus (BootbenchNeverSeen): nothing else is read or judged */
		rack_export(&r, stdout);
		rack_free(&r);
		return fflush(stdout) ? EXIT_FAIL : EXIT_OK;
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
			unknown = 1;
		}
	}
	rack_judge(&r, time(NULL), o->silent_after);
	for (i = 0; i < r.n; i++) {
		if (r.m[i].line)
			count[r.m[i].state]++;
		else
			unlisted++;
	}
	if (format == AS_CSV)
		print_csv(&r);
	else if (format == AS_JSON)
		print_json(&r, count, unlisted);
	else
		print_text(&r, count, unlisted);
	if (r.bad && format == AS_TEXT)
		printf("%u result folder(s) could not be read (said above)\n", r.bad);
	if (o->output && write_html(&r, count, unlisted, sources, o->output)) {
		note("fleet: %s", bb_err);
		unknown = 1;
	}
	/* what a script acts on: unknown before failed before still going */
	if (unknown || r.bad || count[RACK_UNREADABLE])
		rc = EXIT_USAGE;
	else if (count[RACK_FAILED] || count[RACK_NEVER_SEEN])
		rc = EXIT_FAIL;
	else if (count[RACK_RUNNING] || count[RACK_SILENT])
		rc = FLEET_GOING;
	else
		rc = EXIT_OK;
	rack_free(&r);
	return rc;
}

static const struct arg fleet_args[] = {
	{ .name = "--expect", .kind = ARG_STR, .offset = ARG_AT(struct fleet_opts, expect), .meta = "RACK.CSV",
	  .help = "the machines expected: a header line naming the columns serial, mac,\n"
		  "position (others are left out; one of serial and mac at least; case and\n"
		  "punctuation aside, Service Tag, S/N and Serial No are the serial), then a\n"
		  "machine a line; a line starting with # is a comment (that machine is not\n"
		  "expected); a line with cells filled but no serial or MAC is bad input" },
	{ .name = "--prometheus", .kind = ARG_STR, .offset = ARG_AT(struct fleet_opts, prometheus), .meta = "URL",
	  .help = "also the live runs, from Prometheus' HTTP API (http://HOST:9090)" },
	{ .name = "--silent-after", .kind = ARG_UINT, .offset = ARG_AT(struct fleet_opts, silent_after), .meta = "S",
	  .help = "a running machine with no push for S seconds is silent [300]", .min = 10, .max = 86400 },
	{ .name = "--output", .kind = ARG_STR, .offset = ARG_AT(struct fleet_opts, output), .meta = "FILE.html",
	  .help = "also write the list as a page" },
	{ .name = "--format", .kind = ARG_STR, .offset = ARG_AT(struct fleet_opts, format), .meta = "text|csv|json",
	  .help = "the list on standard output: a table, CSV (a header, a machine a\n"
		  "row) or JSON [text]" },
	{ .name = "--since", .kind = ARG_STR, .offset = ARG_AT(struct fleet_opts, since), .meta = "DATE",
	  .help = "a campaign: runs that started before DATE (UTC, YYYY-MM-DD or\n"
		  "YYYY-MM-DDTHH:MM:SSZ) are left out" },
	{ .name = "--export", .kind = ARG_FLAG, .offset = ARG_AT(struct fleet_opts, export),
	  .help = "print the list as Prometheus' text (bootbench_expected_machine_info, a\n"
		  "series a machine, labelled with the name it pushes under), for the\n"
		  "Pushgateway or a node exporter's textfile: an alert names a machine that\n"
		  "never pushed (docs/operator.md)" },
	{ NULL },
};

const struct command fleet_command = {
	.name = "fleet",
	.summary = "a rack's list of machines, each with its state: passed, failed, running, silent",
	.usage = "--expect=RACK.CSV [--prometheus=URL] [--silent-after=S] [--since=DATE] [--format=text|csv|json]\n"
		 "[--output=FILE.html] [FOLDER...]",
	.help = "Names every machine of RACK.CSV with its state: passed; failed, and what failed\n"
		"(the burn-in's components, the disks whose run failed); running, with its\n"
		"progress and last push or heartbeat; silent since its last push or heartbeat,\n"
		"while its run had not ended; never seen; unreadable (its newest run's\n"
		"status.json or burnin.json cut short, not JSON or without an exit status, its\n"
		"folder unreadable, no status.json at all: named with the reason, never taken\n"
		"for passed; a pass is status.json's exit status 0 alone). A line with\n"
		"a position and no machine is an empty position. Then every machine that\n"
		"reported but is not listed. A machine is matched by its DMI serial (as\n"
		"bootbench names it: other characters than A-Z a-z 0-9 . _ - are _, case aside)\n"
		"or by any of its NICs' MACs. FOLDER is a share's results (mounted here) or any\n"
		"folder of result folders, searched recursively: each run's status.json,\n"
		"burnin.json and inventory.json, and the heartbeat a run going writes there\n"
		"(its time the share's); the newest run of each kind of a machine counts (by its\n"
		"folder's name: start time, machine, run id; the kind is status.json's run:\n"
		"burnin, erase, quick...), and it passed only when each kind's newest passed (an\n"
		"erase after a failed burn-in leaves it failed). --prometheus adds what the machines pushed\n"
		"(bootbench.metrics): the runs going, and those that ended after the share's\n"
		"newest; the share's result wins over an older push. Bad lines of RACK.CSV are\n"
		"each named with their line number, and nothing is checked.\n",
	.exit_status = "0 every listed machine passed, 1 one failed or was never seen, 3 none of those but\n"
		       "one is running or silent, 2 bad input or what could not be known (a bad CSV\n"
		       "line, a list with no machine, an unreadable folder or result, a link or a folder\n"
		       "too deep on the share, Prometheus not answering, the page not written, out of\n"
		       "memory).",
	.args = fleet_args,
	.opts_size = sizeof(struct fleet_opts),
	.defaults = &fleet_defaults,
	.run = fleet_main,
};
