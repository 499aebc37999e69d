// SPDX-License-Identifier: MIT
/*
 * burnin.c - `bootbench burnin`: the whole server's burn-in, every
 * component at once (the together phase, the default with two or more:
 * the worst case of power and heat, the load sampled to show it held)
 * or one after another, each with its share of --duration, each ending
 * PASS, FAIL or ERROR (could not test) with its reason and figures; the
 * machine's verdict is PASS only when every component asked for passed.
 * SIGINT, SIGTERM and SIGHUP (the ssh session that started it dropped)
 * stop the component running, which keeps what it measured: the run is
 * INTERRUPTED (exit 130) unless a component FAILed, its results written
 * all the same. The verdicts go to the console, and with --output to
 * burnin.json and burnin.txt, beside the machine's inventory.json (sys/inventory.h), taken
 * first. Its flags and help: the declaration at the end (lib/args.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "burnin/burnin.h"
#include "job/values.h"
#include "lib/args.h"
#include "lib/json.h"
#include "lib/util.h"
#include "lib/wrap.h"
#include "save/metrics.h"
#include "sys/inventory.h"
#include "sys/machine.h"
#include "sys/meminfo.h"

struct burnin_opts {
	const char *components, *duration, *limits, *output, *iperf, *destroy, *phases;
	int json, check, clear_sel;
	unsigned progress_fd;
};

/* --progress-fd: "burnin COMPONENT STATE SECONDS-LEFT" a line as each
 * component starts and ends (the menu's live screen reads them); STATE is
 * running or its verdict. */
static FILE *progress;

static void report_progress(const char *component, const char *state, double left)
{
	if (progress) {
		fprintf(progress, "burnin %s %s %.0f\n", component, state, left > 0 ? left : 0);
		fflush(progress);
	}
}

/*
 * The Pushgateway (BOOTBENCH_METRICS, bootbench.metrics): each component's
 * verdict as it is known (1 pass, 0 fail, -1 error: could not test), which
 * one runs, and the time left, under the machine's own group.
 */
static struct metrics metrics;

/* --phases: all at once (the worst case of power and heat), each alone, or both in that order */
enum { PHASE_TOGETHER = 1, PHASE_EACH = 2 };
static unsigned phases_ran;
/* the machine's load while the components ran together (burnin.json's "together") */
static struct burnin_load load;

/*
 * The last push made while components ran, pushed again every
 * BURNIN_PUSH_EVERY_S while they still do (push_going): a component runs
 * for many minutes, and a machine that pushes nothing for --silent-after
 * (300 s) is silent to fleet and BootbenchSilent, however healthy.
 */
#define BURNIN_PUSH_EVERY_S 5
static struct {
	const struct burnin_result *res;
	const int *asked;
	int running[16];
	double left;
	uint64_t at_ns;
} going;

static void push_verdicts(const struct burnin_result *res, const int *asked, const int *running, double left,
			  int final)
{
	static const int value[] = { [BURNIN_PASS] = 1, [BURNIN_FAIL] = 0, [BURNIN_ERROR] = -1,
				     [BURNIN_INTERRUPTED] = -2 };
	char body[32768];
	size_t o = 0;

	if (!metrics.url[0])
		return;
#define OUT(...) (o += (size_t)snprintf(body + o, o < sizeof(body) ? sizeof(body) - o : 0, __VA_ARGS__))
	OUT("# HELP bootbench_burnin_verdict A burn-in component's verdict: 1 pass, 0 fail, -1 error (it could not "
	    "be tested), -2 interrupted.\n# TYPE bootbench_burnin_verdict gauge\n");
	for (unsigned i = 0; i < burnin_ncomponents; i++)
		if (asked[i] && res[i].verdict != BURNIN_SKIPPED && !running[i])
			OUT("bootbench_burnin_verdict{component=\"%s\"} %d\n", burnin_components[i].name,
			    value[res[i].verdict]);
	OUT("# HELP bootbench_burnin_figure A finished component's figures (burnin.json's), by name.\n"
	    "# TYPE bootbench_burnin_figure gauge\n");
	for (unsigned i = 0; i < burnin_ncomponents; i++) {
		if (!asked[i] || res[i].verdict == BURNIN_SKIPPED || running[i])
			continue;
		for (unsigned k = 0; k < res[i].nfig; k++) {
			char name[sizeof(res[i].fig[k].name) * 2], device[sizeof(res[i].fig[k].device) * 2];

			/* a figure's name may be a link's (eth0) or a sensor's: escaped as any label */
			metrics_label(name, sizeof(name), res[i].fig[k].name);
			/* a device's figure carries its name: two disks' "pass" are two
			 * series, not one sample repeated (which the Pushgateway refuses) */
			metrics_label(device, sizeof(device), res[i].fig[k].device);
			if (!isfinite(res[i].fig[k].value))
				continue;
			if (device[0])
				OUT("bootbench_burnin_figure{component=\"%s\",device=\"%s\",figure=\"%s\"} %.6g\n",
				    burnin_components[i].name, device, name, res[i].fig[k].value);
			else
				OUT("bootbench_burnin_figure{component=\"%s\",figure=\"%s\"} %.6g\n",
				    burnin_components[i].name, name, res[i].fig[k].value);
		}
	}
	OUT("# HELP bootbench_burnin_running The burn-in components running now (1), the others asked for (0).\n"
	    "# TYPE bootbench_burnin_running gauge\n");
	for (unsigned i = 0; i < burnin_ncomponents; i++)
		if (asked[i])
			OUT("bootbench_burnin_running{component=\"%s\"} %d\n", burnin_components[i].name,
			    running[i]);
	OUT("# HELP bootbench_burnin_time_left_seconds The burn-in's time left.\n"
	    "# TYPE bootbench_burnin_time_left_seconds gauge\n");
	OUT("bootbench_burnin_time_left_seconds %.0f\n", left > 0 ? left : 0);
#undef OUT
	if (o < sizeof(body))
		metrics_push_text(&metrics, body, final);
	going.res = final ? NULL : res;
	going.asked = asked;
	for (unsigned i = 0; i < burnin_ncomponents && i < ARRAY_SIZE(going.running); i++)
		going.running[i] = running[i];
	going.left = left;
	going.at_ns = now_ns();
}

