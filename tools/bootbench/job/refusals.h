/* SPDX-License-Identifier: MIT */
/*
 * refusals.h - what no job may say, whoever runs it: bootbench's engine or
 * the image's fio (job/delegate.h). Both read a job through the one walk
 * of jobfile.c, and that walk asks these first, for every option wherever
 * it is written (a job file, an include, the command line), before any
 * other check: an earlier error of bootbench's is what sends a job to fio,
 * so it must not hide what fio would then be given (issue 44).
 *
 * Refused: an engine that is not built into bootbench or fio, by its name
 * (fio would load anything else as a library: a program); exec_prerun and
 * exec_postrun (programs); a unix socket (protocol=unix, a path for
 * hostname=, a socket as filename=), a path outside the job's world; a log
 * under /dev, /proc or /sys; and on the command line whatever fio reads
 * otherwise than bootbench: its own options (--enghelp loads an engine),
 * an abbreviation of a guarded option (fio's getopt takes --ioeng for
 * --ioengine), a guarded option's value in the next argument, '--' and
 * words starting with '-'.
 *
 * Each returns 0, or -1 with bb_err naming the option, the value and why
 * (the caller adds where it was written).
 */
#ifndef BB_REFUSALS_H
#define BB_REFUSALS_H

/* KEY=VAL as written (VAL "" when none was). */
int refuse_option(const char *key, const char *val);
/* Whether KEY is one of the log options whose value is a file name prefix. */
int is_log_option(const char *key);
/*
 * A log option given without a value takes the job's name as its prefix,
 * as in fio: the name NAME checked as that prefix.
 */
int refuse_log_name(const char *key, const char *name);
/* A command-line "--KEY[=VALUE]"; HAS_VALUE: it had the '='. */
int refuse_cli_option(const char *key, int has_value);
/* A command-line word not starting with "--" (bootbench reads it as a job file), or "--" itself. */
int refuse_cli_word(const char *arg);

#endif
