// SPDX-License-Identifier: MIT
/* delegate.c - job files run by the image's fio in the sandbox (delegate.h). */
#include "job/delegate.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "job/jobs.h"
#include "job/run.h"
#include "lib/util.h"
#include "safety/consent.h"
#include "safety/sandbox.h"
#include "safety/writable.h"

#define MAX_PATHS 64
#define MAX_ARGS 256

/* What the job names, from its options as written (jobset_scan). */
struct named {
	char *files[MAX_PATHS];		/* filename= values, split at ':' */
	char *dirs[MAX_PATHS];		/* directory= values */
	char *outputs[MAX_PATHS];	/* the logs' prefixes (write_*_log=), write_iolog= */
	unsigned nfiles, ndirs, noutputs, too_many;
	char refused[256];		/* an ioengine= nothing here runs, and why */
	int writes;			/* some rw= other than read and randread */
};

/* fio's ':' separates names; "\:" is a ':' in one */
static void split_names(const char *val, char **out, unsigned *n, unsigned *too_many)
{
	char buf[4096];
	size_t o = 0;

	for (const char *p = val;; p++) {
		if (*p == '\\' && p[1] == ':') {
			if (o + 1 < sizeof(buf))
				buf[o++] = ':';
			p++;
			continue;
		}
		if (*p == ':' || !*p) {
			buf[o] = 0;
			if (o && *n < MAX_PATHS)
				out[(*n)++] = xstrdup(buf);
			else if (o)
				*too_many = 1;
			o = 0;
			if (!*p)
				break;
			continue;
		}
		if (o + 1 < sizeof(buf))
			buf[o++] = *p;
	}
}

static void collect(const char *key, const char *val, void *arg)
{
	struct named *nm = arg;

	/* fio's $keywords in a name ($pagesize, $ncpus, arithmetic): the name it becomes is fio's to
	 * compute (with bc, which the sandbox does not run), not bootbench's to check */
	if ((!strcmp(key, "filename") || !strcmp(key, "directory")) && strchr(val, '$') && !nm->refused[0])
		snprintf(nm->refused, sizeof(nm->refused), "%s=%s: fio's $keywords in a name make a name bootbench "
			 "cannot check before fio runs; write the name out", key, val);

	if (!strcmp(key, "filename"))
		split_names(val, nm->files, &nm->nfiles, &nm->too_many);
	else if (!strcmp(key, "directory"))
		split_names(val, nm->dirs, &nm->ndirs, &nm->too_many);
	else if ((!strncmp(key, "write_", 6) && strstr(key, "log")) && *val) {
		if (nm->noutputs < MAX_PATHS)
			nm->outputs[nm->noutputs++] = xstrdup(val);
		else
			nm->too_many = 1;
	}
	else if ((!strcmp(key, "rw") || !strcmp(key, "readwrite")) &&
		 strncmp(val, "read", 4) && strncmp(val, "randread", 8))
		nm->writes = 1;
	else if (!strcmp(key, "ioengine") && engine_refusal(val) && !nm->refused[0])
		snprintf(nm->refused, sizeof(nm->refused), "ioengine=%s: %s", val, engine_refusal(val));
}

static void named_free(struct named *nm)
{
	for (unsigned i = 0; i < nm->nfiles; i++)
		free(nm->files[i]);
	for (unsigned i = 0; i < nm->ndirs; i++)
		free(nm->dirs[i]);
	for (unsigned i = 0; i < nm->noutputs; i++)
		free(nm->outputs[i]);
	nm->nfiles = nm->ndirs = nm->noutputs = 0;
}

static void dirs_free(const char **dirs)
{
	for (; *dirs; dirs++)
		free((char *)*dirs);
}

static const char *fio_path(void)
{
	const char *p = getenv("BOOTBENCH_FIO");

	return p && *p ? p : "/usr/bin/fio";
}

/* The key of "--key=value" when it is one of bootbench's own run options (fio does not know them). */
static int is_run_option(const char *arg)
{
	char key[64];
	size_t n;
	int idx;

	if (strncmp(arg, "--", 2))
		return 0;
	n = strcspn(arg + 2, "=");
	if (n >= sizeof(key))
		return 0;
	memcpy(key, arg + 2, n);
	key[n] = 0;
	idx = opt_find(key);
	return idx >= 0 && option_table[idx].scope == SCOPE_RUN;
}

