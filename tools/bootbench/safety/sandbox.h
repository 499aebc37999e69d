/* SPDX-License-Identifier: MIT */
/*
 * sandbox.h - runs a program that takes orders from the network (fio's
 * server: no authentication, any job a client sends) so that it can write
 * only the disks the user named and run no other program:
 *   - the disks named for writing claimed (O_EXCL) for its whole life, so
 *     the kernel refuses to mount them or re-attach a loop device to other
 *     data, and their identity (disks.h: serial, size, backing file; never
 *     the name or numbers) checked before every process or thread it
 *     starts (fio starts one per connection and job): a disk that changed
 *     or came into use stops the server;
 *   - new mount and PID namespaces; every mount read-only and nodev (a
 *     block node on any filesystem would reach an unnamed disk); a /dev of its
 *     own holding null, zero, full, random, urandom, the disks named for
 *     writing (mode 0600) and those named for reading (0400); a tmpfs /tmp
 *     and working folder;
 *   - no capability that would get around that: without CAP_DAC_OVERRIDE a
 *     0400 node cannot be opened for writing even by root, without
 *     CAP_SYS_ADMIN or CAP_MKNOD nothing can be mounted or made; dropped
 *     from the bounding set, so no exec gets them back;
 *   - a seccomp filter that hands every execve to this process, which
 *     lets the first one (the program itself) go and refuses the rest
 *     (fio's exec engine, exec_prerun, a shell).
 * The program dies with this process (PR_SET_PDEATHSIG, and its PID
 * namespace ends with it).
 */
#ifndef BB_SANDBOX_H
#define BB_SANDBOX_H

struct sandbox {
	const char *const *write_devs;	/* consented block devices, NULL-ended */
	const char *const *read_devs;	/* block devices it may read, NULL-ended */
	const char *workdir;		/* its working folder (a tmpfs), e.g. /run/bootbench/fio-server */
	char *const *argv;		/* the program and its arguments (argv[0]: a path) */
};

/*
 * Runs argv in the sandbox and waits for it; returns its exit status (128+N
 * for signal N), or -1 with bb_err when the sandbox cannot be made (nothing
 * was run). Every refused execve is noted on stderr.
 */
int sandbox_run(const struct sandbox *sb);

#endif
