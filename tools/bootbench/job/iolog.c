// SPDX-License-Identifier: MIT
/* iolog.c - fio's per-job log files (iolog.h says what they hold). */
#include "job/iolog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "job/worker.h"
#include "lib/util.h"

/* fio's histogram has FIO_IO_U_PLAT_NR buckets: 29 groups of 64 */
#define FIO_HIST_NR (29 * HIST_VAL)
#define CHUNK 4096

enum log_kind { LOG_LAT, LOG_CLAT, LOG_SLAT, LOG_BW, LOG_IOPS, LOG_NR };

static const char *const log_suffix[LOG_NR] = { "lat", "clat", "slat", "bw", "iops" };

struct entry {
	uint64_t t_ms, value, offset;
	uint32_t bs;
	uint8_t ddir;
};

struct chunk {
	struct chunk *next;
	unsigned n;
	struct entry e[CHUNK];
};

struct hist_entry {
	struct hist_entry *next;
	uint64_t t_ms;
	uint8_t ddir;
	uint64_t count[FIO_HIST_NR];
};

struct log {
	int on;
	struct chunk *head, *tail;
};

/* what an averaging window has summed so far, per direction */
struct window {
	uint64_t ios, bytes, lat_ns[3];
};

struct worker_logs {
	struct log log[LOG_NR];
	int hist_on;
	struct hist_entry *hist_head, *hist_tail;
	uint64_t *hist_prev[DDIR_NR];	/* the clat buckets at the last histogram entry */
	uint64_t t_avg, t_hist;		/* ms: the current windows' starts */
	struct window win[DDIR_NR];
};

void iolog_init(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	struct worker_logs *l;
	unsigned d;

	if (!o->lat_log && !o->bw_log && !o->iops_log && !o->hist_log)
		return;
	l = xcalloc(1, sizeof(*l));
	l->log[LOG_LAT].on = l->log[LOG_CLAT].on = l->log[LOG_SLAT].on = o->lat_log != NULL;
	l->log[LOG_BW].on = o->bw_log != NULL;
	l->log[LOG_IOPS].on = o->iops_log != NULL;
	l->hist_on = o->hist_log != NULL;
	if (l->hist_on)
		for (d = 0; d < DDIR_NR; d++)
			l->hist_prev[d] = xcalloc(FIO_HIST_NR, sizeof(uint64_t));
	w->logs = l;
}

static void add(struct log *lg, uint64_t t_ms, uint64_t value, int ddir, uint32_t bs, uint64_t offset)
{
	struct entry *e;

	if (!lg->on)
		return;
	if (!lg->tail || lg->tail->n == CHUNK) {
		struct chunk *c = xcalloc(1, sizeof(*c));

		if (lg->tail)
			lg->tail->next = c;
		else
			lg->head = c;
		lg->tail = c;
	}
	e = &lg->tail->e[lg->tail->n++];
	e->t_ms = t_ms;
	e->value = value;
	e->ddir = (uint8_t)ddir;
	e->bs = bs;
	e->offset = offset;
}

static uint64_t ms_of(const struct worker *w, uint64_t now)
{
	return now > w->t_measure ? (now - w->t_measure) / 1000000 : 0;
}

static void close_avg_window(struct worker *w, uint64_t end_ms)
{
	struct worker_logs *l = w->logs;
	uint64_t span = end_ms - l->t_avg;
	unsigned d, k;

	for (d = 0; d < DDIR_NR; d++) {
		struct window *win = &l->win[d];

		if (!job_does(w->job->o.rw, (int)d))
			continue;
		for (k = 0; k < 3; k++)
			if (win->ios)
				add(&l->log[k], end_ms, win->lat_ns[k] / win->ios, (int)d, 0, 0);
		add(&l->log[LOG_BW], end_ms, span ? win->bytes * 1000 / span / 1024 : 0, (int)d, 0, 0);
		add(&l->log[LOG_IOPS], end_ms, span ? win->ios * 1000 / span : 0, (int)d, 0, 0);
		memset(win, 0, sizeof(*win));
	}
	l->t_avg = end_ms;
}

