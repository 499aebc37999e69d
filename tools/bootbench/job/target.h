/* SPDX-License-Identifier: MIT */
/*
 * target.h - the files and block devices a run reads and writes. Checking
 * (stat, sizes, consent) has no side effects, so bad input leaves every disk
 * as it was; only then are files created and devices opened for I/O.
 * A block device that is written is claimed with O_EXCL for the whole run:
 * the kernel then refuses it if it is mounted or a md/dm/swap member.
 */
#ifndef BB_TARGET_H
#define BB_TARGET_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

struct target {
	char *path;
	int is_blk;
	int exists;
	int used;		/* some job does real I/O on it (not the null engine) */
	int written;		/* some job writes it */
	int needs_data;		/* some job reads it: a new file gets real data */
	int unlink;		/* some job asked to remove it at the end */
	int on_open;		/* create when its first job starts */
	int falloc;		/* enum falloc_mode of the job that creates it */
	uint64_t size;		/* file or device size, 0 for a new file */
	uint64_t need_end;	/* highest byte any job touches */
	unsigned lbs;		/* logical block size: direct I/O alignment */
	dev_t rdev;		/* block devices: the device */
	dev_t st_dev;		/* files: the device holding them */
	int claim_fd;		/* O_EXCL hold on a written block device */
	char *dev_path;		/* what the gate checks and claims: path, or an NVMe generic char
				   device's namespace (/dev/ng0n1 -> /dev/nvme0n1) */
	int nvme_chr;		/* path is an NVMe generic char device (io_uring_cmd) */
	unsigned nsid;		/* its namespace id */
	int created;
	int prepared;
	pthread_mutex_t lock;
};

struct target *target_get(const char *path);
/* All known targets, for reports and clean-up. */
struct target **target_list(unsigned *n);

/* Looks at a path without changing anything; -1 with bb_err on bad input. */
int target_inspect(struct target *t);
/* Claims a written block device through the consent gate (O_EXCL, the same device as inspected). */
int target_claim(struct target *t);
/* Opens a target for I/O: a claimed device through its claim, so the device
 * written is the one consent was given for. -1 with errno. */
int target_open(struct target *t, int flags);
/* Lets go of every claim (a run refused after some claims). */
void target_release_all(void);
/* Forgets every target, for the next run in the same process. */
void targets_forget(void);
/* Creates and lays out a new file once; thread-safe. */
int target_prepare(struct target *t);
/* Removes files the run created when a job asked to. */
void target_cleanup_all(void);
/* fallocate()/BLKDISCARD for trims. */
int target_trim(int fd, int is_blk, uint64_t off, uint64_t len);

#endif
