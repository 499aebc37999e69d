/* SPDX-License-Identifier: MIT */
/*
 * args.h - every command declares itself once, as toybox's commands do:
 * its name, a one-line summary, its usage lines, what it does, and its
 * flags as a table; one parser and one help printer here do the rest, and
 * `bootbench help`, `bootbench CMD --help`, the man pages and the docs'
 * tables are printed from the same declarations (scripts/make-docs.sh;
 * tests/cli/help.sh keeps them equal).
 *
 * Flags are `--name=VALUE`, `--name` (ARG_FLAG) or a short `-q`; "--" ends
 * them and is kept among the operands (chroot's `-- COMMAND`). Bad input is
 * one line, exit 2: an unknown flag, a flag without its value, a value for
 * a flag that takes none, a value given twice (but ARG_MANY), a number out
 * of its range.
 */
#ifndef BB_ARGS_H
#define BB_ARGS_H

#include <stddef.h>
#include <stdio.h>

enum arg_kind {
	ARG_FLAG,	/* int: 1 when given */
	ARG_STR,	/* const char *: the value as given ("" allowed with ARG_EMPTY) */
	ARG_UINT,	/* unsigned: a whole number from min to max */
};

enum arg_flags {
	ARG_MANY = 1 << 0,	/* may be given more than once: the last one counts */
	ARG_EMPTY = 1 << 1,	/* ARG_STR: an empty value is a value */
};

struct arg {
	const char *name;	/* "--write" or "-q" */
	enum arg_kind kind;
	size_t offset;		/* where it goes in the command's options */
	const char *meta;	/* the value's name in the help: "DEV[,DEV]" */
	const char *help;	/* one line; more lines after '\n' are indented */
	unsigned long min, max;	/* ARG_UINT's range */
	unsigned flags;		/* enum arg_flags */
};

/* The offset of FIELD in the command's options struct TYPE. */
#define ARG_AT(type, field) offsetof(type, field)

struct command {
	const char *name;
	const char *summary;	/* `bootbench help`'s line */
	const char *usage;	/* the synopsis, one line per form, without "usage: bootbench CMD "; a
				   line starting with a blank explains those above it */
	const char *help;	/* what it does, paragraphs of text */
	void (*more_help)(FILE *f);	/* NULL, or what its tables add after the flags (raid's levels) */
	const char *exit_status;	/* "0 ..., 1 ..., 2 bad input", "" for the common contract */
	const struct arg *args;	/* ends with { NULL } */
	size_t opts_size;	/* its options struct: zeroed before parsing, or DEFAULTS' copy */
	const void *defaults;	/* NULL, or the options before any flag (opts_size bytes) */
	/* runs with the parsed options and the operands left (and "--" among them) */
	int (*run)(void *opts, int argc, char **argv);
	int raw;		/* the command reads its own arguments (run: fio's options) */
};

/*
 * Parses ARGV (the command's, after its name) into OPTS by C's table; the
 * operands are moved to the front of ARGV and their count returned. Bad
 * input dies with one line naming it (exit 2); --help and -h print the help
 * and exit 0.
 */
int args_parse(const struct command *c, int argc, char **argv, void *opts);
/* Runs C with ARGV (its arguments, after its name): parsed, then its run; returns its exit status. */
int args_run(const struct command *c, int argc, char **argv);
/* `bootbench CMD --help`: usage, what it does, the flags, the exit status. */
void args_help(FILE *f, const struct command *c);
/* The flags as a table: "  --write=DEV[,DEV]  mount these ..." lines. */
void args_flags(FILE *f, const struct command *c);

#endif
