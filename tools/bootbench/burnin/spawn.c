// SPDX-License-Identifier: MIT
/*
 * spawn.c - a burn-in's program (stress-ng, memtester) run for a bounded
 * time: its output kept (the end of it), stopped with SIGTERM when its time
 * is up or the burn-in is interrupted, SIGKILL 10 s later (burnin.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "burnin/burnin.h"
#include "lib/packs.h"
#include "lib/util.h"

volatile sig_atomic_t burnin_stop;

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

int burnin_spawn(char *const argv[], double seconds, char *out, size_t outlen, int *stopped)
{
	uint64_t deadline = now_ns() + (uint64_t)(seconds * 1e9), kill_at = 0;
	int res[2], status = 0, open_pipe = 1;
	size_t used = 0;
	pid_t pid;

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
		char why[256];

		/* its own process group: a stop reaches its workers too */
		setpgid(0, 0);
		signal(SIGINT, SIG_IGN);
		dup2(null, STDIN_FILENO);
		dup2(res[1], STDOUT_FILENO);
		dup2(res[1], STDERR_FILENO);
		execvp(argv[0], argv);	/* consent: the burn-in's programs write no disk; bootbench's own pass has its gate */
		if (errno == ENOENT && pack_missing_note(argv[0], why, sizeof(why)))
			dprintf(STDERR_FILENO, "cannot run %s: %s", argv[0], why);
		else
			dprintf(STDERR_FILENO, "cannot run %s: %s", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	close(res[1]);
	for (;;) {
		struct pollfd p = { .fd = res[0], .events = POLLIN };
		uint64_t now = now_ns();
		char buf[4096];

		if (!kill_at && (burnin_stop || now >= deadline)) {
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
