// SPDX-License-Identifier: MIT
/*
 * uring.c - io_uring through liburing. Buffers and files are
 * registered when the kernel allows (no page pinning or fd lookup per I/O);
 * submission and the wait for completions are one io_uring_enter call;
 * completions are reaped in batches from the shared ring. SQPOLL and
 * polled completions (IOPOLL) are there when a job asks.
 * The ring is created inside the worker thread, which is its only user, so
 * the kernel can run completion work in that thread (DEFER_TASKRUN).
 * A job that mostly waits shares one CPU with its ring's kernel workers
 * (see share_cpu_with_io_worker).
 */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include "engine/engine.h"
#include "engine/ring.h"
#include "job/worker.h"
#include "lib/util.h"

/*
 * A deeper queue is placed by how often the job thread slept for its
 * completions in a window after its start-up (where even a busy job sleeps
 * while the kernel sets up its workers and caches): at one sleep in
 * SLEEPS_TO_SHARE completions or more it mostly waits. Measured on 2 vCPUs:
 * 0.24 to 1.0 sleeps per I/O for QD2-QD8 jobs (tmpfs and loop), 0.06 or less
 * for QD32 jobs that keep the thread busy.
 */
#define PLACE_SKIP_NS (200 * 1000000ull)
#define PLACE_WINDOW_NS (200 * 1000000ull)
#define SLEEPS_TO_SHARE 5

struct uring_data {
	struct io_uring ring;
	int fixed_files, fixed_bufs;
	struct io_uring_cqe **cqes;
	int placed;
	/* the placement window: its end, completions and the thread's voluntary context switches */
	uint64_t t_place;
	unsigned long window_ios;
	long window_sleeps;
	int in_window;
};

static long thread_sleeps(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) < 0 ? -1 : ru.ru_nvcsw;
}

static int ring_init(struct uring_data *d, const struct job_opts *o)
{
	static const unsigned tries[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_COOP_TASKRUN,
		0,
	};
	struct io_uring_params p;
	unsigned i;
	int rc = -EINVAL;

	for (i = 0; i < ARRAY_SIZE(tries); i++) {
		memset(&p, 0, sizeof(p));
		p.flags = tries[i];
		if (o->sqthread_poll) {
			/* a polling kernel thread submits: no task-run deferral */
			p.flags = IORING_SETUP_SQPOLL;
			p.sq_thread_idle = 1000;
			if (o->given[opt_find("sqthread_poll_cpu")]) {
				p.flags |= IORING_SETUP_SQ_AFF;
				p.sq_thread_cpu = o->sqthread_poll_cpu;
			}
		}
		if (o->hipri)
			p.flags |= IORING_SETUP_IOPOLL;
		rc = ring_init_disabled(o->iodepth, &d->ring, &p);
		if (rc != -EINVAL || o->sqthread_poll)
			break;
	}
	return rc;
}

/*
 * The ring's io-wq affinity applies to the workers it starts from then on:
 * those it already has (threads of this process named iou-wrk-<the job
 * thread's id>) are moved here.
 */
static void move_io_workers(const cpu_set_t *cpus)
{
	char want[32], path[300], comm[32];
	DIR *tasks = opendir("/proc/self/task");
	struct dirent *e;
	FILE *f;

	if (!tasks)
		return;
	snprintf(want, sizeof(want), "iou-wrk-%ld\n", (long)syscall(SYS_gettid));
	while ((e = readdir(tasks))) {
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		if (e->d_name[0] == '.' || !(f = fopen(path, "r")))
			continue;
		if (fgets(comm, sizeof(comm), f) && !strcmp(comm, want))
			sched_setaffinity(atoi(e->d_name), sizeof(*cpus), cpus);
		fclose(f);
	}
	closedir(tasks);
}

/*
 * A job that mostly waits for its I/O (always at iodepth 1; deeper, when it
 * sleeps for a large share of its completions) and the kernel threads that
 * do that I/O (io-wq: buffered I/O on tmpfs, page-cache misses; a loop
 * device's worker) take turns rather than run together.
 * On two CPUs each turn is a cross-CPU wake-up; on one CPU, a local switch
 * (in a 2-vCPU VM: 18x the IOPS at QD1 and 5x at QD4 on tmpfs, half the CPU
 * per I/O for 128k reads at QD2-QD8). A job that keeps its thread busy is
 * left alone: sharing would halve the CPU it and the workers have.
 * The n-th job to get here takes the n-th CPU it may run on, counting from
 * the CPU the first one ran on, so that jobs spread as they would unpinned.
 */
