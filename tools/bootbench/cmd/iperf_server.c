// SPDX-License-Identifier: MIT
/*
 * iperf_server.c - `bootbench iperf-server`: Debian's iperf3 in its server
 * mode, so that one booted appliance is the peer the others' burn-in
 * measures its network against (bootbench burnin --iperf=HOST). iperf3's
 * server takes any client, so it runs as nobody, with no way back to
 * root (no_new_privs), on a port above 1023. Its flags and help: the
 * declaration at the end (lib/args.h).
 */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "lib/args.h"
#include "lib/packs.h"
#include "lib/util.h"

struct iperf_server_opts {
	unsigned port;
};

static const struct iperf_server_opts iperf_server_defaults = { .port = 5201 };

static int iperf_server_main(void *opts, int argc, char **argv)
{
	struct iperf_server_opts *o = opts;
	char port[16], why[256];
	char *args[] = { "iperf3", "--server", "--port", port, "--forceflush", NULL };

	if (argc)
		die_usage("iperf-server: unexpected operand '%s'", argv[0]);
	snprintf(port, sizeof(port), "%u", o->port);
	if (getuid() == 0 && (setgroups(0, NULL) || setgid(65534) || setuid(65534))) {
		note("iperf-server: cannot become nobody: %s", strerror(errno));
		return EXIT_FAIL;
	}
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	fprintf(stderr, "iperf-server: iperf3's server on port %s (as nobody); bootbench burnin --iperf=THIS-HOST:%s "
		"on the others\n", port, port);
	execvp(args[0], args);	/* consent: iperf3's server writes no disk */
	if (errno == ENOENT && pack_missing_note("iperf3", why, sizeof(why)))
		note("iperf-server: cannot run iperf3: %s", why);
	else
		note("iperf-server: cannot run iperf3: %s", strerror(errno));
	return EXIT_FAIL;
}

static const struct arg iperf_server_args[] = {
	{ .name = "--port", .kind = ARG_UINT, .offset = ARG_AT(struct iperf_server_opts, port), .meta = "N",
	  .help = "the port to listen on [5201]", .min = 1024, .max = 65535 },
	{ NULL },
};

const struct command iperf_server_command = {
	.name = "iperf-server",
	.summary = "iperf3's server: the peer of other machines' network burn-in",
	.usage = "[--port=N]",
	.help = "Runs iperf3's server (as nobody) until it is stopped, so that this machine is the\n"
		"peer of other machines' network burn-in: bootbench burnin --components=net\n"
		"--iperf=THIS-HOST[:PORT] there. bootbench.iperf_server=on starts it at boot.\n",
	.exit_status = "1 iperf3 could not be started, 2 bad input; otherwise iperf3's own.",
	.args = iperf_server_args,
	.opts_size = sizeof(struct iperf_server_opts),
	.defaults = &iperf_server_defaults,
	.run = iperf_server_main,
};
