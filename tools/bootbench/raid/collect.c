// SPDX-License-Identifier: MIT
/*
 * collect.c - runs a job set in a child (run_jobs) and reads its figures
 * back through a pipe: the child prints one tab-separated "cell" line per
 * job and direction. A child keeps its crashes, signals and exit() to itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "job/worker.h"
#include "lib/util.h"
#include "raid/collect.h"
#include "report/report.h"
#include "stats/hist.h"

volatile pid_t collect_child;

/* In the child: the cells, in place of the human report. */
static void print_cells(FILE *f, const struct run_result *r)
{
	unsigned i;
	int d;

	for (i = 0; i < r->nreports; i++) {
		const struct report *rep = &r->reports[i];

		for (d = 0; d < DDIR_NR; d++) {
			const struct dir_stats *s = &rep->st.dir[d];

			if (!s->ios)
				continue;
			fprintf(f, "cell\t%s\t%s\t%.3f\t%.3f\t%.3f\n", rep->job->o.name, ddir_names[d],
				report_iops(rep, d), report_bw_bytes(rep, d),
				s->clat.n ? hist_percentile(&s->clat, 99) / 1000.0 : 0);
		}
	}
	fflush(f);
}

static void parse_cell(struct cells *out, char *line)
{
	char *field[6], *save = NULL, *tok;
	unsigned n = 0;
	struct cell *c;

	for (tok = strtok_r(line, "\t\n", &save); tok && n < 6; tok = strtok_r(NULL, "\t\n", &save))
		field[n++] = tok;
	if (n != 6 || strcmp(field[0], "cell"))
		return;
	out->c = xrealloc(out->c, (out->n + 1) * sizeof(*out->c));
	c = &out->c[out->n++];
	memset(c, 0, sizeof(*c));
	snprintf(c->test, sizeof(c->test), "%s", field[1]);
	snprintf(c->dir, sizeof(c->dir), "%s", field[2]);
	c->iops = strtod(field[3], NULL);
	c->bw = strtod(field[4], NULL);
	c->p99_us = strtod(field[5], NULL);
}

/* In the child: the run, its JSON when asked, its cells on FD. */
static int child_run(struct jobset *js, const struct run_hooks *hooks, int fd)
{
	struct run_result r;
	FILE *f;
	int status = run_jobs(js, hooks, &r);

	if (status == EXIT_USAGE) {
		note("%s", bb_err);
		return status;
	}
	if (js->run.output && report_json_file(js->run.output, &r, !!(js->run.formats & FMT_JSONPLUS))) {
		note("%s", bb_err);
		status = EXIT_FAIL;
	}
	f = fdopen(fd, "w");
	if (f) {
		print_cells(f, &r);
		fclose(f);
	}
	return status;
}

int collect_run(struct jobset *js, const struct run_hooks *hooks, struct cells *out)
{
	char line[512];
	int fds[2], status;
	FILE *f;
	pid_t pid;

	memset(out, 0, sizeof(*out));
	fflush(stdout);
	if (pipe2(fds, O_CLOEXEC))
		return EXIT_FAIL;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return EXIT_FAIL;
	}
	if (!pid) {
		/* killed with us: a run killed by SIGKILL leaves no orphan holding the array */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(EXIT_FAIL);
		close(fds[0]);
		exit(child_run(js, hooks, fds[1]));
	}
	collect_child = pid;
	close(fds[1]);
	f = fdopen(fds[0], "r");
	/* a signal interrupts the read, not the child: read on to its end */
	while (f) {
		if (fgets(line, sizeof(line), f)) {
			parse_cell(out, line);
		} else if (ferror(f) && errno == EINTR) {
			clearerr(f);
		} else {
			break;
		}
	}
	if (f)
		fclose(f);
	else
		close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			collect_child = 0;
			return EXIT_FAIL;
		}
	collect_child = 0;
	return WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_FAIL;
}

const struct cell *cells_find(const struct cells *cs, const char *test, const char *dir)
{
	unsigned i;

	for (i = 0; i < cs->n; i++)
		if (!strcmp(cs->c[i].test, test) && !strcmp(cs->c[i].dir, dir))
			return &cs->c[i];
	return NULL;
}

void cells_free(struct cells *cs)
{
	free(cs->c);
	cs->c = NULL;
	cs->n = 0;
}
