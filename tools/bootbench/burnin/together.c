// SPDX-License-Identifier: MIT
/*
 * together.c - loads at once (burnin.h): a component (or a disk's pass) in
 * a process of its own, its result written to memory shared with the
 * burn-in; and the machine's load sampled while they run, so that the
 * results show every load overlapping in time, not only that each was
 * started. A process, not a thread: the components keep module state (the
 * disks' plans, the EDAC baseline, the stressors' spawns) that was written
 * for one at a time, and a fork gives each its own copy of it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "burnin/burnin.h"
#include "lib/util.h"

struct burnin_shared {
	struct burnin_result r;
	int extra[4];
	uint64_t from_ns, to_ns;
	int done;		/* the function returned: its result is whole */
};

int burnin_child_start(struct burnin_child *ch, const char *what, burnin_child_fn fn, const void *arg,
		       struct burnin_result *into)
{
	pid_t parent = getpid();

	memset(ch, 0, sizeof(*ch));
	snprintf(ch->what, sizeof(ch->what), "%s", what);
	ch->into = into;
	ch->sh = mmap(NULL, sizeof(*ch->sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ch->sh == MAP_FAILED) {
		ch->sh = NULL;
		return set_err("%s: no memory to share with its process: %s", what, strerror(errno));
	}
	fflush(NULL);	/* nothing buffered is written twice */
	ch->pid = fork();
	if (ch->pid < 0) {
		munmap(ch->sh, sizeof(*ch->sh));
		ch->sh = NULL;
		return set_err("%s: no process for it: %s", what, strerror(errno));
	}
	if (ch->pid == 0) {
		/* dies with the burn-in, even by SIGKILL: never a load left running, orphaned */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(1);
		ch->sh->from_ns = now_ns();
		fn(arg, &ch->sh->r, ch->sh->extra);
		ch->sh->to_ns = now_ns();
		ch->sh->done = 1;
		fflush(NULL);
		_exit(0);
	}
	ch->running = 1;
	return 0;
}

/* The child ended (STATUS): its result copied out, or an ERROR saying how it ended. */
static void child_ended(struct burnin_child *ch, int status)
{
	struct burnin_result *r = ch->into;

	ch->running = 0;
	*r = ch->sh->r;
	memcpy(ch->extra, ch->sh->extra, sizeof(ch->extra));
	ch->from_ns = ch->sh->from_ns;
	ch->to_ns = ch->sh->done ? ch->sh->to_ns : now_ns();
	if (!ch->sh->done) {
		/* what it found before it died is kept, made safe to read; that it died is the verdict's word */
		r->reason[sizeof(r->reason) - 1] = 0;
		r->notes[sizeof(r->notes) - 1] = 0;
		if (r->nfig > BURNIN_FIGURES)
			r->nfig = 0;
		if (WIFSIGNALED(status))
			burnin_set(r, BURNIN_ERROR, "%s: its process was killed by signal %d before its verdict",
				   ch->what, WTERMSIG(status));
		else
			burnin_set(r, BURNIN_ERROR, "%s: its process ended (exit %d) before its verdict", ch->what,
				   WEXITSTATUS(status));
	}
	munmap(ch->sh, sizeof(*ch->sh));
	ch->sh = NULL;
}

int burnin_child_poll(struct burnin_child *ch, int block)
{
	int status;
	pid_t p;

	if (!ch->running)
		return 1;
	do {
		if (burnin_stop && !ch->signalled) {
			/* the burn-in was stopped: the child's component stops soon and keeps what it measured */
			kill(ch->pid, SIGTERM);
			ch->signalled = 1;
		}
		p = waitpid(ch->pid, &status, block ? 0 : WNOHANG);
	} while (p < 0 && errno == EINTR);
	if (p == 0)
		return 0;
	if (p < 0) {
		/* cannot happen for our own child; never a verdict taken from a result half written */
		ch->running = 0;
		burnin_set(ch->into, BURNIN_ERROR, "%s: its process could not be waited for: %s", ch->what, strerror(errno));
		munmap(ch->sh, sizeof(*ch->sh));
		ch->sh = NULL;
		return 1;
	}
	child_ended(ch, status);
	return 1;
}

void burnin_merge(struct burnin_result *into, const struct burnin_result *from, const char *label,
		  const char *suffix)
{
	if (from->verdict != BURNIN_SKIPPED) {
		if (from->verdict == into->verdict && into->verdict == BURNIN_PASS) {
			/* two passes: both said (burnin_set keeps only the last PASS's words) */
			size_t n = strlen(into->reason);

			snprintf(into->reason + n, sizeof(into->reason) - n, "%s%s%s", n ? "; " : "", label, from->reason);
		} else {
			burnin_set(into, from->verdict, "%s%s", label, from->reason);
		}
	}
	if (from->notes[0])
		burnin_note(into, "%s%s", label, from->notes);
	for (unsigned k = 0; k < from->nfig && k < BURNIN_FIGURES; k++) {
		const struct burnin_figure *f = &from->fig[k];
		char name[sizeof(f->name)];

		snprintf(name, sizeof(name), "%s%s", f->name, suffix);
		burnin_device_figure(into, f->device, name, f->value, "%s", f->text);
	}
}
