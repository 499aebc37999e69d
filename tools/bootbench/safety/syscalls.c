// SPDX-License-Identifier: MIT
/* syscalls.c - the allowlist of a job's system calls, as a seccomp filter (syscalls.h). */
#include "safety/syscalls.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/ucontext.h>
#include <sys/ioctl.h>
#include <termios.h>

#include "lib/util.h"

#if defined(__x86_64__)
#define THIS_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define THIS_ARCH AUDIT_ARCH_AARCH64
#else
#error "the seccomp allowlist knows x86_64 and aarch64"
#endif

#ifndef TIOCLINUX
#define TIOCLINUX 0x541C
#endif

/* who may make a call: both, or fio only (its processes, pipes, shared memory, sockets) */
enum { BOTH = SC_FIO | SC_NATIVE, FIO = SC_FIO };

#define CALL(n, who) { SYS_##n, #n, who }

/*
 * The allowlist, the calls of the hot path first (the filter tries them in
 * this order): what an I/O engine, libc's threads and allocator, and fio's
 * job processes need. Socket calls other than socket() itself are harmless
 * without a socket, which socket() and the namespace's network limit.
 */
static const struct call {
	long nr;
	const char *name;
	unsigned who;
} allowed[] = {
	CALL(io_uring_enter, BOTH), CALL(pread64, BOTH), CALL(pwrite64, BOTH), CALL(preadv2, BOTH),
	CALL(pwritev2, BOTH), CALL(preadv, BOTH), CALL(pwritev, BOTH), CALL(read, BOTH), CALL(write, BOTH),
	CALL(readv, BOTH), CALL(writev, BOTH), CALL(io_submit, BOTH), CALL(io_getevents, BOTH),
	CALL(io_pgetevents, BOTH), CALL(futex, BOTH), CALL(clock_gettime, BOTH), CALL(gettimeofday, BOTH),
	CALL(clock_nanosleep, BOTH), CALL(nanosleep, BOTH), CALL(sched_yield, BOTH), CALL(lseek, BOTH),
	CALL(fsync, BOTH), CALL(fdatasync, BOTH), CALL(sync_file_range, BOTH), CALL(fallocate, BOTH),
	CALL(ftruncate, BOTH), CALL(io_uring_setup, BOTH), CALL(io_uring_register, BOTH), CALL(io_setup, BOTH),
	CALL(io_destroy, BOTH), CALL(io_cancel, BOTH), CALL(openat, BOTH), CALL(openat2, BOTH), CALL(close, BOTH),
	CALL(close_range, BOTH), CALL(fstat, BOTH), CALL(newfstatat, BOTH), CALL(statx, BOTH), CALL(statfs, BOTH),
	CALL(fstatfs, BOTH), CALL(fcntl, BOTH), CALL(flock, BOTH), CALL(dup, BOTH), CALL(dup3, BOTH),
	CALL(getdents64, BOTH), CALL(readlinkat, BOTH), CALL(faccessat, BOTH), CALL(faccessat2, BOTH),
	CALL(mkdirat, BOTH), CALL(unlinkat, BOTH), CALL(renameat2, BOTH), CALL(truncate, BOTH),
	CALL(fadvise64, BOTH), CALL(readahead, BOTH), CALL(syncfs, BOTH), CALL(sync, BOTH), CALL(getcwd, BOTH),
	CALL(chdir, BOTH), CALL(fchdir, BOTH), CALL(umask, BOTH), CALL(mmap, BOTH), CALL(munmap, BOTH),
	CALL(mprotect, BOTH), CALL(mremap, BOTH), CALL(madvise, BOTH), CALL(msync, BOTH), CALL(mincore, BOTH),
	CALL(mlock, BOTH), CALL(mlock2, BOTH), CALL(munlock, BOTH), CALL(mlockall, BOTH), CALL(munlockall, BOTH),
	CALL(brk, BOTH), CALL(mbind, BOTH), CALL(set_mempolicy, BOTH), CALL(get_mempolicy, BOTH),
	CALL(rt_sigaction, BOTH), CALL(rt_sigprocmask, BOTH), CALL(rt_sigreturn, BOTH), CALL(rt_sigtimedwait, BOTH),
	CALL(sigaltstack, BOTH), CALL(tgkill, BOTH), CALL(tkill, BOTH), CALL(getpid, BOTH), CALL(gettid, BOTH),
	CALL(getppid, BOTH), CALL(getuid, BOTH), CALL(geteuid, BOTH), CALL(getgid, BOTH), CALL(getegid, BOTH),
	CALL(getpgid, BOTH), CALL(getrusage, BOTH), CALL(times, BOTH), CALL(sysinfo, BOTH), CALL(uname, BOTH),
	CALL(getrandom, BOTH), CALL(getcpu, BOTH), CALL(clock_getres, BOTH), CALL(sched_getaffinity, BOTH),
	CALL(sched_setaffinity, BOTH), CALL(sched_getparam, BOTH), CALL(sched_setparam, BOTH),
	CALL(sched_getscheduler, BOTH), CALL(sched_setscheduler, BOTH), CALL(sched_get_priority_max, BOTH),
	CALL(sched_get_priority_min, BOTH), CALL(getpriority, BOTH), CALL(setpriority, BOTH),
	CALL(ioprio_get, BOTH), CALL(ioprio_set, BOTH), CALL(getrlimit, BOTH), CALL(setrlimit, BOTH),
	CALL(prlimit64, BOTH), CALL(prctl, BOTH), CALL(set_tid_address, BOTH), CALL(set_robust_list, BOTH),
	CALL(get_robust_list, BOTH), CALL(rseq, BOTH), CALL(membarrier, BOTH), CALL(restart_syscall, BOTH),
	CALL(exit, BOTH), CALL(exit_group, BOTH), CALL(pipe2, BOTH), CALL(eventfd2, BOTH), CALL(ppoll, BOTH),
	CALL(pselect6, BOTH), CALL(epoll_create1, BOTH), CALL(epoll_ctl, BOTH), CALL(epoll_pwait, BOTH),
	CALL(timerfd_create, BOTH), CALL(timerfd_settime, BOTH), CALL(timerfd_gettime, BOTH),
	CALL(timer_create, BOTH), CALL(timer_settime, BOTH), CALL(timer_gettime, BOTH),
	CALL(timer_getoverrun, BOTH), CALL(timer_delete, BOTH), CALL(getitimer, BOTH), CALL(setitimer, BOTH),
	CALL(capget, BOTH),
	/* fio's job processes, their shared memory and splice engine, its server's connections */
	CALL(wait4, FIO), CALL(waitid, FIO), CALL(kill, FIO), CALL(setpgid, FIO), CALL(setsid, FIO),
	CALL(shmget, FIO), CALL(shmat, FIO), CALL(shmdt, FIO), CALL(shmctl, FIO), CALL(splice, FIO),
	CALL(tee, FIO), CALL(vmsplice, FIO), CALL(sendfile, FIO), CALL(connect, FIO), CALL(accept, FIO),
	CALL(accept4, FIO), CALL(bind, FIO), CALL(listen, FIO), CALL(getsockname, FIO), CALL(getpeername, FIO),
	CALL(setsockopt, FIO), CALL(getsockopt, FIO), CALL(sendto, FIO), CALL(recvfrom, FIO),
	CALL(sendmsg, FIO), CALL(recvmsg, FIO), CALL(sendmmsg, FIO), CALL(recvmmsg, FIO), CALL(shutdown, FIO),
#ifdef SYS_open
	/* the older numbers x86_64 keeps (aarch64 has the *at calls only) */
	CALL(open, BOTH), CALL(stat, BOTH), CALL(lstat, BOTH), CALL(access, BOTH), CALL(readlink, BOTH),
	CALL(mkdir, BOTH), CALL(unlink, BOTH), CALL(rename, BOTH), CALL(renameat, BOTH), CALL(creat, BOTH),
	CALL(dup2, BOTH), CALL(pipe, BOTH), CALL(poll, BOTH), CALL(select, BOTH), CALL(epoll_create, BOTH),
	CALL(epoll_wait, BOTH), CALL(getdents, BOTH), CALL(time, BOTH), CALL(alarm, BOTH), CALL(pause, BOTH),
	CALL(getpgrp, BOTH), CALL(arch_prctl, BOTH),
#endif
};