/* The last push again, its time left gone down, when BURNIN_PUSH_EVERY_S passed since it: the burn-in is alive. */
static void push_going(void)
{
	uint64_t now = now_ns();

	if (going.res && now - going.at_ns >= BURNIN_PUSH_EVERY_S * 1000000000ull)
		push_verdicts(going.res, going.asked, going.running, going.left - (double)(now - going.at_ns) / 1e9, 0);
}

/* the signal that stopped the burn-in, 0 while none has */
static volatile sig_atomic_t stopped_by;

static void on_signal(int sig)
{
	if (!stopped_by)
		stopped_by = sig;
	burnin_stop = 1;
}

static const char *signal_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "a signal";
}

/* The machine's line: why its verdict is what it is. */
static const char *machine_why(enum burnin_verdict machine, char *buf, size_t len)
{
	if (machine == BURNIN_PASS)
		return "every component asked for passed";
	if (machine != BURNIN_INTERRUPTED)
		return "PASS needs every component to pass";
	snprintf(buf, len, "stopped by %s: not every component asked for was tested to its end",
		 signal_name(stopped_by));
	return buf;
}

/*
 * The verdicts as text: a block a component (its first line COMPONENT
 * VERDICT WHY, as tests and scripts grep it), its own figures, then a
 * block a device it tested (a disk, a PCIe device): the device's name,
 * its reasons, figures and notes under it, indented, each reason a line of
 * its own. Every line is folded at words to WIDTH under itself (0: never
 * folded, a line a line), so no disk's words continue on another's line.
 */
#define TEXT_LEAD 25	/* "  %-22s ": where a figure's text begins */
#define TEXT_DEVICES 64

struct text_devices {
	char name[TEXT_DEVICES][64];
	unsigned n;
};

/*
 * The next item of a "; "-joined list (burnin_set, burnin_note) into BUF;
 * a "; " inside parentheses is the item's own ("(2.8 times; no consent)").
 * NULL at the end.
 */
static const char *next_item(const char *p, char *buf, size_t len)
{
	size_t n = 0;
	int depth = 0;

	if (!*p)
		return NULL;
	for (; *p && !(depth <= 0 && p[0] == ';' && p[1] == ' '); p++) {
		depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
		if (n + 1 < len)
			buf[n++] = *p;
	}
	buf[n] = '\0';
	return *p ? p + 2 : p;
}

/* Whether ITEM is about DEVICE: it begins with its path or its name and a
 * colon or a blank ("/dev/sda: ...", "sda: ...", "sda not tested: ..."). */
static int item_about(const char *item, const char *device)
{
	const char *base = strrchr(device, '/');
	const char *names[2] = { device, base ? base + 1 : device };

	for (unsigned i = 0; i < 2; i++) {
		size_t n = strlen(names[i]);

		if (n && !strncmp(item, names[i], n) && (item[n] == ':' || item[n] == ' '))
			return 1;
	}
	return 0;
}

static void add_device(struct text_devices *d, const char *name, size_t len)
{
	for (unsigned i = 0; i < d->n; i++)
		if (strlen(d->name[i]) == len && !strncmp(d->name[i], name, len))
			return;
	if (d->n < TEXT_DEVICES && len < sizeof(d->name[0]))
		snprintf(d->name[d->n++], sizeof(d->name[0]), "%.*s", (int)len, name);
}

static int about_any(const struct text_devices *d, const char *item)
{
	for (unsigned i = 0; i < d->n; i++)
		if (item_about(item, d->name[i]))
			return 1;
	return 0;
}

/* The devices R tested: those its figures are about, then those its words
 * name by path alone (a disk that failed before any figure). */
static void text_devices(const struct burnin_result *r, struct text_devices *d)
{
	const char *lists[2] = { r->reason, r->notes };
	char item[sizeof(r->reason)];

	d->n = 0;
	for (unsigned k = 0; k < r->nfig; k++)
		if (r->fig[k].device[0])
			add_device(d, r->fig[k].device, strlen(r->fig[k].device));
	for (unsigned l = 0; l < 2; l++)
		for (const char *p = lists[l]; (p = next_item(p, item, sizeof(item)));)
			if (!strncmp(item, "/dev/", 5) && !about_any(d, item))
				add_device(d, item, strcspn(item, ": "));
}

/*
 * LIST's items about DEVICE, a line each (a disk's findings each begin
 * with its name), the first after LEAD, the rest under it; DEVICE NULL:
 * those about none of D's, joined as they were ("; " is also a reason's
 * own: "read back wrong; the first in ..."), so a component without
 * devices reads as it always did. An item that names no device stays
 * the component's. The number of lines begun.
 */
static unsigned print_items(FILE *f, const char *lead, const char *list, const struct text_devices *d,
			    const char *device, int width)
{
	char item[2048], blank[64], own[2048];
	size_t at = 0;
	unsigned n = 0;

	snprintf(blank, sizeof(blank), "%*s", (int)strlen(lead), "");
	own[0] = '\0';
	for (const char *p = list; (p = next_item(p, item, sizeof(item)));) {
		if (!device && !about_any(d, item) && at < sizeof(own))
			at += snprintf(own + at, sizeof(own) - at, "%s%s", at ? "; " : "", item);
		else if (device && item_about(item, device))
			wrap_print(f, n++ ? blank : lead, item, width);
	}
	if (own[0]) {
		wrap_print(f, lead, own, width);
		n++;
	}
	return n;
}

static void print_figures(FILE *f, const struct burnin_result *r, const char *device, const char *indent,
			  int width)
{
	char lead[64];

	for (unsigned k = 0; k < r->nfig; k++) {
		if (strcmp(r->fig[k].device, device))
			continue;
		snprintf(lead, sizeof(lead), "%s%-*s ", indent, TEXT_LEAD - 1 - (int)strlen(indent), r->fig[k].name);
		wrap_print(f, lead, r->fig[k].text, width);
	}
}

static void print_component(FILE *f, const struct burnin_result *r, int width)
{
	struct text_devices d;
	char lead[32];

	text_devices(r, &d);
	snprintf(lead, sizeof(lead), "%-9s %-8s ", r->component, burnin_verdict_name(r->verdict));
	if (!print_items(f, lead, r->reason, &d, NULL, width))
		wrap_print(f, lead, d.n > 1 ? "each device's reasons are under its name" : "the reasons are under its name",
			   width);
	print_figures(f, r, "", "  ", width);
	print_items(f, "  not run:               ", r->notes, &d, NULL, width);
	for (unsigned i = 0; i < d.n; i++) {
		fprintf(f, "  %s\n", d.name[i]);
		print_items(f, "    why:                 ", r->reason, &d, d.name[i], width);
		print_figures(f, r, d.name[i], "    ", width);
		print_items(f, "    not run:             ", r->notes, &d, d.name[i], width);
	}
}

