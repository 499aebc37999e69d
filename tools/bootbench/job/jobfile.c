// SPDX-License-Identifier: MIT
/*
 * jobfile.c - reads jobs from the command line and from fio job files.
 * Options before the first --name (or in a [global] section) apply to the
 * jobs that follow, as in fio; every unknown option is an error naming where
 * it was found: nothing is silently ignored.
 */
#include "job/jobs.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "job/refusals.h"
#include "lib/rand.h"
#include "lib/util.h"

#define INCLUDE_DEPTH_MAX 8
/*
 * Unless a job says iodepth_batch_submit, a queue deeper than this is
 * submitted this many I/Os at a time while it is filled: the device starts on
 * the first ones while the rest are prepared. At QD32 on a loop device this
 * gave 0.94x to 1.00x fio's IOPS where one submission of the whole refill gave
 * 0.84x; at QD8, 128k, one submission did better than chunks of 2.
 */
#define SUBMIT_CHUNK 16

struct parse_state {
	struct jobset *js;
	/* jobset_scan: each option handed to this, nothing applied */
	void (*scan)(const char *key, const char *val, void *arg);
	void *scan_arg;
	struct job_opts global;		/* applies to jobs defined after it */
	struct job *cur;		/* NULL while in a [global] section */
	int depth;
	/*
	 * For the log options given without a value, whose prefix is then the
	 * job's name (job/refusals.h): the name of the job being read ("" in
	 * a [global] section), and such an option given globally (NULL: none),
	 * which makes each later job's name a prefix.
	 */
	char job_name[256];
	char global_name_log[32];
};

static void kv_add(struct kvlist *l, const char *key, const char *val)
{
	unsigned i;

	/* fio lists only options written with a value */
	if (!*val)
		return;
	/* a later setting replaces an earlier one, in place, as fio shows it */
	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].key, key)) {
			l->v[i].val = xstrdup(val);
			return;
		}
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n].key = xstrdup(key);
	l->v[l->n].val = xstrdup(val);
	l->n++;
}

static struct job *job_new(struct parse_state *ps, const char *name, const char *where)
{
	struct jobset *js = ps->js;
	struct job *j;

	js->jobs = xrealloc(js->jobs, (js->n + 1) * sizeof(*js->jobs));
	j = &js->jobs[js->n++];
	memset(j, 0, sizeof(*j));
	j->o = ps->global;
	memset(j->o.given, 0, sizeof(j->o.given));
	j->o.name = xstrdup(name);
	snprintf(j->where, sizeof(j->where), "%s", where);
	/* fio shows the name among the options only when it was given as one */
	if (!strcmp(where, "command line"))
		kv_add(&j->given, "name", name);
	return j;
}

/* bb_err, and where it was written after it */
static int err_where(const char *where)
{
	char msg[sizeof(bb_err)];

	snprintf(msg, sizeof(msg), "%s", bb_err);
	return set_err("%s (%s)", msg, where);
}

/* A job begins (a section, --name=, name=): NAME is a log prefix when a global log option has no value. */
static int job_named(struct parse_state *ps, const char *name, const char *where)
{
	snprintf(ps->job_name, sizeof(ps->job_name), "%s", name);
	if (ps->global_name_log[0] && refuse_log_name(ps->global_name_log, name))
		return err_where(where);
	return 0;
}

/*
 * rw's mode as jobset_scan hands it on: fio's short name for readwrite
 * (rw), so that a reader telling writes from reads by the start of the
 * name ("read...") cannot take readwrite for a read. The rest (":4k")
 * stays as written. VAL itself when there is nothing to change.
 */
static const char *rw_as_scanned(const char *key, const char *val, char *buf, size_t len)
{
	size_t mode = strcspn(val, ",:");

	if ((strcmp(key, "rw") && strcmp(key, "readwrite")) || mode != 9 || strncmp(val, "readwrite", 9))
		return val;
	snprintf(buf, len, "rw%s", val + mode);
	return buf;
}

