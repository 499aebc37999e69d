// SPDX-License-Identifier: MIT
/* refusals.c - what no job may say, whoever runs it (refusals.h). */
#include "job/refusals.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "job/options.h"
#include "lib/util.h"

/*
 * Options whose value names a program, an engine, a socket or a file to
 * write: on the command line they must be written in full and with their
 * value after '=', so that bootbench reads the value fio would use.
 * (proto is fio's alias of the net engines' protocol.)
 */
static const char *const guarded_options[] = {
	"ioengine", "exec_prerun", "exec_postrun", "protocol", "proto", "hostname", "filename",
	"write_lat_log", "write_bw_log", "write_iops_log", "write_hist_log", "write_iolog",
};

/* fio's options whose value is a log file's name, or the prefix of one (fio writes write_iolog as named) */
static const char *const log_options[] = {
	"write_lat_log", "write_bw_log", "write_iops_log", "write_hist_log", "write_iolog",
};

/*
 * fio's own command-line options (fio 3.33, init.c l_opts), not a job's:
 * bootbench hands fio job options only. Some load code (--enghelp=LIB),
 * run programs (--trigger), reach the network (--client, --server) or
 * write files (--aux-path, --bandwidth-log); bootbench's own --output,
 * --output-format, --parse-only and --help are taken before these.
 */
static const char *const fio_own_options[] = {
	"output", "latency-log", "bandwidth-log", "minimal", "output-format", "append-terse", "version", "help",
	"cmdhelp", "enghelp", "showcmd", "readonly", "eta", "eta-interval", "eta-newline", "debug", "parse-only",
	"section", "inflate-log", "alloc-size", "profile", "warnings-fatal", "max-jobs", "terse-version", "server",
	"server-internal", "daemonize", "client", "remote-config", "cpuclock-test", "crctest", "memcpytest",
	"idle-prof", "status-interval", "trigger-file", "trigger-timeout", "trigger", "trigger-remote", "aux-path",
	"merge-blktrace-only",
};

/* Folders no log goes in: device nodes and the kernel's settings */
static const char *const system_trees[] = { "/dev", "/proc", "/sys" };

static int listed(const char *const *list, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], key))
			return 1;
	return 0;
}

/*
 * The name in LIST that KEY is, or else begins (fio's getopt takes the
 * start of an option's name for the option), or NULL.
 */
static const char *abbreviates(const char *const *list, size_t n, const char *key)
{
	size_t len = strlen(key);

	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], key))
			return list[i];
	for (size_t i = 0; i < n; i++)
		if (!strncmp(list[i], key, len))
			return list[i];
	return NULL;
}

int is_log_option(const char *key)
{
	return listed(log_options, ARRAY_SIZE(log_options), key);
}

/* The tree of system_trees the absolute, normalized ABS lies in, or NULL. */
static const char *in_tree(const char *abs)
{
	for (size_t i = 0; i < ARRAY_SIZE(system_trees); i++) {
		size_t n = strlen(system_trees[i]);

		if (!strncmp(abs, system_trees[i], n) && (abs[n] == '/' || !abs[n]))
			return system_trees[i];
	}
	return NULL;
}

/* PATH made absolute from the working folder, with "." and ".." and repeated '/' resolved by their letters. */
static int normalize(const char *path, char *out, size_t len)
{
	char buf[2 * PATH_MAX], *save, *c;
	size_t o = 0;

	if (path[0] == '/')
		snprintf(buf, sizeof(buf), "%s", path);
	else if (!getcwd(buf, PATH_MAX) || strlen(buf) + strlen(path) + 2 > sizeof(buf))
		return -1;
	else
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "/%s", path);
	out[0] = 0;
	for (c = strtok_r(buf, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (!strcmp(c, "."))
			continue;
		if (!strcmp(c, "..")) {
			char *up = strrchr(out, '/');

			if (up)
				*up = 0;
			o = strlen(out);
			continue;
		}
		if (o + strlen(c) + 2 > len)
			return -1;
		o += (size_t)snprintf(out + o, len - o, "/%s", c);
	}
	if (!o)
		snprintf(out, len, "/");
	return 0;
}

/*
 * Where a file named by PATH would be made: the tree of system_trees it
 * is in, by its letters, or through links by the nearest folder above it
 * that exists (the file's own name is new, so only its folders are
 * followed). NULL: none; "" when the path cannot be read that far.
 */
static const char *system_tree(const char *path)
{
	char abs[PATH_MAX], real[PATH_MAX];
	const char *tree;
	char *slash;

	if (normalize(path, abs, sizeof(abs)))
		return "";
	tree = in_tree(abs);
	while (!tree && (slash = strrchr(abs, '/'))) {
		if (slash == abs)
			abs[1] = 0;
		else
			*slash = 0;
		if (realpath(abs, real))
			return in_tree(real);
		if (slash == abs)
			break;
	}
	return tree;
}