static void print_text(FILE *f, const struct burnin_result *res, unsigned n, enum burnin_verdict machine, int width)
{
	char why[128], lead[32];

	fprintf(f, "%-9s %-8s %s\n", "COMPONENT", "VERDICT", "WHY");
	for (unsigned i = 0; i < n; i++)
		if (res[i].verdict != BURNIN_SKIPPED)
			print_component(f, &res[i], width);
	snprintf(lead, sizeof(lead), "%-9s %-8s ", "machine", burnin_verdict_name(machine));
	wrap_print(f, lead, machine_why(machine, why, sizeof(why)), width);
}

/* The index of the first figure of the device of figure K. */
static unsigned first_of_device(const struct burnin_result *r, unsigned k)
{
	unsigned i;

	for (i = 0; strcmp(r->fig[i].device, r->fig[k].device); i++)
		;
	return i;
}

/* "figures": R's figures of DEVICE ("": the component's own), by name. */
static void json_figures(struct json *j, const struct burnin_result *r, const char *device)
{
	json_obj_open(j, "figures");
	for (unsigned k = 0; k < r->nfig; k++) {
		if (strcmp(r->fig[k].device, device))
			continue;
		json_obj_open(j, r->fig[k].name);
		/* a figure with no number (words only, or a count the drive does not report): null, never 0 */
		if (isfinite(r->fig[k].value))
			json_double(j, "value", r->fig[k].value);
		else
			json_null_member(j, "value");
		json_str(j, "text", r->fig[k].text);
		json_obj_close(j);
	}
	json_obj_close(j);
}

static void write_json(FILE *f, const struct burnin_result *res, unsigned n, enum burnin_verdict machine,
		       const struct burnin_limits *lim, double seconds)
{
	struct json j;

	json_init(&j, f);
	json_obj_open(&j, NULL);
	json_str(&j, "bootbench_burnin", BB_VERSION);
	json_str(&j, "verdict", burnin_verdict_name(machine));
	if (stopped_by)
		json_str(&j, "interrupted_by", signal_name(stopped_by));
	json_double(&j, "seconds", seconds);
	json_arr_open(&j, "components");
	for (unsigned i = 0; i < n; i++) {
		const struct burnin_result *r = &res[i];

		json_obj_open(&j, NULL);
		json_str(&j, "name", r->component);
		json_str(&j, "verdict", burnin_verdict_name(r->verdict));
		json_str(&j, "reason", r->reason);
		json_str(&j, "not_run", r->notes);
		json_double(&j, "seconds", r->seconds);
		/* when it ran, from the burn-in's start: the overlap of the together phase's loads is read here */
		json_obj_open(&j, "ran");
		for (int p = BURNIN_TOGETHER; p <= BURNIN_ALONE; p++) {
			if (!r->ran_to[p])
				continue;
			json_obj_open(&j, p == BURNIN_TOGETHER ? "together" : "alone");
			json_double(&j, "from_s", r->ran_from[p]);
			json_double(&j, "to_s", r->ran_to[p]);
			json_obj_close(&j);
		}
		json_obj_close(&j);
		json_figures(&j, r, "");
		/* a device's figures in its own object: several disks' "pass" are
		 * keys of one object each, never repeated in one (a reader keeps one) */
		json_arr_open(&j, "devices");
		for (unsigned k = 0; k < r->nfig; k++) {
			if (!r->fig[k].device[0] || first_of_device(r, k) != k)
				continue;
			json_obj_open(&j, NULL);
			json_str(&j, "device", r->fig[k].device);
			json_figures(&j, r, r->fig[k].device);
			json_obj_close(&j);
		}
		json_arr_close(&j);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	json_arr_open(&j, "phases");
	if (phases_ran & PHASE_TOGETHER)
		json_str(&j, NULL, "together");
	if (phases_ran & PHASE_EACH)
		json_str(&j, NULL, "each");
	json_arr_close(&j);
	if (phases_ran & PHASE_TOGETHER) {
		static const char *const names[] = { "cpu", "memory", "disks", "net" };

		/* the machine's load, sampled while every component ran: what "at once" rests on */
		json_obj_open(&j, "together");
		json_arr_open(&j, "loads");
		for (unsigned b = 0; b < ARRAY_SIZE(names); b++)
			if (load.needs & (1u << b))
				json_str(&j, NULL, names[b]);
		json_arr_close(&j);
		json_double(&j, "memory_need_mib", load.mem_need_mib);
		json_int(&j, "cpus_counted", load.cpus_counted);
		json_int(&j, "cpus_online", load.cpus_online);
		json_double(&j, "overlap_s", load.overlap_s);
		json_double(&j, "sampled_s", load.sampled_s);
		json_arr_open(&j, "samples");
		for (unsigned k = 0; k < load.n; k++) {
			json_obj_open(&j, NULL);
			json_double(&j, "t", load.s[k].t);
			json_double(&j, "cpu_busy_pct", load.s[k].cpu_busy_pct);
			json_double(&j, "memory_used_mib", load.s[k].mem_used_mib);
			json_double(&j, "disk_mbs", load.s[k].disk_mbs);
			json_double(&j, "net_mbs", load.s[k].net_mbs);
			json_arr_open(&j, "running");
			for (unsigned b = 0; b < ARRAY_SIZE(names); b++)
				if (load.s[k].running & (1u << b))
					json_str(&j, NULL, names[b]);
			json_arr_close(&j);
			json_arr_open(&j, "live");
			for (unsigned b = 0; b < ARRAY_SIZE(names); b++)
				if (load.s[k].live & (1u << b))
					json_str(&j, NULL, names[b]);
			json_arr_close(&j);
			json_bool(&j, "all", load.s[k].all);
			json_obj_close(&j);
		}
		json_arr_close(&j);
		json_obj_close(&j);
	}
	json_obj_open(&j, "limits");
	for (unsigned i = 0; i < burnin_nlimits; i++)
		json_double(&j, burnin_limit_rows[i].name,
			    *(const double *)((const char *)lim + burnin_limit_rows[i].offset));
	json_obj_close(&j);
	json_obj_close(&j);
	fputc('\n', f);
}

static int save(const char *dir, const char *name, const struct burnin_result *res, unsigned n,
		enum burnin_verdict machine, const struct burnin_limits *lim, double seconds)
{
	char path[4096], tmp[4200];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	/* an earlier run's leftover (killed while it saved) is replaced, never followed */
	if (unlink(tmp) && errno != ENOENT)
		return -1;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);	/* consent: a regular file, made new, in --output */
	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return -1;
	}
	if (strstr(name, ".json"))
		write_json(f, res, n, machine, lim, seconds);
	else
		print_text(f, res, n, machine, 0);
	if (fflush(f) || fsync(fileno(f)) || fclose(f) || rename(tmp, path))
		return -1;
	return 0;
}

