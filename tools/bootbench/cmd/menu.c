// SPDX-License-Identifier: MIT
/*
 * menu.c - `bootbench menu`: the consoles' menu in any terminal, an ssh
 * login's included (bootbench.ssh_key), so an operator at a desk has the
 * same screens as one at the machine. The menu is the image's dialog
 * script; this finds it a terminal description the image has (an ssh
 * client's TERM may name one it lacks: then xterm's, which every terminal
 * program understands) and runs it in place.
 * Its flags and help: the declaration at the end (lib/args.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/args.h"
#include "lib/util.h"

#define MENU_PROGRAM "/usr/libexec/bootbench/menu"
#define TERMINFO_DIR "/usr/share/terminfo"

/* Whether the image has TERM's description (TERMINFO_DIR/t/TERM); TERM a plain name. */
static int have_terminfo(const char *term)
{
	char path[512];

	if (!term || !*term || strchr(term, '/') || strstr(term, ".."))
		return 0;
	snprintf(path, sizeof(path), "%s/%c/%s", TERMINFO_DIR, term[0], term);
	return access(path, R_OK) == 0;
}

static int menu_main(void *opts, int argc, char **argv)
{
	(void)opts;
	(void)argv;
	if (argc)
		die_usage("menu: takes no operands");
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		die_usage("menu: needs a terminal (ssh -t, or a console)");
	if (access(MENU_PROGRAM, X_OK))
		die_usage("menu: %s is not here: the menu is the image's (boot bootbench)", MENU_PROGRAM);
	setenv("TERMINFO", TERMINFO_DIR, 1);
	if (!have_terminfo(getenv("TERM")))
		setenv("TERM", "xterm", 1);
	execl(MENU_PROGRAM, MENU_PROGRAM, (char *)NULL);	/* consent: its writes go through bootbench's gate */
	note("menu: cannot run %s: %s", MENU_PROGRAM, strerror(errno));
	return EXIT_FAIL;
}

static const struct arg menu_args[] = {
	{ NULL },
};

const struct command menu_command = {
	.name = "menu",
	.summary = "the consoles' menu, in this terminal (an ssh login's too)",
	.usage = "",
	.help = "Runs the menu the consoles show (dialog, 80x24, keyboard only) in this terminal:\n"
		"over ssh (bootbench.ssh_key) an operator gets the same screens as at the\n"
		"machine, a running burn-in's included. A TERM the image has no description\n"
		"for is shown as xterm. 'Shell' leaves it; exit there comes back.\n",
	.exit_status = "",
	.args = menu_args,
	.opts_size = 0,
	.run = menu_main,
};
