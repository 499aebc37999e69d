// SPDX-License-Identifier: MIT
/* escapes.c - the ways out of a job's world, tried (escapes.h). */
#include "safety/escapes.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "lib/util.h"
#include "safety/consent.h"

/* what a try did: 0 it worked (the way is open), else the errno it was refused with */
typedef int (*try_fn)(const char *disk);

static int result(long rc)
{
	return rc < 0 ? errno : 0;
}

/* a descriptor a try made is closed; its success is the answer */
static int closed(int fd)
{
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int try_unshare_mnt(const char *d) { (void)d; return result(unshare(CLONE_NEWNS)); }
static int try_unshare_user(const char *d) { (void)d; return result(unshare(CLONE_NEWUSER)); }
static int try_setns(const char *d)
{
	int fd = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC), rc;

	(void)d;
	if (fd < 0)
		return errno == ENOENT ? EACCES : errno;	/* no /proc: no namespace to join by it */
	rc = result(setns(fd, 0));
	close(fd);
	return rc;
}
static int try_tiocsti(const char *d)
{
	char c = '\n';

	(void)d;
	/* on stdin (/dev/null in the sandbox): the filter answers before the driver would (ENOTTY) */
	return result(ioctl(0, TIOCSTI, &c));
}
static int try_unix(const char *d) { (void)d; return closed(socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)); }
static int try_inet(const char *d) { (void)d; return closed(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)); }
static int try_netlink(const char *d) { (void)d; return closed(socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, 0)); }
static int try_socketpair(const char *d)
{
	int sv[2];

	(void)d;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return errno;
	close(sv[0]);
	close(sv[1]);
	return 0;
}
static int try_mount(const char *d)
{
	(void)d;
	/* consent: the point is that it is refused; a tmpfs over /tmp of this namespace only */
	return result(consent_mount_api("bbcheck", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=4k"));
}
static int try_ptrace(const char *d) { (void)d; return result(ptrace(PTRACE_TRACEME, 0, NULL, NULL)); }
static int try_capset(const char *d)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = { { 0 } };

	(void)d;
	data[CAP_TO_INDEX(CAP_SYS_ADMIN)].effective = data[CAP_TO_INDEX(CAP_SYS_ADMIN)].permitted =
		CAP_TO_MASK(CAP_SYS_ADMIN);
	return result(syscall(SYS_capset, &hdr, data));
}
static int try_module(const char *d) { (void)d; return result(syscall(SYS_finit_module, 0, "", 0)); }
static int try_bpf(const char *d) { (void)d; return result(syscall(SYS_bpf, 0, NULL, 0)); }
static int try_etc(const char *d)
{
	static const char name[] = "/etc/.bootbench-sandbox-check";
	int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);	/* consent: must be refused */

	(void)d;
	if (fd < 0)
		return errno;
	close(fd);
	unlink(name);
	return 0;
}
static int try_proc_sys(const char *d)
{
	(void)d;
	return closed(open("/proc/sys/vm/stat_interval", O_WRONLY | O_CLOEXEC));	/* consent: must be refused */
}
/* a setting of /sys that is there: the disk's read-ahead, or one of the kernel's */
static const char *sys_setting(const char *disk, char *buf, size_t len)
{
	static const char *const others[] = { "/sys/kernel/mm/transparent_hugepage/enabled", "/sys/power/state",
					      "/sys/kernel/uevent_helper", "/sys/kernel/profiling" };
	const char *name = disk ? strrchr(disk, '/') : NULL;

	snprintf(buf, len, "/sys/class/block/%s/queue/read_ahead_kb", name ? name + 1 : "none");
	if (!access(buf, F_OK))
		return buf;
	for (size_t i = 0; i < ARRAY_SIZE(others); i++)
		if (!access(others[i], F_OK))
			return others[i];
	return NULL;
}
static int try_sys(const char *disk)
{
	char buf[PATH_MAX];
	const char *path = sys_setting(disk, buf, sizeof(buf));

	if (!path)
		return ENOSYS;	/* none to try: not established */
	return closed(open(path, O_WRONLY | O_CLOEXEC));	/* consent: must be refused */
}
static int try_disk(const char *disk)
{
	return closed(open(disk, O_RDONLY | O_CLOEXEC));	/* consent: only opened, and must be refused */
}
static int try_mknod(const char *d)
{
	int rc = result(mknod("bbcheck-node", S_IFBLK | 0600, makedev(7, 0)));

	(void)d;
	if (!rc)
		unlink("bbcheck-node");
	return rc;
}
static int try_symlink(const char *d)
{
	int rc = result(symlink("/etc/passwd", "bbcheck-link"));

	(void)d;
	if (!rc)
		unlink("bbcheck-link");
	return rc;
}
/* a program run: refused at fork (the engine's threads), or the child stopped at its execve (fio's sandbox) */
static int try_exec(const char *d)
{
	int status;
	pid_t pid = fork();

	(void)d;
	if (pid < 0)
		return errno;
	if (!pid) {
		char *argv[] = { "/bin/sh", "-c", "exit 0", NULL };

		execv(argv[0], argv);	/* consent: must be refused */
		_exit(errno == EPERM ? 126 : 125);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return errno;
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
		return EPERM;	/* the supervisor stopped it at its execve */
	if (WIFEXITED(status) && WEXITSTATUS(status) == 126)
		return EPERM;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : EIO;
}

static const struct escape {
	const char *what;
	try_fn try;
	int expect[3];		/* the errors a refusal may give (0 ends) */
	int needs_disk;
} escapes[] = {
	{ "make a mount namespace (unshare)", try_unshare_mnt, { EPERM }, 0 },
	{ "make a user namespace (unshare)", try_unshare_user, { EPERM }, 0 },
	{ "join the host's mount namespace (setns)", try_setns, { EPERM, EACCES }, 0 },
	{ "type into the terminal (TIOCSTI)", try_tiocsti, { EPERM }, 0 },
	{ "open a unix socket", try_unix, { EPERM }, 0 },
	{ "open an internet socket", try_inet, { EPERM }, 0 },
	{ "open a netlink socket", try_netlink, { EPERM }, 0 },
	{ "make a socketpair", try_socketpair, { EPERM }, 0 },
	{ "mount a filesystem", try_mount, { EPERM }, 0 },
	{ "trace or be traced (ptrace)", try_ptrace, { EPERM }, 0 },
	{ "take CAP_SYS_ADMIN back (capset)", try_capset, { EPERM }, 0 },
	{ "load a kernel module", try_module, { EPERM }, 0 },
	{ "load a BPF program", try_bpf, { EPERM }, 0 },
	{ "write a file in /etc", try_etc, { EROFS, EACCES, EPERM }, 0 },
	{ "write a kernel setting (/proc/sys/vm/stat_interval)", try_proc_sys, { EROFS, EACCES, EPERM }, 0 },
	{ "write a setting in /sys (a disk's read_ahead_kb)", try_sys, { EROFS, EACCES, EPERM }, 0 },
	{ "open a disk no job named", try_disk, { ENOENT, EACCES, EPERM }, 1 },
	{ "make a device node in the working folder", try_mknod, { EPERM }, 0 },
	{ "make a link in the working folder", try_symlink, { EPERM }, 0 },
	{ "run a program (/bin/sh)", try_exec, { EPERM }, 0 },
};

unsigned escapes_try_all(FILE *out, const char *disk)
{
	unsigned open_ways = 0;

	for (size_t i = 0; i < ARRAY_SIZE(escapes); i++) {
		const struct escape *e = &escapes[i];
		int err, expected = 0;

		if (e->needs_disk && !disk) {
			/* not tried is not refused: it counts against the verdict */
			fprintf(out, "  UNTRIED  %s: no disk to try\n", e->what);
			open_ways++;
			continue;
		}
		err = e->try(disk);
		for (unsigned k = 0; k < ARRAY_SIZE(e->expect) && e->expect[k]; k++)
			expected |= err == e->expect[k];
		if (expected) {
			fprintf(out, "  refused  %s%s%s: %s\n", e->what, e->needs_disk ? " " : "",
				e->needs_disk ? disk : "", strerror(err));
		} else {
			/* refused otherwise than expected is not established as refused */
			fprintf(out, "  %s  %s%s%s: %s\n", err ? "UNSURE " : "ALLOWED", e->what, e->needs_disk ? " " : "",
				e->needs_disk ? disk : "", err ? strerror(err) : "it worked");
			open_ways++;
		}
		fflush(out);
	}
	return open_ways;
}