/*
 * --output, before anything runs: a burn-in of a day whose results cannot
 * be written at its end is lost. An earlier run's leftover .tmp files
 * (killed while it saved) are removed; a file is made and removed there.
 */
static void check_output(const char *dir)
{
	static const char *const leftovers[] = { "burnin.json.tmp", "burnin.txt.tmp" };
	static const char *const results[] = { "burnin.json", "burnin.txt" };
	char path[4200];
	struct stat st;
	int fd;

	/* an earlier run's results go now: a run killed before its end must not leave another's PASS
	 * beside its own inventory; a name that is no file could not be replaced at the end */
	for (unsigned i = 0; i < ARRAY_SIZE(results); i++) {
		const char *why = NULL;

		snprintf(path, sizeof(path), "%s/%s", dir, results[i]);
		if (lstat(path, &st))
			why = errno == ENOENT ? NULL : strerror(errno);
		else if (!S_ISREG(st.st_mode))
			why = "not a file";
		else if (unlink(path))
			why = strerror(errno);
		if (why)
			die_usage("burnin: --output=%s: %s is there and cannot be replaced (%s): the results could not be "
				  "written", dir, results[i], why);
	}

	for (unsigned i = 0; i < ARRAY_SIZE(leftovers); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, leftovers[i]);
		if (unlink(path) && errno != ENOENT)
			die_usage("burnin: --output=%s: an earlier run's %s cannot be removed (%s): the results could "
				  "not be written", dir, leftovers[i], strerror(errno));
	}
	snprintf(path, sizeof(path), "%s/burnin.json.tmp", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);	/* consent: a regular file, made new, in --output */
	if (fd < 0)
		die_usage("burnin: --output=%s: the results could not be written there (%s)", dir, strerror(errno));
	close(fd);
	unlink(path);
}

/* --progress-fd: a descriptor open for writing, or bad input (its lines would be lost). */
static void open_progress(unsigned n)
{
	int flags = fcntl((int)n, F_GETFL);

	if (flags < 0 || ((flags & O_ACCMODE) != O_WRONLY && (flags & O_ACCMODE) != O_RDWR) ||
	    !(progress = fdopen((int)n, "w")))
		die_usage("burnin: --progress-fd=%u is not open for writing", n);
	fcntl((int)n, F_SETFD, FD_CLOEXEC);	/* the programs the components run do not hold it */
}


struct phase_run {
	const struct burnin_ctx *ctx;	/* the burn-in's; each component's seconds set here */
	const int *asked;
	struct burnin_result *res;
	uint64_t t0;
	double total;			/* the burn-in's seconds, for the time left */
	int json;
};

static double since_start(const struct phase_run *run, uint64_t ns)
{
	return ns > run->t0 ? (ns - run->t0) / 1e9 : 0;
}

/* A component's end: a stop said first in its reason (what it found stays); a failure found stands. */
static void finish_component(struct burnin_result *r)
{
	if (burnin_stop && r->verdict != BURNIN_SKIPPED && !strstr(r->reason, "interrupted")) {
		char was[sizeof(r->reason)];

		memcpy(was, r->reason, sizeof(was));
		snprintf(r->reason, sizeof(r->reason), "interrupted (%s) before its time was up; %.2000s",
			 signal_name(stopped_by), was);
		if (r->verdict < BURNIN_INTERRUPTED)
			r->verdict = BURNIN_INTERRUPTED;
	}
}

struct component_job {
	const struct burnin_component *c;
	struct burnin_ctx ctx;
};

/* in the component's own process (together.c) */
static void component_child(const void *arg, struct burnin_result *r, int extra[4])
{
	const struct component_job *job = arg;

	(void)extra;
	r->component = job->c->name;
	job->c->run(&job->ctx, r);
}

/* the load a component puts on the machine, as load.c sees it */
static unsigned load_of(const char *name, int iperf)
{
	return !strcmp(name, "cpu") ? BURNIN_LOAD_CPU : !strcmp(name, "memory") ? BURNIN_LOAD_MEMORY :
	       !strcmp(name, "disks") ? BURNIN_LOAD_DISKS : !strcmp(name, "net") && iperf ? BURNIN_LOAD_NET : 0;
}