static void close_hist_window(struct worker *w, uint64_t end_ms)
{
	struct worker_logs *l = w->logs;
	unsigned d, i;

	for (d = 0; d < DDIR_NR; d++) {
		const struct hist *h = &w->stats.dir[d].clat;
		struct hist_entry *e;

		if (!job_does(w->job->o.rw, (int)d))
			continue;
		e = xcalloc(1, sizeof(*e));
		e->t_ms = end_ms;
		e->ddir = (uint8_t)d;
		for (i = 0; i < HIST_NR; i++) {
			unsigned b = i < FIO_HIST_NR ? i : FIO_HIST_NR - 1;

			e->count[b] += h->bucket[i];
		}
		for (i = 0; i < FIO_HIST_NR; i++) {
			uint64_t now_count = e->count[i];

			e->count[i] -= l->hist_prev[d][i];
			l->hist_prev[d][i] = now_count;
		}
		if (l->hist_tail)
			l->hist_tail->next = e;
		else
			l->hist_head = e;
		l->hist_tail = e;
	}
	l->t_hist = end_ms;
}

void iolog_tick(struct worker *w, uint64_t now)
{
	const struct job_opts *o = &w->job->o;
	struct worker_logs *l = w->logs;
	uint64_t ms;

	if (!l || !w->measuring)
		return;
	ms = ms_of(w, now);
	/* windows without a completion in them are written too (zeros), as fio's */
	while (o->log_avg_msec && ms >= l->t_avg + o->log_avg_msec)
		close_avg_window(w, l->t_avg + o->log_avg_msec);
	while (l->hist_on && o->log_hist_msec && ms >= l->t_hist + o->log_hist_msec)
		close_hist_window(w, l->t_hist + o->log_hist_msec);
}

void iolog_io(struct worker *w, const struct io_unit *io, uint64_t now, uint64_t slat, uint64_t clat,
	      uint64_t lat)
{
	const struct job_opts *o = &w->job->o;
	struct worker_logs *l = w->logs;
	uint64_t ms = ms_of(w, now), off = o->log_offset ? io->offset : 0;
	struct window *win;

	if (!l)
		return;
	iolog_tick(w, now);
	if (!o->log_avg_msec) {
		add(&l->log[LOG_LAT], ms, lat, io->ddir, io->len, off);
		add(&l->log[LOG_CLAT], ms, clat, io->ddir, io->len, off);
		add(&l->log[LOG_SLAT], ms, slat, io->ddir, io->len, off);
		/* as fio's per-I/O bandwidth: this I/O's bytes over its latency, KiB/s */
		add(&l->log[LOG_BW], ms, lat ? (uint64_t)io->len * 1000000000ull / lat / 1024 : 0, io->ddir, io->len,
		    off);
		add(&l->log[LOG_IOPS], ms, 1, io->ddir, io->len, off);
		return;
	}
	win = &l->win[io->ddir];
	win->ios++;
	win->bytes += io->len;
	win->lat_ns[LOG_LAT] += lat;
	win->lat_ns[LOG_CLAT] += clat;
	win->lat_ns[LOG_SLAT] += slat;
}

void iolog_end(struct worker *w, uint64_t now)
{
	const struct job_opts *o = &w->job->o;
	struct worker_logs *l = w->logs;
	uint64_t ms;

	if (!l || !w->measuring)
		return;
	iolog_tick(w, now);
	ms = ms_of(w, now);
	if (o->log_avg_msec && ms > l->t_avg)
		close_avg_window(w, ms);
	if (l->hist_on && o->log_hist_msec && ms > l->t_hist)
		close_hist_window(w, ms);
}

static unsigned ioprio_of(const struct job_opts *o)
{
	int class = o->prioclass ? o->prioclass : (o->given[opt_find("prio")] ? 2 : 0);

	return class ? (unsigned)(class << 13 | o->prio) : 0;
}

static int write_log(const struct log *lg, const struct job_opts *o, FILE *f)
{
	/* as fio: the priority itself with log_prio, else whether it is of the realtime class */
	unsigned prio = o->log_prio ? ioprio_of(o) : (ioprio_of(o) >> 13) == 1;
	const char *fmt = o->log_offset ? (o->log_prio ? "%llu, %llu, %u, %u, %llu, 0x%04x\n" : "%llu, %llu, %u, %u, %llu, %u\n")
					: (o->log_prio ? "%llu, %llu, %u, %u, 0x%04x\n" : "%llu, %llu, %u, %u, %u\n");
	const struct chunk *c;
	unsigned i;

	for (c = lg->head; c; c = c->next)
		for (i = 0; i < c->n; i++) {
			const struct entry *e = &c->e[i];

			if (o->log_offset)
				fprintf(f, fmt, (unsigned long long)e->t_ms, (unsigned long long)e->value, e->ddir, e->bs,
					(unsigned long long)e->offset, prio);
			else
				fprintf(f, fmt, (unsigned long long)e->t_ms, (unsigned long long)e->value, e->ddir, e->bs,
					prio);
		}
	return ferror(f) ? -1 : 0;
}

