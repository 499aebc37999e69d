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
 *   - its stdin /dev/null, its stdout and stderr the caller's file or a pipe
 *     this process copies to its own, and no other descriptor: one that
 *     bootbench's caller left open (a disk as stdin) would be a way out,
 *     through /proc/self/fd/N;
 *   - new mount and PID namespaces, and a network namespace: with nothing in
 *     it where the program needs no network, or a loopback of its own on
 *     which one port of the host is forwarded (forward.h: fio's server is
 *     reached, a job reaches nothing of the host's network); every
 *     mount read-only and nodev but the folders named for writing (nodev
 *     and nosuid: files only) (a
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
	const char *name;		/* who runs it, in messages: "fio-server" */
	const char *const *write_devs;	/* consented block devices, NULL-ended */
	const char *const *read_devs;	/* block devices it may read, NULL-ended */
	const char *const *write_dirs;	/* folders it may write (files, never devices or programs), NULL-ended */
	const char *workdir;		/* its working folder, e.g. /run/bootbench/fio-server */
	int workdir_tmpfs;		/* 1: a tmpfs of its own there and at /tmp; 0: the folder as it is
					   (in write_dirs for it to be written), /tmp as it is */
	int no_network;			/* a network namespace of its own: no interface but a down loopback */
	unsigned forward_port;		/* above 0: a network namespace of its own, its loopback up, and this
					   port of the host (forward_ip's, or every address) forwarded to
					   127.0.0.1:forward_port there, where the program listens */
	const char *forward_ip;		/* the host's address for forward_port; NULL or "": all */
	int stdout_fd;			/* its standard output, when above 0; else a pipe copied to ours */
	int stderr_fd;			/* its standard error, when above 0; else a pipe copied to ours */
	char *const *argv;		/* the program and its arguments (argv[0]: a path) */
};

/*
 * Runs argv in the sandbox and waits for it; returns its exit status (128+N
 * for signal N), or -1 with bb_err when the sandbox cannot be made (nothing
 * was run). Every refused execve is noted on stderr.
 */
int sandbox_run(const struct sandbox *sb);

#endif