/* The together phase's own verdict (ROW): whether every load was there at once for long enough. */
static void judge_together(struct burnin_result *row, double phase_s, const struct burnin_limits *lim)
{
	static const struct { unsigned bit; const char *words; } loads[] = {
		{ BURNIN_LOAD_CPU, "the CPUs 90% busy" }, { BURNIN_LOAD_MEMORY, "the memory's share half in use" },
		{ BURNIN_LOAD_DISKS, "the disks moving" }, { BURNIN_LOAD_NET, "the network moving" },
	};
	char what[256] = "";
	double ran = load.sampled_s > 0 ? load.sampled_s : phase_s;

	row->component = "together";
	if (!load.needs) {
		/* nothing that loads the machine measurably (the bmc watches; net without --iperf checks its links) */
		burnin_note(row, "no load to judge: the components asked for put none on the CPUs, the memory, the disks "
			    "or the network (net without --iperf)");
		return;
	}
	for (unsigned i = 0; i < ARRAY_SIZE(loads); i++)
		if (load.needs & loads[i].bit) {
			double seen = 0;

			char cpus[96];
			const char *words = loads[i].words;

			for (unsigned k = 0; k < load.n; k++)
				if (burnin_load_there(&load, &load.s[k], loads[i].bit))
					seen += load.s[k].seconds;
			/* the CPUs it may run on, where they are not every CPU on line (taskset, a cpuset) */
			if (loads[i].bit == BURNIN_LOAD_CPU && load.cpus_counted && load.cpus_counted < load.cpus_online) {
				snprintf(cpus, sizeof(cpus), "its %u of the %u CPUs on line 90%% busy", load.cpus_counted,
					 load.cpus_online);
				words = cpus;
			}
			snprintf(what + strlen(what), sizeof(what) - strlen(what), "%s%s %.0f s", what[0] ? ", " : "",
				 words, seen);
		}
	burnin_figure(row, "overlap_s", load.overlap_s, "every load at once for %.0f s of %.0f s sampled", load.overlap_s,
		      ran);
	burnin_figure(row, "overlap_ratio", ran > 0 ? load.overlap_s / ran : 0, "%.2f of the phase (at least %.2f)",
		      ran > 0 ? load.overlap_s / ran : 0, lim->together_overlap_min);
	if (burnin_stop)
		burnin_set(row, BURNIN_INTERRUPTED, "interrupted (%s): every load at once for %.0f s of %.0f s (%s)",
			   signal_name(stopped_by), load.overlap_s, ran, what);
	else if (!load.n)
		burnin_set(row, BURNIN_ERROR, "the machine's load could not be sampled: whether every load ran at once "
			   "is not known");
	else if (load.overlap_s < lim->together_overlap_min * ran)
		burnin_set(row, BURNIN_ERROR, "every load at once for only %.0f s of %.0f s (%s): the worst case of heat and "
			   "power was not held (burnin_together_overlap_min=%g)", load.overlap_s, ran, what,
			   lim->together_overlap_min);
	else
		burnin_set(row, BURNIN_PASS, "every load at once for %.0f s of %.0f s (%s)", load.overlap_s, ran, what);
}

/*
 * Every component asked for (but the watchers) at once, each in a process
 * of its own with the whole phase: the machine's worst case of power and
 * heat, under which the cpu component judges temperatures and capping. The
 * load is sampled every second meanwhile (ROW: the phase's own verdict).
 */
static void run_together(struct phase_run *run, double phase_s, int iperf, struct burnin_result *row)
{
	static struct component_job jobs[16];
	struct burnin_child ch[16];
	int running[16] = { 0 };
	unsigned needs = 0, left;
	double mem_need = 0;

	memset(ch, 0, sizeof(ch));
	for (unsigned i = 0; i < burnin_ncomponents; i++)
		if (run->asked[i] && burnin_components[i].weight > 0)
			needs |= load_of(burnin_components[i].name, iperf);
	/* a memory error logged from here on is the memory's, whichever component runs beside it */
	burnin_memory_watch("together");
	if (needs & BURNIN_LOAD_MEMORY)
		/* the memory component's share, from what it reads (a recorded machine's, in a test) */
		mem_need = 0.5 * run->ctx->lim->memory_fraction * (double)meminfo_bytes("MemAvailable") / (1 << 20);
	burnin_load_start(&load, phase_s, needs, mem_need);
	phases_ran |= PHASE_TOGETHER;
	if (!run->json)
		fprintf(stderr, "burnin: together for %.0f s\n", phase_s);
	for (unsigned i = 0; i < burnin_ncomponents; i++) {
		const struct burnin_component *c = &burnin_components[i];
		struct burnin_result *r = &run->res[i];

		if (!run->asked[i] || c->weight <= 0 || r->verdict == BURNIN_ERROR)
			continue;
		if (burnin_stop) {
			burnin_set(r, BURNIN_INTERRUPTED, "interrupted (%s) before it began", signal_name(stopped_by));
			continue;
		}
		jobs[i] = (struct component_job){ .c = c, .ctx = *run->ctx };
		jobs[i].ctx.seconds = phase_s;
		if (burnin_child_start(&ch[i], c->name, component_child, &jobs[i], r)) {
			burnin_set(r, BURNIN_ERROR, "%s", bb_err);
			continue;
		}
		running[i] = 1;
		burnin_load_component(&load, load_of(c->name, iperf), ch[i].pid);
		report_progress(c->name, "running", run->total - since_start(run, now_ns()));
	}
	push_verdicts(run->res, run->asked, running, run->total - since_start(run, now_ns()), 0);
	do {
		struct timespec second = { 1, 0 };

		unsigned loads = 0;

		nanosleep(&second, NULL);	/* a signal ends it early: the components are told at once */
		push_going();
		for (unsigned i = 0; i < burnin_ncomponents; i++)
			if (running[i])
				loads |= load_of(burnin_components[i].name, iperf);
		burnin_load_sample(&load, loads);
		left = 0;
		for (unsigned i = 0; i < burnin_ncomponents; i++) {
			struct burnin_result *r = &run->res[i];

			if (!running[i])
				continue;
			burnin_child_watch(&ch[i], load.t0_ns + (uint64_t)(phase_s * 1e9));
			if (!burnin_child_poll(&ch[i], 0)) {
				left++;
				continue;
			}
			running[i] = 0;
			r->component = burnin_components[i].name;
			r->ran_from[BURNIN_TOGETHER] = since_start(run, ch[i].from_ns);
			r->ran_to[BURNIN_TOGETHER] = since_start(run, ch[i].to_ns);
			r->seconds = r->ran_to[BURNIN_TOGETHER] - r->ran_from[BURNIN_TOGETHER];
			finish_component(r);
			report_progress(r->component, burnin_verdict_name(r->verdict),
					run->total - since_start(run, now_ns()));
			push_verdicts(run->res, run->asked, running, run->total - since_start(run, now_ns()), 0);
		}
	} while (left);
	row->ran_from[BURNIN_TOGETHER] = since_start(run, load.t0_ns);
	row->ran_to[BURNIN_TOGETHER] = since_start(run, now_ns());
	row->seconds = row->ran_to[BURNIN_TOGETHER] - row->ran_from[BURNIN_TOGETHER];
	judge_together(row, phase_s, run->ctx->lim);
}

/*
 * C run by itself in a process of its own, as in the together phase: a
 * burn-in whose component hangs (a disk that never answers) or overruns
 * is stopped and still writes its results. A memory error is the memory's
 * from the first component on (the EDAC baseline taken here, inherited).
 */
