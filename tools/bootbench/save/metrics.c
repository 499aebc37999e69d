// SPDX-License-Identifier: MIT
/*
 * metrics.c - Prometheus exposition text and pushes to a Pushgateway
 * (metrics.h). Names follow Prometheus' conventions: a bootbench_ prefix,
 * base units (seconds, bytes), _ratio for 0..1, _celsius for temperature;
 * the grouping labels machine and disk are in the push URL, base64url
 * encoded (the gateway's label@base64 form) so any serial is safe there.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util.h"
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

int metrics_init(struct metrics *m, const char *url, const char *machine, const char *disk)
{
	struct dest_url u;
	char a[400], b[400], shown[sizeof(u.text)];

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
	base64url(machine, a, sizeof(a));
	if (!disk) {
		/* the machine's own series (a burn-in's verdicts): no disk in the group */
		snprintf(m->group, sizeof(m->group), "/metrics/job/bootbench/machine@base64/%s", a);
		return 0;
	}
	base64url(disk, b, sizeof(b));
	snprintf(m->group, sizeof(m->group), "/metrics/job/bootbench/machine@base64/%s/disk@base64/%s", a, b);
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
	static const char *const counters[] = { "media_errors", "reallocated", "pending", "offline_uncorrectable",
						"crc_errors" };
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
		OUT("# HELP bootbench_seconds_left The run's time left as it reckons it (its ETA).\n"
		    "# TYPE bootbench_seconds_left gauge\n");
		OUT("bootbench_seconds_left %.0f\n", s->seconds_left);
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
		const long long values[] = { d->media_errors, d->reallocated, d->pending, d->offline_uncorrectable,
					     d->crc_errors };

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
				OUT("# HELP bootbench_disk_errors_total The error counters the drive keeps: NVMe media "
				    "errors; ATA reallocated, pending and offline-uncorrectable sectors, UDMA CRC errors.\n"
				    "# TYPE bootbench_disk_errors_total counter\n");
			OUT("bootbench_disk_errors_total{counter=\"%s\"} %lld\n", counters[i], values[i]);
		}
	}
	OUT("# HELP bootbench_last_push_timestamp_seconds When this was pushed.\n"
	    "# TYPE bootbench_last_push_timestamp_seconds gauge\n");
	OUT("bootbench_last_push_timestamp_seconds %ld\n", (long)time(NULL));
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

void metrics_push_text(struct metrics *m, const char *body, int final)
{
	char url[1600];
	int in[2];
	pid_t pid;

	if (!m->url[0])
		return;
	if (!reap(m, final)) {
		m->skipped++;	/* the last push is still going: the gateway is slow; never wait for it */
		return;
	}
	if (strlen(body) >= 65536 || pipe2(in, O_CLOEXEC))
		return;
	snprintf(url, sizeof(url), "%s%s", m->url, m->group);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(in[0]);
		close(in[1]);
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
	m->pid = pid;
	m->pushed++;
	m->last_ns = now_ns();
	if (final)
		reap(m, 1);
}
