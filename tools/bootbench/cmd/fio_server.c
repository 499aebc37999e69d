// SPDX-License-Identifier: MIT
/*
 * fio_server.c - `bootbench fio-server`: Debian's fio in its server mode,
 * for racks driven by fio's own client (`fio --client=hosts.list job.fio`).
 * fio's server has no authentication and runs whatever job a client sends,
 * so it runs in the sandbox (safety/sandbox.h): it can write only the disks
 * named in --destroy (through the consent gate: never the boot or results
 * medium, nothing mounted or in use), read only those in --read, and run
 * no other program (its exec engine, exec_prerun, a shell), and reach
 * nothing of the host's network: it listens in a network namespace of its
 * own, on its loopback, where bootbench carries the port in from the host
 * (safety/forward.h); a job's ioengine=net finds no address of the host's.
 * For an isolated lab network only.
 *
 * Its flags and help: the declaration at the end (lib/args.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/args.h"
#include "lib/util.h"
#include "safety/consent.h"
#include "safety/sandbox.h"

#define MAX_DEVS 64
#define WORKDIR "/run/bootbench/fio-server"

/* Splits a comma-separated list into devs (NULL-ended). */
static void split(char *list, const char **devs, unsigned *n)
{
	char *save, *tok;

	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*n + 1 >= MAX_DEVS)
			die_usage("fio-server: more than %d devices", MAX_DEVS - 1);
		devs[(*n)++] = tok;
	}
	devs[*n] = NULL;
}

struct fio_server_opts {
	const char *destroy, *read, *listen, *fio;
	unsigned port;
};

static int fio_server_main(void *opts, int argc, char **argv)
{
	struct fio_server_opts *o = opts;
	const char *write_devs[MAX_DEVS] = { NULL }, *read_devs[MAX_DEVS] = { NULL };
	const char *fio = o->fio ? o->fio : "/usr/bin/fio", *listen_ip = o->listen ? o->listen : "";
	char server[128], *fio_argv[4];
	unsigned nw = 0, nr = 0, port = o->port ? o->port : 8765, i;
	struct sandbox sb;
	int rc;

	if (argc)
		die_usage("fio-server: unknown argument '%s' (see --help)", argv[0]);
	if (o->destroy) {
		if (consent_allow(o->destroy))
			die_usage("fio-server: --destroy: %s", bb_err);
		split(xstrdup(o->destroy), write_devs, &nw);
	}
	if (o->read)
		split(xstrdup(o->read), read_devs, &nr);
	if (strchr(listen_ip, ','))
		die_usage("fio-server: --listen=%s: an address, without a port", listen_ip);
	/* the consent gate's checks, for each disk it may write: before anything starts */
	for (i = 0; i < nw; i++)
		if (consent_check(write_devs[i]))
			die_usage("fio-server: %s", bb_err);
	for (i = 0; i < nr; i++) {
		struct stat st;

		if (stat(read_devs[i], &st))
			die_usage("fio-server: --read: %s: %s", read_devs[i], strerror(errno));
		/* the sandbox's /dev holds block devices only: say so before anything starts */
		if (!S_ISBLK(st.st_mode))
			die_usage("fio-server: --read: %s is not a block device", read_devs[i]);
	}
	{
		struct stat st;

		if (stat(fio, &st) || !S_ISREG(st.st_mode) || access(fio, X_OK))
			die_usage("fio-server: --fio=%s: not a program that can be run", fio);
	}
	/* fio takes a name too, and fails to resolve it only once it runs (exit 0) */
	if (listen_ip[0]) {
		struct in6_addr a6;
		struct in_addr a4;

		if (inet_pton(AF_INET, listen_ip, &a4) != 1 && inet_pton(AF_INET6, listen_ip, &a6) != 1)
			die_usage("fio-server: --listen=%s: expected an IPv4 or IPv6 address", listen_ip);
	}
	/* in its network namespace: the host's address and port are bootbench's, carried in */
	snprintf(server, sizeof(server), "--server=127.0.0.1,%u", port);
	fio_argv[0] = (char *)fio;
	fio_argv[1] = server;
	fio_argv[2] = NULL;
	memset(&sb, 0, sizeof(sb));
	sb.name = "fio-server";
	sb.write_devs = write_devs;
	sb.read_devs = read_devs;
	sb.workdir = WORKDIR;
	sb.workdir_tmpfs = 1;
	sb.forward_port = port;
	sb.forward_ip = listen_ip;
	sb.argv = fio_argv;
	mkdir("/run/bootbench", 0755);
	/* its port answers once the forward says "port N: listening" */
	note("fio-server: starting fio's server for port %u, confined: writes %u disk(s), reads %u; no other program runs, "
	     "no network but its port", port, nw, nr);
	rc = sandbox_run(&sb);
	if (rc < 0) {
		note("fio-server: %s", bb_err);
		return EXIT_FAIL;
	}
	return rc;
}

static const struct arg fio_server_args[] = {
	{ .name = "--destroy", .kind = ARG_STR, .offset = ARG_AT(struct fio_server_opts, destroy), .meta = "DEV[,DEV]",
	  .help = "the disks its jobs may write (the consent gate's checks)" },
	{ .name = "--read", .kind = ARG_STR, .offset = ARG_AT(struct fio_server_opts, read), .meta = "DEV[,DEV]",
	  .help = "the disks its jobs may read" },
	{ .name = "--listen", .kind = ARG_STR, .offset = ARG_AT(struct fio_server_opts, listen), .meta = "IP",
	  .help = "the address to listen on [all]" },
	{ .name = "--port", .kind = ARG_UINT, .offset = ARG_AT(struct fio_server_opts, port), .meta = "N",
	  .help = "fio's port [8765]", .min = 1, .max = 65535 },
	{ .name = "--fio", .kind = ARG_STR, .offset = ARG_AT(struct fio_server_opts, fio), .meta = "PATH",
	  .help = "the fio binary [/usr/bin/fio]" },
	{ NULL },
};

const struct command fio_server_command = {
	.name = "fio-server",
	.summary = "fio's server for fio's clients, confined to the disks named (lab networks only)",
	.usage = "[--destroy=DEV[,DEV]] [--read=DEV[,DEV]] [--listen=IP] [--port=N] [--fio=PATH]",
	.help = "Runs fio's server (fio --server) for fio's clients, confined: it sees only the disks\n"
		"named here (--destroy: written, after the consent gate's checks, claimed for the\n"
		"server's life and checked to be the same disks before every job; --read: read only),\n"
		"every other file read-only, a /tmp and working folder of its own, and it may run no\n"
		"other program (fio's exec engine and exec_prerun are refused). It has a network of\n"
		"its own, its loopback only: bootbench carries the port in from the host, and a job\n"
		"(ioengine=net) reaches no address of the host's. It has no authentication: use it\n"
		"on an isolated lab network only.\n",
	.exit_status = "fio's; 1 when the sandbox cannot be made or a disk changed; 2 bad input.",
	.args = fio_server_args,
	.opts_size = sizeof(struct fio_server_opts),
	.run = fio_server_main,
};