/* fio's arguments: FIRST..., then every argument of run's but bootbench's own options; -1 when too many. */
static int fio_args(char **out, const char *const *first, int argc, char **argv)
{
	unsigned n = 0;

	out[n++] = (char *)fio_path();
	for (; *first; first++)
		out[n++] = (char *)*first;
	for (int i = 0; i < argc; i++) {
		if (is_run_option(argv[i]))
			continue;
		if (n + 1 >= MAX_ARGS)
			return set_err("more than %d arguments for fio", MAX_ARGS - 8);
		out[n++] = argv[i];
	}
	out[n] = NULL;
	return 0;
}

static int check_fio(void)
{
	struct stat st;
	const char *fio = fio_path();

	if (stat(fio, &st) || !S_ISREG(st.st_mode) || access(fio, X_OK))
		return set_err("the image's fio (%s) is not here", fio);
	return 0;
}

/* A memory file for what fio writes; -1 with bb_err. */
static int memory_file(const char *name)
{
	int fd = memfd_create(name, MFD_CLOEXEC);

	if (fd < 0)
		return set_err("memfd_create: %s", strerror(errno));
	return fd;
}

/* The whole of a memory file, NUL-ended (free it). */
static char *read_all(int fd, size_t *len)
{
	off_t size = lseek(fd, 0, SEEK_END);
	char *buf = xcalloc(1, size > 0 ? (size_t)size + 1 : 1);
	ssize_t got = size > 0 ? pread(fd, buf, (size_t)size, 0) : 0;

	*len = got > 0 ? (size_t)got : 0;
	buf[*len] = 0;
	return buf;
}

int delegate_check(int argc, char **argv)
{
	static const char *const first[] = { "--parse-only", NULL };
	char *args[MAX_ARGS], *out, *line, cwd[PATH_MAX];
	/* in the working folder, read-only: relative job files and includes are found */
	struct sandbox sb = { .name = "fio", .workdir = cwd, .no_network = 1 };
	struct named nm = { .nfiles = 0 };
	size_t len;
	int fd, rc;

	/* an engine nothing here runs, wherever the job names it */
	rc = jobset_scan(argc, argv, collect, &nm);
	named_free(&nm);	/* its names: only an engine's refusal is wanted here */
	if (nm.refused[0]) {
		set_err("%s", nm.refused);
		return -2;
	}
	if (rc)
		return -1;
	if (check_fio())
		return -1;
	if (!getcwd(cwd, sizeof(cwd)))
		return set_err("the working folder: %s", strerror(errno));
	if (fio_args(args, first, argc, argv))
		return -1;
	fd = memory_file("fio-parse");
	if (fd < 0)
		return -1;
	sb.argv = args;
	sb.stdout_fd = fd;
	sb.stderr_fd = fd;
	mkdir("/run/bootbench", 0755);
	rc = sandbox_run(&sb);
	out = read_all(fd, &len);
	close(fd);
	/* fio's first complaint, or the sandbox's (in the same file), for the note */
	line = out + strspn(out, "\n");
	line[strcspn(line, "\n")] = 0;
	if (rc < 0 && *line)
		set_err("%s", line);
	else if (rc > 0)
		set_err("fio refuses it too: %s", *line ? line : "(it said nothing)");
	free(out);
	return rc ? -1 : 0;
}

/* Adds DIR (made absolute, links resolved) to the folders fio may write, once. */
static int add_dir(const char **dirs, unsigned *n, const char *dir)
{
	char real[PATH_MAX];
	struct stat st;

	if (!realpath(dir, real) || stat(real, &st) || !S_ISDIR(st.st_mode))
		return set_err("%s: not a folder fio could write in", dir);
	for (unsigned i = 0; i < *n; i++)
		if (!strcmp(dirs[i], real))
			return 0;
	if (*n + 1 >= MAX_PATHS)
		return set_err("more than %d folders", MAX_PATHS - 1);
	dirs[(*n)++] = xstrdup(real);
	dirs[*n] = NULL;
	return 0;
}

static int listed(const char *const *list, const char *path)
{
	for (; list && *list; list++)
		if (!strcmp(*list, path))
			return 1;
	return 0;
}

/*
 * Sorts what the job names into the sandbox's lists: block devices to read
 * (those not consented to for writing), folders to write (the working
 * folder, each directory=, the folder of each file named by its full path).
 * A disk must be named by its node in /dev (the sandbox's /dev holds those
 * nodes only, under the same names).
 */
