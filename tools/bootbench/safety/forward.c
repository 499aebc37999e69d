// SPDX-License-Identifier: MIT
/* forward.c - one TCP port of the host carried into a network namespace (forward.h). */
#include "safety/forward.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/util.h"

/* connections carried at once: fio's client opens one per server it drives */
#define FORWARD_MAX 64
#define RELAY_BUF (64 * 1024)

struct forward {
	int host_fd;		/* bound on the host, listening once the program is */
	int netns_fd;		/* the namespace's /proc/PID/ns/net */
	int wake[2];		/* forward_stop's word to the accepting thread */
	unsigned port;
	pid_t pid;
	pthread_t thread;
	int started;
	atomic_int stop;
};

static atomic_int carried;

struct pair {
	int outside, inside;
};

static int send_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* One connection: bytes both ways until both ends are done; an end's EOF is passed on as a shutdown. */
static void *relay(void *arg)
{
	struct pair p = *(struct pair *)arg;
	struct pollfd pf[2] = { { .fd = p.outside, .events = POLLIN }, { .fd = p.inside, .events = POLLIN } };
	char *buf = malloc(RELAY_BUF);
	int open_ways = 2;

	free(arg);
	while (buf && open_ways) {
		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < 2; i++) {
			int to = i ? p.outside : p.inside;
			ssize_t n;

			if (pf[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = read(pf[i].fd, buf, RELAY_BUF);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 || (n > 0 && send_all(to, buf, (size_t)n))) {
				open_ways = 0;
				break;
			}
			if (!n) {
				shutdown(to, SHUT_WR);
				pf[i].fd = -1;
				open_ways--;
			}
		}
	}
	free(buf);
	close(p.outside);
	close(p.inside);
	atomic_fetch_sub(&carried, 1);
	return NULL;
}

/* Whether something in PID's network namespace listens on 127.0.0.1:PORT (its /proc/PID/net/tcp). */
static int listening_inside(pid_t pid, unsigned port)
{
	char path[64], line[256];
	unsigned addr, lport, state;
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/net/tcp", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	/* "  0: 0100007F:223D 00000000:0000 0A ...": address and port in hex, 0A LISTEN */
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, " %*u: %8X:%4X %*8X:%*4X %2X", &addr, &lport, &state) == 3)
			found = lport == port && state == 0x0A && (addr == htonl(INADDR_LOOPBACK) || !addr);
	fclose(f);
	return found;
}