static int write_hist(const struct worker_logs *l, const struct job_opts *o, FILE *f)
{
	const struct hist_entry *e;
	unsigned i;

	for (e = l->hist_head; e; e = e->next) {
		fprintf(f, "%llu, %u, %llu", (unsigned long long)e->t_ms, e->ddir, (unsigned long long)o->bs);
		for (i = 0; i < FIO_HIST_NR; i++)
			fprintf(f, ", %llu", (unsigned long long)e->count[i]);
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

/* One file: PREFIX_SUFFIX.N.log, or PREFIX_SUFFIX.log for all clones (per_job_logs=0). */
static int write_file(struct worker *w, const char *prefix, const char *suffix, unsigned n, int first, int last,
		      const struct log *lg)
{
	const struct job_opts *o = &w->job->o;
	char path[4096], tmp[4200];
	struct stat st;
	FILE *f;
	int rc, fd, flags;

	if (!*prefix)
		prefix = o->name;
	if (o->per_job_logs)
		snprintf(path, sizeof(path), "%s_%s.%u.log", prefix, suffix, n);
	else
		snprintf(path, sizeof(path), "%s_%s.log", prefix, suffix);
	/* written beside, renamed into place when whole */
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	/* a regular file only: a prefix naming a device or a link to one writes nothing there */
	/* a new file, never one already there under that name (a hard link to another file would be
	 * truncated through it); the clones after the first append to the one this run made */
	if (o->per_job_logs || first) {
		unlink(tmp);
		flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
	} else {
		flags = O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC;
	}
	fd = open(tmp, flags, 0644);	/* consent: a log file beside the run, checked regular below */
	if (fd < 0)
		return set_err("cannot write the log %s: %s", tmp, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
		close(fd);
		return set_err("cannot write the log %s: not a regular file of one name", tmp);
	}
	f = fdopen(fd, o->per_job_logs || first ? "w" : "a");
	if (!f) {
		close(fd);
		return set_err("cannot write the log %s: %s", tmp, strerror(errno));
	}
	rc = lg ? write_log(lg, o, f) : write_hist(w->logs, o, f);
	if (fclose(f) || rc) {
		unlink(tmp);
		return set_err("cannot write the log %s: %s", tmp, strerror(errno ? errno : EIO));
	}
	if ((o->per_job_logs || last) && rename(tmp, path))
		return set_err("cannot rename %s to %s: %s", tmp, path, strerror(errno));
	return 0;
}

int iolog_write(struct worker *w, unsigned n, int first, int last)
{
	const struct job_opts *o = &w->job->o;
	struct worker_logs *l = w->logs;
	const char *prefix[LOG_NR] = { o->lat_log, o->lat_log, o->lat_log, o->bw_log, o->iops_log };
	unsigned k;

	if (!l)
		return 0;
	for (k = 0; k < LOG_NR; k++)
		if (l->log[k].on && write_file(w, prefix[k], log_suffix[k], n, first, last, &l->log[k]))
			return -1;
	if (l->hist_on && write_file(w, o->hist_log, "clat_hist", n, first, last, NULL))
		return -1;
	return 0;
}

void iolog_free(struct worker *w)
{
	struct worker_logs *l = w->logs;
	unsigned k, d;

	if (!l)
		return;
	for (k = 0; k < LOG_NR; k++)
		for (struct chunk *c = l->log[k].head, *next; c; c = next) {
			next = c->next;
			free(c);
		}
	for (struct hist_entry *e = l->hist_head, *next; e; e = next) {
		next = e->next;
		free(e);
	}
	for (d = 0; d < DDIR_NR; d++)
		free(l->hist_prev[d]);
	free(l);
	w->logs = NULL;
}
