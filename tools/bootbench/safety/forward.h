/* SPDX-License-Identifier: MIT */
/*
 * forward.h - one TCP port of the host carried into a network namespace
 * that has nothing else: the sandbox's for fio's server (sandbox.h). Its
 * program listens on 127.0.0.1:PORT in a namespace whose only interface is
 * its own loopback, so whatever it connects to (a job's ioengine=net, a
 * socket in the abstract namespace) is in there; this process accepts on
 * the host's address and port and joins each connection to a socket made
 * in the namespace (by a thread that entered it with setns: a socket
 * stays in the namespace it was made in), copying the bytes both ways. No
 * connection goes the other way.
 */
#ifndef BB_FORWARD_H
#define BB_FORWARD_H

#include <sys/types.h>

struct forward;

/*
 * Binds the host's IP (every address, IPv6 and IPv4, when NULL or empty)
 * and PORT, not listening yet: a port in use is said before anything
 * starts. NULL with bb_err.
 */
struct forward *forward_bind(const char *ip, unsigned port);

/*
 * Forwards into the network namespace of process PID: the host's port
 * listens once something listens on 127.0.0.1:PORT there (a client that
 * came earlier would find nobody), and says so ("port PORT: listening"),
 * then every connection is carried in, each by a thread of its own. 0, or
 * -1 with bb_err.
 */
int forward_start(struct forward *fw, pid_t pid);

/* Stops accepting and frees FW; the connections carried end with their namespace's sockets. */
void forward_stop(struct forward *fw);

/* Brings up the loopback of this process's network namespace (a new one's is down). 0, or -1 with errno. */
int netns_loopback_up(void);

#endif