/* the first of the list, the I/O calls themselves, each allowed to both: tried before anything else */
#define HOT_CALLS 13

/* names for the refusals' messages: the calls a job's way out would take */
static const struct call refused_names[] = {
	CALL(unshare, 0), CALL(setns, 0), CALL(mount, 0), CALL(umount2, 0), CALL(pivot_root, 0),
	CALL(chroot, 0), CALL(mount_setattr, 0), CALL(open_tree, 0), CALL(move_mount, 0), CALL(fsopen, 0),
	CALL(fsmount, 0), CALL(execve, 0), CALL(execveat, 0), CALL(clone, 0), CALL(clone3, 0), CALL(ptrace, 0),
	CALL(bpf, 0), CALL(perf_event_open, 0), CALL(keyctl, 0), CALL(add_key, 0), CALL(request_key, 0),
	CALL(userfaultfd, 0), CALL(init_module, 0), CALL(finit_module, 0), CALL(delete_module, 0),
	CALL(kexec_load, 0), CALL(reboot, 0), CALL(mknodat, 0), CALL(symlinkat, 0), CALL(linkat, 0),
	CALL(socketpair, 0), CALL(socket, 0), CALL(ioctl, 0), CALL(process_vm_writev, 0),
	CALL(process_vm_readv, 0), CALL(pidfd_getfd, 0), CALL(memfd_create, 0), CALL(setuid, 0),
	CALL(setgid, 0), CALL(capset, 0), CALL(swapon, 0), CALL(swapoff, 0), CALL(settimeofday, 0),
	CALL(clock_settime, 0), CALL(sethostname, 0), CALL(quotactl, 0), CALL(name_to_handle_at, 0),
	CALL(open_by_handle_at, 0), CALL(fanotify_init, 0), CALL(inotify_init1, 0), CALL(fchmodat, 0),
	CALL(fchownat, 0), CALL(fchmod, 0), CALL(fchown, 0),
#ifdef SYS_fork
	CALL(fork, 0), CALL(vfork, 0), CALL(mknod, 0), CALL(symlink, 0), CALL(link, 0), CALL(chmod, 0),
	CALL(chown, 0), CALL(iopl, 0), CALL(ioperm, 0),
#endif
};

