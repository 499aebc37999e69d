/* SPDX-License-Identifier: MIT */
/*
 * syscalls.h - the system calls a job's I/O may make (issue 44): an
 * allowlist, not a denylist, as a seccomp filter for the native engine's
 * threads and for fio in its sandbox. Never allowed: unshare, setns, mount
 * and the rest of a namespace's or the system's administration, TIOCSTI and
 * TIOCLINUX (typing into a terminal), unix, netlink and packet sockets, a
 * socketpair, links made (a job's file is never a link), another ABI's
 * numbers (x32, 32-bit). Internet sockets only for fio's server. io_uring
 * is allowed: the native engine restricts its rings to reads, writes and
 * syncs itself (IORING_REGISTER_RESTRICTIONS).
 *
 * A refused call is refused with EPERM and named: fio's supervisor is told
 * (SECCOMP_RET_USER_NOTIF) and says which; in bootbench's own threads a
 * SIGSYS handler says which (SECCOMP_RET_TRAP) and makes the call fail.
 */
#ifndef BB_SYSCALLS_H
#define BB_SYSCALLS_H

enum {
	SC_FIO = 1,		/* fio in the sandbox: its processes, execs and clones to the supervisor */
	SC_INET = 2,		/* AF_INET and AF_INET6 sockets (fio's server) */
	SC_NATIVE = 4,		/* bootbench's engine threads: threads only, refusals trapped */
};

/*
 * The filter installed on the calling thread (and every thread or process
 * it starts), with no_new_privs. SC_FIO: returns the listener to hand to the
 * supervisor. SC_NATIVE: 0; a refusal is noted on stderr and counted
 * (syscalls_refused). -1 with errno.
 */
int syscalls_confine(unsigned mode);

/* A system call's name ("unshare"), or NULL when this table has none. */
const char *syscall_name(long nr);

/* How many calls the SIGSYS handler refused in this process; the last one's number in *LAST. */
unsigned syscalls_refused(long *last);

#endif