static int plan(const struct named *nm, const char **write_devs, const char **read_devs, const char **dirs)
{
	unsigned nr = 0, nd = 0;
	char cwd[PATH_MAX];

	read_devs[0] = dirs[0] = NULL;
	if (nm->too_many)
		return set_err("the job names more than %d files or folders", MAX_PATHS);
	/* the working folder is writable only where the rule makes it one (not / nor a system folder) */
	if (!getcwd(cwd, sizeof(cwd)))
		return set_err("the working folder: %s", strerror(errno));
	if (writable_workdir()[0] && add_dir(dirs, &nd, cwd))
		return set_err("the working folder: %s", strerror(errno));
	for (unsigned i = 0; i < nm->ndirs; i++) {
		char probe[PATH_MAX + 8], why[600];

		/* a folder fio may write in: the rule as for a file in it */
		snprintf(probe, sizeof(probe), "%s/.probe", nm->dirs[i]);
		if (!writable_file(probe, why, sizeof(why)))
			return set_err("refusing directory=%s: %s", nm->dirs[i], why);
		if (add_dir(dirs, &nd, nm->dirs[i]))
			return set_err("directory=%s: not a folder", nm->dirs[i]);
	}
	/* the logs go where the job says, as bootbench's own runs write them */
	for (unsigned i = 0; i < nm->noutputs; i++) {
		const char *f = nm->outputs[i];
		char parent[PATH_MAX], why[600];

		if (!writable_file(f, why, sizeof(why)))
			return set_err("refusing to write a log: %s", why);
		if (f[0] != '/')
			continue;	/* in the working folder */
		snprintf(parent, sizeof(parent), "%.*s", (int)(strrchr(f, '/') - f), f);
		if (add_dir(dirs, &nd, parent[0] ? parent : "/"))
			return set_err("%s: its folder is not there", f);
	}
	for (unsigned i = 0; i < nm->nfiles; i++) {
		const char *f = nm->files[i];
		char real[PATH_MAX], parent[PATH_MAX];
		struct stat st;

		if (!stat(f, &st) && S_ISBLK(st.st_mode)) {
			if (!realpath(f, real) || strcmp(real, f) || strncmp(f, "/dev/", 5))
				return set_err("filename=%s: name the disk by its node in /dev (%s) for fio", f,
					       realpath(f, real) ? real : "?");
			if (listed(write_devs, f) || listed(read_devs, f))
				continue;
			/* as the gate says it for bootbench's own runs: before anything starts */
			if (nm->writes)
				return set_err("refusing to write %s: the job writes, name it in --destroy=%s to consent",
					       f, f);
			if (nr + 1 >= MAX_PATHS)
				return set_err("more than %d disks", MAX_PATHS - 1);
			read_devs[nr++] = f;
			read_devs[nr] = NULL;
			continue;
		}
		/* a file only read keeps its folder read-only; one written or made passes the rule */
		if (!nm->writes && !stat(f, &st))
			continue;
		{
			char why[600];

			if (!writable_file(f, why, sizeof(why)))
				return set_err("refusing to write a file: %s", why);
		}
		/* a relative name lands in each directory= there is (fio spreads the files over them) */
		for (unsigned k = 0; f[0] != '/' && k < nm->ndirs; k++) {
			char full[2 * PATH_MAX], why[600];

			snprintf(full, sizeof(full), "%s/%s", nm->dirs[k], f);
			if ((nm->writes || stat(full, &st)) && !writable_file(full, why, sizeof(why)))
				return set_err("refusing to write a file: %s", why);
		}
		/* a relative name in a folder of the working folder's: that folder too (a filesystem mounted
		 * there is read-only in the sandbox unless named) */
		if (f[0] != '/' && strchr(f, '/')) {
			snprintf(parent, sizeof(parent), "%.*s", (int)(strrchr(f, '/') - f), f);
			if (!stat(parent, &st) && S_ISDIR(st.st_mode) && add_dir(dirs, &nd, parent))
				return -1;
		}
		if (f[0] != '/' || (!strncmp(f, "/dev/", 5) && strncmp(f, "/dev/shm/", 9)))
			continue;	/* in the working folder or a directory= (both writable); /dev: fio's error */
		snprintf(parent, sizeof(parent), "%.*s", (int)(strrchr(f, '/') - f), f);
		if (add_dir(dirs, &nd, parent[0] ? parent : "/"))
			return set_err("filename=%s: its folder is not there", f);
	}
	return 0;
}

