/* SPDX-License-Identifier: MIT */
/*
 * burnin.h - the whole server's burn-in: each component (cpu, memory, ...)
 * is an ops struct that tests its part for its share of the time and
 * comes back with a verdict, the reason and the figures. A component that
 * could not test (no sensor, no program, no answer) is an ERROR: it fails
 * closed, never a PASS. The limits every verdict is measured against are
 * one table (limits.c), each with its default and where that comes from.
 */
#ifndef BB_BURNIN_H
#define BB_BURNIN_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum burnin_verdict {
	BURNIN_SKIPPED,		/* not asked for */
	BURNIN_PASS,
	BURNIN_ERROR,		/* could not test: why is the reason */
	BURNIN_INTERRUPTED,	/* stopped (SIGINT, SIGTERM, SIGHUP) before its time was up */
	BURNIN_FAIL,		/* over everything: a failure found stands, interrupted or not */
};

/* The exit status of a burn-in stopped by a signal (128 + SIGINT, as a
 * shell gives), its results written: INTERRUPTED, neither PASS nor FAIL. */
#define BURNIN_EXIT_INTERRUPTED 130

/* room for three figures of each of the disks component's 64 disks */
#define BURNIN_FIGURES 256

struct burnin_figure {
	char name[48];		/* "temp_max_c", "throttle_events" */
	/* the device it is about ("/dev/sda"), "" for the component's own: a
	 * name is unique per device, so several disks' "pass" never collide
	 * (burnin.json's "devices" array, the Pushgateway's device label) */
	char device[64];
	char text[192];		/* as printed: "71 C (Package id 0)" */
	double value;		/* the number, for JSON and the Pushgateway */
	int numeric;
};

struct burnin_result {
	const char *component;
	enum burnin_verdict verdict;
	char reason[2048];	/* every FAIL's words (else every ERROR's); PASS: what was tested */
	char notes[1024];	/* what was not run, and why (never a failure) */
	struct burnin_figure fig[BURNIN_FIGURES];
	unsigned nfig;
	double seconds;
	/* when it ran, seconds from the burn-in's start: [BURNIN_TOGETHER] with
	 * the others, [BURNIN_ALONE] by itself; both 0 where it did not */
	double ran_from[2], ran_to[2];
};
enum { BURNIN_TOGETHER, BURNIN_ALONE };

/* The limits (burnin_* in bootbench.conf, --limits=NAME=VALUE,...). */
struct burnin_limits {
	double cpu_temp_max;		/* C */
	double cpu_need_sensors;	/* 1: no sensor is an ERROR */
	double cpu_need_all;		/* 1: fewer CPUs to run on than on line is an ERROR */
	double cpu_freq_min;		/* reached / base under load */
	double memory_fraction;		/* of the available memory */
	double memory_ce_max;		/* corrected errors per DIMM */
	double memory_need_edac;	/* 1: no EDAC is an ERROR */
	double memory_loops;		/* memtester's patterns, this many times */
	double net_ratio;		/* iperf3's bar: this share of the link's speed */
	double net_min_mbps;		/* or this, when given */
	double disks_need_selftest;	/* 1: a drive without a self-test is an ERROR */
	double together_overlap_min;	/* of the together phase with every load at once */
	double pcie_ce_max;		/* corrected PCIe errors per device */
	double pcie_need_aer;		/* 1: no AER counters is an ERROR */
};

struct burnin_ctx {
	double seconds;			/* this component's share of the time */
	const struct burnin_limits *lim;
	const char *outdir;		/* the run's folder: a component's own logs go there */
	const char *phase_suffix;	/* after those logs' names: "" together, "-alone" in the each phase after it */
	unsigned cpus;
	const char *iperf;		/* the iperf3 server, HOST[:PORT], or NULL */
	const char *destroy;		/* the disks that may be written (consent), or NULL */
	char **disks;			/* the disks named, or none: every disk not in use */
	unsigned ndisks;
	int clear_sel;			/* bmc: consent to save the event log and clear it before the run */
};

struct burnin_component {
	const char *name;
	const char *what;		/* the help's line */
	double weight;			/* its share of --duration (0: it watches the others) */
	/* NULL, or what it reads before any component runs (the BMC's log) */
	void (*begin)(const struct burnin_ctx *c, struct burnin_result *r);
	void (*run)(const struct burnin_ctx *c, struct burnin_result *r);
};

