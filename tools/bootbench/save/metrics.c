// SPDX-License-Identifier: MIT
/*
 * metrics.c - Prometheus exposition text and pushes to a Pushgateway
 * (metrics.h). Names follow Prometheus' conventions: a bootbench_ prefix,
 * base units (seconds, bytes), _ratio for 0..1, _celsius for temperature;
 * the grouping labels machine and disk are in the push URL, base64url
 * encoded (the gateway's label@base64 form) so any serial is safe there.
 * Counters end in _total; a drive's pending and offline-uncorrectable
 * sectors are counts that fall again as sectors are remapped, so they are
 * gauges of their own (a counter's rate would take a fall for a reset).
 * The run's identity is a label of every sample rather than of the group:
 * a newer run of the same disk then replaces the older one's group at its
 * first push, and the gateway keeps one group a disk, not one a run.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"
#include "sys/ident.h"
#include "save/metrics.h"
#include "save/url.h"

static void base64url(const char *in, char *out, size_t len)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
	size_t n = strlen(in), i, o = 0;

	for (i = 0; i < n && o + 5 < len; i += 3) {
		unsigned v = (unsigned char)in[i] << 16 | (i + 1 < n ? (unsigned char)in[i + 1] << 8 : 0) |
			     (i + 2 < n ? (unsigned char)in[i + 2] : 0);

		out[o++] = tab[v >> 18 & 63];
		out[o++] = tab[v >> 12 & 63];
		out[o++] = i + 1 < n ? tab[v >> 6 & 63] : '=';
		out[o++] = i + 2 < n ? tab[v & 63] : '=';
	}
	out[o] = 0;
}

/* A run identity is a label value and a results folder's name: 1-127 of A-Z a-z 0-9 . _ - */
static int run_id_ok(const char *id)
{
	size_t n = strlen(id);

	return n && n < 128 && id[0] != '.' &&
	       strspn(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") == n;
}

/*
 * This run's identity and start: BOOTBENCH_RUN_ID (the unattended run's
 * folder, UTC time first: its disks' runs and its burn-in are one run), else
 * one made once for this process from its start, the machine and the pid
 * (an erase's disks are one run).
 */
static int run_identity(struct metrics *m, const char *machine)
{
	static char made[160];
	static long long made_start;
	const char *id = getenv("BOOTBENCH_RUN_ID");
	struct tm tm = { 0 };

	if (id && *id) {
		char shown[64];
		const char *end;
		size_t i;

		if (!run_id_ok(id)) {
			for (i = 0; id[i] && i + 1 < sizeof(shown); i++)
				shown[i] = (unsigned char)id[i] < 32 || (unsigned char)id[i] > 126 ? '?' : id[i];
			shown[i] = 0;
			return set_err("metrics: BOOTBENCH_RUN_ID '%s': expected 1-127 of A-Z a-z 0-9 . _ -", shown);
		}
		snprintf(m->run, sizeof(m->run), "%s", id);
		end = strptime(id, "%Y%m%dT%H%M%SZ", &tm);
		m->run_start = end ? (long long)timegm(&tm) : 0;
		if (m->run_start > 0)
			return 0;
		/* an identity without its time: this process' start stands for it */
	}
	if (!made_start) {
		time_t now = time(NULL);
		char when[32], name[100];
		size_t i;

		gmtime_r(&now, &tm);
		strftime(when, sizeof(when), "%Y%m%dT%H%M%SZ", &tm);
		for (i = 0; machine[i] && i + 1 < sizeof(name); i++)
			name[i] = strchr("._-", machine[i]) || isalnum((unsigned char)machine[i]) ? machine[i] : '_';
		name[i] = 0;
		snprintf(made, sizeof(made), "%s_%s_%ld", when, name, (long)getpid());
		made_start = now;
	}
	if (!id || !*id)
		snprintf(m->run, sizeof(m->run), "%s", made);
	m->run_start = made_start;
	return 0;
}

/* BOOTBENCH_METRICS_GROUPS: the groups this run pushed to, for the unattended run to delete once saved. */
static void note_group(const struct metrics *m)
{
	const char *path = getenv("BOOTBENCH_METRICS_GROUPS");
	char line[sizeof(m->group) + 1];
	int fd, n;

	if (!path || !*path)
		return;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);	/* consent: a regular file the unattended run names, appended to, no link followed */
	if (fd < 0)
		return;
	n = snprintf(line, sizeof(line), "%s\n", m->group);
	if (write(fd, line, (size_t)n) != n)
		note("metrics: %s: %s", path, strerror(errno));
	close(fd);
}

