// SPDX-License-Identifier: MIT
/* util.c - error reporting, sleeping, checked allocation, atomic file writes,
 * running a helper program. */
#include "lib/packs.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <linux/openat2.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

__thread char bb_err[512];

int set_err(const char *fmt, ...)
{
	char line[sizeof(bb_err)];
	va_list ap;

	/* formatted apart, then copied: a caller may hand bb_err itself as an argument */
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	memcpy(bb_err, line, sizeof(bb_err));
	return -1;
}

static void vmessage(const char *fmt, va_list ap)
{
	fputs(BB_NAME ": ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void die_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
	exit(EXIT_USAGE);
}

void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
}

void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000ull, .tv_nsec = ns % 1000000000ull };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int unmount_patiently(const char *mnt)
{
	int i;

	for (i = 0; i < 50; i++) {
		if (!umount2(mnt, 0))
			return 0;
		if (errno != EBUSY)
			break;
		sleep_ns(100000000);
	}
	return umount2(mnt, MNT_DETACH);
}

int oom_exit_status = EXIT_FAIL;

static void out_of_memory(void)
{
	fputs(BB_NAME ": out of memory\n", stderr);
	exit(oom_exit_status);
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		out_of_memory();
	return p;
}

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		out_of_memory();
	return d;
}

int write_file_atomic(const char *path, const void *buf, size_t len)
{
	char tmp[4096], dir[4096];
	const char *p = buf;
	int fd, dfd;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()) >= (int)sizeof(tmp))
		return set_err("output path too long: %s", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);	/* consent: a new regular file */
	if (fd < 0)
		return set_err("cannot create %s: %s", tmp, strerror(errno));
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto out_unlink;
		p += n;
		len -= n;
	}
	if (fsync(fd) < 0)
		goto out_unlink;
	if (close(fd) < 0) {
		fd = -1;
		goto out_unlink;
	}
	if (rename(tmp, path) < 0) {
		fd = -1;
		goto out_unlink;
	}
	/* the rename itself is only durable once the directory is synced */
	snprintf(dir, sizeof(dir), "%s", path);
	dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;

out_unlink:
	set_err("cannot write %s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	return -1;
}

int read_attr(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	buf[0] = 0;
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return 0;
}

/* 3 significant figures with a unit prefix: base 1024 (KiB, MiB) or 1000 (k, M) */
static const char *scaled(double v, double base, const char *const *units, unsigned nunits, char *buf,
			  size_t len)
{
	unsigned u = 0;

	while (v >= base * 9.995 && u + 1 < nunits) {
		v /= base;
		u++;
	}
	if (u && v >= 1000 && u + 1 < nunits) {
		v /= base;
		u++;
	}
	snprintf(buf, len, u ? (v < 100 ? "%.1f%s" : "%.0f%s") : "%.0f%s", v, units[u]);
	return buf;
}

const char *fmt_iec(double bytes, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };

	return scaled(bytes, 1024, units, ARRAY_SIZE(units), buf, len);
}

const char *fmt_si(double v, char *buf, size_t len)
{
	static const char *const units[] = { "", "k", "M", "G", "T" };

	return scaled(v, 1000, units, ARRAY_SIZE(units), buf, len);
}

/* Keeps the last OUTLEN-1 bytes of what the program wrote. */
static void keep(char *out, size_t outlen, size_t *used, const char *buf, size_t n)
{
	if (!out || outlen < 2)
		return;
	if (n >= outlen - 1) {
		buf += n - (outlen - 1);
		n = outlen - 1;
		*used = 0;
	} else if (*used + n > outlen - 1) {
		size_t drop = *used + n - (outlen - 1);

		memmove(out, out + drop, *used - drop);
		*used -= drop;
	}
	memcpy(out + *used, buf, n);
	*used += n;
	out[*used] = 0;
}

/* In the child: the program, or why it could not run (a pack's program: which pack) and 127. Each
 * caller of spawn() and spawn_for() says on its line why its program writes no disk, or gates it. */
static void __attribute__((noreturn)) exec_child(char *const argv[])
{
	char why[256];

	execvp(argv[0], argv);
	if (errno == ENOENT && pack_missing_note(argv[0], why, sizeof(why)))
		dprintf(STDERR_FILENO, "cannot run %s: %s", argv[0], why);
	else
		dprintf(STDERR_FILENO, "cannot run %s: %s", argv[0], strerror(errno));
	_exit(127);
}

/* In the child: SIGTERM when PARENT (the caller, which waits for it in the
 * thread that forked it) dies, even by SIGKILL: no program bootbench runs
 * outlives it, writing a disk or loading the CPUs for no one. */
static void die_with(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)	/* it died before the line above */
		_exit(128 + SIGTERM);
}

