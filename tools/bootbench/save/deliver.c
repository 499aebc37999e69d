// SPDX-License-Identifier: MIT
/*
 * deliver.c - the one upload rule, over any destination's primitives
 * (dest.h): if NAME/MANIFEST.sha256 is there, the folder was delivered
 * before (a retry never duplicates it); else a stale .NAME.partial is
 * removed, the folder is sent under that name, the manifest last, and one
 * rename makes it NAME. A share holds a complete folder with its manifest,
 * or none. Then retries with backoff, and the spool.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"
#include "save/deliver.h"
#include "sys/ident.h"
#include "sys/nics.h"

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The regular files of DIR but the manifest and dot files, sorted; caller frees. */
static char **files_of(const char *dir, unsigned *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL, p[PATH_MAX];
	struct stat st;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (e->d_name[0] == '.' || !strcmp(e->d_name, MANIFEST_NAME) || stat(p, &st) || !S_ISREG(st.st_mode))
			continue;
		names = xrealloc(names, (*n + 1) * sizeof(*names));
		names[(*n)++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (*n)
		qsort(names, *n, sizeof(*names), by_name);
	return names;
}

static void free_names(char **names, unsigned n)
{
	while (n)
		free(names[--n]);
	free(names);
}

int manifest_write(const char *dir)
{
	char out[1024], path[PATH_MAX];
	char **argv, **names;
	unsigned n, i;
	int rc;

	names = files_of(dir, &n);
	if (!n)
		return set_err("%s holds no result files", dir);
	/* sha256sum (busybox's in the image) prints "HASH  NAME", the manifest's lines */
	argv = xcalloc(n + 8, sizeof(*argv));
	argv[0] = "sh";
	argv[1] = "-c";
	argv[2] = "cd \"$1\" && shift && sha256sum -- \"$@\" > .manifest.tmp && mv .manifest.tmp " MANIFEST_NAME;
	argv[3] = "sh";
	argv[4] = (char *)dir;
	for (i = 0; i < n; i++)
		argv[5 + i] = names[i];
	rc = spawn(argv, NULL, 1, out, sizeof(out));	/* consent: sha256sum writes the manifest */
	free(argv);
	free_names(names, n);
	snprintf(path, sizeof(path), "%s/" MANIFEST_NAME, dir);
	if (rc || access(path, R_OK))
		return set_err("cannot write %s: %s", path, out[0] ? out : "sha256sum failed");
	return 0;
}

/*
 * Kernel messages off the console while the files are shown: one printed in
 * the middle of a JSON file (a TCG guest on a loaded host warns of stalls)
 * breaks the file for whoever cuts it out of the serial log. They still go
 * to the kernel's log (dmesg). Returns the level to restore, 0 if unknown.
 */
static int console_hold_kernel(void)
{
	char buf[64] = "";
	int level = 0;

	if (!read_attr("/proc/sys/kernel/printk", buf, sizeof(buf)))
		level = atoi(buf);
	if (level > 1)
		klogctl(8 /* SYSLOG_ACTION_CONSOLE_LEVEL */, NULL, 1);
	return level;
}

/*
 * The console's tee drains our pipe at the serial line's pace (11.5 KB/s at
 * 115200 baud), long after the last write here: kernel messages stay held
 * until the pipe is empty, and a moment more for tee's and the tty's own
 * buffers (a few KiB), at most a minute in all.
 */
static void console_release_kernel(int level)
{
	struct stat st;
	int pending = 0, i;

	if (level <= 1)
		return;
	if (!fstat(STDOUT_FILENO, &st) && S_ISFIFO(st.st_mode)) {
		for (i = 0; i < 1200 && !ioctl(STDOUT_FILENO, FIONREAD, &pending) && pending > 0; i++)
			sleep_ns(50000000);
		sleep_ns(1500000000);
	}
	klogctl(8, NULL, level);
}

/*
 * Prints each file between the marker lines log readers cut out; not
 * report.html: its pictures mean nothing on a serial line, all it shows is
 * in the other files, and at the line's 11.5 KB/s it would hold the
 * console for many seconds.
 */
static int to_console(const char *dir)
{
	char **names, p[PATH_MAX], buf[65536];
	unsigned n, i;
	size_t k;
	int level = console_hold_kernel();

	names = files_of(dir, &n);
	names = xrealloc(names, (n + 1) * sizeof(*names));
	names[n++] = xstrdup(MANIFEST_NAME);
	for (i = 0; i < n; i++) {
		FILE *f;

		if (!strcmp(names[i], "report.html"))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		f = fopen(p, "re");
		if (!f)
			continue;
		printf("----- bootbench result %s begin -----\n", names[i]);
		while ((k = fread(buf, 1, sizeof(buf), f)))
			fwrite(buf, 1, k, stdout);
		printf("\n----- bootbench result %s end -----\n", names[i]);
		fclose(f);
	}
	fflush(stdout);
	console_release_kernel(level);
	free_names(names, n);
	return DEST_OK;
}

/* One attempt at one destination. */
static int deliver_once(struct dest *d, const char *dir)
{
	const char *name = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
	char final_manifest[600], tmp[600], rel[1200], local[PATH_MAX];
	char **names;
	unsigned n, i;
	int rc;

	rc = d->ops->attach(d);
	if (rc)
		return rc;
	snprintf(final_manifest, sizeof(final_manifest), "%s/" MANIFEST_NAME, name);
	snprintf(tmp, sizeof(tmp), ".%s.partial", name);
	rc = d->ops->exists(d, final_manifest);
	if (rc == 1) {
		d->ops->detach(d);
		return DEST_OK;	/* delivered before: nothing to add */
	}
	if (rc < 0)
		goto out;
	rc = d->ops->remove(d, tmp);
	if (!rc)
		rc = d->ops->mkdirs(d, tmp);
	names = files_of(dir, &n);
	for (i = 0; !rc && i < n; i++) {
		snprintf(local, sizeof(local), "%s/%s", dir, names[i]);
		snprintf(rel, sizeof(rel), "%s/%s", tmp, names[i]);
		rc = d->ops->put(d, local, rel);
		dest_progress();
	}
	free_names(names, n);
	if (!rc) {
		snprintf(local, sizeof(local), "%s/" MANIFEST_NAME, dir);
		snprintf(rel, sizeof(rel), "%s/" MANIFEST_NAME, tmp);
		rc = d->ops->put(d, local, rel);
	}
	if (!rc)
		rc = d->ops->rename(d, tmp, name);
	if (!rc) {
		/* the run's heartbeat (heartbeat_all) ends with its results there, its temporary file too */
		snprintf(rel, sizeof(rel), "%s" HEARTBEAT_SUFFIX, name);
		d->ops->remove(d, rel);
		snprintf(rel, sizeof(rel), ".%s" HEARTBEAT_SUFFIX ".partial", name);
		d->ops->remove(d, rel);
	}
out:
	if (rc < 0)
		rc = -rc;
	d->ops->detach(d);
	return rc;
}

/*
 * One attempt at writing to a destination without delivering anything: it
 * attaches (mounts, logs in, checks the certificate), makes a test folder,
 * puts a small file in it, finds it there, removes the folder and detaches.
 * What the menu's "Test a destination" and `bootbench save --test` run.
 */
static int probe_once(struct dest *d)
{
	const char *text = "bootbench: a test of this destination, removed at once\n";
	const char *tmpdir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char folder[64], rel[128], local[PATH_MAX];
	int rc;

	snprintf(folder, sizeof(folder), ".bootbench-test-%d", (int)getpid());
	snprintf(rel, sizeof(rel), "%s/test.txt", folder);
	snprintf(local, sizeof(local), "%s/%s.txt", tmpdir, folder);
	if (write_file_atomic(local, text, strlen(text))) {
		set_err("cannot write the test file %s", local);
		return DEST_PERMANENT;
	}
	rc = d->ops->attach(d);
	if (rc)
		goto out_unlink;
	rc = d->ops->mkdirs(d, folder);
	if (!rc)
		rc = d->ops->put(d, local, rel);
	if (!rc) {
		rc = d->ops->exists(d, rel);
		if (rc == 0) {
			set_err("the test file was written but is not there");
			rc = DEST_PERMANENT;
		} else if (rc == 1) {
			rc = 0;
		}
	}
	if (!rc)
		rc = d->ops->remove(d, folder);
	else
		d->ops->remove(d, folder);	/* best effort: the failure above is the one to report */
	if (rc < 0)
		rc = -rc;
	d->ops->detach(d);
out_unlink:
	unlink(local);
	return rc;
}

/*
 * A stalled attempt is given up from outside. A server that goes away in
 * the middle of an upload can hold the kernel's client far longer than the
 * save may wait (cifs retries writeback while it reconnects, and a process
 * in such a wait cannot be killed), so each attempt at a network
 * destination runs in a child that reports its progress ('p', each chunk
 * written) through a pipe, then its outcome ('R', the dest_error, bb_err's
 * text). An upload that keeps moving may take as long as it needs; one with
 * no progress for STALL_S is given up: the share is unmounted by force,
 * which ends the client's waits, and the child is killed.
 */
static int progress_fd = -1;

void dest_progress(void)
{
	if (progress_fd >= 0 && write(progress_fd, "p", 1) < 0)
		progress_fd = -1;
}

static void give_up_child(const struct dest *d, pid_t pid)
{
	char mnt[PATH_MAX];
	int i;

	/* the child mounted its share at MOUNT_DIR/ITS-PID (dest_fs.c) */
	snprintf(mnt, sizeof(mnt), "%s/%d", d->set->mount_dir, (int)pid);
	umount2(mnt, MNT_FORCE);
	kill(pid, SIGKILL);
	for (i = 0; i < 100; i++) {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			break;
		sleep_ns(100000000);
	}
	if (i == 100)
		note("save: the upload's process %d is still stuck in the kernel; left behind", (int)pid);
	if (!umount2(mnt, MNT_DETACH) || errno != EINVAL)
		rmdir(mnt);
}

static int attempt_watched(struct dest *d, const char *dir, unsigned stall_s)
{
	char msg[sizeof(bb_err) + sizeof(int) + 1], buf[512];
	uint64_t last = now_ns();
	size_t got = 0;
	int fds[2], rc, result = 0;
	pid_t pid;

	if (d->url.kind == DEST_USB || pipe2(fds, O_CLOEXEC))
		return dir ? deliver_once(d, dir) : probe_once(d);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return dir ? deliver_once(d, dir) : probe_once(d);
	}
	if (!pid) {
		/* what it has to say comes back through the pipe; a child stuck in
		 * the kernel on a dead share must not hold the console log's pipe,
		 * or the log's tee never ends and a power-off waits for it */
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);	/* consent: /dev/null */

		if (null >= 0) {
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
		}
		close(fds[0]);
		progress_fd = fds[1];
		bb_err[0] = 0;
		rc = dir ? deliver_once(d, dir) : probe_once(d);
		msg[0] = 'R';
		memcpy(msg + 1, &rc, sizeof(rc));
		memcpy(msg + 1 + sizeof(rc), bb_err, strlen(bb_err));
		_exit(write(fds[1], msg, 1 + sizeof(rc) + strlen(bb_err)) < 0 ? 3 : 0);
	}
	close(fds[1]);
	for (;;) {
		struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
		uint64_t now = now_ns(), until = last + (uint64_t)stall_s * 1000000000ull;
		ssize_t n, i;

		if (now >= until || poll(&pfd, 1, (int)((until - now) / 1000000 + 1)) == 0) {
			close(fds[0]);
			give_up_child(d, pid);
			set_err("the server stopped answering during the upload (no progress for %u s); "
				"the share was unmounted by force", stall_s);
			return DEST_RETRY;
		}
		n = read(fds[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		last = now_ns();
		for (i = 0; i < n; i++) {
			if (!result && buf[i] == 'R')
				result = 1;
			else if (result && got < sizeof(msg) - 1)
				msg[got++] = buf[i];
		}
	}
	close(fds[0]);
	waitpid(pid, NULL, 0);
	if (got < sizeof(rc)) {
		set_err("the upload's process ended without an outcome");
		return DEST_RETRY;
	}
	memcpy(&rc, msg, sizeof(rc));
	msg[got] = 0;
	snprintf(bb_err, sizeof(bb_err), "%.*s", (int)sizeof(bb_err) - 1, msg + sizeof(rc));
	return rc;
}

/*
 * No progress for this long is a stalled upload: three of the network's own
 * timeouts on a mounted share (progress comes a MiB at a time there); on
 * WebDAV, where progress comes a file at a time, one more than curl's own
 * limit on a request (6 of them), so that curl says first what went wrong.
 */
static unsigned stall_limit(const struct dest *d)
{
	unsigned t = d->set->timeout_s >= 5 ? d->set->timeout_s : 5;

	return d->url.kind == DEST_HTTP || d->url.kind == DEST_HTTPS ? t * 7 : t * 3;
}

int probe_all(const struct dest_url *urls, unsigned n, const struct dest_settings *set)
{
	unsigned i, failed = 0;
	char where[1400];

	for (i = 0; i < n; i++) {
		uint64_t t0 = now_ns();
		struct dest d;
		int rc;

		url_where(&urls[i], where, sizeof(where));
		if (urls[i].kind == DEST_CONSOLE) {
			printf("save: console: always there (the files are printed between marker lines)\n");
			continue;
		}
		rc = dest_init(&d, &urls[i], set) ? DEST_PERMANENT :
		     attempt_watched(&d, NULL, stall_limit(&d));
		memset(d.password, 0, sizeof(d.password));
		if (rc) {
			failed++;
			printf("save: %s: FAILED: %s\n", where, bb_err);
		} else {
			printf("save: %s: writable (wrote, found and removed a test file in %.1f s)\n", where,
			       (now_ns() - t0) / 1e9);
		}
		fflush(stdout);
	}
	return (int)failed;
}

/*
 * A heartbeat of the run in DIR: DIR's name with HEARTBEAT_SUFFIX, written
 * beside the result folders (a new file under a dot name, then renamed:
 * the destination's clock stamps it). What it holds is a line for people;
 * bootbench fleet reads its time.
 */
static int heartbeat_once(struct dest *d, const char *dir, const char *local)
{
	const char *name = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
	char rel[600], tmp[600];
	int rc;

	snprintf(rel, sizeof(rel), "%s" HEARTBEAT_SUFFIX, name);
	snprintf(tmp, sizeof(tmp), ".%s" HEARTBEAT_SUFFIX ".partial", name);
	rc = d->ops->attach(d);
	if (rc)
		return rc;
	rc = d->ops->remove(d, tmp);
	if (!rc)
		rc = d->ops->put(d, local, tmp);
	if (!rc)
		rc = d->ops->remove(d, rel);
	if (!rc)
		rc = d->ops->rename(d, tmp, rel);
	if (rc < 0)
		rc = -rc;
	d->ops->detach(d);
	return rc;
}

int heartbeat_all(const struct dest_url *urls, unsigned n, const struct dest_settings *set, const char *dir)
{
	const char *tmpdir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	const char *name = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
	char local[PATH_MAX], body[2048], where[1400];
	unsigned i, failed = 0;
	struct nic nics[NICS_MAX];
	unsigned nn = nics_scan(nics, NICS_MAX);
	size_t at;

	snprintf(local, sizeof(local), "%s/.bootbench-heartbeat-%d.json", tmpdir, (int)getpid());
	/* the folder's name is ours (results.sh's run_folder_name): safe in JSON as it is; the MACs
	 * (checked as MACs) let a rack list that names the machine by one find its heartbeat */
	at = (size_t)snprintf(body, sizeof(body), "{\"bootbench_heartbeat\": 1, \"run\": \"%s\", \"what\": \"running\", "
			      "\"macs\": [", name);
	for (i = 0; i < nn && at < sizeof(body); i++) {
		char mac[18];

		if (!mac_normal(nics[i].mac, mac))
			at += (size_t)snprintf(body + at, sizeof(body) - at, "%s\"%s\"", at && body[at - 1] == '[' ? "" : ", ",
					       mac);
	}
	if (at < sizeof(body))
		snprintf(body + at, sizeof(body) - at, "]}\n");
	if (at + 3 >= sizeof(body))
		return set_err("the heartbeat of %s is too long", name), (int)n;
	if (write_file_atomic(local, body, strlen(body)))
		return set_err("cannot write %s", local), (int)n;
	for (i = 0; i < n; i++) {
		struct dest d;
		int rc;

		if (urls[i].kind == DEST_CONSOLE)
			continue;
		rc = dest_init(&d, &urls[i], set) ? DEST_PERMANENT : heartbeat_once(&d, dir, local);
		memset(d.password, 0, sizeof(d.password));
		if (rc) {
			failed++;
			url_where(&urls[i], where, sizeof(where));
			printf("save: %s: heartbeat not written: %s\n", where, bb_err);
			fflush(stdout);
		}
	}
	unlink(local);
	return (int)failed;
}

static void spool_add(const char *spool, const struct save_job *j)
{
	/* on the stick: a link there is not followed */
	int fd = open(spool, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);	/* consent: the spool, a regular file */
	FILE *f = fd < 0 ? NULL : fdopen(fd, "a");

	if (!f || fprintf(f, "%s\t%s\n", j->url.text, j->dir) < 0 || fflush(f) || fsync(fileno(f)))
		note("save: cannot record %s in the spool %s: %s", j->url.text, spool, strerror(errno));
	if (f)
		fclose(f);
	else if (fd >= 0)
		close(fd);
}

/*
 * The stick's record of every outcome, results/deliveries.log: one line per
 * destination and folder (UTC time, folder, destination, outcome), across
 * boots, so whoever pulls the stick sees what reached which server. The
 * folders themselves stay as their manifests list them.
 */
static void record_outcome(const struct dest_settings *set, const struct save_job *j, const char *outcome)
{
	char path[PATH_MAX], when[32], where[1400];
	time_t now = time(NULL);
	FILE *f;
	int fd;

	if (!set->stick || j->url.kind == DEST_USB || j->url.kind == DEST_CONSOLE)
		return;
	snprintf(path, sizeof(path), "%s/results/deliveries.log", set->stick);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);	/* consent: the stick's log, a regular file */
	f = fd < 0 ? NULL : fdopen(fd, "a");
	if (!f) {
		if (fd >= 0)
			close(fd);
		return;
	}
	fprintf(f, "%s %s %s %s\n", when, strrchr(j->dir, '/') ? strrchr(j->dir, '/') + 1 : j->dir,
		url_where(&j->url, where, sizeof(where)), outcome);
	fflush(f);
	fsync(fileno(f));
	fclose(f);
}