int metrics_init(struct metrics *m, const char *url, const char *machine, const char *disk)
{
	struct dest_url u;
	char a[400], b[400], shown[sizeof(u.text)], key[128];

	memset(m, 0, sizeof(*m));
	url_redact(url, shown, sizeof(shown));
	if (url_parse(url, &u)) {
		/* the parser's reason without its own "destination 'URL': ": the URL is named once */
		const char *why = strncmp(bb_err, "destination '", 13) || !strstr(bb_err, "': ") ? bb_err :
				  strstr(bb_err, "': ") + 3;

		return set_err("metrics: '%s': expected the Pushgateway as http://host:port (%s)", shown, why);
	}
	if ((u.kind != DEST_HTTP && u.kind != DEST_HTTPS) || u.user[0] || strcmp(u.path, "/"))
		return set_err("metrics: '%s': expected the Pushgateway as http://host:port (no user or path)", shown);
	snprintf(m->url, sizeof(m->url), "%s", url);
	while (m->url[strlen(m->url) - 1] == '/')
		m->url[strlen(m->url) - 1] = 0;
	if (run_identity(m, machine)) {
		m->url[0] = 0;
		return -1;
	}
	/* the machine label is the one key a machine is known by (sys/ident.h): the
	 * CSV's serial, the share's folders and fleet --export's list meet it */
	if (!machine_key(machine, NULL, key, sizeof(key)))
		machine = key;
	base64url(machine, a, sizeof(a));
	if (!disk) {
		/* the machine's own series (a burn-in's verdicts): no disk in the group */
		snprintf(m->group, sizeof(m->group), "/metrics/job/bootbench/machine@base64/%s", a);
	} else {
		base64url(disk, b, sizeof(b));
		snprintf(m->group, sizeof(m->group), "/metrics/job/bootbench/machine@base64/%s/disk@base64/%s", a, b);
	}
	note_group(m);
	return 0;
}

/* A label value: \, " and newline escaped, as the text format wants. */
void metrics_label(char *out, size_t len, const char *v)
{
	size_t o = 0;

	for (; *v && o + 3 < len; v++) {
		if (*v == '\\' || *v == '"')
			out[o++] = '\\';
		if (*v == '\n') {
			out[o++] = '\\';
			out[o++] = 'n';
			continue;
		}
		out[o++] = *v;
	}
	out[o] = 0;
}

