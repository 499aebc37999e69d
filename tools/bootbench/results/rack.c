// SPDX-License-Identifier: MIT
/*
 * rack.c - a rack's machines, what they reported, and their states
 * (rack.h). Everything read here comes from outside: the user's CSV, the
 * files on a share any machine could write, the labels machines pushed to
 * Prometheus. Text from them is kept to printable ASCII (the rest shown as
 * ?), never used as a path or a shell word; only the share's folders,
 * found by walking it, are opened, and no link is followed.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util.h"
#include "results/load.h"
#include "results/rack.h"

/* A live run pushes every 5 s; its saved folder is written a moment after its last push. */
#define SAME_RUN_S 120

static const char *const state_names[RACK_STATES] = { "passed", "failed", "running", "silent", "never seen" };

const char *rack_state_name(enum rack_state s)
{
	return s < RACK_STATES ? state_names[s] : "?";
}

/* Text from outside, kept to printable ASCII: a terminal or a page shows what it says, nothing more. */
static void copy_text(char *dst, size_t len, const char *src)
{
	size_t i;

	for (i = 0; src && src[i] && i + 1 < len; i++)
		dst[i] = (unsigned char)src[i] < 32 || (unsigned char)src[i] > 126 ? '?' : src[i];
	dst[i] = 0;
}

static void append(char *dst, size_t len, const char *item)
{
	size_t n = strlen(dst);

	size_t k = strlen(item);

	/* what does not fit is left out whole, never cut */
	if (n + 2 + k < len) {
		if (n)
			memcpy(dst + n, ", ", 2), n += 2;
		memcpy(dst + n, item, k + 1);
	}
}

/* A MAC as aa:bb:cc:dd:ee:ff from aa:bb.., AA-BB-.. or aabbccddeeff; -1 when it is not one. */
static int mac_normal(const char *s, char out[18])
{
	char hex[13];
	unsigned n = 0;

	for (; *s && n <= 12; s++) {
		if (isxdigit((unsigned char)*s))
			hex[n++] = (char)tolower((unsigned char)*s);
		else if ((*s != ':' && *s != '-') || n % 2 || !n)
			return -1;
	}
	if (n != 12 || *s)
		return -1;
	/* separators, if any, between every pair: aa:bb:cc:dd:ee:ff or aabbccddeeff */
	snprintf(out, 18, "%.2s:%.2s:%.2s:%.2s:%.2s:%.2s", hex, hex + 2, hex + 4, hex + 6, hex + 8, hex + 10);
	return 0;
}

static struct rack_machine *add_machine(struct rack *r)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		r->m = xrealloc(r->m, r->cap * sizeof(*r->m));
	}
	memset(&r->m[r->n], 0, sizeof(r->m[r->n]));
	return &r->m[r->n++];
}

/* ---- the CSV ---- */

enum column { COL_OTHER, COL_SERIAL, COL_MAC, COL_POSITION };

/*
 * Splits LINE into at most MAX fields at SEP, RFC 4180's quoting undone
 * ("a ""b""" is a "b"); blanks around a field are not part of it. Returns
 * the count, -1 for a quote left open.
 */
static int split_fields(char *line, char sep, char **field, int max)
{
	int n = 0;
	char *in = line, *out = line;

	for (;;) {
		char *start = out;

		while (*in == ' ' || *in == '\t')
			in++;
		if (*in == '"') {
			for (in++;; in++) {
				if (!*in)
					return -1;
				if (*in == '"' && in[1] == '"')
					*out++ = *in++;
				else if (*in == '"')
					break;
				else
					*out++ = *in;
			}
			in++;
			while (*in == ' ' || *in == '\t')
				in++;
			if (*in && *in != sep)
				return -1;
		} else {
			while (*in && *in != sep)
				*out++ = *in++;
			while (out > start && (out[-1] == ' ' || out[-1] == '\t'))
				out--;
		}
		if (n < max)
			field[n] = start;
		n++;
		if (!*in) {
			*out = 0;
			return n;
		}
		in++;
		*out++ = 0;
	}
}

