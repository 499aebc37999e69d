// SPDX-License-Identifier: MIT
/*
 * badlba.c - naming the exact bad LBAs inside a failed I/O. A 1 MiB I/O
 * that fails with a medium error says only that one of its 2048 sectors is
 * bad; a burn-in has to say which. The failed range is bisected with
 * synchronous reads (or the same writes again) of halves, down to single
 * logical blocks, so a few bad sectors cost a few dozen probes. A dying disk
 * may take seconds per failed probe (its own retries), so the probes per
 * I/O are capped; what is left unprobed then is named as a range "not
 * narrowed".
 */
#include "job/worker.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"

#define PROBES_MAX 256

int medium_error(int err)
{
	/* EIO: most drivers; ENODATA: BLK_STS_MEDIUM; EILSEQ: a protection
	 * information (checksum) failure. ENODEV and the like are not: the
	 * device is gone, and probing it only repeats that. */
	return err == EIO || err == ENODATA || err == EILSEQ;
}

struct locate {
	const struct worker_file *f;
	int ddir;
	char *buf;
	uint64_t base;		/* the offset buf[0] belongs to */
	unsigned lbs, probes;
	int fatal;		/* an error that is not a medium error ended the probing */
	const char *what;
	uint64_t run_off, run_len;	/* the bad range being gathered */
	int run_err;		/* its errno, or 0: not narrowed */
	struct bad_lbas *out;
};

static void flush_run(struct locate *l)
{
	uint64_t first = l->run_off / l->lbs, last = (l->run_off + l->run_len) / l->lbs - 1;
	char lbas[64];

	if (!l->run_len)
		return;
	if (first == last)
		snprintf(lbas, sizeof(lbas), "LBA %llu", (unsigned long long)first);
	else
		snprintf(lbas, sizeof(lbas), "LBA %llu-%llu", (unsigned long long)first, (unsigned long long)last);
	note("%s: %s %s (offset %llu, %llu bytes): %s", l->what, l->f->t->path, lbas,
	     (unsigned long long)l->run_off, (unsigned long long)l->run_len,
	     l->run_err ? strerror(l->run_err) : "failed, not narrowed further (probe limit)");
	l->run_len = 0;
}

static void mark_bad(struct locate *l, uint64_t off, uint64_t len, int err)
{
	if (!(l->run_len && l->run_off + l->run_len == off && l->run_err == err)) {
		flush_run(l);
		l->run_off = off;
		l->run_err = err;
	}
	l->run_len += len;
	l->out->bytes += len;
	if (l->out->first_lba == UINT64_MAX)
		l->out->first_lba = off / l->lbs;
}

static void probe(struct locate *l, uint64_t off, uint64_t len, int known_bad)
{
	uint64_t half;
	ssize_t n;

	if (l->fatal)
		return;
	if (!known_bad) {
		if (l->probes >= PROBES_MAX) {
			mark_bad(l, off, len, 0);
			return;
		}
		l->probes++;
		if (l->ddir == DDIR_WRITE)
			n = pwrite(l->f->fd, l->buf + (off - l->base), len, (off_t)off);
		else
			n = pread(l->f->fd, l->buf + (off - l->base), len, (off_t)off);
		if (n == (ssize_t)len)
			return;
		if (n >= 0 || !medium_error(errno)) {
			/* short: the end of the device moved; anything else: not the medium */
			l->fatal = n >= 0 ? EIO : errno;
			return;
		}
		if (len <= l->lbs) {
			mark_bad(l, off, len, errno);
			return;
		}
	}
	half = len / l->lbs / 2 * l->lbs;
	probe(l, off, half, 0);
	probe(l, off + half, len - half, 0);
}

int locate_bad_lbas(const struct worker_file *f, int ddir, void *buf, uint64_t off, uint64_t len, int err,
		    const char *what, struct bad_lbas *out)
{
	struct locate l = { .f = f, .ddir = ddir, .buf = buf, .base = off, .what = what, .out = out };

	out->first_lba = UINT64_MAX;
	out->bytes = 0;
	l.lbs = f->t->lbs ? f->t->lbs : 512;
	/* an NVMe char device takes no pread; a range not in whole blocks cannot be split in them */
	if (f->t->nvme_chr || f->fd < 0 || off % l.lbs || len % l.lbs)
		return -1;
	if (len <= l.lbs)
		mark_bad(&l, off, len, err);
	else
		probe(&l, off, len, 1);
	flush_run(&l);
	return out->bytes ? 0 : -1;
}