static void run_in_child(const struct burnin_component *c, const struct burnin_ctx *ctx, struct burnin_result *r)
{
	static struct component_job job;
	struct burnin_child ch;
	uint64_t end = now_ns() + (uint64_t)(ctx->seconds * 1e9);

	burnin_memory_watch(c->name);
	job = (struct component_job){ .c = c, .ctx = *ctx };
	if (burnin_child_start(&ch, c->name, component_child, &job, r)) {
		burnin_set(r, BURNIN_ERROR, "%s", bb_err);
		return;
	}
	for (;;) {
		struct timespec tick = { 0, 200000000 };

		burnin_child_watch(&ch, end);
		if (burnin_child_poll(&ch, 0))
			break;
		nanosleep(&tick, NULL);	/* a signal ends it early: the component is told at once */
		push_going();
	}
	r->component = c->name;
}

/* Each component by itself, one after another, sharing SECONDS by weight; ALSO: after the together phase. */
static void run_each(struct phase_run *run, double seconds, double weights, int also)
{
	phases_ran |= PHASE_EACH;
	for (unsigned i = 0; i < burnin_ncomponents; i++) {
		const struct burnin_component *c = &burnin_components[i];
		static struct burnin_result alone;
		struct burnin_result *r = also ? &alone : &run->res[i];
		struct burnin_ctx ctx = *run->ctx;
		int running[16] = { 0 };
		uint64_t c0 = now_ns();

		if (!run->asked[i] || c->weight <= 0)
			continue;
		if (also) {
			memset(&alone, 0, sizeof(alone));
			if (run->res[i].verdict == BURNIN_ERROR && !run->res[i].ran_to[BURNIN_TOGETHER])
				continue;	/* its begin found nothing to test: said once */
		}
		r->component = c->name;
		ctx.seconds = seconds * c->weight / weights;
		ctx.phase_suffix = also ? "-alone" : "";
		if (!run->json)
			fprintf(stderr, "burnin: %s for %.0f s\n", c->name, ctx.seconds);
		running[i] = 1;
		report_progress(c->name, "running", run->total - since_start(run, now_ns()));
		push_verdicts(run->res, run->asked, running, run->total - since_start(run, now_ns()), 0);
		if (burnin_stop)
			burnin_set(r, BURNIN_INTERRUPTED, "interrupted (%s) before it began", signal_name(stopped_by));
		else if (r->verdict != BURNIN_ERROR)	/* begin found nothing to test */
			run_in_child(c, &ctx, r);
		finish_component(r);
		r->seconds = (now_ns() - c0) / 1e9;
		if (also) {
			/* one verdict per component: the worse of the two, both phases' words and figures */
			struct burnin_result *both = &run->res[i];

			both->ran_from[BURNIN_ALONE] = since_start(run, c0);
			both->ran_to[BURNIN_ALONE] = since_start(run, now_ns());
			both->seconds += r->seconds;
			burnin_merge(both, r, "alone: ", "_alone");
			r = both;
		} else {
			r->ran_from[BURNIN_ALONE] = since_start(run, c0);
			r->ran_to[BURNIN_ALONE] = since_start(run, now_ns());
		}
		report_progress(c->name, burnin_verdict_name(r->verdict), run->total - since_start(run, now_ns()));
	}
}

/* The components that watch the others (the BMC's log, weight 0): judged once the loads are over. */
static void run_watchers(struct phase_run *run)
{
	for (unsigned i = 0; i < burnin_ncomponents; i++) {
		const struct burnin_component *c = &burnin_components[i];
		struct burnin_result *r = &run->res[i];
		int running[16] = { 0 };
		uint64_t c0 = now_ns();

		if (!run->asked[i] || c->weight > 0)
			continue;
		r->component = c->name;
		running[i] = 1;
		report_progress(c->name, "running", run->total - since_start(run, now_ns()));
		push_verdicts(run->res, run->asked, running, run->total - since_start(run, now_ns()), 0);
		if (burnin_stop) {
			/* what its begin did stays said (the BMC's log saved and cleared) */
			if (r->reason[0])
				burnin_note(r, "before the stop: %s", r->reason);
			burnin_set(r, BURNIN_INTERRUPTED, "interrupted (%s) before it began", signal_name(stopped_by));
		} else if (r->verdict != BURNIN_ERROR) {
			c->run(run->ctx, r);
		}
		finish_component(r);
		r->seconds = (now_ns() - c0) / 1e9;
		report_progress(c->name, burnin_verdict_name(r->verdict), run->total - since_start(run, now_ns()));
	}
}

/* "together", "each" or both, comma separated: the phases' bits; 0 when something else is named */
static unsigned parse_phases(const char *list)
{
	char *copy = xstrdup(list), *save = NULL, *name;
	unsigned bits = 0;

	for (name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		unsigned bit = !strcmp(name, "together") ? PHASE_TOGETHER : !strcmp(name, "each") ? PHASE_EACH : 0;

		if (!bit || (bits & bit)) {
			bits = 0;
			break;
		}
		bits |= bit;
	}
	free(copy);
	return bits;
}