static enum column column_of(const char *name)
{
	static const struct {
		const char *name;
		enum column col;
	} names[] = {
		{ "serial", COL_SERIAL }, { "serial number", COL_SERIAL }, { "machine", COL_SERIAL },
		{ "mac", COL_MAC }, { "mac address", COL_MAC },
		{ "position", COL_POSITION }, { "rack position", COL_POSITION }, { "location", COL_POSITION },
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcasecmp(name, names[i].name))
			return names[i].col;
	return COL_OTHER;
}

static int printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 32 || (unsigned char)*s > 126)
			return 0;
	return 1;
}

#define MAX_COLUMNS 64

int rack_read_csv(struct rack *r, const char *path, FILE *errs)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	enum column cols[MAX_COLUMNS];
	char line[4096], sep = ',';
	int ncols = 0, bad = 0;
	unsigned lineno = 0;

	if (!f) {
		if (fd >= 0)
			close(fd);
		return set_err("%s: %s", path, strerror(errno));
	}
#define BAD(...) do { fprintf(errs, "%s line %u: ", path, lineno); fprintf(errs, __VA_ARGS__); \
		      fputc('\n', errs); bad++; } while (0)
	while (fgets(line, sizeof(line), f)) {
		char *field[MAX_COLUMNS], *text = line;
		size_t len = strlen(line);
		int n, i;

		lineno++;
		if (len == sizeof(line) - 1 && line[len - 1] != '\n') {
			BAD("longer than %zu characters", sizeof(line) - 2);
			while (len == sizeof(line) - 1 && line[len - 1] != '\n' && fgets(line, sizeof(line), f))
				len = strlen(line);
			continue;
		}
		line[strcspn(line, "\r\n")] = 0;
		/* a spreadsheet's UTF-8 export starts with a byte order mark */
		if (lineno == 1 && !strncmp(text, "\xef\xbb\xbf", 3))
			text += 3;
		if (!text[strspn(text, " \t,;")] || text[strspn(text, " \t")] == '#')
			continue;	/* blank (a spreadsheet's empty row is all separators) or a comment */
		if (!ncols) {
			/* the header: its separator is the file's (a semicolon in some locales' exports) */
			int have = 0;

			sep = strchr(text, ';') && !strchr(text, ',') ? ';' : ',';
			n = split_fields(text, sep, field, MAX_COLUMNS);
			if (n < 0 || n > MAX_COLUMNS) {
				BAD(n < 0 ? "a quote is not closed" : "more than %d columns", MAX_COLUMNS);
				break;
			}
			for (i = 0; i < n; i++) {
				cols[i] = column_of(field[i]);
				for (int k = 0; k < i; k++)
					if (cols[i] != COL_OTHER && cols[k] == cols[i]) {
						char shown[48];

						copy_text(shown, sizeof(shown), field[i]);
						BAD("column '%s' is there twice", shown);
						cols[i] = COL_OTHER;
					}
				have |= cols[i] == COL_SERIAL || cols[i] == COL_MAC;
			}
			if (!have) {
				char shown[80];

				copy_text(shown, sizeof(shown), line);
				BAD("the header names no serial or mac column (serial,mac,position; found '%s')", shown);
				break;
			}
			ncols = n;
			continue;
		}
		n = split_fields(text, sep, field, MAX_COLUMNS);
		if (n < 0) {
			BAD("a quote is not closed");
			continue;
		}
		if (n != ncols) {
			BAD("%d field(s), the header has %d", n, ncols);
			continue;
		}
		{
			struct rack_machine m = { .line = lineno };
			int ok = 1;

			for (i = 0; i < n && ok; i++) {
				const char *v = field[i];
				char shown[48];

				if (cols[i] == COL_OTHER || !*v)
					continue;
				copy_text(shown, sizeof(shown), v);	/* said as text, never as the bytes it holds */
				if (!printable(v) || strlen(v) >= (cols[i] == COL_POSITION ? sizeof(m.position) :
								   sizeof(m.serial))) {
					BAD("the %s '%s' is not printable ASCII of at most %zu characters",
					    cols[i] == COL_POSITION ? "position" : "serial", shown,
					    (cols[i] == COL_POSITION ? sizeof(m.position) : sizeof(m.serial)) - 1);
					ok = 0;
				} else if (cols[i] == COL_SERIAL) {
					snprintf(m.serial, sizeof(m.serial), "%s", v);
				} else if (cols[i] == COL_POSITION) {
					snprintf(m.position, sizeof(m.position), "%s", v);
				} else if (mac_normal(v, m.mac)) {
					BAD("'%s' is not a MAC address (aa:bb:cc:dd:ee:ff)", shown);
					ok = 0;
				}
			}
			if (!ok)
				continue;
			if (!m.serial[0] && !m.mac[0]) {
				BAD("no serial and no MAC");
				continue;
			}
			for (unsigned k = 0; k < r->n && ok; k++) {
				const struct rack_machine *o = &r->m[k];

				if (m.serial[0] && !strcasecmp(o->serial, m.serial)) {
					BAD("serial %s is on line %u too", m.serial, o->line);
					ok = 0;
				} else if (m.mac[0] && !strcmp(o->mac, m.mac)) {
					BAD("MAC %s is on line %u too", m.mac, o->line);
					ok = 0;
				}
			}
			if (ok)
				*add_machine(r) = m;
		}
	}
