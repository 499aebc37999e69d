/* SPDX-License-Identifier: MIT */
/*
 * rack.h - `bootbench fleet`'s rack: the machines a user expects (a CSV
 * naming each by serial or MAC, with its rack position if the user has
 * one), what each reported (its newest run saved on a share, and its live
 * run in Prometheus), and the state that makes of it: passed, failed (with
 * what failed), running, silent since its last push, never seen; and the
 * machines that reported without being listed.
 */
#ifndef BB_RESULTS_RACK_H
#define BB_RESULTS_RACK_H

#include <stdio.h>
#include <time.h>

/*
 * unreadable: its newest run on the share is there but not a result (a
 * file cut short, not JSON, without an exit status): never taken for
 * passed. empty: a position the list names without a machine (an empty U).
 */
enum rack_state { RACK_PASSED, RACK_FAILED, RACK_RUNNING, RACK_SILENT, RACK_NEVER_SEEN, RACK_UNREADABLE, RACK_EMPTY,
		  RACK_STATES };

/* What a machine reported, from the share or from Prometheus. */
struct rack_report {
	int seen;
	char machine[128];	/* bootbench's name for it: the serial, else mac-aabbccddeeff */
	char serial[128];	/* the DMI serial (the share's inventory.json), "" when not known */
	char macs[16][18];	/* its NICs' MACs, aa:bb:cc:dd:ee:ff (the share's inventory.json) */
	unsigned nmacs;
	time_t when;		/* the saved run's end (its start when the end is not said); the last push;
				 * a heartbeat's last beat, by the share's clock */
	int failed;		/* -1 unknown, 0 passed, 1 failed */
	int running;		/* live only: a run or burn-in was going at the last push */
	int passed;		/* live only: something pushed a pass (a disk's run, a component, an erase) */
	char what[256];		/* saved: the run; live: the run's progress */
	char failures[256];	/* what failed: components, targets, levels, or why */
	char where[512];	/* saved: the folder */
	unsigned runs;		/* saved: how many runs of it the share has */
	/* saved: the run's identity, its folder's name (start time, machine, run id): a newer run supersedes */
	char run[128];
	time_t started, ended;	/* saved: from the folder's name and status.json's "ended" (0: not said) */
	int unreadable;		/* saved: a file of it is not a result; failures says which and why */
	int heartbeat;		/* saved: only its heartbeat on the share, the run still going (or dead) */
	double shared_at;	/* saved: by the share's clock, when it arrived (a heartbeat: its last beat), s */
	int clock_unset;	/* saved: status.json says the clock was not set (clock.set false): its times say nothing */
};

/*
 * The newest saved run of one kind (status.json's "run": burnin, erase,
 * quick...): a newer run of another kind (an erase after a failed
 * burn-in) does not make its verdict go away.
 */
struct rack_kind {
	char kind[32];
	char run[128];
	time_t started, ended;
	double shared_at;
	int failed;		/* -1 no verdict (unreadable), 0 passed, 1 failed */
	char failures[256];
	char where[512];
};

struct rack_machine {
	unsigned line;		/* its line in the CSV; 0: reported but not listed */
	char serial[128], mac[18], position[64];	/* as listed ("" when not given) */
	char key[128], mac_key[20];	/* sys/ident.h's keys of the serial (else MAC) and of the MAC */
	char alias_key[128];	/* listed by MAC: its serial's key, from a saved run's inventory ("" till then) */
	unsigned twice;		/* listed by MAC on this line and by serial on line TWICE too (0: no) */
	char claimed_too[128];	/* listed by MAC: another machine that has the MAC too ("" none) */
	/* the last saved run that did not pass to arrive on the share (by its clock) */
	double bad_arrived_at;
	char bad_arrived_run[128];
	/* a saved run made with its clock not set: no time of it orders it among the machine's other runs */
	char clock_unset_run[128];
	struct rack_report saved, live;
	struct rack_kind *kinds;	/* each kind's newest saved run */
	unsigned nkinds;
	/* its saved runs' times and NICs: two that overlap with no NIC in common are two boards' */
	struct rack_span {
		time_t started, ended;
		char run[128];
		char macs[16][18];
		unsigned nmacs;
	} *spans;
	unsigned nspans;
	char two_boards[300];	/* "" or the two runs that ran at once on boards with no NIC in common */
	enum rack_state state;
	char detail[1280];
};

struct rack {
	struct rack_machine *m;
	unsigned n, cap;
	unsigned listed;	/* the first LISTED are the CSV's, in its order */
	unsigned bad;		/* result folders that could not be read (each said on ERRS) */
	unsigned empty;		/* positions listed without a machine */
	time_t since;		/* runs that started before it are left out (--since: a campaign); 0: none */
	unsigned before_since;	/* how many were */
	unsigned *hash, hcap, hn;	/* the machines by key: index * 3 + 1 (serial key), + 2 (MAC key), + 3 (alias) */
	FILE *errs;		/* where rack_read_saved says what is wrong */
	struct rack_report *late;	/* runs --since left out that did not pass: their arrival still weighed */
	unsigned nlate;
};

/*
 * Reads the CSV at PATH: a header naming its columns (serial, mac,
 * position; others are kept out), then a machine a line. Each bad line is
 * said on ERRS with its number; returns how many there were, -1 with
 * bb_err when PATH cannot be read.
 */
int rack_read_csv(struct rack *r, const char *path, FILE *errs);
/*
 * Adds the runs saved under PATH (a share's folder of result folders,
 * searched recursively, no link followed): each folder's status.json,
 * burnin.json and inventory.json, and the heartbeats of runs going
 * (NAME.heartbeat.json). A folder that cannot be read, a link, a folder
 * deeper than the walk goes, is said on ERRS and counted in r->bad (the
 * machine its name says is unreadable); a run whose MANIFEST.sha256 lists
 * a file it lacks is unreadable (a copy cut short). -1 with bb_err when
 * PATH cannot be read.
 */
int rack_read_saved(struct rack *r, const char *path, FILE *errs);
/*
 * Adds the live state from Prometheus' HTTP API at URL (bootbench's
 * series, scraped from the Pushgateway). -1 with bb_err when Prometheus
 * cannot be asked or does not answer as its API does.
 */
int rack_read_live(struct rack *r, const char *url);
/* Each machine's state at NOW: live runs silent for more than SILENT_AFTER seconds are silent. */
void rack_judge(struct rack *r, time_t now, unsigned silent_after);
const char *rack_state_name(enum rack_state s);
void rack_free(struct rack *r);

#endif