int metrics_format(const struct metrics_sample *s, char *buf, size_t len)
{
	static const char *const states[] = { "running", "pass", "fail", "interrupted" };
	static const char *const counters[] = { "media_errors", "reallocated", "crc_errors" };
	const struct metrics_disk *d = s->disk;
	char prof[200], job[200], model[200], fw[200];
	size_t o = 0;
	unsigned i, kept = 0;

#define OUT(...) (o += (size_t)snprintf(buf + o, o < len ? len - o : 0, __VA_ARGS__))
	metrics_label(prof, sizeof(prof), s->profile);
	metrics_label(job, sizeof(job), s->job ? s->job : "");
	OUT("# HELP bootbench_info The profile and job running on this disk.\n# TYPE bootbench_info gauge\n");
	OUT("bootbench_info{profile=\"%s\",jobname=\"%s\"} 1\n", prof, job);
	OUT("# HELP bootbench_iops I/O operations per second, over the last interval.\n# TYPE bootbench_iops gauge\n");
	OUT("bootbench_iops{direction=\"read\"} %.1f\nbootbench_iops{direction=\"write\"} %.1f\n", s->read_iops,
	    s->write_iops);
	OUT("# HELP bootbench_throughput_bytes_per_second Bytes moved per second, over the last interval.\n"
	    "# TYPE bootbench_throughput_bytes_per_second gauge\n");
	OUT("bootbench_throughput_bytes_per_second %.0f\n", s->bytes_per_s);
	if (s->p50_s >= 0) {
		OUT("# HELP bootbench_latency_seconds Completion latency quantiles since the job started.\n"
		    "# TYPE bootbench_latency_seconds gauge\n");
		OUT("bootbench_latency_seconds{quantile=\"0.5\"} %.9f\n", s->p50_s);
		OUT("bootbench_latency_seconds{quantile=\"0.99\"} %.9f\n", s->p99_s);
		OUT("bootbench_latency_seconds{quantile=\"0.999\"} %.9f\n", s->p999_s);
	}
	OUT("# HELP bootbench_progress_ratio How much of the run is done, 0 to 1.\n# TYPE bootbench_progress_ratio gauge\n");
	OUT("bootbench_progress_ratio %.3f\n", s->progress);
	if (s->seconds_left >= 0) {
		OUT("# HELP bootbench_time_left_seconds The run's time left as it reckons it (its ETA).\n"
		    "# TYPE bootbench_time_left_seconds gauge\n");
		OUT("bootbench_time_left_seconds %.0f\n", s->seconds_left);
	}
	if (d && d->temperature_c > -100) {
		OUT("# HELP bootbench_temperature_celsius The disk's temperature as it reports it.\n"
		    "# TYPE bootbench_temperature_celsius gauge\n");
		OUT("bootbench_temperature_celsius %d\n", d->temperature_c);
	}
	OUT("# HELP bootbench_state The run's state: 1 for the current one.\n# TYPE bootbench_state gauge\n");
	for (i = 0; i < ARRAY_SIZE(states); i++)
		OUT("bootbench_state{state=\"%s\"} %d\n", states[i], !strcmp(states[i], s->state));
	if (d) {
		const long long values[] = { d->media_errors, d->reallocated, d->crc_errors };

		/* the model groups disks for the rules' per-model medians (tools/monitoring) */
		metrics_label(model, sizeof(model), d->model ? d->model : "");
		metrics_label(fw, sizeof(fw), d->firmware ? d->firmware : "");
		OUT("# HELP bootbench_disk_info The disk's model and firmware, as it reports them.\n"
		    "# TYPE bootbench_disk_info gauge\n");
		OUT("bootbench_disk_info{model=\"%s\",firmware=\"%s\"} 1\n", model, fw);
		for (i = 0; i < ARRAY_SIZE(counters); i++) {
			if (values[i] < 0)
				continue;
			if (!kept++)
				OUT("# HELP bootbench_disk_errors_total The error counters the drive keeps, which only "
				    "grow: NVMe media errors; ATA reallocated sectors, UDMA CRC errors.\n"
				    "# TYPE bootbench_disk_errors_total counter\n");
			OUT("bootbench_disk_errors_total{counter=\"%s\"} %lld\n", counters[i], values[i]);
		}
		if (d->pending >= 0) {
			OUT("# HELP bootbench_disk_pending_sectors ATA attribute 197: sectors waiting to be remapped "
			    "(falls again as they are).\n# TYPE bootbench_disk_pending_sectors gauge\n");
			OUT("bootbench_disk_pending_sectors %lld\n", d->pending);
		}
		if (d->offline_uncorrectable >= 0) {
			OUT("# HELP bootbench_disk_offline_uncorrectable_sectors ATA attribute 198: sectors the "
			    "offline scan could not read (falls again as they are remapped).\n"
			    "# TYPE bootbench_disk_offline_uncorrectable_sectors gauge\n");
			OUT("bootbench_disk_offline_uncorrectable_sectors %lld\n", d->offline_uncorrectable);
		}
	}
#undef OUT
	return o < len ? 0 : set_err("metrics: the text does not fit");
}