/* Applies key=value to the current job or to the globals. */
static int apply(struct parse_state *ps, const char *key, const char *val, const char *where, int cli)
{
	int idx = opt_find(key);
	struct job_opts *target = ps->cur ? &ps->cur->o : &ps->global;

	/* first what no job may say, on either engine (job/refusals.h) */
	if (refuse_option(key, val))
		return err_where(where);
	if (!strcmp(key, "name") && *val && job_named(ps, val, where))
		return -1;
	if (is_log_option(key) && !*val) {
		if (ps->job_name[0] && refuse_log_name(key, ps->job_name))
			return err_where(where);
		if (!ps->job_name[0])
			snprintf(ps->global_name_log, sizeof(ps->global_name_log), "%s", key);
	}
	if (ps->scan) {
		char rw[64];

		ps->scan(key, rw_as_scanned(key, val, rw, sizeof(rw)), ps->scan_arg);
		return 0;
	}
	if (idx < 0) {
		opt_fio_may_have = 1;	/* one of fio's that bootbench lacks, or a typo: fio tells which */
		return set_err("unsupported option '%s' (%s)", key, where);
	}
	if (option_table[idx].scope == SCOPE_RUN && !cli)
		return set_err("option '%s' is for the command line, not job files (%s)", key, where);
	if (opt_apply(target, &ps->js->run, idx, val) < 0) {
		char msg[sizeof(bb_err)];

		snprintf(msg, sizeof(msg), "%s", bb_err);
		return set_err("%s (%s)", msg, where);
	}
	if (option_table[idx].scope == SCOPE_RUN)
		return 0;
	if (ps->cur) {
		kv_add(&ps->cur->given, option_table[idx].name, val);
	} else {
		kv_add(&ps->js->global_given, option_table[idx].name, val);
		ps->js->saw_global = 1;
	}
	/*
	 * fio reads kb_base before the other options of a section, wherever it
	 * is written: the sizes this section set before it are read again.
	 * (On the command line each option is taken in turn, as fio does.)
	 */
	if (!cli && !strcmp(option_table[idx].name, "kb_base")) {
		const struct kvlist *l = ps->cur ? &ps->cur->given : &ps->js->global_given;
		unsigned i;

		for (i = 0; i < l->n; i++)
			if (strcmp(l->v[i].key, "kb_base") &&
			    opt_apply(target, &ps->js->run, opt_find(l->v[i].key), l->v[i].val)) {
				char msg[sizeof(bb_err)];

				snprintf(msg, sizeof(msg), "%s", bb_err);
				return set_err("%s (%s, read again for kb_base)", msg, where);
			}
	}
	return 0;
}