const char *syscall_name(long nr)
{
	for (size_t i = 0; i < ARRAY_SIZE(allowed); i++)
		if (allowed[i].nr == nr)
			return allowed[i].name;
	for (size_t i = 0; i < ARRAY_SIZE(refused_names); i++)
		if (refused_names[i].nr == nr)
			return refused_names[i].name;
	return NULL;
}

/* --- the filter, built as a program of straight runs (no jump past 255 instructions) --- */

#define MAX_PROG 1024

struct prog {
	struct sock_filter f[MAX_PROG];
	unsigned n;
};

static void emit(struct prog *p, struct sock_filter s)
{
	if (p->n < MAX_PROG)
		p->f[p->n++] = s;
}

#define LD(off) (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (off))
#define RET(v) (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, (v))
#define JEQ(k, t, f) (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), (t), (f))
#define JSET(k, t, f) (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, (k), (t), (f))
#define NR_OFF offsetof(struct seccomp_data, nr)
/* an argument's low 32 bits (both arches are little-endian) */
#define ARG_OFF(i) (offsetof(struct seccomp_data, args) + 8 * (i))

static void on_sigsys(int sig, siginfo_t *si, void *ctx);

/* if nr == NR: return ACTION */
static void rule(struct prog *p, long nr, uint32_t action)
{
	emit(p, JEQ((uint32_t)nr, 0, 1));
	emit(p, RET(action));
}

int syscalls_confine(unsigned mode)
{
	static struct prog p;	/* 8 KiB: not on a thread's stack */
	const uint32_t allow = SECCOMP_RET_ALLOW;
	const uint32_t refuse = mode & SC_FIO ? SECCOMP_RET_USER_NOTIF : SECCOMP_RET_TRAP;
	struct sock_fprog fprog;
	/* SPEC_ALLOW: a job file is data, not code: the filter does not switch on the speculative-store
	 * mitigation, which kernels before 5.16 tie to seccomp by default and which costs every I/O */
	unsigned flags = SECCOMP_FILTER_FLAG_SPEC_ALLOW | (mode & SC_FIO ? SECCOMP_FILTER_FLAG_NEW_LISTENER : 0);

	p.n = 0;
	emit(&p, LD(offsetof(struct seccomp_data, arch)));
	emit(&p, JEQ(THIS_ARCH, 1, 0));
	emit(&p, RET(SECCOMP_RET_KILL_PROCESS));	/* another ABI's numbers: nothing here means them */
	emit(&p, LD(NR_OFF));
#ifdef __x86_64__
	/* x32's numbers are x86_64's with bit 30: the same calls by other numbers */
	emit(&p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1));
	emit(&p, RET(SECCOMP_RET_KILL_PROCESS));