/* Collects a finished push without waiting; 1 when none is in flight. */
static int reap(struct metrics *m, int wait)
{
	int st;

	if (!m->pid)
		return 1;
	if (waitpid(m->pid, &st, wait ? 0 : WNOHANG) == 0)
		return 0;
	m->pid = 0;
	return 1;
}

void metrics_push(struct metrics *m, const struct metrics_sample *s, int final)
{
	char body[8192];

	if (m->url[0] && !metrics_format(s, body, sizeof(body)))
		metrics_push_text(m, body, final);
}

/*
 * BODY with the run label on each sample, then the run's start and this
 * push's time, into OUT; -1 when it does not fit. A sample line is NAME
 * VALUE or NAME{LABELS} VALUE (the callers' own text, no label value with a
 * newline: metrics_label escapes it).
 */
static int with_run(const struct metrics *m, const char *body, char *out, size_t len)
{
	char run[sizeof(m->run) * 2];
	size_t o = 0;

#define OUT(...) (o += (size_t)snprintf(out + o, o < len ? len - o : 0, __VA_ARGS__))
	metrics_label(run, sizeof(run), m->run);
	while (*body) {
		size_t n = strcspn(body, "\n"), name = strcspn(body, "{ \n");

		if (body[0] == '#' || !n || name >= n)
			OUT("%.*s\n", (int)n, body);
		else if (body[name] == '{')
			OUT("%.*s{run=\"%s\"%s%.*s\n", (int)name, body, run, body[name + 1] == '}' ? "" : ",",
			    (int)(n - name - 1), body + name + 1);
		else
			OUT("%.*s{run=\"%s\"}%.*s\n", (int)name, body, run, (int)(n - name), body + name);
		body += n + (body[n] == '\n');
	}
	OUT("# HELP bootbench_run_start_timestamp_seconds When the run named by the run label started, by the "
	    "machine's clock: a newer run of the machine supersedes the groups that went quiet before it.\n"
	    "# TYPE bootbench_run_start_timestamp_seconds gauge\n");
	OUT("bootbench_run_start_timestamp_seconds{run=\"%s\"} %lld\n", run, m->run_start);
	OUT("# HELP bootbench_last_push_timestamp_seconds When this was pushed, by the machine's clock (the "
	    "gateway's own push_time_seconds says when it arrived).\n"
	    "# TYPE bootbench_last_push_timestamp_seconds gauge\n");
	OUT("bootbench_last_push_timestamp_seconds{run=\"%s\"} %ld\n", run, (long)time(NULL));
#undef OUT
	return o < len ? 0 : -1;
}

void metrics_push_text(struct metrics *m, const char *caller_body, int final)
{
	size_t cap = 65536;	/* what fits the pipe: the write below never blocks */
	char url[1600], *body;
	int in[2];
	pid_t pid;

	if (!m->url[0])
		return;
	if (!reap(m, final)) {
		m->skipped++;	/* the last push is still going: the gateway is slow; never wait for it */
		return;
	}
	body = malloc(cap);
	if (!body || with_run(m, caller_body, body, cap) || pipe2(in, O_CLOEXEC)) {
		m->skipped++;
		free(body);
		return;
	}
	snprintf(url, sizeof(url), "%s%s", m->url, m->group);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(in[0]);
		close(in[1]);
		free(body);
		return;
	}
	if (!pid) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);	/* consent: /dev/null */
		char *argv[] = { "curl", "--silent", "--max-time", "3", "--request", "PUT", "--data-binary", "@-",
				 "--header", "Content-Type: text/plain; version=0.0.4", "--output", "/dev/null", url,
				 NULL };

		signal(SIGINT, SIG_IGN);
		dup2(in[0], STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		execvp(argv[0], argv);	/* consent: curl pushes over HTTP */
		_exit(127);
	}
	close(in[0]);
	/* the body fits the pipe (under 64 KiB): this write does not block */
	if (write(in[1], body, strlen(body)) < 0)
		m->skipped++;
	close(in[1]);
	free(body);
	m->pid = pid;
	m->pushed++;
	m->last_ns = now_ns();
	if (final)
		reap(m, 1);
}
