// SPDX-License-Identifier: MIT
/*
 * main.c - bootbench: the storage benchmark and rescue tool of the
 * bootbench appliance. One static binary; its commands are the table made
 * from cmd/commands.h, each declared once in its own file (lib/args.h).
 * `help` and `version` live here: they are about the table itself.
 *
 * usage: bootbench COMMAND [ARGS...]
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/args.h"
#include "lib/util.h"

#define COMMAND(id) extern const struct command id##_command;
#include "cmd/commands.h"
#undef COMMAND

static const struct command *const commands[] = {
#define COMMAND(id) &id##_command,
#include "cmd/commands.h"
#undef COMMAND
};

static const struct command *find(const char *name)
{
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

struct help_opts {
	int man;
};

/*
 * `bootbench help`: the commands; `help CMD` is `CMD --help`; `help --man
 * CMD` prints CMD's man page (troff) from the same declaration, and `help
 * --man` bootbench(1): what make docs writes to docs/man/.
 */
static void man_text(FILE *f, const char *text)
{
	int bol = 1;

	for (; text && *text; text++) {
		/* troff: a line must not start with . or ', and a backslash is escaped */
		if (bol && (*text == '.' || *text == '\''))
			fputs("\\&", f);
		if (*text == '\\')
			fputs("\\e", f);
		else if (*text == '-')
			fputs("\\-", f);
		else
			fputc(*text, f);
		bol = *text == '\n';
	}
}

static void man_page(FILE *f, const struct command *c)
{
	const char *line;

	fputs(".TH BOOTBENCH", f);
	if (c) {
		fputs("\\-", f);
		for (line = c->name; *line; line++)
			if (*line == '-')
				fputs("\\-", f);
			else
				fputc(toupper((unsigned char)*line), f);
	}
	fprintf(f, " 1 \"\" \"bootbench %s\" \"bootbench\"\n", BB_VERSION);
	if (!c) {
		unsigned i;

		fputs(".SH NAME\nbootbench \\- storage benchmark and rescue tool of the bootbench appliance\n"
		      ".SH SYNOPSIS\n.B bootbench\nCOMMAND [ARGS...]\n.SH COMMANDS\n", f);
		for (i = 0; i < ARRAY_SIZE(commands); i++) {
			fprintf(f, ".TP\n.BR bootbench\\-%s (1)\n", commands[i]->name);
			man_text(f, commands[i]->summary);
			fputc('\n', f);
		}
		fputs(".SH EXIT STATUS\n0 ok, 1 failure of the thing measured or an I/O error, 2 bad input "
		      "(nothing written).\n.SH SEE ALSO\n`bootbench COMMAND \\-\\-help' prints each page.\n", f);
		return;
	}
	fprintf(f, ".SH NAME\nbootbench\\-%s \\- ", c->name);
	man_text(f, c->summary);
	fputs("\n.SH SYNOPSIS\n", f);
	if (!*c->usage)
		fprintf(f, ".B bootbench\n%s\n", c->name);
	for (line = c->usage; *line;) {
		size_t n = strcspn(line, "\n");
		char *one = strndup(line, n);

		fprintf(f, ".%s\n", *one == ' ' ? "br" : "br\n.B bootbench");
		if (*one != ' ')
			fprintf(f, "%s ", c->name);
		man_text(f, *one == ' ' ? one + 1 : one);
		fputc('\n', f);
		free(one);
		line += n + (line[n] == '\n');
	}
	fputs(".SH DESCRIPTION\n", f);
	man_text(f, c->help);
	if (c->args && c->args->name) {
		const struct arg *a;

		fputs(".SH OPTIONS\n", f);
		for (a = c->args; a->name; a++) {
			fputs(".TP\n.B ", f);
			man_text(f, a->name);
			if (a->kind != ARG_FLAG) {
				fputc('=', f);
				man_text(f, a->meta);
			}
			fputc('\n', f);
			man_text(f, a->help);
			fputc('\n', f);
		}
	}
	if (c->more_help) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		if (m) {
			c->more_help(m);
			fclose(m);
			fputs(".SH MORE\n.nf\n", f);
			man_text(f, buf + (buf[0] == '\n'));
			fputs(".fi\n", f);
			free(buf);
		}
	}
	fputs(".SH EXIT STATUS\n", f);
	man_text(f, c->exit_status && *c->exit_status ? c->exit_status :
		 "0 ok, 1 failure, 2 bad input (nothing written).");
	fputs("\n.SH SEE ALSO\n.BR bootbench (1)\n", f);
}

static int help_main(void *opts, int argc, char **argv)
{
	struct help_opts *o = opts;
	const struct command *c = argc ? find(argv[0]) : NULL;
	unsigned i;

	if (argc > 1 || (argc && !c))
		die_usage("help: %s: no such command (see 'bootbench help')", argv[argc > 1 ? 1 : 0]);
	if (o->man) {
		man_page(stdout, c);
		return EXIT_OK;
	}
	if (c) {
		args_help(stdout, c);
		return EXIT_OK;
	}
	printf("usage: bootbench COMMAND [ARGS...]\n\nCommands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		printf("  %-12s %s\n", commands[i]->name, commands[i]->summary);
	printf("\n'bootbench COMMAND --help' tells more. Exit status: 0 ok, 1 failure, 2 bad input.\n");
	return EXIT_OK;
}

static const struct arg help_args[] = {
	{ .name = "--man", .kind = ARG_FLAG, .offset = ARG_AT(struct help_opts, man),
	  .help = "the man page (troff) of COMMAND, or bootbench(1)" },
	{ NULL },
};

const struct command help_command = {
	.name = "help",
	.summary = "list the commands, or one command's help",
	.usage = "[--man] [COMMAND]",
	.help = "Lists the commands; with COMMAND, prints its help (what COMMAND --help prints);\n"
		"with --man, the same as a man page.\n",
	.args = help_args,
	.opts_size = sizeof(struct help_opts),
	.run = help_main,
};

static int version_main(void *opts, int argc, char **argv)
{
	if (argc)
		die_usage("version: unknown argument '%s'", argv[0]);
	printf("%s %s\n", BB_NAME, BB_VERSION);
	return EXIT_OK;
}

const struct command version_command = {
	.name = "version",
	.summary = "print the version",
	.usage = "",
	.help = "Prints bootbench's version.\n",
	.run = version_main,
};

int main(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2) {
		help_main(&(struct help_opts){ 0 }, 0, NULL);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return help_main(&(struct help_opts){ 0 }, 0, NULL);
	if (!strcmp(argv[1], "--version"))
		return version_main(NULL, 0, NULL);
	c = find(argv[1]);
	if (!c)
		die_usage("unknown command '%s' (see 'bootbench help')", argv[1]);
	return args_run(c, argc - 2, argv + 2);
}