#undef BAD
	if (!ncols && !bad) {
		fprintf(errs, "%s: no header line (serial,mac,position) and no machine\n", path);
		bad++;
	}
	fclose(f);
	r->listed = r->n;
	return bad;
}

/* ---- who a report is ---- */

static int is_listed_as(const struct rack_machine *m, const struct rack_report *rep)
{
	if (m->serial[0] && ((rep->serial[0] && !strcasecmp(m->serial, rep->serial)) ||
			     !strcasecmp(m->serial, rep->machine)))
		return 1;
	if (m->mac[0]) {
		char id[32];
		unsigned i, k = 0;

		for (i = 0; i < rep->nmacs; i++)
			if (!strcmp(rep->macs[i], m->mac))
				return 1;
		/* bootbench's name for a machine with no serial: mac-aabbccddeeff */
		k = snprintf(id, sizeof(id), "mac-");
		for (i = 0; m->mac[i]; i++)
			if (m->mac[i] != ':')
				id[k++] = m->mac[i];
		id[k] = 0;
		if (!strcasecmp(id, rep->machine))
			return 1;
	}
	return 0;
}

/* The machine REP is about: a listed one it matches, else the unlisted one of its name, else a new unlisted one. */
static struct rack_machine *machine_of(struct rack *r, const struct rack_report *rep)
{
	unsigned i;

	for (i = 0; i < r->listed; i++)
		if (is_listed_as(&r->m[i], rep))
			return &r->m[i];
	for (i = r->listed; i < r->n; i++)
		if (!strcmp(r->m[i].saved.seen ? r->m[i].saved.machine : r->m[i].live.machine, rep->machine))
			return &r->m[i];
	return add_machine(r);
}

/* ---- the share ---- */

struct folders {
	char (*dir)[512];
	unsigned n, cap;
};

static void note_folder(const char *file, void *arg)
{
	struct folders *fs = arg;
	const char *base = strrchr(file, '/');
	size_t len = base ? (size_t)(base - file) : 0;

	base = base ? base + 1 : file;
	if (strcmp(base, "status.json") && strcmp(base, "burnin.json") && strcmp(base, "inventory.json"))
		return;
	if (!len || len >= sizeof(fs->dir[0]))
		return;
	for (unsigned i = 0; i < fs->n; i++)
		if (!strncmp(fs->dir[i], file, len) && !fs->dir[i][len])
			return;
	if (fs->n == fs->cap) {
		fs->cap = fs->cap ? fs->cap * 2 : 64;
		fs->dir = xrealloc(fs->dir, fs->cap * sizeof(*fs->dir));
	}
	memcpy(fs->dir[fs->n], file, len);
	fs->dir[fs->n++][len] = 0;
}

/* FILE in DIR as JSON, or NULL when it is not there; one line on ERRS when it is there but not JSON. */
static json_t *folder_json(const char *dir, const char *file, FILE *errs, unsigned *bad)
{
	char path[640];
	json_t *j;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (access(path, F_OK))
		return NULL;
	j = rs_read_json(path);
	if (!j) {
		fprintf(errs, "%s\n", bb_err);
		(*bad)++;
	}
	return j;
}

/* The result folder's name: UTC time, machine, run id (rootfs/lib/bootbench/results.sh). */
static time_t folder_time(const char *name)
{
	struct tm tm = { 0 };
	const char *end = strptime(name, "%Y%m%dT%H%M%SZ_", &tm);

	return end ? timegm(&tm) : 0;
}