static int burnin_main(void *opts, int argc, char **argv)
{
	struct burnin_opts *o = opts;
	/* the components', and the together phase's own row after them: static, 80 KiB each */
	static struct burnin_result res[17];
	struct burnin_limits lim;
	int asked[16] = { 0 }, nasked = 0;
	uint64_t total_us = 0, t0;
	double weights = 0, seconds, together_s;
	unsigned phases, loading = 0;
	enum burnin_verdict machine = BURNIN_PASS;
	struct sigaction sa = { .sa_handler = on_signal };
	struct stat st;
	unsigned cpus = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);

	for (int i = 0; i < argc; i++) {
		struct stat ds, other;

		if (stat(argv[i], &ds) || !S_ISBLK(ds.st_mode))
			die_usage("burnin: %s is not a block device (the components: --components=)", argv[i]);
		/* one disk named twice would be loaded twice and counted as two disks tested */
		for (int k = 0; k < i; k++)
			if (!stat(argv[k], &other) && other.st_rdev == ds.st_rdev)
				die_usage("burnin: %s and %s are the same disk", argv[k], argv[i]);
	}
	burnin_limits_default(&lim);
	if (o->limits && burnin_limits_parse(&lim, o->limits))
		die_usage("burnin: %s", bb_err);
	if (o->components) {
		char *copy = xstrdup(o->components), *save = NULL, *name;

		for (name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
			const struct burnin_component *c = burnin_component(name);

			if (!c)
				die_usage("burnin: --components: unknown component '%.40s' (known: disks, cpu, memory, net, bmc, pcie)", name);
			asked[c - burnin_components] = 1;
		}
		free(copy);
	} else {
		for (unsigned i = 0; i < burnin_ncomponents; i++)
			asked[i] = 1;
	}
	for (unsigned i = 0; i < burnin_ncomponents; i++)
		if (asked[i]) {
			nasked++;
			weights += burnin_components[i].weight;
		}
	if (!weights)
		weights = 1;	/* the watchers alone (bmc): no time of their own */
	if (!nasked)
		die_usage("burnin: --components=%s names no component", o->components);
	for (unsigned i = 0; i < burnin_ncomponents; i++)
		loading += asked[i] && burnin_components[i].weight > 0;
	/* a whole server's burn-in loads everything at once; one component has nothing to run beside */
	phases = loading >= 2 ? PHASE_TOGETHER : PHASE_EACH;
	if (o->phases && !(phases = parse_phases(o->phases)))
		die_usage("burnin: --phases=%s: expected together, each, or together,each", o->phases);
	if (o->duration && (parse_time_us(o->duration, 1000000, &total_us) || total_us < 10000000 ||
			    total_us > 30ull * 86400 * 1000000))
		die_usage("burnin: --duration=%s: expected a time from 10s to 30d, such as 10m or 24h", o->duration);
	if (!o->duration)
		total_us = (uint64_t)nasked * 120 * 1000000;	/* the quick one: 2 minutes a component */
	if (o->output && (stat(o->output, &st) || !S_ISDIR(st.st_mode)))
		die_usage("burnin: --output=%s is not a directory", o->output);
	if (o->iperf) {
		/* a name or an address, and a port: nothing else reaches iperf3's arguments */
		const char *colon = strrchr(o->iperf, ':');
		size_t host = colon ? (size_t)(colon - o->iperf) : strlen(o->iperf);
		char *end;
		long port = colon ? strtol(colon + 1, &end, 10) : 5201;

		if (!host || host > 253 || strspn(o->iperf, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-") != host ||
		    o->iperf[0] == '-' || (colon && (!colon[1] || *end || port < 1 || port > 65535)))
			die_usage("burnin: --iperf=%s: expected HOST[:PORT] (a name or an IPv4 address, a port from 1 to 65535)",
				  o->iperf);
	}
	if (o->destroy && burnin_destroy_check(o->destroy, asked[burnin_component("disks") - burnin_components], argv,
					       (unsigned)argc))
		die_usage("burnin: %s", bb_err);
	if (o->progress_fd)
		open_progress(o->progress_fd);
	if (o->check)
		return EXIT_OK;		/* the boot parameters' check: every value above is fine */
	if (o->output)
		check_output(o->output);
	if (cpus < 1 || cpus > 4096)
		cpus = 1;
	if (scale_factor(&seconds))
		die_usage("burnin: %s", bb_err);
	seconds *= total_us / 1e6;
	together_s = !(phases & PHASE_TOGETHER) ? 0 : phases & PHASE_EACH ? seconds / 2 : seconds;
	/* from here a signal stops the burn-in (the disks' measuring too): INTERRUPTED, its results
	 * written; the ssh session that started it dropped (SIGHUP) as SIGTERM; a reader gone (the
	 * menu's screen) kills no burn-in */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (o->destroy) {
		/* the disks written are measured first: passes sized to the time, or refused now */
		const struct burnin_component *d = burnin_component("disks");
		struct burnin_ctx ctx = { .lim = &lim, .cpus = cpus, .destroy = o->destroy, .disks = argv,
					  .ndisks = (unsigned)argc };

		/* the shorter of the disks' times: the whole together phase, their share of the other */
		ctx.seconds = phases & PHASE_EACH ? (seconds - together_s) * d->weight / weights : together_s;
		if ((phases & PHASE_TOGETHER) && together_s < ctx.seconds)
			ctx.seconds = together_s;

		if (ctx.seconds > 0 && burnin_disks_plan(&ctx, total_us / 1e6 / ctx.seconds) && !burnin_stop)
			die_usage("burnin: %s", bb_err);
	}

	{
		const char *url = getenv("BOOTBENCH_METRICS");
		char machine[128];

		machine_id(machine, sizeof(machine));
		if (url && *url && metrics_init(&metrics, url, machine, NULL))
			die_usage("burnin: %s", bb_err);
	}
	if (o->output) {
		/* what the machine is made of, first: an interrupted burn-in keeps it too */
		struct inventory *inv = inventory_take();

		if (inventory_save(inv, o->output))
			note("burnin: %s", bb_err);
		inventory_free(inv);
	}
	t0 = now_ns();
	for (unsigned i = 0; i < burnin_ncomponents; i++)
		res[i].component = burnin_components[i].name;
	/* what a component watches over the whole burn-in is read first */
	for (unsigned i = 0; i < burnin_ncomponents; i++) {
		struct burnin_ctx ctx = { .lim = &lim, .outdir = o->output, .cpus = cpus, .iperf = o->iperf,
					  .destroy = o->destroy, .disks = argv, .ndisks = (unsigned)argc,
					  .clear_sel = o->clear_sel };

		if (asked[i] && burnin_components[i].begin)
			burnin_components[i].begin(&ctx, &res[i]);
	}
	{
		struct burnin_ctx ctx = { .lim = &lim, .outdir = o->output, .cpus = cpus, .iperf = o->iperf,
					  .destroy = o->destroy, .disks = argv, .ndisks = (unsigned)argc,
					  .clear_sel = o->clear_sel };
		struct phase_run run = { .ctx = &ctx, .asked = asked, .res = res, .t0 = t0, .total = seconds,
					 .json = o->json };

		if (phases & PHASE_TOGETHER)
			run_together(&run, together_s, o->iperf != NULL, &res[burnin_ncomponents]);
		if (phases & PHASE_EACH)
			run_each(&run, seconds - together_s, weights, (phases & PHASE_TOGETHER) != 0);
		run_watchers(&run);
	}
	for (unsigned i = 0; i <= burnin_ncomponents; i++)
		if (res[i].verdict > machine)
			machine = res[i].verdict;
	{
		int none[16] = { 0 };

		push_verdicts(res, asked, none, 0, 1);
	}
	seconds = (now_ns() - t0) / 1e9;
	if (o->json)
		write_json(stdout, res, burnin_ncomponents + 1, machine, &lim, seconds);
	else
		print_text(stdout, res, burnin_ncomponents + 1, machine, wrap_width());
	if (o->output && (save(o->output, "burnin.json", res, burnin_ncomponents + 1, machine, &lim, seconds) ||
			  save(o->output, "burnin.txt", res, burnin_ncomponents + 1, machine, &lim, seconds))) {
		note("burnin: the results could not be written to %s: %s", o->output, strerror(errno));
		return EXIT_FAIL;
	}
	return machine == BURNIN_PASS ? EXIT_OK : machine == BURNIN_INTERRUPTED ? BURNIN_EXIT_INTERRUPTED : EXIT_FAIL;
}

