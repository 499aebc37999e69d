// SPDX-License-Identifier: MIT
/* sandbox.c - a program run so that it writes only the named disks and runs nothing else (sandbox.h). */
#include "safety/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/mount.h>
#include <linux/seccomp.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "lib/util.h"
#include "safety/caps.h"
#include "safety/confine.h"
#include "safety/consent.h"
#include "safety/forward.h"
#include "safety/mountns.h"
#include "safety/syscalls.h"
#include "sys/disks.h"

/* what the program keeps: priorities, locked memory (registered buffers), rlimits */
static const int kept_caps[] = { CAP_SYS_NICE, CAP_IPC_LOCK, CAP_SYS_RESOURCE };

/* the disks' device numbers, looked up before /dev is replaced */
static dev_t dev_rdev[2][64];
/* its world (confine.h): the folders it may write, the disks' nodes in its /dev */
static struct confine_node sb_nodes[128];
static struct confine sb_confine = { .nodes = sb_nodes };
/* who runs in it, for messages */
static const char *who = "fio-server";

/* In the child: says why it stops, on the program's stderr (this process's copies it, or the caller's file). */
static void child_fail(const char *what)
{
	note("%s sandbox: %s: %s", who, what, strerror(errno));
	_exit(127);
}

/* Every descriptor from LOW up closed. */
static void close_from(int low)
{
	long max = sysconf(_SC_OPEN_MAX);

#ifdef SYS_close_range
	if (!syscall(SYS_close_range, low, ~0U, 0))
		return;
#endif
	for (long fd = low; fd < (max > 0 ? max : 65536); fd++)
		close((int)fd);
}

/*
 * In the child, first: 0 /dev/null, 1 and 2 OUT and ERR, SOCK as 3, and
 * nothing else. A descriptor of bootbench's caller (a disk as stdin, a
 * file it left open) would be a job's way past the sandbox: fio opens
 * /proc/self/fd/N, the open file as it is, wherever it lies.
 */
static void child_fds(int out, int err, int sock)
{
	int fds[4] = { open("/dev/null", O_RDWR | O_CLOEXEC), out, err, sock };	/* consent: /dev/null */

	/* above every target first, so that no dup2 overwrites one still to be moved */
	for (int i = 0; i < 4; i++)
		if (fds[i] < 0 || (fds[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 10)) < 0)
			child_fail(i ? "its descriptors" : "/dev/null");
	for (int i = 0; i < 3; i++)
		if (dup2(fds[i], i) < 0)	/* without close-on-exec: the program's */
			child_fail("its descriptors");
	if (dup3(fds[3], 3, O_CLOEXEC) < 0)
		child_fail("its descriptors");
	close_from(4);
}

/* Every capability but the kept ones leaves, bounding set included (no exec brings it back). */
static void drop_caps(void)
{
	if (caps_keep_only(kept_caps, ARRAY_SIZE(kept_caps)) < 0)
		child_fail("dropping capabilities");
}

/*
 * The allowlist (syscalls.h), with execve, execveat, fork and clone sent to
 * the supervisor: fio starts each job (and each connection) in a process or
 * thread of its own, and the supervisor checks the disks' identity before
 * it runs; a call the list refuses goes to it too, to be named. Returns the
 * listener.
 */
static int exec_filter(const struct sandbox *sb)
{
	return syscalls_confine(SC_FIO | (sb->forward_port ? SC_INET : 0));
}

