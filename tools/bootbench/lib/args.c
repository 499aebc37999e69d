// SPDX-License-Identifier: MIT
/* args.c - the one parser and help printer of every command's flag table (args.h). */
#include "lib/args.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

static const struct arg *find(const struct command *c, const char *a, size_t n)
{
	const struct arg *arg;

	for (arg = c->args; arg && arg->name; arg++)
		if (strlen(arg->name) == n && !strncmp(arg->name, a, n))
			return arg;
	return NULL;
}

static void set_uint(const struct command *c, const struct arg *arg, const char *v, void *field)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(v, &end, 10);
	if (!*v || *end || *v == '-' || *v == '+' || errno || n < arg->min || n > arg->max)
		die_usage("%s: %s=%s: expected a whole number from %lu to %lu", c->name, arg->name, v, arg->min,
			  arg->max);
	*(unsigned *)field = (unsigned)n;
}

int args_parse(const struct command *c, int argc, char **argv, void *opts)
{
	unsigned char given[128] = { 0 };
	int i, operands = 0, rest = 0;

	for (i = 0; i < argc; i++) {
		char *a = argv[i], *eq;
		const struct arg *arg;
		void *field;
		size_t n;

		if (rest || a[0] != '-' || !a[1]) {
			argv[operands++] = a;	/* "-" alone is an operand (standard input) */
			continue;
		}
		if (!strcmp(a, "--")) {
			rest = 1;
			argv[operands++] = a;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			args_help(stdout, c);
			exit(EXIT_OK);
		}
		eq = strchr(a, '=');
		n = eq ? (size_t)(eq - a) : strlen(a);
		arg = find(c, a, n);
		if (!arg)
			die_usage("%s: unknown option '%.*s' (see 'bootbench %s --help')", c->name, (int)n, a, c->name);
		if (given[arg - c->args]++ && !(arg->flags & ARG_MANY))
			die_usage("%s: %s given twice", c->name, arg->name);
		field = (char *)opts + arg->offset;
		switch (arg->kind) {
		case ARG_FLAG:
			if (eq)
				die_usage("%s: %s takes no value", c->name, arg->name);
			*(int *)field = 1;
			break;
		case ARG_STR:
			if (!eq)
				die_usage("%s: %s needs a value: %s=%s", c->name, arg->name, arg->name, arg->meta);
			if (!eq[1] && !(arg->flags & ARG_EMPTY))
				die_usage("%s: %s= is empty: expected %s=%s", c->name, arg->name, arg->name, arg->meta);
			*(const char **)field = eq + 1;
			break;
		case ARG_UINT:
			if (!eq)
				die_usage("%s: %s needs a value: %s=%s", c->name, arg->name, arg->name, arg->meta);
			set_uint(c, arg, eq + 1, field);
			break;
		}
	}
	argv[operands] = NULL;
	return operands;
}

int args_run(const struct command *c, int argc, char **argv)
{
	void *opts;
	int n;

	if (c->raw)
		return c->run(NULL, argc, argv);
	opts = xcalloc(1, c->opts_size ? c->opts_size : 1);
	if (c->defaults)
		memcpy(opts, c->defaults, c->opts_size);
	n = args_parse(c, argc, argv, opts);
	n = c->run(opts, n, argv);
	free(opts);
	return n;
}

/* TEXT with every line after the first indented by INDENT spaces. */
static void indented(FILE *f, const char *text, int indent)
{
	for (; *text; text++) {
		fputc(*text, f);
		if (*text == '\n' && text[1])
			fprintf(f, "%*s", indent, "");
	}
}

void args_flags(FILE *f, const struct command *c)
{
	const struct arg *arg;
	int width = 0;

	for (arg = c->args; arg && arg->name; arg++) {
		int w = (int)strlen(arg->name) + (arg->kind != ARG_FLAG ? 1 + (int)strlen(arg->meta) : 0);

		if (w > width && w <= 24)
			width = w;
	}
	for (arg = c->args; arg && arg->name; arg++) {
		char flag[128];

		snprintf(flag, sizeof(flag), "%s%s%s", arg->name, arg->kind != ARG_FLAG ? "=" : "",
			 arg->kind != ARG_FLAG ? arg->meta : "");
		if ((int)strlen(flag) > width)
			fprintf(f, "  %s\n  %*s  ", flag, width, "");
		else
			fprintf(f, "  %-*s  ", width, flag);
		indented(f, arg->help, width + 4);
		fputc('\n', f);
	}
}

void args_help(FILE *f, const struct command *c)
{
	const char *line = c->usage;

	fputs("usage: ", f);
	if (!*line)
		fprintf(f, "bootbench %s\n", c->name);
	while (*line) {
		size_t n = strcspn(line, "\n");

		/* a line that starts with a blank explains the ones above it */
		if (*line == ' ')
			fprintf(f, "       %.*s\n", (int)n - 1, line + 1);
		else
			fprintf(f, "%sbootbench %s %.*s\n", line == c->usage ? "" : "       ", c->name, (int)n, line);
		line += n + (line[n] == '\n');
	}
	if (c->help && *c->help)
		fprintf(f, "\n%s", c->help);
	if (c->args && c->args->name) {
		fputs("\nOptions:\n", f);
		args_flags(f, c);
	}
	if (c->more_help)
		c->more_help(f);
	fprintf(f, "\nExit status: %s\n",
		c->exit_status && *c->exit_status ? c->exit_status : "0 ok, 1 failure, 2 bad input (nothing written).");
}