static void limits_help(FILE *f)
{
	fputs("\nComponents (--components, all by default):\n", f);
	for (unsigned i = 0; i < burnin_ncomponents; i++) {
		char lead[32];

		snprintf(lead, sizeof(lead), "  %-8s ", burnin_components[i].name);
		wrap_print(f, lead, burnin_components[i].what, 80);
	}
	fputs("\nLimits (--limits=NAME=VALUE,...; burnin_NAME=VALUE in bootbench.conf), with defaults:\n", f);
	for (unsigned i = 0; i < burnin_nlimits; i++) {
		const struct burnin_limit_row *l = &burnin_limit_rows[i];
		char lead[64];

		snprintf(lead, sizeof(lead), "  %s=%g (%s)", l->name, l->def, l->unit);
		fprintf(f, "%s\n", lead);
		wrap_print(f, "      ", l->why, 80);
	}
}

static const struct arg burnin_args[] = {
	{ .name = "--components", .kind = ARG_STR, .offset = ARG_AT(struct burnin_opts, components),
	  .meta = "C[,C...]", .help = "the components to test, in this order: disks, cpu, memory, net, bmc, pcie [all]" },
	{ .name = "--duration", .kind = ARG_STR, .offset = ARG_AT(struct burnin_opts, duration), .meta = "TIME",
	  .help = "the whole burn-in's time, shared by the components (10m, 24h) [2m a component]" },
	{ .name = "--phases", .kind = ARG_STR, .offset = ARG_AT(struct burnin_opts, phases), .meta = "P[,P]",
	  .help = "together: every component at once, each for the whole time (the worst case of power and\n"
		  "heat); each: one after another, sharing it; together,each: both, half the time each\n"
		  "[together with two components or more]" },
	{ .name = "--limits", .kind = ARG_STR, .offset = ARG_AT(struct burnin_opts, limits),
	  .meta = "NAME=V[,...]", .help = "limits other than the defaults (below)" },
	{ .name = "--destroy", .kind = ARG_STR, .offset = ARG_AT(struct burnin_opts, destroy), .meta = "DEV[,DEV...]",
	  .help = "disks: consent to write these (the burnin profile's passes); the others are read" },
	{ .name = "--iperf", .kind = ARG_STR, .offset = ARG_AT(struct burnin_opts, iperf), .meta = "HOST[:PORT]",
	  .help = "net: the iperf3 server to measure against (bootbench iperf-server on a peer)" },
	{ .name = "--clear-sel", .kind = ARG_FLAG, .offset = ARG_AT(struct burnin_opts, clear_sel),
	  .help = "bmc: consent to save the BMC's event log with the results and clear it before the run" },
	{ .name = "--output", .kind = ARG_STR, .offset = ARG_AT(struct burnin_opts, output), .meta = "DIR",
	  .help = "write burnin.json, burnin.txt and inventory.json there" },
	{ .name = "--json", .kind = ARG_FLAG, .offset = ARG_AT(struct burnin_opts, json),
	  .help = "print the verdicts as JSON" },
	{ .name = "--progress-fd", .kind = ARG_UINT, .offset = ARG_AT(struct burnin_opts, progress_fd), .meta = "N",
	  .help = "write each component's state to file descriptor N (the menu's live screen)", .min = 3, .max = 1023 },
	{ .name = "--check", .kind = ARG_FLAG, .offset = ARG_AT(struct burnin_opts, check),
	  .help = "only check the other flags (the boot parameters' check), run nothing" },
	{ NULL },
};

const struct command burnin_command = {
	.name = "burnin",
	.summary = "burn in the whole server: disks, CPU and heat, memory, NICs, BMC, PCIe links; a verdict each",
	.usage = "[--components=C[,C...]] [--phases=P[,P]] [--duration=TIME] [--limits=NAME=V[,...]] "
		 "[--destroy=DEV[,DEV...]] [--clear-sel] [--iperf=HOST[:PORT]] [--output=DIR] [--progress-fd=N] [--json] "
		 "[--check] [DISK...]",
	.help = "With two components or more, runs them together, each for the whole time (the\n"
		"worst case of power and heat), the machine's load sampled: the together row is an\n"
		"ERROR when every load was not there at once for together_overlap_min of it.\n"
		"--phases=each runs one after another, each for its share; together,each both.\n"
		"Tests each component and gives it a verdict: PASS, FAIL\n"
		"(with the reason and the figures), or ERROR: it could not be tested (no sensor, no\n"
		"program, no answer), which fails closed and is never counted as a pass. The\n"
		"machine's verdict is PASS only when every component asked for passed. A test that\n"
		"stress-ng cannot run on this machine is listed as not run, never as a failure.\n"
		"SIGINT, SIGTERM or SIGHUP stops it: the component running and those after it are\n"
		"INTERRUPTED, and so is the machine unless a component FAILed; the results so far\n"
		"are written. --destroy names only disks the burn-in tests (the DISKs, or with none\n"
		"every disk not in use). BOOTBENCH_SCALE multiplies the time (0.02: seconds).\n",
	.more_help = limits_help,
	.exit_status = "0 PASS, 1 FAIL or ERROR (or the results could not be written), 2 bad input (nothing run), "
		       "130 INTERRUPTED (SIGINT, SIGTERM, SIGHUP; no component FAILed).",
	.args = burnin_args,
	.opts_size = sizeof(struct burnin_opts),
	.run = burnin_main,
};