static int send_fd(int sock, int fd)
{
	char c = 'f', ctl[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof(ctl) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&m);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(sock, &m, 0) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
	char c, ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof(ctl) };
	struct cmsghdr *cm;
	int fd;

	if (recvmsg(sock, &m, MSG_CMSG_CLOEXEC) != 1 || !(cm = CMSG_FIRSTHDR(&m)) || cm->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/* The program: no capabilities, the filter (its listener to the supervisor), then exec. */
static void exec_program(const struct sandbox *sb, int sock)
{
	int listener;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	drop_caps();
	listener = exec_filter(sb);
	if (listener < 0)
		child_fail("the seccomp filter");
	if (send_fd(sock, listener) < 0)
		child_fail("handing over the filter");
	close(listener);
	close(sock);
	execv(sb->argv[0], sb->argv);	/* consent: in the sandbox, only the consented disks are writable */
	child_fail(sb->argv[0]);
}

/*
 * PID 1 of the new PID namespace: /proc of its own, then the program as
 * its child; it reaps every process left to it (a job's child whose parent
 * ended) and ends with the program, which ends the namespace.
 */
static void run_program(const struct sandbox *sb, int sock)
{
	int status = 0;
	pid_t prog, pid;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (consent_mount_api("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		child_fail("/proc of its own");
	if (mount_set_readonly("/proc", 0, 1) < 0)
		child_fail("/proc read-only");
	if (chdir(sb->workdir) < 0)
		child_fail(sb->workdir);
	prog = fork();
	if (prog < 0)
		child_fail("fork");
	if (!prog)
		exec_program(sb, sock);
	close(sock);
	/* signals a PID 1 would ignore are passed on (the kernel gives none by default) */
	signal(SIGTERM, SIG_DFL);
	for (;;) {
		pid = waitpid(-1, &status, 0);
		if (pid == prog || (pid < 0 && errno == ECHILD))
			break;
	}
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

/* The middle process: the mount namespace, then PID 1 of the new PID namespace. */
static void build(const struct sandbox *sb, int sock)
{
	int status;
	pid_t pid;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (private_mount_namespace(CLONE_NEWPID | CLONE_NEWIPC | (sb->no_network || sb->forward_port ? CLONE_NEWNET : 0)) < 0) {
		note("%s sandbox: %s", who, bb_err);
		_exit(127);
	}
	/* the forwarded port is reached on its loopback; nothing else is there */
	if (sb->forward_port && netns_loopback_up() < 0)
		child_fail("the loopback of its network");
	/* everything read-only and without devices, but the folders it may write
	 * and a /dev of its own (confine.h; a block node on any filesystem would
	 * reach a disk never named) */
	if (confine_mounts(&sb_confine) < 0) {
		note("%s sandbox: %s", who, bb_err);
		_exit(127);
	}
	if (sb->workdir_tmpfs &&
	    (consent_mount_api("bbtmp", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=1777,size=256m") < 0 ||
	     consent_mount_api("bbwork", sb->workdir, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0700,size=256m") < 0))
		child_fail("/tmp and the working folder");
	pid = fork();
	if (pid < 0)
		child_fail("fork");
	if (!pid)
		run_program(sb, sock);
	close(sock);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			_exit(127);
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

/* A process's parent, from /proc (0 if it is gone). */
static pid_t parent_of(pid_t pid)
{
	char path[64], buf[512], *close_paren;
	int fd;
	ssize_t n;
	long ppid = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	/* "pid (comm) state ppid ...": comm may hold spaces, the last ')' ends it */
	close_paren = strrchr(buf, ')');
	if (close_paren)
		sscanf(close_paren + 1, " %*c %ld", &ppid);
	return (pid_t)ppid;
}

/*
 * Answers the filter: the first execve (the program itself) goes on, every
 * later one is refused and its process killed, with the process that
 * started it when that is one of the program's jobs (not the program
 * itself): fio's exec engine ignores a child that failed, so its job is
 * ended for the client to see it fail.
 */
/*
 * The claims on the disks it may write, held for the server's life: with
 * an O_EXCL descriptor open the kernel refuses to mount them, to give them
 * to md or dm, and a loop device cannot be detached and attached to
 * another file. Their identity (disks.h) is checked before every job.
 */
static struct claim {
	const char *path;
	dev_t rdev;
	int fd;
	char identity[512];
} claims[64];
static unsigned nclaims;

/* 0 when every claimed disk is the one consent was given for and unused; else -1 with bb_err. */
static int claims_hold(void)
{
	char now[512], users[256];
	unsigned i;

	for (i = 0; i < nclaims; i++) {
		struct claim *c = &claims[i];

		if (disk_identity(c->rdev, c->fd, now, sizeof(now)) || strcmp(now, c->identity))
			return set_err("%s is no longer the disk consent was given for (was %s, now %s)", c->path,
				       c->identity, now[0] ? now : "gone");
		consent_users(c->rdev, users, sizeof(users));
		if (users[0])
			return set_err("%s is in use now (%s)", c->path, users);
	}
	return 0;
}

/*
 * What the program wrote to a pipe of RELAY, copied onto this process's
 * stdout or stderr (TO): 1, or 0 at its end, -1 when nothing is there yet.
 */
static int relay_out(int from, int to)
{
	char buf[16384];
	ssize_t n = read(from, buf, sizeof(buf)), off = 0;

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? -1 : 0;
	while (off < n) {
		ssize_t w = write(to, buf + off, (size_t)(n - off));

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;	/* our own output is gone: what the program says is dropped */
		off += w;
	}
	return n > 0;
}

/* Once the program has ended: the rest of what it wrote (every writer is gone with the namespace). */
static void relay_rest(int relay[2])
{
	for (int i = 0; i < 2; i++)
		if (relay[i] >= 0) {
			fcntl(relay[i], F_SETFL, O_NONBLOCK);
			while (relay_out(relay[i], i + 1) > 0)
				;
			close(relay[i]);
			relay[i] = -1;
		}
}

/* execve, execveat, clone, clone3, fork, vfork: the calls the supervisor lets through or refuses itself */
static int starts_process(int nr)
{
	static const long calls[] = {
		SYS_execve, SYS_execveat, SYS_clone, SYS_clone3,
#ifdef SYS_fork
		SYS_fork, SYS_vfork,
#endif
	};

	for (size_t i = 0; i < ARRAY_SIZE(calls); i++)
		if (calls[i] == nr)
			return 1;
	return 0;
}

/* 1 when the refusal of NR was said already (each is said once) */
static int said_once(int nr)
{
	static int said[64];
	static unsigned nsaid;

	for (unsigned i = 0; i < nsaid; i++)
		if (said[i] == nr)
			return 1;
	if (nsaid < ARRAY_SIZE(said))
		said[nsaid++] = nr;
	return 0;
}

static void supervise(int listener, pid_t child, int *status, int relay[2])
{
	pid_t program = 0;
	struct seccomp_notif_sizes sizes;
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	int execs = 0;

	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) < 0)
		memset(&sizes, 0, sizeof(sizes));
	req = xcalloc(1, sizes.seccomp_notif > sizeof(*req) ? sizes.seccomp_notif : sizeof(*req));
	resp = xcalloc(1, sizes.seccomp_notif_resp > sizeof(*resp) ? sizes.seccomp_notif_resp : sizeof(*resp));
	for (;;) {
		struct pollfd p[3] = { { .fd = listener, .events = POLLIN }, { .fd = relay[0], .events = POLLIN },
				       { .fd = relay[1], .events = POLLIN } };
		int n = poll(p, 3, 200);

		if (waitpid(child, status, WNOHANG) == child)
			break;
		for (int i = 0; i < 2; i++)
			if (n > 0 && relay[i] >= 0 && p[i + 1].revents && !relay_out(relay[i], i + 1)) {
				close(relay[i]);
				relay[i] = -1;
			}
		if (n <= 0 || !(p[0].revents & POLLIN))
			continue;
		memset(req, 0, sizes.seccomp_notif > sizeof(*req) ? sizes.seccomp_notif : sizeof(*req));
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, req) < 0)
			continue;	/* the caller died meanwhile */
		memset(resp, 0, sizeof(*resp));
		resp->id = req->id;
		if (!starts_process(req->data.nr)) {
			/* outside the allowlist: refused, and named once a call */
			resp->error = -EPERM;
			ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, resp);
			if (!said_once(req->data.nr))
				note("%s: the sandbox refused system call %s (nr %d, process %u): outside what a job's "
				     "I/O needs", who, syscall_name(req->data.nr) ? syscall_name(req->data.nr) : "(another)",
				     req->data.nr, req->pid);
			continue;
		}
		if (req->data.nr != SYS_execve && req->data.nr != SYS_execveat) {
			/* a new job, connection or thread: only on the disks consent was given for */
			if (!claims_hold()) {
				resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
				ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, resp);
				continue;
			}
			note("%s: %s: every job stops", who, bb_err);
			resp->error = -EPERM;
			ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, resp);
			kill(child, SIGKILL);
			/* at once: a client that saw its job fail finds the server gone */
			while (waitpid(child, status, 0) < 0 && errno == EINTR)
				;
			break;
		}
		if (!execs++) {
			resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
			program = (pid_t)req->pid;
		} else {
			resp->error = -EPERM;
			note("%s: refused to run a program (execve by process %u of the sandbox): it is stopped",
			     who, req->pid);
		}
		ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, resp);
		if (execs > 1) {
			pid_t parent = parent_of((pid_t)req->pid);

			kill((pid_t)req->pid, SIGKILL);
			if (parent > 1 && parent != program && parent_of(parent) != 0 && parent != getpid())
				kill(parent, SIGKILL);
		}
	}
	relay_rest(relay);
	free(req);
	free(resp);
}

/* The program's stdout or stderr: FD when the caller gave one, else a pipe this process copies to its own (*RELAY). */
static int output_of(int fd, int *relay)
{
	int p[2];

	*relay = -1;
	if (fd > 0)
		return fd;
	if (pipe2(p, O_CLOEXEC) < 0)
		return set_err("pipe: %s", strerror(errno));
	*relay = p[0];
	return p[1];
}

/* The disks it may write, claimed (claims[]); -1 with bb_err. */
static int claim_disks(const struct sandbox *sb)
{
	const char *const *d;

	for (d = sb->write_devs, nclaims = 0; d && *d; d++, nclaims++) {
		struct claim *c = &claims[nclaims];

		c->path = *d;
		c->rdev = dev_rdev[1][nclaims];
		c->fd = consent_open(*d, O_RDONLY);
		if (c->fd < 0 || disk_identity(c->rdev, c->fd, c->identity, sizeof(c->identity)))
			return -1;
	}
	return 0;
}

/* The sandbox made, the program run in it and supervised; its status, or -1 with bb_err. */
static int start_and_supervise(const struct sandbox *sb, struct forward *fw)
{
	int sv[2], listener, status = 0, out, err = -1, relay[2] = { -1, -1 };
	pid_t child;

	if ((out = output_of(sb->stdout_fd, &relay[0])) < 0 || (err = output_of(sb->stderr_fd, &relay[1])) < 0 ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		if (out >= 0 && err >= 0)
			set_err("socketpair: %s", strerror(errno));
		goto out_pipes;
	}
	child = fork();
	if (child < 0) {
		set_err("fork: %s", strerror(errno));
		close(sv[0]);
		close(sv[1]);
		goto out_pipes;
	}
	if (!child) {
		child_fds(out, err, sv[1]);
		build(sb, 3);
	}
	close(sv[1]);
	for (int i = 0; i < 2; i++)
		if (relay[i] >= 0)
			close(i ? err : out);	/* the pipes' ends the program writes */
	listener = recv_fd(sv[0]);
	close(sv[0]);
	if (listener < 0) {
		waitpid(child, &status, 0);
		relay_rest(relay);	/* what it said about why */
		return set_err("the sandbox could not be made (see above)");
	}
	if (fw && forward_start(fw, child) < 0) {
		note("%s sandbox: %s", who, bb_err);
		kill(child, SIGKILL);
	}
	supervise(listener, child, &status, relay);
	close(listener);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

out_pipes:
	for (int i = 0; i < 2; i++)
		if (relay[i] >= 0) {
			close(relay[i]);
			close(i ? err : out);
		}
	return -1;
}

int sandbox_run(const struct sandbox *sb)
{
	const char *const *d;
	struct forward *fw = NULL;
	int rc;

	sb_confine.nnodes = 0;
	for (int rw = 0; rw < 2; rw++) {
		unsigned i = 0;

		for (d = rw ? sb->write_devs : sb->read_devs; d && *d; d++, i++) {
			struct stat st;

			if (strncmp(*d, "/dev/", 5))
				return set_err("%s: name the disk by its node under /dev", *d);
			if (stat(*d, &st) < 0 || !S_ISBLK(st.st_mode))
				return set_err("%s is not a block device", *d);
			if (i == ARRAY_SIZE(dev_rdev[0]))
				return set_err("more than %zu devices", ARRAY_SIZE(dev_rdev[0]));
			dev_rdev[rw][i] = st.st_rdev;
			sb_nodes[sb_confine.nnodes++] = (struct confine_node){ *d, st.st_rdev,
									       S_IFBLK | (rw ? 0600 : 0400) };
		}
	}
	who = sb->name ? sb->name : "fio-server";
	sb_confine.name = who;
	/* fio-server: a /dev/shm of its own, as its /tmp; a delegated job: the host's, where the job's files stay */
	sb_confine.fresh_shm = sb->workdir_tmpfs;
	sb_confine.protect_links = 1;
	sb_confine.write_dirs = sb->write_dirs;
	/* the host's port taken before anything starts: one in use is said now */
	if (sb->forward_port && !(fw = forward_bind(sb->forward_ip, sb->forward_port)))
		return -1;
	if (claim_disks(sb))
		rc = -1;
	else if (sb->workdir_tmpfs && mkdir(sb->workdir, 0700) < 0 && errno != EEXIST)
		rc = set_err("cannot make %s: %s", sb->workdir, strerror(errno));
	else
		rc = start_and_supervise(sb, fw);
	forward_stop(fw);
	return rc;
}