/* ${VAR} from the environment; an unset variable is an error, not "". */
static int expand_env(const char *in, char *out, size_t len, const char *where)
{
	size_t o = 0;

	while (*in) {
		if (in[0] == '$' && in[1] == '{') {
			const char *end = strchr(in, '}');
			char name[128];
			const char *val;

			if (!end || (size_t)(end - in - 2) >= sizeof(name))
				return set_err("unterminated ${ in '%s' (%s)", in, where);
			memcpy(name, in + 2, end - in - 2);
			name[end - in - 2] = 0;
			val = getenv(name);
			if (!val)
				return set_err("environment variable '%s' is not set (%s)", name, where);
			if (o + strlen(val) >= len)
				return set_err("line too long after expanding ${%s} (%s)", name, where);
			strcpy(out + o, val);
			o += strlen(val);
			in = end + 1;
			continue;
		}
		if (o + 1 >= len)
			return set_err("line too long (%s)", where);
		out[o++] = *in++;
	}
	out[o] = 0;
	return 0;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

static int parse_file(struct parse_state *ps, const char *path);

static int parse_line(struct parse_state *ps, char *line, const char *path, const char *where)
{
	char *s, *eq, expanded[4096];

	/* as fio: a ';' or '#' anywhere in a line begins a comment ("numjobs=4 ; four of them") */
	line[strcspn(line, ";#")] = 0;
	s = trim(line);
	if (!*s)
		return 0;
	if (*s == '[') {
		char *end = strchr(s, ']');

		if (!end || end == s + 1 || *trim(end + 1))
			return set_err("malformed section header '%s' (%s)", s, where);
		*end = 0;
		/* as fio: every section whose name begins with "global" is a global one */
		if (!strncmp(s + 1, "global", 6)) {
			if (ps->cur)
				ps->cur = NULL;
			ps->js->saw_global = 1;
			ps->job_name[0] = 0;
		} else {
			ps->cur = job_new(ps, s + 1, where);
			return job_named(ps, s + 1, where);
		}
		return 0;
	}
	/*
	 * An include as fio reads it (init.c __parse_jobs_ini): every line that
	 * starts with "include", and the file's name is all after its eighth
	 * character ("include=x.fio", "include_x.fio" and "include x.fio" all
	 * name x.fio); a relative name is taken from the working folder when a
	 * file has it there, else beside the including file. Read any other
	 * way, a file fio includes could carry options bootbench never saw
	 * (issue 44: ioengine=net to a unix socket, in an include skipped).
	 */
	if (!strncmp(s, "include", 7)) {
		const char *name = s[7] ? s + 8 : "";
		char inc[4096];

		if (!*name)
			return set_err("include without a file name (%s)", where);
		if (ps->depth >= INCLUDE_DEPTH_MAX)
			return set_err("includes nested too deep (%s)", where);
		if (access(name, F_OK) && strrchr(path, '/'))
			snprintf(inc, sizeof(inc), "%.*s/%s", (int)(strrchr(path, '/') - path), path, name);
		else
			snprintf(inc, sizeof(inc), "%s", name);
		return parse_file(ps, inc);
	}
	if (expand_env(s, expanded, sizeof(expanded), where))
		return -1;
	eq = strchr(expanded, '=');
	if (eq) {
		*eq = 0;
		return apply(ps, trim(expanded), trim(eq + 1), where, 0);
	}
	return apply(ps, trim(expanded), "", where, 0);
}

/* PATH names the stream in messages and anchors relative includes. */
static int parse_stream(struct parse_state *ps, FILE *f, const char *path)
{
	char line[4096], where[160];
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	unsigned lineno = 0;
	int rc = 0;

	ps->depth++;
	while (!rc && fgets(line, sizeof(line), f)) {
		lineno++;
		snprintf(where, sizeof(where), "%s line %u", base, lineno);
		if (!strchr(line, '\n') && !feof(f)) {
			rc = set_err("line too long (%s)", where);
			break;
		}
		rc = parse_line(ps, line, path, where);
	}
	ps->depth--;
	return rc;
}

static int parse_file(struct parse_state *ps, const char *path)
{
	FILE *f = fopen(path, "r");
	int rc;

	if (!f)
		return set_err("cannot read job file %s: %s", path, strerror(errno));
	rc = parse_stream(ps, f, path);
	fclose(f);
	return rc;
}

static struct parse_state state;

/* A file's or text's [global] does not leak into jobs defined after it. */
static int parse_isolated(struct jobset *js, const char *path, const char *text)
{
	struct job_opts saved_global = state.global;
	struct job *saved_cur = state.cur;
	char saved_name[sizeof(state.job_name)], saved_name_log[sizeof(state.global_name_log)];
	FILE *f;
	int rc;

	memcpy(saved_name, state.job_name, sizeof(saved_name));
	memcpy(saved_name_log, state.global_name_log, sizeof(saved_name_log));
	state.js = js;
	state.cur = NULL;
	state.job_name[0] = 0;
	if (text) {
		f = fmemopen((void *)text, strlen(text), "r");
		if (!f)
			return set_err("out of memory");
		rc = parse_stream(&state, f, path);
		fclose(f);
	} else {
		rc = parse_file(&state, path);
	}
	state.global = saved_global;
	state.cur = saved_cur;
	memcpy(state.job_name, saved_name, sizeof(saved_name));
	memcpy(state.global_name_log, saved_name_log, sizeof(saved_name_log));
	return rc;
}

int jobset_parse_file(struct jobset *js, const char *path)
{
	return parse_isolated(js, path, NULL);
}

int jobset_parse_text(struct jobset *js, const char *name, const char *text)
{
	return parse_isolated(js, name, text);
}

/*
 * As fio: every command-line option is read first, job files after them.
 * Options before the first --name are defaults for every job, those in job
 * files included (whose own [global] and sections override them); options
 * after --name=X belong to job X. So `run j.fio --bs=64k` runs j.fio's jobs
 * with 64k blocks, as `fio j.fio --bs=64k` does.
 */
/* jobset_parse_args, or jobset_scan's walk when SCAN is given */
static int parse_args(struct jobset *js, int argc, char **argv, void (*scan)(const char *, const char *, void *),
		      void *scan_arg)
{
	int i;

	memset(js, 0, sizeof(*js));
	memset(&state, 0, sizeof(state));
	state.js = js;
	state.scan = scan;
	state.scan_arg = scan_arg;
	opt_fio_may_have = 0;
	opts_defaults(&state.global, &js->run);
	for (i = 0; i < argc; i++) {
		char *arg = argv[i], key[128];
		const char *val = "", *eq;

		/* a word fio reads otherwise: "--", or "-x" (an option to fio, a job file here) */
		if (refuse_cli_word(arg))
			return err_where("command line");
		if (strncmp(arg, "--", 2))
			continue;	/* a job file: read below */
		arg += 2;
		eq = strchr(arg, '=');
		if (eq) {
			if ((size_t)(eq - arg) >= sizeof(key))
				return set_err("unsupported option '%.40s...' (command line)", arg);
			memcpy(key, arg, eq - arg);
			key[eq - arg] = 0;
			val = eq + 1;
		} else {
			snprintf(key, sizeof(key), "%s", arg);
		}
		if (refuse_cli_option(key, !!eq))
			return err_where("command line");
		if (!strcmp(key, "name") && !state.scan) {
			if (!*val)
				return set_err("option 'name' needs a value (command line)");
			state.cur = job_new(&state, val, "command line");
			if (job_named(&state, val, "command line"))
				return -1;
			continue;
		}
		if (apply(&state, key, val, "command line", 1))
			return -1;
	}
	for (i = 0; i < argc; i++)
		if (strncmp(argv[i], "--", 2) && jobset_parse_file(js, argv[i]))
			return -1;
	return 0;
}

static void ignore_option(const char *key, const char *val, void *arg)
{
	(void)key, (void)val, (void)arg;
}

int jobset_parse_args(struct jobset *js, int argc, char **argv)
{
	/*
	 * The refusals (job/refusals.h) over everything first: bootbench's own
	 * parse stops at its first error, and an option of fio's that it lacks
	 * sends the job to fio with whatever came after it unread.
	 */
	if (jobset_scan(argc, argv, ignore_option, NULL))
		return -1;
	return parse_args(js, argc, argv, NULL, NULL);
}

int jobset_scan(int argc, char **argv, void (*fn)(const char *key, const char *val, void *arg), void *arg)
{
	static struct jobset scratch;
	int rc = parse_args(&scratch, argc, argv, fn, arg);

	memset(&state, 0, sizeof(state));
	return rc;
}

static int is_random_rw(int rw)
{
	return rw == RW_RANDREAD || rw == RW_RANDWRITE || rw == RW_RANDTRIM || rw == RW_RANDRW;
}

static int job_check(struct job *j)
{
	struct job_opts *o = &j->o;
	struct cpus nodes;
	int mode;

	if (o->numa_cpu_nodes && parse_numa_nodes(o->numa_cpu_nodes, &nodes))
		return set_err("invalid value '%s' for option 'numa_cpu_nodes': expected all, or nodes such as 0-1,3 (%s)",
			       o->numa_cpu_nodes, j->where);
	if (o->numa_mem_policy && parse_numa_policy(o->numa_mem_policy, &mode, &nodes))
		return set_err("invalid value '%s' for option 'numa_mem_policy': expected default, local, prefer:NODE, "
			       "bind:NODES or interleave:NODES (%s)", o->numa_mem_policy, j->where);
	if (o->verify_only && !o->verify)
		return set_err("job '%s': verify_only needs verify=crc32c (%s)", o->name, j->where);
	if (o->verify && o->rw != RW_WRITE && o->rw != RW_RANDWRITE) {
		opt_fio_may_have = 1;	/* fio verifies these */
		return set_err("job '%s': verify needs rw=write or randwrite (%s)", o->name, j->where);
	}
	if (o->verify && (o->bssplit.n || o->time_based || (o->rw == RW_RANDWRITE && o->norandommap) ||
			  o->dist.kind != DIST_RANDOM)) {
		opt_fio_may_have = 1;	/* fio verifies these */
		return set_err("job '%s': verify needs every block written once per loop: no bssplit, "
			       "time_based, norandommap or random_distribution other than random (%s)", o->name,
			       j->where);
	}
	/* the headers carry the writing run's seed: a new one would read every block as stale */
	if (o->verify_only && !o->randrepeat && !o->given[opt_find("randseed")])
		return set_err("job '%s': verify_only needs the seed of the run that wrote: keep randrepeat=1 "
			       "or give that run's randseed (%s)", o->name, j->where);
	if (o->bssplit.n && o->given[opt_find("bs")])
		return set_err("job '%s': bs and bssplit both given (%s)", o->name, j->where);
	if (o->bsrange.min[0] && (o->bssplit.n || o->given[opt_find("bs")]))
		return set_err("job '%s': bsrange and %s both given (%s)", o->name, o->bssplit.n ? "bssplit" : "bs",
			       j->where);
	if (o->verify && (o->bsrange.min[0] || o->rw_skip)) {
		opt_fio_may_have = 1;	/* fio verifies these */
		return set_err("job '%s': verify needs every block written once per loop: no bsrange or rw "
			       "offset modifier (%s)", o->name, j->where);
	}
	/* an interval is sectors: the finest unit a disk loses or corrupts */
	if (o->verify_interval && (o->verify_interval % 512 || o->bs % o->verify_interval))
		return set_err("job '%s': verify_interval=%llu must be a multiple of 512 that divides bs=%llu (%s)",
			       o->name, (unsigned long long)o->verify_interval, (unsigned long long)o->bs, j->where);
	if (is_random_rw(o->rw) && o->rw_skip < 0)
		return set_err("job '%s': rw=%s:N takes a count of I/Os, not %lld (%s)", o->name, rw_name(o->rw),
			       (long long)o->rw_skip, j->where);
	if (o->kb_base != 1000 && o->kb_base != 1024)
		return set_err("job '%s': kb_base is 1000 or 1024, not %u (%s)", o->name, o->kb_base, j->where);
	if (o->unit_base != 0 && o->unit_base != 1 && o->unit_base != 8)
		return set_err("job '%s': unit_base is 0, 1 (bits) or 8 (bytes), not %u (%s)", o->name, o->unit_base,
			       j->where);
	/* as fio: with filesize giving the files' sizes, size is the bytes of I/O over them */
	if (o->filesize_min && o->size.bytes && !o->size.pct && !o->io_size)
		o->io_size = o->size.bytes;
	if (o->zonemode == ZONEMODE_NONE && o->zonesize)
		return set_err("job '%s': zonesize needs zonemode=strided (fio 3.33 refuses it with zonemode=none, its "
			       "default) (%s)", o->name, j->where);
	if (o->zonemode == ZONEMODE_ZBD) {
		opt_fio_may_have = 1;	/* fio follows zones */
		return set_err("job '%s': zonemode=zbd is not supported by bootbench: it writes without following "
			       "zones or their write pointers (%s)", o->name, j->where);
	}
	if (o->zonemode == ZONEMODE_STRIDED && !o->zonesize)
		return set_err("job '%s': zonemode=strided needs a zonesize (%s)", o->name, j->where);
	if (o->zonemode == ZONEMODE_STRIDED && o->verify) {
		opt_fio_may_have = 1;	/* fio verifies these */
		return set_err("job '%s': verify needs every block written once per loop: not with zonemode=strided (%s)",
			       o->name, j->where);
	}
	if (o->zonemode == ZONEMODE_STRIDED && !o->zonerange)
		o->zonerange = o->zonesize;	/* fio's: a zone is zonesize long unless zonerange says */
	if (o->nrfiles > 1 && o->filename)
		return set_err("job '%s': nrfiles is for files made in directory; filename names the files "
			       "itself (%s)", o->name, j->where);
	if (o->filename_format && o->filename)
		return set_err("job '%s': filename_format names files made in directory; filename names the "
			       "files itself (%s)", o->name, j->where);
	/* NVMe commands address whole logical blocks: the alignment of direct I/O */
	if (o->ioengine == ENGINE_IO_URING_CMD)
		o->direct = 1;
	if (o->gtod_reduce)
		o->disable_lat = o->disable_clat = o->disable_slat = 1;
	if (o->hist_log && o->disable_clat)
		return set_err("job '%s': write_hist_log needs the completion latency (disable_clat=0, no "
			       "gtod_reduce) (%s)", o->name, j->where);
	if (o->fsync_every && o->fdatasync_every)
		return set_err("job '%s': fsync and fdatasync both given (%s)", o->name, j->where);
	if (o->time_based && !o->runtime_us)
		return set_err("job '%s': time_based needs a runtime (%s)", o->name, j->where);
	if (o->hipri && !o->direct)
		return set_err("job '%s': hipri (polled I/O) needs direct=1 (%s)", o->name, j->where);
	if (o->ioengine != ENGINE_DEFAULT && o->ioengine != ENGINE_IO_URING &&
	    (o->given[opt_find("sqthread_poll")] || (o->given[opt_find("hipri")] && o->ioengine != ENGINE_PVSYNC2))) {
		opt_fio_may_have = o->ioengine == ENGINE_IO_URING_CMD;	/* fio polls NVMe commands too */
		return set_err("job '%s': sqthread_poll needs ioengine=io_uring, hipri io_uring or pvsync2 (%s)", o->name,
			       j->where);
	}
	if ((o->ioengine == ENGINE_PSYNC || o->ioengine == ENGINE_SYNC || o->ioengine == ENGINE_PVSYNC2 ||
	     o->ioengine == ENGINE_MMAP) && o->iodepth > 1)
		o->iodepth = 1;	/* a synchronous engine has one I/O in flight, as in fio */
	if (!o->given[opt_find("iodepth_batch_submit")])
		o->iodepth_batch_submit = o->iodepth > SUBMIT_CHUNK ? SUBMIT_CHUNK : 0;
	if (o->iodepth_batch_submit > o->iodepth)
		o->iodepth_batch_submit = o->iodepth;
	if (o->iodepth_batch_complete_min == 0 || o->iodepth_batch_complete_min > o->iodepth)
		o->iodepth_batch_complete_min = o->iodepth_batch_complete_min ? o->iodepth : 1;
	return 0;
}

static uint64_t scale_bytes(uint64_t b, double f)
{
	uint64_t mib = 1 << 20, v = (uint64_t)((double)b * f) / mib * mib;

	return b && !v ? mib : v;
}

static void scale_job(struct job_opts *o, double f)
{
	if (o->runtime_us) {
		o->runtime_us = (uint64_t)((double)o->runtime_us * f);
		if (o->runtime_us < 100000)
			o->runtime_us = 100000;
	}
	o->ramp_us = (uint64_t)((double)o->ramp_us * f);
	if (!(o->size.pct > 0))
		o->size.bytes = scale_bytes(o->size.bytes, f);
	if (!(o->offset.pct > 0))
		o->offset.bytes = scale_bytes(o->offset.bytes, f);
}

int jobset_finish(struct jobset *js)
{
	unsigned i, group = 0;
	double f;

	if (scale_factor(&f))
		return -1;
	for (i = 0; i < js->n; i++) {
		struct job *j = &js->jobs[i];

		if (f != 1)
			scale_job(&j->o, f);
		if (job_check(j))
			return -1;
		if (j->o.wait_for) {
			unsigned k;

			for (k = 0; k < i && strcmp(js->jobs[k].o.name, j->o.wait_for); k++)
				;
			if (k == i)
				return set_err("job '%s': wait_for=%s: no job of that name before it (%s)", j->o.name,
					       j->o.wait_for, j->where);
		}
		if (i && (j->o.stonewall || j->o.new_group))
			group++;
		j->groupid = group;
	}
	return 0;
}
