// SPDX-License-Identifier: MIT
/*
 * clear.c - NIST's clear: the whole user-addressable space overwritten,
 * pass after pass, by the engine itself (a job of sequential 1 MiB writes,
 * 32 in flight, past the page cache: the disk's own sequential speed), in a
 * child process (raid/collect.h) so that Ctrl-C or a crash leaves this one
 * to say so. Then, when asked and the last pass wrote zeros, a discard of
 * the whole disk where the device takes one. The engine's consent gate
 * checks the disk again before the first write.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "erase/erase.h"
#include "job/jobs.h"
#include "lib/util.h"
#include "raid/collect.h"
#include "safety/consent.h"

/* Whether the kernel takes discards for the disk (its queue says how big one may be). */
static int discards(const struct erase_job *e)
{
	char path[160], v[32];

	snprintf(path, sizeof(path), "/sys/class/block/%s/queue/discard_max_bytes", e->disk.name);
	return !read_attr(path, v, sizeof(v)) && strtoull(v, NULL, 10) > 0;
}

static int one_pass(struct erase_job *e, unsigned pass)
{
	static struct jobset js;
	char name[64], file[300], fill[64], dest[300], out[600];
	char *argv[16];
	struct cells cells;
	const struct cell *c;
	int argc = 0, status;

	memset(&js, 0, sizeof(js));
	snprintf(name, sizeof(name), "--name=erase-pass-%u", pass);
	snprintf(file, sizeof(file), "--filename=%s", e->dev);
	snprintf(dest, sizeof(dest), "--destroy=%s", e->dev);
	if (!e->pattern_len)
		snprintf(fill, sizeof(fill), "--refill_buffers=1");
	else if (e->pattern_len == 1 && !e->pattern[0])
		snprintf(fill, sizeof(fill), "--zero_buffers=1");
	else {
		int n = snprintf(fill, sizeof(fill), "--buffer_pattern=0x");

		for (unsigned i = 0; i < e->pattern_len; i++)
			n += snprintf(fill + n, sizeof(fill) - n, "%02x", e->pattern[i]);
	}
	argv[argc++] = name;
	argv[argc++] = file;
	argv[argc++] = "--rw=write";
	argv[argc++] = "--bs=1M";
	argv[argc++] = "--iodepth=32";
	argv[argc++] = "--direct=1";
	argv[argc++] = "--ioengine=io_uring";
	argv[argc++] = fill;
	argv[argc++] = dest;
	if (e->outdir) {
		snprintf(out, sizeof(out), "--output=%s/erase-%s-pass%u.json", e->outdir, e->disk.name, pass);
		argv[argc++] = "--output-format=json";
		argv[argc++] = out;
	}
	if (jobset_parse_args(&js, argc, argv) || jobset_finish(&js))
		return set_err("the clear pass: %s", bb_err);
	status = collect_run(&js, NULL, &cells);
	c = cells_find(&cells, name + 7, "write");
	if (c && c->bw > 0)
		e->write_mbs = c->bw / 1e6;
	cells_free(&cells);
	if (status)
		return set_err("pass %u of %u did not write the whole disk (exit status %d: the engine's message is "
			       "above)", pass, e->passes, status);
	return 0;
}

int erase_clear_run(struct erase_job *e)
{
	int n;

	n = snprintf(e->command, sizeof(e->command), "%u overwrite pass(es) of %s, 1 MiB writes, 32 in flight",
		     e->passes, !e->pattern_len ? "random data" : e->pattern_len == 1 && !e->pattern[0] ? "zeros" :
		     "a pattern");
	for (unsigned p = 1; p <= e->passes; p++) {
		if (e->stop && *e->stop)
			return snprintf(e->failure, sizeof(e->failure), "stopped before pass %u", p), -1;
		if (one_pass(e, p)) {
			snprintf(e->failure, sizeof(e->failure), "%s", bb_err);
			return -1;
		}
	}
	if (e->trim && e->pattern_len == 1 && !e->pattern[0] && discards(e)) {
		uint64_t range[2] = { 0, e->disk.size };
		int fd = consent_open(e->dev, O_WRONLY | O_CLOEXEC);

		if (fd < 0 || ioctl(fd, BLKDISCARD, range)) {
			snprintf(e->failure, sizeof(e->failure), "the discard after the last pass failed: %s",
				 fd < 0 ? bb_err : strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		close(fd);
		snprintf(e->command + n, sizeof(e->command) - n, ", then a discard of the whole disk");
	}
	return 0;
}