#endif
	/* the hot path first: a syscall-per-I/O engine (psync at memory speed) pays the filter on each */
	for (size_t i = 0; i < HOT_CALLS; i++)
		rule(&p, allowed[i].nr, allow);
	if (mode & SC_FIO) {
		/* fio's processes and threads: the supervisor checks the disks before each; execs it refuses */
		rule(&p, SYS_execve, SECCOMP_RET_USER_NOTIF);
		rule(&p, SYS_execveat, SECCOMP_RET_USER_NOTIF);
		rule(&p, SYS_clone, SECCOMP_RET_USER_NOTIF);
		rule(&p, SYS_clone3, SECCOMP_RET_USER_NOTIF);
#ifdef SYS_fork
		rule(&p, SYS_fork, SECCOMP_RET_USER_NOTIF);
		rule(&p, SYS_vfork, SECCOMP_RET_USER_NOTIF);
#endif
	} else {
		/*
		 * Threads only; clone3 said missing so that libc takes clone, whose
		 * flags can be read. A process is refused with EPERM, not trapped:
		 * libc's fork blocks every signal around it, and a trap then kills.
		 */
		rule(&p, SYS_clone3, SECCOMP_RET_ERRNO | ENOSYS);
#ifdef SYS_fork
		rule(&p, SYS_fork, SECCOMP_RET_ERRNO | EPERM);
		rule(&p, SYS_vfork, SECCOMP_RET_ERRNO | EPERM);
#endif
		emit(&p, JEQ(SYS_clone, 0, 4));
		emit(&p, LD(ARG_OFF(0)));
		emit(&p, JSET(CLONE_THREAD, 0, 1));
		emit(&p, RET(allow));
		emit(&p, RET(SECCOMP_RET_ERRNO | EPERM));
	}
	/* ioctl: all but typing into a terminal (TIOCSTI) and the console's TIOCLINUX */
	emit(&p, JEQ(SYS_ioctl, 0, 6));
	emit(&p, LD(ARG_OFF(1)));
	emit(&p, JEQ(TIOCSTI, 0, 1));
	emit(&p, RET(refuse));
	emit(&p, JEQ(TIOCLINUX, 0, 1));
	emit(&p, RET(refuse));
	emit(&p, RET(allow));
	/* socket: internet sockets for fio's server only; never unix, netlink or packet ones */
	emit(&p, JEQ(SYS_socket, 0, mode & SC_INET ? 5 : 1));
	if (mode & SC_INET) {
		emit(&p, LD(ARG_OFF(0)));
		emit(&p, JEQ(AF_INET, 2, 0));
		emit(&p, JEQ(AF_INET6, 1, 0));
	}
	emit(&p, RET(refuse));
	if (mode & SC_INET)
		emit(&p, RET(allow));
	for (size_t i = HOT_CALLS; i < ARRAY_SIZE(allowed); i++)
		if (allowed[i].who & mode & (SC_FIO | SC_NATIVE))
			rule(&p, allowed[i].nr, allow);
	emit(&p, RET(refuse));
	if (p.n >= MAX_PROG) {
		errno = E2BIG;
		return -1;
	}
	if (mode & SC_NATIVE) {
		struct sigaction sa = { .sa_sigaction = on_sigsys, .sa_flags = SA_SIGINFO };

		if (sigaction(SIGSYS, &sa, NULL) < 0)
			return -1;
	}
	fprog.len = (unsigned short)p.n;
	fprog.filter = p.f;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &fprog);
}

/* --- bootbench's own threads: a refused call is named and fails with EPERM --- */

static volatile sig_atomic_t refused_count;
static volatile long refused_last;

unsigned syscalls_refused(long *last)
{
	if (last)
		*last = refused_last;
	return (unsigned)refused_count;
}

/* async-signal-safe: the name from a static table, one write */
static void on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	char line[160];
	const char *name = syscall_name(si->si_syscall);
	size_t n = 0;
	const char *parts[] = { "bootbench: the sandbox refused system call ", name ? name : "(another)",
				" (nr ", NULL, ") in a job's thread\n" };
	char num[24];
	long v = si->si_syscall;
	int k = (int)sizeof(num);

	(void)sig;
	num[--k] = 0;
	do
		num[--k] = (char)('0' + v % 10);
	while ((v /= 10) > 0 && k > 0);
	parts[3] = num + k;
	for (size_t i = 0; i < ARRAY_SIZE(parts); i++)
		for (const char *c = parts[i]; *c && n < sizeof(line); c++)
			line[n++] = *c;
	(void)!write(2, line, n);
	refused_last = si->si_syscall;
	refused_count++;
#if defined(__x86_64__)
	uc->uc_mcontext.gregs[REG_RAX] = -EPERM;
#elif defined(__aarch64__)
	uc->uc_mcontext.regs[0] = (unsigned long)-EPERM;
#endif
}