/* A socket of the namespace this thread entered, connected to 127.0.0.1:PORT there; -1 if none. */
static int connect_inside(unsigned port)
{
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&in, sizeof(in)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static void carry(int outside, unsigned port)
{
	struct pair *p;
	pthread_attr_t attr;
	pthread_t t;
	int inside;

	if (atomic_fetch_add(&carried, 1) >= FORWARD_MAX) {
		atomic_fetch_sub(&carried, 1);
		close(outside);
		return;
	}
	inside = connect_inside(port);
	p = inside < 0 ? NULL : malloc(sizeof(*p));
	if (p) {
		p->outside = outside;
		p->inside = inside;
		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		if (!pthread_create(&t, &attr, relay, p)) {
			pthread_attr_destroy(&attr);
			return;
		}
		pthread_attr_destroy(&attr);
		free(p);
	}
	if (inside >= 0)
		close(inside);
	close(outside);
	atomic_fetch_sub(&carried, 1);
}

/*
 * The accepting thread: it enters the namespace (sockets it makes from then
 * on are there; the host's, bound before, stays the host's), waits for the
 * program to listen, then listens on the host and carries each connection.
 */
static void *accept_loop(void *arg)
{
	struct forward *fw = arg;
	int inside = 0;

	if (setns(fw->netns_fd, CLONE_NEWNET) < 0) {
		note("port %u: cannot enter the sandbox's network: %s; nothing is forwarded", fw->port, strerror(errno));
		return NULL;
	}
	while (!atomic_load(&fw->stop) && !(inside = listening_inside(fw->pid, fw->port)))
		usleep(50 * 1000);
	if (atomic_load(&fw->stop))
		return NULL;
	/*
	 * A port nobody can reach is said, and its program stopped (the
	 * command then fails): another socket bound to it meanwhile (both
	 * bound with SO_REUSEADDR, the first to listen wins), or the
	 * namespace's sockets unreadable.
	 */
	if (inside < 0 || listen(fw->host_fd, 16) < 0) {
		note("port %u: cannot listen: %s; nothing is forwarded, its program is stopped", fw->port,
		     inside < 0 ? "the sandbox's sockets cannot be read" : strerror(errno));
		kill(fw->pid, SIGKILL);
		return NULL;
	}
	/* said only now, and not once it is being stopped: a client that
	 * connected on an earlier word found nobody */
	if (!atomic_load(&fw->stop))
		note("port %u: listening, carried to the program in its sandbox", fw->port);
	while (!atomic_load(&fw->stop)) {
		struct pollfd p[2] = { { .fd = fw->host_fd, .events = POLLIN }, { .fd = fw->wake[0], .events = POLLIN } };
		int c;

		if (poll(p, 2, -1) <= 0 || !(p[0].revents & POLLIN))
			continue;
		c = accept4(fw->host_fd, NULL, NULL, SOCK_CLOEXEC);
		if (c >= 0)
			carry(c, fw->port);
		else if (errno == EMFILE || errno == ENFILE)
			usleep(100 * 1000);
	}
	return NULL;
}

struct forward *forward_bind(const char *ip, unsigned port)
{
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_port = htons((uint16_t)port), .sin6_addr = in6addr_any };
	struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	struct sockaddr *sa = (struct sockaddr *)&a6;
	socklen_t len = sizeof(a6);
	int one = 1, zero = 0, fd;
	struct forward *fw;

	if (ip && *ip && inet_pton(AF_INET, ip, &a4.sin_addr) == 1) {
		sa = (struct sockaddr *)&a4;
		len = sizeof(a4);
	} else if (ip && *ip && inet_pton(AF_INET6, ip, &a6.sin6_addr) != 1) {
		set_err("%s: not an IPv4 or IPv6 address", ip);
		return NULL;
	}
	fd = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 && sa->sa_family == AF_INET6 && !(ip && *ip)) {
		/* a host without IPv6: every IPv4 address */
		a4.sin_addr.s_addr = htonl(INADDR_ANY);
		sa = (struct sockaddr *)&a4;
		len = sizeof(a4);
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	}
	if (fd < 0) {
		set_err("socket: %s", strerror(errno));
		return NULL;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (sa->sa_family == AF_INET6 && !(ip && *ip))
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, sa, len) < 0) {
		set_err("port %u%s%s: %s", port, ip && *ip ? " on " : "", ip && *ip ? ip : "", strerror(errno));
		close(fd);
		return NULL;
	}
	fw = xcalloc(1, sizeof(*fw));
	if (pipe2(fw->wake, O_CLOEXEC) < 0) {
		set_err("pipe: %s", strerror(errno));
		close(fd);
		free(fw);
		return NULL;
	}
	fw->host_fd = fd;
	fw->netns_fd = -1;
	fw->port = port;
	return fw;
}

int forward_start(struct forward *fw, pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/ns/net", (int)pid);
	fw->netns_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fw->netns_fd < 0)
		return set_err("%s: %s", path, strerror(errno));
	fw->pid = pid;
	if (pthread_create(&fw->thread, NULL, accept_loop, fw))
		return set_err("cannot start the port's thread");
	fw->started = 1;
	return 0;
}

void forward_stop(struct forward *fw)
{
	if (!fw)
		return;
	atomic_store(&fw->stop, 1);
	(void)!write(fw->wake[1], "", 1);	/* a pipe of our own, empty: the byte fits */
	if (fw->started)
		pthread_join(fw->thread, NULL);
	close(fw->host_fd);
	close(fw->wake[0]);
	close(fw->wake[1]);
	if (fw->netns_fd >= 0)
		close(fw->netns_fd);
	free(fw);
}

int netns_loopback_up(void)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), rc;

	if (fd < 0)
		return -1;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	rc = ioctl(fd, SIOCGIFFLAGS, &ifr);
	if (!rc) {
		ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
		rc = ioctl(fd, SIOCSIFFLAGS, &ifr);
	}
	close(fd);
	return rc;
}
