/* SPDX-License-Identifier: MIT */
/*
 * load.h - result files read back, for `bootbench report` and `bootbench
 * compare`: the one reader of saved JSON (jansson, decision 5), and the
 * figures of each test on each disk taken from fio's JSON, ours (with its
 * "bootbench" part: the disk's and the machine's identity) or fio's own
 * (run elsewhere: identity from its hostname and filename).
 */
#ifndef BB_RESULTS_LOAD_H
#define BB_RESULTS_LOAD_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

/* A disk as results name it. */
struct rs_disk {
	char machine[128];	/* DMI serial, else the first MAC, else fio's hostname or the folder */
	char serial[128];
	char model[128];
	char firmware[64];
	char slot[128];		/* the path it was measured through: /dev/nvme0n1 */
	uint64_t size;
};

/* One test (a job and a direction) on one disk, from one file. */
struct rs_figure {
	char test[160];		/* "JOBNAME read" */
	struct rs_disk disk;
	double iops, bw_bytes;
	double clat_p50_ns, clat_p99_ns;	/* completion latency, 0 when not recorded */
	double sync_p50_ns, sync_p99_ns;	/* fsync/fdatasync latency, 0 when the job did not sync */
	char file[512];
	double when;		/* the run's start (fio's "timestamp"), 0 when not said: the newest run of a disk counts */
};

/* One level's (or ZFS pool's) result of one test in a raid.json, relative to one disk. */
struct rs_level {
	char test[160];		/* "TEST DIR", as rs_figure's */
	char level[64];		/* raid10-n2, zfs-raidz2/6 */
	char machine[128];
	double vs_baseline;	/* bandwidth relative to the median single disk; 0 when not measured */
	double clat_p99_ns;
	int failed;		/* the level's status was not 0 */
	char file[512];
};

struct rs_set {
	struct rs_figure *fig;
	unsigned n, cap;
	struct rs_level *lv;	/* from raid.json files */
	unsigned nlv, lvcap;
	unsigned files;		/* result files read */
	unsigned bad;		/* files refused (each said in one line) */
};

/* The largest result file read: larger ones are no result (a real one is a few MiB at most). */
#define RS_FILE_MAX (64 << 20)

/*
 * Reads a JSON file whole; NULL with bb_err naming the file and what is
 * wrong (not there, not JSON, cut short: jansson's line and column,
 * larger than RS_FILE_MAX).
 */
json_t *rs_read_json(const char *path);

/* The string (or number, as text) at a dotted PATH under OBJ ("a.b.c"), "" when absent. */
const char *rs_str(json_t *obj, const char *path, char *buf, size_t len);
/* The number at a dotted PATH, 0 when absent. */
double rs_num(json_t *obj, const char *path);

/* The value at percentile P of a latency object (fio's "percentile": {"99.000000": ns}), 0 when absent. */
double rs_percentile(json_t *lat, double p);

/* fio's JSON (ours or fio's own): 1 when J is one. */
int rs_is_fio(json_t *j);

/*
 * Adds the figures of every result file under PATH (a JSON file, or a
 * folder searched recursively: fio's JSON, ours) to SET, and the levels of
 * each raid.json; sysinfo.json and disks.json are known and only name
 * disks. A file
 * that is not JSON, cut short, or JSON of another kind, and a folder that
 * cannot be read, is said in one line on ERRS and counted in set->bad; the others are still read. -1 with
 * bb_err when PATH itself cannot be read.
 */
int rs_load_path(struct rs_set *set, const char *path, FILE *errs);
/*
 * Calls EACH with every .json file under PATH (a file, or a folder searched
 * recursively in name order, 16 deep, no link followed, no .NAME; a folder
 * deeper is said to rs_walk_all's UNREADABLE). -1 with
 * bb_err when PATH itself cannot be read.
 */
int rs_walk(const char *path, void (*each)(const char *file, void *arg), void *arg);
/*
 * rs_walk, and UNREADABLE (when not NULL) called with each folder or entry
 * below PATH that cannot be read, and why. A folder of many folders (a
 * share) is read ahead by threads: each subfolder listed and the files
 * named in PREFETCH (NULL: every .json) read, so that a cold cache has many
 * reads in flight, not one.
 */
int rs_walk_all(const char *path, void (*each)(const char *file, void *arg),
		void (*unreadable)(const char *dir, const char *why, void *arg), const char *const *prefetch,
		void *arg);
/*
 * rs_walk_all over a share, whose every part must be accounted for: each
 * link below PATH is said to UNREADABLE too (a run folder linked there is
 * never followed, and never passed over in silence), and each entry named
 * in NAMED (NULL: none) given to EACH whatever it is, a .json or not, a
 * regular file or not (a FIFO, a folder): its folder is a run's.
 */
#define RS_LINK_WHY "a link (no link is followed)"
int rs_walk_share(const char *path, void (*each)(const char *file, void *arg),
		  void (*unreadable)(const char *dir, const char *why, void *arg), const char *const *prefetch,
		  const char *const *named, void *arg);
void rs_free(struct rs_set *set);

#endif