/* KEY's log file PATH; FROM_NAME: PATH is the job's name, the prefix of a log option given no value */
static int refuse_log_path(const char *key, const char *path, int from_name)
{
	const char *tree = system_tree(path);

	if (!tree)
		return 0;
	if (!*tree)
		return set_err("%s=%s: a path too long to check", key, path);
	if (from_name)
		return set_err("%s: without a value its prefix is the job's name '%s', which lies under %s: logs are "
			       "files, never written under /dev, /proc or /sys", key, path, tree);
	return set_err("%s=%s: lies under %s: logs are files, never written under /dev, /proc or /sys", key, path, tree);
}

int refuse_log_name(const char *key, const char *name)
{
	return refuse_log_path(key, name, 1);
}

/*
 * Only engines built into bootbench or fio, named as they are: fio takes
 * any other name for a library and loads it (dlopen), which runs its code;
 * a job file can write such a library first (buffer_pattern) and load it
 * next. fio's external: form is refused in options.c's table.
 */
static int refuse_engine(const char *val)
{
	size_t len = strlen(val);
	char list[256];

	if (engine_refusal(val))
		return set_err("ioengine=%s: %s", val, engine_refusal(val));
	if (strchr(val, '/') || (len >= 3 && !strcmp(val + len - 3, ".so")) || strstr(val, ".so."))
		return set_err("ioengine=%s: a library for fio to load, not an engine built into it: no program may be "
			       "loaded, only built-in engines by their names", val);
	if (!engine_known(val)) {
		engine_list(list, sizeof(list));
		return set_err("invalid value '%s' for option 'ioengine': expected one of %s, or one of fio's "
			       "built-in engines by its name (fio would load any other name as a library)", val, list);
	}
	return 0;
}

/* protocol=unix (or unix followed by fio's ',' or ':' options) */
static int is_unix(const char *val)
{
	return !strncmp(val, "unix", 4) && (!val[4] || val[4] == ',' || val[4] == ':');
}

/* Each name of filename= as fio splits them: a socket is refused, whatever the engine. */
static int refuse_sockets(const char *val)
{
	char *list = xstrdup(val), *cursor = list, *name;
	struct stat st;
	int rc = 0;

	while (!rc && (name = filename_next(&cursor)))
		if (*name && !stat(name, &st) && S_ISSOCK(st.st_mode))
			rc = set_err("filename=%s: a socket, not a disk or a file: a path socket reaches outside "
				     "the job's world", name);
	free(list);
	return rc;
}

int refuse_option(const char *key, const char *val)
{
	if (!strcmp(key, "ioengine"))
		return refuse_engine(val);
	if (!strcmp(key, "exec_prerun") || !strcmp(key, "exec_postrun"))
		return set_err("%s=%s: refused to run a program: nothing bootbench starts may run another program",
			       key, val);
	if ((!strcmp(key, "protocol") || !strcmp(key, "proto")) && is_unix(val))
		return set_err("%s=%s: a unix socket is a path outside the job's world (and the network engines are "
			       "refused)", key, val);
	/* with protocol=unix, hostname names the socket's path; no host's name has a '/' */
	if (!strcmp(key, "hostname") && strchr(val, '/'))
		return set_err("hostname=%s: a path names a unix socket, outside the job's world", val);
	if (!strcmp(key, "filename"))
		return refuse_sockets(val);
	if (is_log_option(key) && *val)
		return refuse_log_path(key, val, 0);
	return 0;
}

int refuse_cli_option(const char *key, int has_value)
{
	const char *full;

	if (!*key)
		return 0;	/* "--=X": unsupported, as any unknown option */
	if (opt_find(key) >= 0 && !listed(guarded_options, ARRAY_SIZE(guarded_options), key))
		return 0;	/* bootbench's own, read as fio reads it */
	if (opt_find(key) < 0 && (full = abbreviates(fio_own_options, ARRAY_SIZE(fio_own_options), key))) {
		if (strcmp(full, key))
			return set_err("option '--%s' is fio's own (fio takes it for --%s), not a job's: bootbench hands "
				       "fio job options only", key, full);
		return set_err("option '--%s' is fio's own, not a job's: bootbench hands fio job options only", key);
	}
	if (!listed(guarded_options, ARRAY_SIZE(guarded_options), key) &&
	    (full = abbreviates(guarded_options, ARRAY_SIZE(guarded_options), key)))
		return set_err("option '--%s': fio would take it for --%s (its command line accepts the start of an "
			       "option's name): write the name in full", key, full);
	if (!has_value && listed(guarded_options, ARRAY_SIZE(guarded_options), key))
		return set_err("option '--%s' needs its value after '=' (--%s=VALUE): fio would take the next word "
			       "for its value, bootbench for a job file", key, key);
	return 0;
}

int refuse_cli_word(const char *arg)
{
	if (!strcmp(arg, "--"))
		return set_err("'--': fio reads the words after it as job files, bootbench as options: leave it out");
	if (arg[0] == '-' && arg[1] != '-')
		return set_err("'%s': fio reads a word starting with '-' as an option, bootbench as a job file: "
			       "name a job file ./%s, an option --NAME=VALUE", arg, arg);
	return 0;
}