/*
 * Whether --destroy (DESTROY, comma separated) names only disks this burn-in
 * tests: DISKS when named, else every disk the disks component would pick;
 * DISKS_ASKED: the disks component is asked for. A consent that names no
 * disk tested would be ignored, and the disk only read: -1 with bb_err.
 */
int burnin_destroy_check(const char *destroy, int disks_asked, char **disks, unsigned ndisks);

/*
 * The disks component's plan, before anything runs (C's seconds: its share
 * of the time): each disk consented to is measured (a verified write of its
 * first blocks, timed) and its passes sized to its share, never more. When
 * a minimal pass cannot fit: -1 with bb_err saying how long a burn-in
 * would need (PER_SECOND: the --duration a second of C's time takes).
 */
int burnin_disks_plan(const struct burnin_ctx *c, double per_second);

/* The components, a file each (disks.c, cpu.c, memory.c, net.c, bmc.c, pcie.c). */
void burnin_disks(const struct burnin_ctx *c, struct burnin_result *r);
void burnin_cpu(const struct burnin_ctx *c, struct burnin_result *r);
void burnin_memory(const struct burnin_ctx *c, struct burnin_result *r);
void burnin_net(const struct burnin_ctx *c, struct burnin_result *r);
void burnin_bmc_begin(const struct burnin_ctx *c, struct burnin_result *r);
void burnin_bmc(const struct burnin_ctx *c, struct burnin_result *r);
void burnin_pcie_begin(const struct burnin_ctx *c, struct burnin_result *r);
void burnin_pcie(const struct burnin_ctx *c, struct burnin_result *r);
/* The memory's error counters (EDAC) watched from here on, once: the first
 * component that loads the machine calls it with its name, so a memory
 * error logged while it runs is judged by the memory component, not blamed
 * on the one running. */
void burnin_memory_watch(const char *since);

extern const struct burnin_component burnin_components[];
extern const unsigned burnin_ncomponents;
/* The component called NAME, NULL if none. */
const struct burnin_component *burnin_component(const char *name);

/* Set by the command's SIGINT/SIGTERM/SIGHUP handler: a component stops
 * soon and keeps what it measured. */
extern volatile sig_atomic_t burnin_stop;

/* A verdict's word: PASS, FAIL, ERROR, INTERRUPTED, SKIPPED. */
const char *burnin_verdict_name(enum burnin_verdict v);
/* The verdict of R made worse by V (FAIL over INTERRUPTED over ERROR over
 * PASS): its words replace a lesser kind's reason and are added to the
 * same kind's. */