int deliver_all(struct save_job *jobs, unsigned n, const struct dest_settings *set, unsigned total_s,
		const char *spool)
{
	static const unsigned backoff[] = { 1, 2, 4, 8, 16, 32 };
	uint64_t start = now_ns(), deadline = start + (uint64_t)total_s * 1000000000ull;
	unsigned round = 0, left, i;
	char where[1400];

	for (;;) {
		left = 0;
		for (i = 0; i < n; i++) {
			struct save_job *j = &jobs[i];
			struct dest d;
			uint64_t t0 = now_ns();
			int rc;

			if (j->done || j->failed_for_good)
				continue;
			j->attempts++;
			url_where(&j->url, where, sizeof(where));
			if (j->url.kind == DEST_CONSOLE) {
				to_console(j->dir);
				j->done = 1;
				continue;
			}
			if (dest_init(&d, &j->url, set)) {
				rc = DEST_PERMANENT;
			} else {
				rc = attempt_watched(&d, j->dir, stall_limit(&d));
				memset(d.password, 0, sizeof(d.password));
			}
			if (!rc) {
				j->done = 1;
				char how[64];

				snprintf(how, sizeof(how), "(attempt %d, %.1f s)", j->attempts, (now_ns() - t0) / 1e9);
				printf("save: %s: delivered %s %s\n", where, strrchr(j->dir, '/') + 1, how);
				snprintf(j->why, sizeof(j->why), "delivered %s", how);
				record_outcome(set, j, j->why);
				continue;
			}
			snprintf(j->why, sizeof(j->why), "%s", bb_err);
			if (rc == DEST_PERMANENT) {
				j->failed_for_good = 1;
				printf("save: %s: FAILED: %s\n", where, j->why);
				snprintf(where, sizeof(where), "FAILED: %s", j->why);
				record_outcome(set, j, where);
				continue;
			}
			left++;
			printf("save: %s: attempt %d failed: %s\n", where, j->attempts, j->why);
		}
		fflush(stdout);
		if (!left)
			break;
		{
			uint64_t wait = (uint64_t)(round < ARRAY_SIZE(backoff) ? backoff[round] : 60) * 1000000000ull;

			round++;
			if (now_ns() + wait > deadline) {
				/* what the decision rested on, for whoever reads the log (and a test that measures it) */
				printf("save: no time for another try: %.3f s of %u s used, the next one in %llu s\n",
				       (now_ns() - start) / 1e9, total_s, (unsigned long long)(wait / 1000000000ull));
				for (i = 0; i < n; i++)
					if (!jobs[i].done && !jobs[i].failed_for_good) {
						url_where(&jobs[i].url, where, sizeof(where));
						printf("save: %s: FAILED: %s (gave up after %u s)\n", where, jobs[i].why,
						       total_s);
						snprintf(where, sizeof(where), "FAILED: %s (gave up after %u s)",
							 jobs[i].why, total_s);
						record_outcome(set, &jobs[i], where);
					}
				break;
			}
			printf("save: retrying in %llu s\n", (unsigned long long)(wait / 1000000000ull));
			fflush(stdout);
			sleep_ns(wait);
		}
	}
	left = 0;
	for (i = 0; i < n; i++) {
		if (jobs[i].done)
			continue;
		left++;
		if (spool && jobs[i].url.kind != DEST_USB) {
			spool_add(spool, &jobs[i]);
			url_where(&jobs[i].url, where, sizeof(where));
			printf("save: %s: kept in the spool %s for 'bootbench save --pending'\n", where, spool);
		}
	}
	fflush(stdout);
	return (int)left;
}

int dest_init(struct dest *d, const struct dest_url *url, const struct dest_settings *set)
{
	int rc;

	memset(d, 0, sizeof(*d));
	d->base_fd = -1;
	d->url = *url;
	d->set = set;
	switch (url->kind) {
	case DEST_HTTP:
	case DEST_HTTPS:
		d->ops = &dest_webdav_ops;
		break;
	default:
		d->ops = &dest_fs_ops;
	}
	if (!url->user[0] || !set->credentials)
		return 0;
	rc = cred_lookup(set->credentials, url, d->password, sizeof(d->password));
	if (rc < 0)
		return -1;
	d->has_password = rc == 0;
	return 0;
}