/* fio's normal output with its JSON inside ("{" to "}" at the start of lines): the two apart. */
static void split_output(char *all, char **json, size_t *json_len, char **normal, size_t *normal_len)
{
	char *start = !strncmp(all, "{\n", 2) ? all : strstr(all, "\n{\n");
	char *end;

	if (start && start != all)
		start++;
	end = start ? strstr(start, "\n}\n") : NULL;
	if (!start || !end) {
		*json = NULL;
		*json_len = 0;
		*normal = xstrdup(all);
		*normal_len = strlen(all);
		return;
	}
	end += 3;
	*json_len = (size_t)(end - start);
	*json = xcalloc(1, *json_len + 1);
	memcpy(*json, start, *json_len);
	(*json)[*json_len] = 0;
	*normal_len = (size_t)(start - all) + strlen(end);
	*normal = xcalloc(1, *normal_len + 1);
	memcpy(*normal, all, (size_t)(start - all));
	strcpy(*normal + (start - all), end);
}

/* The reports run was asked for, from fio's: where run writes its own. */
static int emit(const struct run_opts *run, const char *json, size_t json_len, const char *normal,
		size_t normal_len)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f)
		return set_err("out of memory");
	if (run->formats & FMT_NORMAL)
		fwrite(normal, 1, normal_len, f);
	if (run->formats & (FMT_JSON | FMT_JSONPLUS)) {
		if (!json)
			note("fio wrote no JSON report");
		else
			fwrite(json, 1, json_len, f);
	}
	fclose(f);
	rc = run_write_reports(run, buf, len, normal, normal_len);
	free(buf);
	return rc;
}

int delegate_run(int argc, char **argv, const struct run_opts *run, const char *why)
{
	const char *const first_json[] = { "--output-format=json,normal", "--eta=never", NULL };
	const char *const first_plus[] = { "--output-format=json+,normal", "--eta=never", NULL };
	const char *write_devs[MAX_PATHS] = { NULL }, *read_devs[MAX_PATHS], *dirs[MAX_PATHS];
	char *args[MAX_ARGS], *all, *json, *normal, cwd[PATH_MAX];
	struct named nm = { .nfiles = 0 };
	struct sandbox sb = { .name = "fio", .no_network = 1 };
	size_t len, json_len, normal_len;
	unsigned nw = 0;
	int fd, rc;

	if (check_fio())
		return EXIT_USAGE;
	/* the consent gate's checks for every disk it may write, before anything starts */
	if (run->destroy) {
		char *list = xstrdup(run->destroy), *save, *tok;

		if (consent_allow(run->destroy)) {
			set_err("--destroy: %s", bb_err);
			return EXIT_USAGE;
		}
		for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			if (nw + 1 >= MAX_PATHS) {
				set_err("--destroy: more than %d disks", MAX_PATHS - 1);
				return EXIT_USAGE;
			}
			if (consent_check(tok))
				return EXIT_USAGE;
			write_devs[nw++] = tok;
		}
		write_devs[nw] = NULL;
	}
	dirs[0] = NULL;
	/* what the job may write (safety/writable.h), as for bootbench's own runs; it works in --workdir */
	if (writable_init(run->workdir, run->write_fs))
		return EXIT_USAGE;
	if (run->workdir && chdir(run->workdir)) {
		set_err("--workdir=%s: %s", run->workdir, strerror(errno));
		return EXIT_USAGE;
	}
	rc = jobset_scan(argc, argv, collect, &nm) || plan(&nm, write_devs, read_devs, dirs);
	named_free(&nm);
	if (!rc && !getcwd(cwd, sizeof(cwd)))
		rc = set_err("the working folder: %s", strerror(errno));
	if (!rc)
		rc = fio_args(args, run->formats & FMT_JSONPLUS ? first_plus : first_json, argc, argv);
	fd = rc ? -1 : memory_file("fio-output");
	if (fd < 0) {
		dirs_free(dirs);
		return EXIT_USAGE;
	}
	sb.write_devs = write_devs;
	sb.read_devs = read_devs;
	sb.write_dirs = dirs;
	sb.workdir = cwd;
	sb.argv = args;
	sb.stdout_fd = fd;
	note("fio runs this job, in the sandbox (%s): %s", fio_path(), why);
	mkdir("/run/bootbench", 0755);
	rc = sandbox_run(&sb);
	dirs_free(dirs);
	if (rc < 0) {
		note("%s", bb_err);
		close(fd);
		return EXIT_FAIL;
	}
	all = read_all(fd, &len);
	close(fd);
	split_output(all, &json, &json_len, &normal, &normal_len);
	if (emit(run, json, json_len, normal, normal_len)) {
		note("%s", bb_err);
		rc = EXIT_FAIL;
	}
	free(all);
	free(json);
	free(normal);
	return rc ? EXIT_FAIL : EXIT_OK;
}