static int share_cpu_with_io_worker(struct uring_data *d)
{
	static int first_cpu = -1;
	static unsigned jobs_placed;
	unsigned nth = __atomic_fetch_add(&jobs_placed, 1, __ATOMIC_RELAXED), n, i;
	int unset = -1, cpu, start;
	cpu_set_t allowed, one;

	if (sched_getaffinity(0, sizeof(allowed), &allowed) < 0 || (n = (unsigned)CPU_COUNT(&allowed)) == 0)
		return -1;
	cpu = sched_getcpu();
	__atomic_compare_exchange_n(&first_cpu, &unset, cpu, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	start = __atomic_load_n(&first_cpu, __ATOMIC_RELAXED);
	nth %= n;
	for (i = 0, cpu = start < 0 ? 0 : start; i < CPU_SETSIZE; i++, cpu = (cpu + 1) % CPU_SETSIZE) {
		if (CPU_ISSET(cpu, &allowed) && nth-- == 0)
			break;
	}
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one) < 0)
		return -1;
	/* before 5.14 the kernel has no io-wq affinity: then only the job is pinned */
	io_uring_register_iowq_aff(&d->ring, sizeof(one), &one);
	move_io_workers(&one);
	return cpu;
}

/* what this engine's SQEs are */
static const uint8_t ring_ops[] = { IORING_OP_READ, IORING_OP_WRITE, IORING_OP_READ_FIXED, IORING_OP_WRITE_FIXED,
				    IORING_OP_FSYNC };

static int uring_init(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	struct uring_data *d = xcalloc(1, sizeof(*d));
	int rc, *fds;
	unsigned i;

	w->eng_data = d;
	d->cqes = xcalloc(o->iodepth, sizeof(*d->cqes));
	rc = ring_init(d, o);
	if (rc < 0) {
		free(d->cqes);
		free(d);
		w->eng_data = NULL;
		return set_err("io_uring setup failed: %s%s", strerror(-rc),
			       o->sqthread_poll || o->hipri ? " (sqthread_poll/hipri asked)" : "");
	}
	if (o->registerfiles) {
		fds = xcalloc(w->nfiles, sizeof(*fds));
		for (i = 0; i < w->nfiles; i++)
			fds[i] = w->files[i].fd;
		d->fixed_files = io_uring_register_files(&d->ring, fds, w->nfiles) == 0;
		free(fds);
	}
	if (o->fixedbufs) {
		/* one region covers every buffer, so each I/O uses index 0 */
		struct iovec iov = { .iov_base = w->buf_base, .iov_len = w->buf_size };

		d->fixed_bufs = w->buf_size <= (1u << 30) && io_uring_register_buffers(&d->ring, &iov, 1) == 0;
	}
	d->t_place = now_ns() + PLACE_SKIP_NS;
	/* with SQPOLL a kernel thread submits and the job does not wait on each I/O */
	d->placed = o->sqthread_poll;
	if (o->iodepth == 1 && !d->placed) {
		d->placed = 1;
		if (share_cpu_with_io_worker(d) >= 0)
			w->engine_note = "io_uring: at iodepth 1 each job and its kernel I/O worker share one CPU";
	}
	/* the ring does reads, writes and syncs, nothing else (engine/ring.h) */
	rc = ring_restrict(&d->ring, ring_ops, ARRAY_SIZE(ring_ops));
	if (!rc)
		rc = ring_enable(&d->ring);
	if (rc < 0) {
		io_uring_queue_exit(&d->ring);
		free(d->cqes);
		free(d);
		w->eng_data = NULL;
		return set_err("io_uring: the ring could not be restricted to reads and writes: %s", strerror(-rc));
	}
	if ((o->registerfiles && !d->fixed_files) || (o->fixedbufs && !d->fixed_bufs))
		w->engine_note = "io_uring: the kernel refused registered files or buffers; ran without";
	return 0;
}

