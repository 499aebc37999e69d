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
};

/* The limits (burnin_* in bootbench.conf, --limits=NAME=VALUE,...). */
struct burnin_limits {
	double cpu_temp_max;		/* C */
	double cpu_need_sensors;	/* 1: no sensor is an ERROR */
	double cpu_freq_min;		/* reached / base under load */
	double memory_fraction;		/* of the available memory */
	double memory_ce_max;		/* corrected errors per DIMM */
	double memory_need_edac;	/* 1: no EDAC is an ERROR */
	double memory_loops;		/* memtester's patterns, this many times */
	double net_ratio;		/* iperf3's bar: this share of the link's speed */
	double net_min_mbps;		/* or this, when given */
	double disks_need_selftest;	/* 1: a drive without a self-test is an ERROR */
};

struct burnin_ctx {
	double seconds;			/* this component's share of the time */
	const struct burnin_limits *lim;
	const char *outdir;		/* the run's folder: a component's own logs go there */
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

/* The components, a file each (disks.c, cpu.c, memory.c, net.c, bmc.c). */
void burnin_disks(const struct burnin_ctx *c, struct burnin_result *r);
void burnin_cpu(const struct burnin_ctx *c, struct burnin_result *r);
void burnin_memory(const struct burnin_ctx *c, struct burnin_result *r);
void burnin_net(const struct burnin_ctx *c, struct burnin_result *r);
void burnin_bmc_begin(const struct burnin_ctx *c, struct burnin_result *r);
void burnin_bmc(const struct burnin_ctx *c, struct burnin_result *r);
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

#endif