int spawn(char *const argv[], const char *input, int ignore_int, char *out, size_t outlen)
{
	pid_t parent = getpid();
	int in[2] = { -1, -1 }, res[2], status;
	size_t used = 0;
	pid_t pid;
	ssize_t n;

	if (out && outlen)
		out[0] = 0;
	/* close-on-exec: the program keeps only the ends dup2() gives it, so its
	 * stdin ends when we close ours, and no other child inherits them */
	if (pipe2(res, O_CLOEXEC))
		return -1;
	if (input && pipe2(in, O_CLOEXEC))
		goto out_close_res;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		goto out_close_in;
	if (!pid) {
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

		/* a teardown step (ignore_int) finishes even without us */
		if (ignore_int)
			signal(SIGINT, SIG_IGN);
		else
			die_with(parent);
		dup2(input ? in[0] : null, STDIN_FILENO);
		dup2(res[1], STDOUT_FILENO);
		dup2(res[1], STDERR_FILENO);
		exec_child(argv);
	}
	close(res[1]);
	if (input) {
		/* a program that exits without reading its input must not kill us */
		signal(SIGPIPE, SIG_IGN);
		close(in[0]);
		for (size_t len = strlen(input); len;) {
			n = write(in[1], input, len);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			input += n;
			len -= (size_t)n;
		}
		close(in[1]);
	}
	for (;;) {
		char buf[512];

		n = read(res[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		keep(out, outlen, &used, buf, (size_t)n);	/* the tail: the last lines say what went wrong */
	}
	close(res[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (out)
		while (used && (out[used - 1] == '\n' || out[used - 1] == ' '))
			out[--used] = 0;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
out_close_in:
	if (input) {
		close(in[0]);
		close(in[1]);
	}
out_close_res:
	close(res[0]);
	close(res[1]);
	return -1;
}

int spawn_for(char *const argv[], double seconds, const volatile sig_atomic_t *stop, char *out, size_t outlen,
	      int *stopped)
{
	uint64_t deadline = now_ns() + (uint64_t)(seconds * 1e9), kill_at = 0;
	int res[2], status = 0, open_pipe = 1;
	size_t used = 0;
	pid_t pid, parent = getpid();

	*stopped = 0;
	if (out && outlen)
		out[0] = 0;
	if (pipe2(res, O_CLOEXEC))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(res[0]);
		close(res[1]);
		return -1;
	}
	if (!pid) {
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

		/* its own process group: a stop reaches its workers too */
		setpgid(0, 0);
		signal(SIGINT, SIG_IGN);
		die_with(parent);
		dup2(null, STDIN_FILENO);
		dup2(res[1], STDOUT_FILENO);
		dup2(res[1], STDERR_FILENO);
		exec_child(argv);
	}
	setpgid(pid, pid);
	close(res[1]);
	for (;;) {
		struct pollfd p = { .fd = res[0], .events = POLLIN };
		uint64_t now = now_ns();
		char buf[4096];

		if (!kill_at && ((stop && *stop) || now >= deadline)) {
			*stopped = 1;
			kill(-pid, SIGTERM);
			kill_at = now + 10000000000ull;
		} else if (kill_at && now >= kill_at) {
			kill(-pid, SIGKILL);
			kill_at = UINT64_MAX;
		}
		if (open_pipe && poll(&p, 1, 200) > 0) {
			ssize_t n = read(res[0], buf, sizeof(buf));

			if (n > 0)
				keep(out, outlen, &used, buf, (size_t)n);
			else if (n == 0 || errno != EINTR)
				open_pipe = 0;
		} else if (!open_pipe) {
			sleep_ns(200000000);
		}
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
	}
	/* what it wrote just before it exited (a worker left holding the pipe
	 * is not waited for) */
	while (open_pipe) {
		struct pollfd p = { .fd = res[0], .events = POLLIN };
		char buf[4096];
		ssize_t n;

		if (poll(&p, 1, 0) <= 0 || (n = read(res[0], buf, sizeof(buf))) <= 0)
			break;
		keep(out, outlen, &used, buf, (size_t)n);
	}
	close(res[0]);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int open_uncached(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);

	if (fd < 0 && errno == EINVAL)
		fd = open(path, O_RDONLY | O_CLOEXEC);
	return fd;
}

int open_nolinks(const char *path, int flags, mode_t mode)
{
	struct open_how how = { .flags = (uint64_t)(unsigned)flags, .mode = flags & (O_CREAT | O_TMPFILE) ? mode : 0,
				.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS };
	long fd = syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));

	if (fd < 0 && errno == ENOSYS)
		fd = open(path, flags | O_NOFOLLOW, mode);
	return (int)fd;
}

/*
 * BOOTBENCH_SCALE=F (util.h): the jobs' times and sizes, and a burn-in's
 * time, multiplied by F.
 */
int scale_factor(double *f)
{
	const char *v = getenv("BOOTBENCH_SCALE");
	char *end;

	*f = 1;
	if (!v || !*v)
		return 0;
	*f = strtod(v, &end);
	if (*end || !(*f > 0) || *f > 1000)
		return set_err("BOOTBENCH_SCALE=%s: expected a number above 0 (1 = as written)", v);
	return 0;
}

void printable_ascii(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			*s = '?';
}

void csv_quote(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void str_appendf(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}
