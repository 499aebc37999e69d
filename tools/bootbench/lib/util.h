/* SPDX-License-Identifier: MIT */
/* util.h - small helpers shared by every unit: errors, time, memory, files. */
#ifndef BB_UTIL_H
#define BB_UTIL_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define BB_NAME "bootbench"
#define BB_VERSION "0.1.0"

/* The exit-code contract, the same for every subcommand. */
enum {
	EXIT_OK = 0,	/* done, and the measured thing behaved */
	EXIT_FAIL = 1,	/* I/O error, failed check, or an interrupted run */
	EXIT_USAGE = 2,	/* bad input: nothing was written */
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The last error a parser or checker saw, printed by the caller as one
 * line. One per thread: a worker's engine setup and the main thread's
 * checks each write their own (a worker hands its message on in its
 * statistics, job/worker.h), never each other's.
 */
extern __thread char bb_err[512];
int set_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void die_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	/* vDSO: no system call, so it is fine on the hot path */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

void sleep_ns(uint64_t ns);

/* Unmounts MNT, retrying for up to 5 s while it is busy (a program that used
 * it may still be letting go), then detaching it; -1 with errno if neither. */
int unmount_patiently(const char *mnt);

/*
 * The exit status when memory runs out in xcalloc, xrealloc or xstrdup
 * (EXIT_FAIL unless set): a command whose 1 says something else (fleet:
 * a machine failed) sets its own.
 */
extern int oom_exit_status;
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);

/* Writes a whole file through a temporary name, fsync and rename. */
int write_file_atomic(const char *path, const void *buf, size_t len);

/* Reads a small sysfs/proc attribute, trailing newline and blanks removed. */
int read_attr(const char *path, char *buf, size_t len);
/*
 * Opens PATH read-only past the page cache (O_DIRECT), for on-disk metadata
 * a kernel driver wrote past it (md superblocks, ZFS labels); through the
 * cache where O_DIRECT is refused (a file on tmpfs). -1 with errno.
 */
int open_uncached(const char *path);
/*
 * Opens a name read from outside (a job's file) following no link on the
 * way: openat2 with RESOLVE_NO_SYMLINKS and RESOLVE_NO_MAGICLINKS (a
 * /proc/self/fd/N is a magic link); O_NOFOLLOW for the last part where the
 * kernel has no openat2. -1 with errno (ELOOP: a link was on the way).
 */
int open_nolinks(const char *path, int flags, mode_t mode);
/*
 * Runs a program (searched in PATH) and waits for it: INPUT (may be NULL)
 * on its stdin, its stdout and stderr together into OUT (the last OUTLEN-1
 * bytes, trailing newlines removed). IGNORE_INT: Ctrl-C does not stop it (a
 * teardown step must finish). Returns its exit status, 128+signal, 127 when
 * it could not be run, -1 when no process could be made. Unless IGNORE_INT,
 * it gets SIGTERM if the caller dies first.
 */
int spawn(char *const argv[], const char *input, int ignore_int, char *out, size_t outlen);
/*
 * Runs a program (PATH) quietly for up to SECONDS: stopped with SIGTERM
 * (its process group: a program's workers too) when its time is up or
 * *STOP (may be NULL) is set, SIGKILL 10 s later. Ctrl-C is for the caller
 * (it sets *STOP). Its output's end in OUT; its exit status, 128+signal,
 * 127 when it is not there, -1 when it could not start; *STOPPED is 1 when
 * it was stopped by us. It gets SIGTERM if the caller dies first (even
 * by SIGKILL): nothing it runs outlives bootbench.
 */
int spawn_for(char *const argv[], double seconds, const volatile sig_atomic_t *stop, char *out, size_t outlen,
	      int *stopped);
/* Human figures, 3 significant digits: 1.5GiB (base 1024), 2.3M (base 1000). */
const char *fmt_iec(double bytes, char *buf, size_t len);
const char *fmt_si(double v, char *buf, size_t len);

/*
 * BOOTBENCH_SCALE=F multiplies every job's runtime, ramp time, and absolute
 * size and offset (sizes kept whole MiB), and a burn-in's time, by F, so
 * that tests, and a user who wants a first look, run in seconds. *F is 1
 * when it is not set; -1 with bb_err when it is not a number above 0.
 */
int scale_factor(double *f);

/* FMT appended to BUF's text (LEN in all), cut where it does not fit. */
void str_appendf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * Text from outside (a device's identity, firmware's strings, a share's
 * files) made fit for a terminal, in place: printable ASCII, every other
 * byte '?' (a control moves the cursor; a byte over 0x7e may start a C1
 * control, and its width in columns is not its width in bytes).
 */
void printable_ascii(char *s);

/* S as one CSV field (RFC 4180): quoted, its quotes doubled. */
void csv_quote(FILE *f, const char *s);

#endif
