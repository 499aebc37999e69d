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
	int stopped;		/* a signal stopped it (its burnin_stop) */
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
		ch->sh->stopped = burnin_stop;
		ch->sh->to_ns = now_ns();
		ch->sh->done = 1;
		fflush(NULL);
		_exit(0);
	}
	ch->running = 1;
	ch->start_ns = now_ns();
	return 0;
}

/* What a child wrote before it died or hung, made safe to read (it may have been cut mid-write). */
static void make_readable(struct burnin_result *r)
{
	r->reason[sizeof(r->reason) - 1] = 0;
	r->notes[sizeof(r->notes) - 1] = 0;
	if (r->nfig > BURNIN_FIGURES)
		r->nfig = 0;
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
	if (ch->sh->done && ch->sh->stopped && !burnin_stop) {
		/*
		 * Stopped, but not by the burn-in: it did not run its time,
		 * whatever it concluded. Its own word for that (INTERRUPTED)
		 * is the burn-in's stop's, which this was not: an ERROR, its
		 * words kept as a note; a failure it found stands.
		 */
		if (r->verdict == BURNIN_INTERRUPTED || r->verdict == BURNIN_PASS) {
			if (r->reason[0])
				burnin_note(r, "%s", r->reason);
			r->reason[0] = 0;
			r->verdict = BURNIN_SKIPPED;
		}
		if (ch->overran)
			burnin_set(r, BURNIN_ERROR, "%s: still running %.0f s past its time (a device or a program that does "
				   "not answer?): stopped, not tested to its end", ch->what, ch->overran_s);
		else
			burnin_set(r, BURNIN_ERROR, "%s: its process was stopped by a signal from outside the burn-in "
				   "before its time was up: not tested to its end", ch->what);
	} else if (!ch->sh->done) {
		/* what it found before it died is kept; that it died is the verdict's word */
		make_readable(r);
		if (ch->overran)
			burnin_set(r, BURNIN_ERROR, "%s: still running %.0f s past its time (a device or a program that does "
				   "not answer?): killed, not tested to its end", ch->what, ch->overran_s);
		else if (WIFSIGNALED(status))
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
			ch->signalled_ns = now_ns();
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

/* seconds a process told to stop (SIGTERM) has before SIGKILL, and after SIGKILL before it is left behind */
#define STOP_GRACE_NS (30 * 1000000000ull)
/* the floors of the graces scaled by BOOTBENCH_SCALE */
#define STOP_GRACE_MIN_NS (10 * 1000000000ull)
#define OVERRUN_MIN_NS (30 * 1000000000ull)

void burnin_child_watch(struct burnin_child *ch, uint64_t end_ns)
{
	uint64_t now = now_ns(), grace = 0, stop_grace;
	double f;

	if (!ch->running)
		return;
	/*
	 * BOOTBENCH_SCALE scales the graces as it scales the time (a test's
	 * hung disk ends in a minute), never under floors that what it does
	 * not scale needs: a drive's own self-test, programs starting and
	 * ending under a loaded emulator (a SATA drive's self-test took a
	 * scaled 2.4 s grace past its time).
	 */
	if (scale_factor(&f) || f > 1)
		f = 1;
	stop_grace = (uint64_t)(STOP_GRACE_NS * f);
	if (stop_grace < STOP_GRACE_MIN_NS)
		stop_grace = STOP_GRACE_MIN_NS;
	if (end_ns) {
		/* a component's end is not to the second (a pass's last stretch, stress-ng's exit): a grace */
		grace = (uint64_t)(BURNIN_OVERRUN_SHARE * (double)(end_ns > ch->start_ns ? end_ns - ch->start_ns : 0));
		if (grace < BURNIN_OVERRUN_S * 1e9 * f)
			grace = (uint64_t)(BURNIN_OVERRUN_S * 1e9 * f);
		if (grace < OVERRUN_MIN_NS)
			grace = OVERRUN_MIN_NS;
	}
	if (!ch->signalled && (burnin_stop || (end_ns && now > end_ns + grace))) {
		if (!burnin_stop) {
			ch->overran = 1;
			ch->overran_s = (now - end_ns) / 1e9;
		}
		kill(ch->pid, SIGTERM);
		ch->signalled = 1;
		ch->signalled_ns = now;
	} else if (ch->signalled && !ch->killed && now > ch->signalled_ns + stop_grace) {
		kill(ch->pid, SIGKILL);
		ch->killed = 1;
		ch->killed_ns = now;
	} else if (ch->killed && now > ch->killed_ns + stop_grace) {
		/*
		 * SIGKILL did not end it: it waits in the kernel (a read of a
		 * disk that never answers). It is left behind, its shared
		 * memory with it, and its component's result is what it wrote
		 * so far with an ERROR: the burn-in still ends and says so.
		 */
		struct burnin_result *r = ch->into;

		*r = ch->sh->r;
		make_readable(r);
		ch->from_ns = ch->sh->from_ns;
		ch->to_ns = now;
		burnin_set(r, BURNIN_ERROR, "%s: its process did not end %.0f s after SIGKILL (hung in the kernel: a device "
			   "that does not answer?): left behind, not tested to its end", ch->what, stop_grace / 1e9);
		ch->running = 0;
		ch->sh = NULL;	/* still written by it: never unmapped, never read again */
	}
}