/* A run saved by an older image (no status.json): its console log's last "exit status N", -1 when none. */
static int logged_exit_status(const char *dir)
{
	static const char mark[] = "unattended run finished, exit status ";
	char path[640], buf[65536];
	int fd, status = -1;
	ssize_t n;
	off_t size;

	snprintf(path, sizeof(path), "%s/console.log", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -1;
	size = lseek(fd, 0, SEEK_END);
	/* the end of the log is enough: the run's last line is near it */
	n = pread(fd, buf, sizeof(buf) - 1, size > (off_t)sizeof(buf) - 1 ? size - (off_t)sizeof(buf) + 1 : 0);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	for (char *p = buf; (p = memmem(p, buf + n - p, mark, sizeof(mark) - 1)); p += sizeof(mark) - 1)
		status = atoi(p + sizeof(mark) - 1);
	return status;
}

static void read_folder(struct rack *r, const char *dir, FILE *errs)
{
	struct rack_report rep = { .seen = 1, .failed = -1 };
	json_t *inv = folder_json(dir, "inventory.json", errs, &r->bad);
	json_t *status = folder_json(dir, "status.json", errs, &r->bad);
	json_t *burnin = folder_json(dir, "burnin.json", errs, &r->bad);
	const char *name = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
	char buf[256];
	struct rack_machine *m;

	copy_text(rep.where, sizeof(rep.where), dir);
	rep.when = folder_time(name);
	if (json_is_object(inv)) {
		json_t *nics = json_object_get(inv, "nics"), *nic;
		size_t i;

		copy_text(rep.machine, sizeof(rep.machine), rs_str(inv, "machine", buf, sizeof(buf)));
		copy_text(rep.serial, sizeof(rep.serial), rs_str(inv, "system.serial", buf, sizeof(buf)));
		json_array_foreach(nics, i, nic)
			if (rep.nmacs < ARRAY_SIZE(rep.macs) && !mac_normal(rs_str(nic, "mac", buf, sizeof(buf)),
									   rep.macs[rep.nmacs]))
				rep.nmacs++;
	}
	if (!rep.machine[0]) {
		/* no inventory: the folder's name says whose it is */
		const char *a = strchr(name, '_'), *b = a ? strchr(a + 1, '_') : NULL;

		if (b && b - a - 1 < (long)sizeof(rep.machine))
			snprintf(rep.machine, sizeof(rep.machine), "%.*s", (int)(b - a - 1), a + 1);
		else
			copy_text(rep.machine, sizeof(rep.machine), name);
	}
	if (json_is_object(status)) {
		json_t *failed = json_object_get(status, "failed_targets"), *t;
		size_t i;
		int rc = (int)rs_num(status, "exit_status");

		copy_text(rep.what, sizeof(rep.what), rs_str(status, "run", buf, sizeof(buf)));
		rep.failed = rc != 0;
		json_array_foreach(failed, i, t)
			if (json_is_string(t)) {
				char item[160];

				copy_text(buf, 128, json_string_value(t));
				snprintf(item, sizeof(item), "failed on %.128s", buf);
				append(rep.failures, sizeof(rep.failures), item);
			}
		if (rc == 2 && !rep.failures[0])
			snprintf(rep.failures, sizeof(rep.failures), "cancelled before it ran (exit status 2: %s/console.log "
				 "says why)", name);
		else if (rc && !rep.failures[0] && !burnin)
			snprintf(rep.failures, sizeof(rep.failures), "exit status %d", rc);
	}
	if (json_is_object(burnin)) {
		json_t *comps = json_object_get(burnin, "components"), *c;
		size_t i;

		if (!rep.what[0])
			snprintf(rep.what, sizeof(rep.what), "burnin");
		if (rep.failed < 0)
			rep.failed = strcmp(rs_str(burnin, "verdict", buf, sizeof(buf)), "PASS") != 0;
		json_array_foreach(comps, i, c) {
			char v[16], item[96];

			rs_str(c, "verdict", v, sizeof(v));
			/* a component not asked for is there as SKIPPED */
			if (!strcmp(v, "FAIL") || !strcmp(v, "ERROR")) {
				copy_text(buf, 40, rs_str(c, "name", buf, sizeof(buf)));
				snprintf(item, sizeof(item), "%.40s %s", buf, v);
				append(rep.failures, sizeof(rep.failures), item);
			}
		}
	}
	if (rep.failed < 0) {
		int rc = logged_exit_status(dir);

		if (rc >= 0) {
			rep.failed = rc != 0;
			if (rc)
				snprintf(rep.failures, sizeof(rep.failures), "exit status %d (console.log)", rc);
		}
	}
	if (json_is_object(status) && !rep.when) {
		struct tm tm = { 0 };

		if (strptime(rs_str(status, "ended", buf, sizeof(buf)), "%Y-%m-%dT%H:%M:%SZ", &tm))
			rep.when = timegm(&tm);
	}
	json_decref(inv);
	json_decref(status);
	json_decref(burnin);
	m = machine_of(r, &rep);
	rep.runs = m->saved.runs + 1;
	/* the newest run counts */
	if (!m->saved.seen || rep.when >= m->saved.when)
		m->saved = rep;
	else
		m->saved.runs = rep.runs;
}

int rack_read_saved(struct rack *r, const char *path, FILE *errs)
{
	struct folders fs = { 0 };

	if (rs_walk(path, note_folder, &fs)) {
		free(fs.dir);
		return -1;
	}
	for (unsigned i = 0; i < fs.n; i++)
		read_folder(r, fs.dir[i], errs);
	free(fs.dir);
	return 0;
}

/* ---- Prometheus ---- */

/*
 * The groups a newer run of their machine superseded (their last push came
 * before it started, both by the machine's clock) are left out of every
 * query: the gateway keeps a killed run's "running" and a finished run's
 * last figures for ever. The same rule as tools/monitoring's
 * bootbench:run_superseded, written out: fleet needs no rules loaded.
 */
#define CURRENT " unless on (job, machine, disk) (group by (job, machine, disk) " \
		"(bootbench_last_push_timestamp_seconds < on (job, machine) group_left " \
		"max by (job, machine) (bootbench_run_start_timestamp_seconds)))"

/* Text from outside as one line of at most LEN - 1 printable characters. */
static void one_line(char *dst, size_t len, const char *src)
{
	copy_text(dst, len, src ? src : "");
	dst[strcspn(dst, "\n")] = 0;
}

/*
 * The result of an instant QUERY: an array of {metric, value}; NULL with
 * bb_err, one line. The answer is parsed as curl reads it (a pipe, no
 * buffer of a fixed size): a rack of 10,000 machines answers megabytes.
 */
static json_t *prom_query(const char *url, const char *query, json_t **whole)
{
	char api[1200], q[2048], err[512] = "", shown[160];
	char *argv[] = { "curl", "--silent", "--show-error", "--connect-timeout", "5", "--max-time", "60",
			 "--get", "--data-urlencode", q, api, NULL };
	int out[2], errp[2], status = 0;
	json_error_t e;
	json_t *j, *res;
	ssize_t n;
	pid_t pid;

	snprintf(api, sizeof(api), "%s%sapi/v1/query", url, url[strlen(url) - 1] == '/' ? "" : "/");
	snprintf(q, sizeof(q), "query=%s", query);
	snprintf(shown, sizeof(shown), "%.60s%s", query, strlen(query) > 60 ? "..." : "");
	if (pipe2(out, O_CLOEXEC) || pipe2(errp, O_CLOEXEC)) {
		set_err("Prometheus at %s: %s", url, strerror(errno));
		return NULL;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		set_err("Prometheus at %s: %s", url, strerror(errno));
		close(out[0]), close(out[1]), close(errp[0]), close(errp[1]);
		return NULL;
	}
	if (!pid) {
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

		dup2(null, STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		dup2(errp[1], STDERR_FILENO);
		execvp(argv[0], argv);	/* consent: curl reads Prometheus' API, writes nothing */
		_exit(127);
	}
	close(out[1]);
	close(errp[1]);
	j = json_loadfd(out[0], JSON_DISABLE_EOF_CHECK, &e);
	/* a reader gone ends curl (SIGPIPE) if the parse stopped early */
	close(out[0]);
	n = read(errp[0], err, sizeof(err) - 1);
	err[n > 0 ? n : 0] = 0;
	close(errp[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	res = json_object_get(json_object_get(j, "data"), "result");
	if (json_is_object(j) && !strcmp(json_string_value(json_object_get(j, "status")) ?: "", "success") &&
	    json_is_array(res)) {
		*whole = j;
		return res;
	}
	if (json_is_object(j) && json_string_value(json_object_get(j, "error"))) {
		/* Prometheus' own word: a query it cannot run, a timeout, too many samples */
		one_line(err, sizeof(err), json_string_value(json_object_get(j, "error")));
		set_err("Prometheus at %s: it refused %s: %.300s", url, shown, err);
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		set_err("Prometheus at %s: curl is not installed", url);
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		one_line(err, sizeof(err), err[0] ? err : "curl failed");
		set_err("Prometheus at %s: %.300s", url, err);
	} else {
		one_line(err, sizeof(err), e.text);
		set_err("Prometheus at %s: not an answer of its HTTP API to %s (%.200s)", url, shown, err);
	}
	json_decref(j);
	return NULL;
}

/* The live report of the machine a series is labelled with (NULL for one with no machine label). */
static struct rack_report *live_of(struct rack *r, json_t *series)
{
	struct rack_report rep = { .seen = 1, .failed = 0 };
	const char *name = json_string_value(json_object_get(json_object_get(series, "metric"), "machine"));
	struct rack_machine *m;

	if (!name || !*name)
		return NULL;
	copy_text(rep.machine, sizeof(rep.machine), name);
	m = machine_of(r, &rep);
	if (!m->live.seen)
		m->live = rep;
	return &m->live;
}

static double value_of(json_t *series)
{
	const char *v = json_string_value(json_array_get(json_object_get(series, "value"), 1));

	return v ? strtod(v, NULL) : 0;
}

static const char *label(json_t *series, const char *name, char *buf, size_t len)
{
	copy_text(buf, len, json_string_value(json_object_get(json_object_get(series, "metric"), name)) ?: "");
	return buf;
}

/*
 * What Prometheus has of each machine, aggregated per machine in PromQL:
 * a rack of 10,000 machines of 24 disks answers 10,000 series a query,
 * not 240,000 (only failures are per disk or component). The last push is
 * the gateway's push_time_seconds, when it arrived: the machine's clock,
 * which nothing sets, judges nothing here.
 */
enum live_query { LIVE_PUSHED, LIVE_RUNNING, LIVE_FAILED_DISKS, LIVE_BURNIN_RUNNING, LIVE_BURNIN_FAILED,
		  LIVE_PROGRESS, LIVE_LEFT, LIVE_BURNIN_LEFT };

static const char *const live_queries[] = {
	[LIVE_PUSHED] = "max by (machine) (push_time_seconds{job=\"bootbench\"}" CURRENT ")",
	[LIVE_RUNNING] = "count by (machine) (bootbench_state{state=\"running\"} == 1" CURRENT ")",
	[LIVE_FAILED_DISKS] = "group by (machine, disk, state) (bootbench_state{state!~\"running|pass\"} == 1" CURRENT ")",
	[LIVE_BURNIN_RUNNING] = "group by (machine, component) (bootbench_burnin_running == 1" CURRENT ")",
	[LIVE_BURNIN_FAILED] = "min by (machine, component) (bootbench_burnin_verdict <= 0" CURRENT ")",
	[LIVE_PROGRESS] = "min by (machine) (bootbench_progress_ratio and on (job, machine, disk) "
			  "(bootbench_state{state=\"running\"} == 1" CURRENT "))",
	[LIVE_LEFT] = "max by (machine) (bootbench_time_left_seconds and on (job, machine, disk) "
		      "(bootbench_state{state=\"running\"} == 1" CURRENT "))",
	[LIVE_BURNIN_LEFT] = "max by (machine) (bootbench_burnin_time_left_seconds and on (job, machine) "
			     "(max by (job, machine) (bootbench_burnin_running) == 1)" CURRENT ")",
};

int rack_read_live(struct rack *r, const char *url)
{
	for (size_t q = 0; q < ARRAY_SIZE(live_queries); q++) {
		json_t *whole, *res = prom_query(url, live_queries[q], &whole), *s;
		size_t i;

		if (!res)
			return -1;
		json_array_foreach(res, i, s) {
			struct rack_report *l = live_of(r, s);
			char a[64], b[64], item[160];
			double v = value_of(s);

			if (!l)
				continue;
			switch ((enum live_query)q) {
			case LIVE_PUSHED:
				if ((time_t)v > l->when)
					l->when = (time_t)v;
				break;
			case LIVE_RUNNING:
				l->running = 1;
				break;
			case LIVE_FAILED_DISKS:
				label(s, "state", a, sizeof(a));
				label(s, "disk", b, sizeof(b));
				l->failed = 1;
				snprintf(item, sizeof(item), "disk %s %s", b, !strcmp(a, "fail") ? "FAIL" : a);
				append(l->failures, sizeof(l->failures), item);
				break;
			case LIVE_BURNIN_RUNNING:
				l->running = 1;
				label(s, "component", a, sizeof(a));
				snprintf(item, sizeof(item), "burn-in: %s", a);
				append(l->what, sizeof(l->what), item);
				break;
			case LIVE_BURNIN_FAILED:
				l->failed = 1;
				label(s, "component", a, sizeof(a));
				snprintf(item, sizeof(item), "%s %s", a, v < 0 ? "ERROR" : "FAIL");
				append(l->failures, sizeof(l->failures), item);
				break;
			case LIVE_PROGRESS:
				snprintf(item, sizeof(item), "%.0f%% done", v * 100);
				append(l->what, sizeof(l->what), item);
				break;
			case LIVE_LEFT:
			case LIVE_BURNIN_LEFT:
				snprintf(item, sizeof(item), "about %.0f min left", v / 60 < 1 && v > 0 ? 1 : v / 60);
				append(l->what, sizeof(l->what), item);
				break;
			}
		}
		json_decref(whole);
	}
	return 0;
}

/* ---- states ---- */

static const char *utc(time_t t, char *buf, size_t len)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M:%S UTC", &tm);
	return buf;
}

void rack_judge(struct rack *r, time_t now, unsigned silent_after)
{
	for (unsigned i = 0; i < r->n; i++) {
		struct rack_machine *m = &r->m[i];
		const struct rack_report *s = &m->saved, *l = &m->live;
		char t[40], more[64] = "";

		/* Prometheus' word when it is newer than the share's: a run going, or one not saved yet */
		if (l->seen && (!s->seen || l->when > s->when + SAME_RUN_S)) {
			long ago = (long)(now - l->when);

			if (l->running && ago > (long)silent_after) {
				m->state = RACK_SILENT;
				snprintf(m->detail, sizeof(m->detail), "silent since %s (%ld %s)%s%s", utc(l->when, t, sizeof(t)),
					 ago < 120 ? ago : ago / 60, ago < 120 ? "s" : "min", l->what[0] ? "; it was at " : "",
					 l->what);
			} else if (l->running) {
				m->state = RACK_RUNNING;
				snprintf(m->detail, sizeof(m->detail), "%s%slast push %ld s ago", l->what, l->what[0] ? "; " : "",
					 ago < 0 ? 0 : ago);
			} else {
				m->state = l->failed ? RACK_FAILED : RACK_PASSED;
				snprintf(m->detail, sizeof(m->detail), "%s%sended %s (Prometheus; no results on the share yet)",
					 l->failures, l->failures[0] ? "; " : "", utc(l->when, t, sizeof(t)));
			}
			continue;
		}
		if (!s->seen) {
			m->state = RACK_NEVER_SEEN;
			snprintf(m->detail, sizeof(m->detail), "no results, no pushes");
			continue;
		}
		if (s->runs > 1)
			snprintf(more, sizeof(more), " (the newest of %u runs)", s->runs);
		if (s->failed < 0) {
			m->state = RACK_FAILED;
			snprintf(m->detail, sizeof(m->detail), "saved without a verdict: %s%s", s->where, more);
		} else {
			m->state = s->failed ? RACK_FAILED : RACK_PASSED;
			if (s->when)
				utc(s->when, t, sizeof(t));
			snprintf(m->detail, sizeof(m->detail), "%s%s%s%s%s, saved in %.300s%s", s->failures,
				 s->failures[0] ? "; " : "", s->what[0] ? s->what : "a run", s->when ? " ended " : "",
				 s->when ? t : "", s->where, more);
		}
	}
}

void rack_free(struct rack *r)
{
	free(r->m);
	memset(r, 0, sizeof(*r));
}