static int uring_queue(struct worker *w, struct io_unit *io)
{
	struct uring_data *d = w->eng_data;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&d->ring);
	int fd = d->fixed_files ? io->file : w->files[io->file].fd;

	if (!sqe)
		return -EBUSY;
	if (io->ddir == DDIR_WRITE) {
		if (d->fixed_bufs)
			io_uring_prep_write_fixed(sqe, fd, io->buf, io->len, io->offset, 0);
		else
			io_uring_prep_write(sqe, fd, io->buf, io->len, io->offset);
	} else {
		if (d->fixed_bufs)
			io_uring_prep_read_fixed(sqe, fd, io->buf, io->len, io->offset, 0);
		else
			io_uring_prep_read(sqe, fd, io->buf, io->len, io->offset);
	}
	if (d->fixed_files)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data(sqe, io);
	return Q_QUEUED;
}

static int uring_commit(struct worker *w, unsigned wait_nr)
{
	struct uring_data *d = w->eng_data;
	int rc;

	do
		rc = io_uring_submit_and_wait(&d->ring, wait_nr);
	while (rc == -EINTR && !stop_requested);
	return rc == -EINTR ? 0 : (rc < 0 ? rc : 0);
}

/* Called with each batch of completions until the job is placed. */
static void place_waiting_job(struct worker *w, struct uring_data *d, unsigned completed)
{
	long sleeps;

	d->window_ios += completed;
	if (now_ns() < d->t_place)
		return;
	sleeps = thread_sleeps();
	if (!d->in_window) {
		d->in_window = 1;
		d->window_ios = 0;
		d->window_sleeps = sleeps;
		d->t_place += PLACE_WINDOW_NS;
		return;
	}
	d->placed = 1;
	sleeps -= d->window_sleeps;
	if (d->window_sleeps < 0 || sleeps * SLEEPS_TO_SHARE < (long)d->window_ios || share_cpu_with_io_worker(d) < 0)
		return;
	/* after a note set at start-up, if any */
	snprintf(w->engine_note_buf, sizeof(w->engine_note_buf),
		 "%s%sio_uring: the job slept %ld times in %lu completions, so from there on it and "
		 "its kernel I/O worker share one CPU", w->engine_note ? w->engine_note : "",
		 w->engine_note ? "; " : "", sleeps, d->window_ios);
	w->engine_note = w->engine_note_buf;
}

static unsigned uring_reap(struct worker *w, struct io_unit **out, unsigned max)
{
	struct uring_data *d = w->eng_data;
	unsigned n, i;

	n = io_uring_peek_batch_cqe(&d->ring, d->cqes, max);
	for (i = 0; i < n; i++) {
		struct io_unit *io = io_uring_cqe_get_data(d->cqes[i]);

		io->res = d->cqes[i]->res;
		out[i] = io;
	}
	io_uring_cq_advance(&d->ring, n);
	if (!d->placed)
		place_waiting_job(w, d, n);
	return n;
}

static int uring_sync(struct worker *w, unsigned file, int datasync)
{
	struct uring_data *d = w->eng_data;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&d->ring);
	struct io_uring_cqe *cqe;
	int rc;

	/* called with nothing in flight, so the one completion is this one */
	if (!sqe)
		return -EBUSY;
	io_uring_prep_fsync(sqe, d->fixed_files ? (int)file : w->files[file].fd,
			    datasync ? IORING_FSYNC_DATASYNC : 0);
	if (d->fixed_files)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data(sqe, NULL);
	do
		rc = io_uring_submit_and_wait(&d->ring, 1);
	while (rc == -EINTR);
	if (rc < 0)
		return rc;
	rc = io_uring_peek_cqe(&d->ring, &cqe);
	if (rc < 0)
		return rc;
	rc = cqe->res;
	io_uring_cqe_seen(&d->ring, cqe);
	return rc < 0 ? rc : 0;
}

static void uring_cleanup(struct worker *w)
{
	struct uring_data *d = w->eng_data;

	if (!d)
		return;
	/*
	 * The kernel tears a closed ring down later, in a worker, and only then
	 * lets go of its registered files: a filesystem a job used would stay
	 * busy for a moment after bootbench ends (umount: EBUSY). Unregistered
	 * first, they are let go before this returns.
	 */
	if (d->fixed_files)
		io_uring_unregister_files(&d->ring);
	io_uring_queue_exit(&d->ring);
	free(d->cqes);
	free(d);
	w->eng_data = NULL;
}

const struct engine_ops engine_io_uring = {
	.version = ENGINE_OPS_VERSION,
	.name = "io_uring",
	.flags = ENGINE_F_ASYNC,
	.init = uring_init,
	.queue = uring_queue,
	.commit = uring_commit,
	.reap = uring_reap,
	.sync = uring_sync,
	.cleanup = uring_cleanup,
};