void burnin_set(struct burnin_result *r, enum burnin_verdict v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A note (not run, and why) appended to R's notes. */
void burnin_note(struct burnin_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A figure: NAME, its VALUE, and its text (FMT). */
void burnin_figure(struct burnin_result *r, const char *name, double value, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A figure of one DEVICE the component tests (a disk), kept apart from the
 * same NAME of the others. */
void burnin_device_figure(struct burnin_result *r, const char *device, const char *name, double value,
			  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* The limits table: defaults, ranges and reasons; --limits parsing. */
struct burnin_limit_row {
	const char *name;		/* as in bootbench.conf after "burnin_" */
	size_t offset;			/* in struct burnin_limits */
	double def, min, max;
	const char *unit;
	const char *why;		/* the default's source */
};
extern const struct burnin_limit_row burnin_limit_rows[];
extern const unsigned burnin_nlimits;
void burnin_limits_default(struct burnin_limits *l);
/* "NAME=VALUE[,NAME=VALUE]": -1 with bb_err naming what is wrong. */
int burnin_limits_parse(struct burnin_limits *l, const char *list);

/* --- loads at once: a component or a disk's pass in a process of its own (together.c) --- */

/* What runs in the process: ARG as given, its result in R, EXTRA for a caller's counts. */
typedef void (*burnin_child_fn)(const void *arg, struct burnin_result *r, int extra[4]);
struct burnin_shared;
struct burnin_child {
	char what[64];			/* "memory", "/dev/nvme0n1": named in an ERROR */
	pid_t pid;
	int running, signalled, killed, overran;
	uint64_t start_ns, signalled_ns, killed_ns;
	double overran_s;
	struct burnin_shared *sh;	/* its result as it writes it */
	struct burnin_result *into;	/* where it is copied when it ended */
	int extra[4];
	uint64_t from_ns, to_ns;	/* when FN began and returned (now_ns) */
};
/* FN(ARG) started in a process that dies with this one; its result goes to
 * INTO when it ends. -1 with bb_err when no process could be made. */
int burnin_child_start(struct burnin_child *ch, const char *what, burnin_child_fn fn, const void *arg,
		       struct burnin_result *into);
/* 1 when CH has ended (its result in INTO: an ERROR if it died before its
 * verdict), 0 while it runs; BLOCK waits for it. A stopped burn-in
 * (burnin_stop) sends it SIGTERM, once. */
int burnin_child_poll(struct burnin_child *ch, int block);
/* A process still running well past its time's END_NS (0: none; now_ns),
 * or the burn-in stopped: SIGTERM, 30 s later SIGKILL, 30 s later left
 * behind (hung in the kernel) with an ERROR; call it with each poll. */
void burnin_child_watch(struct burnin_child *ch, uint64_t end_ns);
/* The grace past its time before a component or a disk is stopped (with an
 * ERROR): a quarter of its time, two minutes at least. */
#define BURNIN_OVERRUN_S 120
#define BURNIN_OVERRUN_SHARE 0.25
/* FROM's verdict, notes and figures added to INTO's: LABEL before its words
 * ("alone: "), SUFFIX after its figures' names ("_alone"). */
void burnin_merge(struct burnin_result *into, const struct burnin_result *from, const char *label,
		  const char *suffix);

/* --- the machine's load while the components run together (load.c) --- */

#define BURNIN_LOAD_SAMPLES 600
#define BURNIN_LOAD_CPU 1u
#define BURNIN_LOAD_MEMORY 2u
#define BURNIN_LOAD_DISKS 4u
#define BURNIN_LOAD_NET 8u
#define BURNIN_LOAD_CPU_BUSY 90.0	/* % of the time of the CPUs it may run on: the cpu stressors run */
#define BURNIN_LOAD_MOVING_MBS 1.0	/* MB/s: the disks or the network carry a load */

#define BURNIN_LOADS 4			/* the BURNIN_LOAD_* bits */
#define BURNIN_LOAD_CPUS 1024		/* CPU_SETSIZE: CPUs counted by number; one more slot for the machine's line */

struct burnin_load_sample {
	double t, seconds;		/* its end, from the phase's start; the time it covers */
	double cpu_busy_pct, mem_used_mib, disk_mbs, net_mbs;
	unsigned running;		/* BURNIN_LOAD_*: the components running at its end */
	unsigned live;			/* BURNIN_LOAD_*: the components with a process not stopped */
	unsigned cpus_counted;		/* the CPUs whose busy share it is */
	int all;			/* every load asked for was there, its component running */
};
struct burnin_load {
	unsigned needs;			/* BURNIN_LOAD_*: the loads asked for */
	double mem_need_mib;		/* MiB the memory component's processes hold as their own that count as loaded */
	double every;			/* seconds between samples kept */
	uint64_t t0_ns, t_ns;
	pid_t pid[BURNIN_LOADS];	/* each load's component process (0: not started) */
	/* at the last reading: */
	unsigned long long ticks[BURNIN_LOADS];	/* CPU time of each component's processes */
	unsigned live;
	double mem_mib;
	unsigned cpus_counted, cpus_online;
	unsigned long long cpu_busy_of[BURNIN_LOAD_CPUS + 1], cpu_total_of[BURNIN_LOAD_CPUS + 1];
	unsigned char cpu_counted[BURNIN_LOAD_CPUS + 1];
	unsigned long long disk_sectors, net_bytes;
	struct burnin_load_sample s[BURNIN_LOAD_SAMPLES];
	unsigned n;
	double overlap_s, sampled_s;	/* time with every load there; time sampled */
};
/* The CPUs on line (/proc/stat's cpuN lines: the kernel lists those only); 0 if not known. */
unsigned burnin_cpus_on_line(void);
/* The phase of SECONDS begins: NEEDS, and MEM_NEED_MIB held by the memory component's processes. */
void burnin_load_start(struct burnin_load *l, double seconds, unsigned needs, double mem_need_mib);
/* LOAD's (a BURNIN_LOAD_* bit) component runs in process PID: its processes are what LOAD counts. */
void burnin_load_component(struct burnin_load *l, unsigned load, pid_t pid);
/* A sample, when one is due (call it every second or so); RUNNING: the
 * loads (BURNIN_LOAD_*) whose components still run. */
void burnin_load_sample(struct burnin_load *l, unsigned running);
/* Whether sample S had LOAD (a BURNIN_LOAD_* bit): its component running, a process of it not
 * stopped, and its measure over the bar. */
int burnin_load_there(const struct burnin_load *l, const struct burnin_load_sample *s, unsigned load);

#endif
