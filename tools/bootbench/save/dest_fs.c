// SPDX-License-Identifier: MIT
/*
 * dest_fs.c - destinations that are a filesystem: the stick (already
 * mounted by /init), and NFS v4, NFS v3 and SMB shares, mounted here with
 * mount(2) for the time of a save. Passwords go to the kernel in mount(2)'s
 * data, never on a command line; cifs does not show them in /proc/mounts.
 * A share's path may name folders that do not exist yet: the longest
 * prefix the server exports is mounted and the rest is made.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "consent.h"
#include "dest.h"
#include "modules.h"
#include "util.h"

static int fail(int kind, const char *fmt, const char *a, const char *b)
{
	set_err(fmt, a, b);
	return kind;
}

/* How an errno from the server side bears on retrying. */
static int errno_kind(int e)
{
	switch (e) {
	case EACCES:
	case EPERM:
	case ENOSPC:
	case EDQUOT:
	case EROFS:
	case EINVAL:
	case ENODEV:
		return DEST_PERMANENT;
	default:
		return DEST_RETRY;
	}
}

static const char *errno_text(int e)
{
	switch (e) {
	case EACCES:
	case EPERM:
		return "permission denied (wrong user or password, or no write access)";
	case ENOSPC:
	case EDQUOT:
		return "the share is full";
	case EROFS:
		return "the share is read-only";
	default:
		return strerror(e);
	}
}

/* The first address of HOST as text, after a TCP connect to it on PORT
 * answered within the timeout: an unreachable server fails here in bounded
 * time, not in a mount that waits for minutes. */
static int reach(struct dest *d, unsigned port, char *addr, size_t len)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res = NULL;
	char host[256], portstr[16];
	struct pollfd pfd;
	int fd, rc, err = 0;
	socklen_t elen = sizeof(err);

	snprintf(host, sizeof(host), "%s", d->url.host);
	if (host[0] == '[') {
		memmove(host, host + 1, strlen(host));
		host[strlen(host) - 1] = 0;
	}
	snprintf(portstr, sizeof(portstr), "%u", port);
	rc = getaddrinfo(host, portstr, &hints, &res);
	if (rc)
		return fail(DEST_RETRY, "cannot resolve %s: %s", host, gai_strerror(rc));
	getnameinfo(res->ai_addr, res->ai_addrlen, addr, (socklen_t)len, NULL, 0, NI_NUMERICHOST);
	fd = socket(res->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		freeaddrinfo(res);
		return fail(DEST_RETRY, "socket: %s%s", strerror(errno), "");
	}
	rc = connect(fd, res->ai_addr, res->ai_addrlen);
	freeaddrinfo(res);
	if (rc && errno == EINPROGRESS) {
		pfd.fd = fd;
		pfd.events = POLLOUT;
		rc = poll(&pfd, 1, (int)(d->set->timeout_s * 1000));
		if (rc == 0) {
			close(fd);
			set_err("%s port %u does not answer (%u s)", addr, port, d->set->timeout_s);
			return DEST_RETRY;
		}
		getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen);
		rc = err ? -1 : 0;
		errno = err;
	}
	close(fd);
	if (rc) {
		set_err("cannot reach %s port %u: %s", addr, port, strerror(errno));
		return DEST_RETRY;
	}
	return DEST_OK;
}

/* mkdir -p of PATH (absolute). */
static int make_dirs(const char *path)
{
	char p[PATH_MAX];
	size_t i;

	snprintf(p, sizeof(p), "%s", path);
	for (i = 1; p[i]; i++) {
		if (p[i] != '/')
			continue;
		p[i] = 0;
		if (mkdir(p, 0755) && errno != EEXIST)
			return -1;
		p[i] = '/';
	}
	return mkdir(p, 0755) && errno != EEXIST ? -1 : 0;
}

/* Appends ",KEY=VALUE" with commas doubled, as cifs reads them. */
static void opt_add(char *buf, size_t len, const char *key, const char *val)
{
	size_t o = strlen(buf);

	o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%s=", o ? "," : "", key);
	for (; *val && o + 2 < len; val++) {
		buf[o++] = *val;
		if (*val == ',')
			buf[o++] = ',';
	}
	buf[o < len ? o : len - 1] = 0;
}

static int mount_share(struct dest *d)
{
	const struct dest_url *u = &d->url;
	unsigned port = u->port ? u->port : u->kind == DEST_SMB ? 445 : 2049;
	char addr[64], opts[1024] = "", source[1400], first_source[1400], sub[1024], path[1024];
	const char *type;
	char *cut;
	int rc, first_rc = 0;

	rc = reach(d, port, addr, sizeof(addr));
	if (rc)
		return rc;
	module_load(u->kind == DEST_SMB ? "cifs" : u->kind == DEST_NFS3 ? "nfsv3" : "nfsv4");
	snprintf(d->mnt, sizeof(d->mnt), "%s/%d", d->set->mount_dir, (int)getpid());
	if (make_dirs(d->mnt))
		return fail(DEST_PERMANENT, "cannot make %s: %s", d->mnt, strerror(errno));
	snprintf(path, sizeof(path), "%s", u->path);
	while (strlen(path) > 1 && path[strlen(path) - 1] == '/')
		path[strlen(path) - 1] = 0;
	sub[0] = 0;
	for (;;) {
		opts[0] = 0;
		if (u->kind == DEST_SMB) {
			char share[1024];

			/* //host/share: the share is the first element, the rest is made */
			snprintf(share, sizeof(share), "%s", path + 1);
			cut = strchr(share, '/');
			snprintf(sub, sizeof(sub), "%s", cut ? cut : "");
			if (cut)
				*cut = 0;
			type = "cifs";
			snprintf(source, sizeof(source), "//%s/%s", u->host, share);
			opt_add(opts, sizeof(opts), "username", u->user);
			if (u->domain[0])
				opt_add(opts, sizeof(opts), "domain", u->domain);
			opt_add(opts, sizeof(opts), "vers", d->set->smb_vers ? d->set->smb_vers : "3");
			opt_add(opts, sizeof(opts), "ip", addr);
			snprintf(opts + strlen(opts), sizeof(opts) - strlen(opts), ",port=%u,echo_interval=10", port);
			if (d->has_password)
				opt_add(opts, sizeof(opts), "password", d->password);
		} else {
			type = "nfs";
			snprintf(source, sizeof(source), "%s:%s", u->host, path);
			/* soft: a server that goes away fails the save, not hangs it */
			snprintf(opts, sizeof(opts), "vers=%s,addr=%s,port=%u,soft,timeo=%u,retrans=2%s",
				 u->kind == DEST_NFS3 ? "3" : "4", addr, port, d->set->timeout_s * 10,
				 u->kind == DEST_NFS3 ? ",nolock,proto=tcp,mountproto=tcp" : "");
		}
		if (!consent_mount_share(source, d->mnt, type, MS_NOSUID | MS_NODEV | MS_NOEXEC, opts))
			break;
		rc = errno;
		if (!first_rc) {
			first_rc = rc;
			snprintf(first_source, sizeof(first_source), "%s", source);
		}
		/*
		 * An NFS path below the export: mount its parent and make the
		 * rest. NFSv4 says ENOENT for it; v3 servers' MOUNT says "access
		 * denied" for any path that is not an export (Linux mountd,
		 * ganesha), so there EACCES walks up too.
		 */
		cut = strrchr(path, '/');
		if (u->kind != DEST_SMB && (rc == ENOENT || (u->kind == DEST_NFS3 && rc == EACCES)) && cut &&
		    cut != path) {
			char rest[1024];

			snprintf(rest, sizeof(rest), "%s%s", cut, sub);
			snprintf(sub, sizeof(sub), "%s", rest);
			*cut = 0;
			continue;
		}
		rmdir(d->mnt);
		d->mnt[0] = 0;
		/* no parent worked either: the first refusal is the one to report */
		if (u->kind != DEST_SMB && (rc == ENOENT || rc == EACCES)) {
			rc = first_rc;
			snprintf(source, sizeof(source), "%s", first_source);
		}
		if (rc == ENODEV)
			return fail(DEST_PERMANENT, "this kernel has no %s filesystem (module %s missing)", type,
				    u->kind == DEST_SMB ? "cifs" : u->kind == DEST_NFS3 ? "nfsv3" : "nfsv4");
		if (rc == EACCES || rc == EPERM)
			return fail(DEST_PERMANENT, "%s refused the mount: %s", source,
				    u->kind == DEST_SMB ? "wrong user or password, or no access to the share" :
				    "the export does not admit this machine");
		if (rc == ENOENT)
			return fail(DEST_PERMANENT, "%s: no such %s", source, u->kind == DEST_SMB ? "share" : "export");
		set_err("mounting %s failed: %s", source, strerror(rc));
		return errno_kind(rc) == DEST_PERMANENT ? DEST_PERMANENT : DEST_RETRY;
	}
	snprintf(d->base, sizeof(d->base), "%s%s", d->mnt, sub);
	if (make_dirs(d->base)) {
		rc = errno;
		set_err("cannot make %s on the share: %s", sub, errno_text(rc));
		return errno_kind(rc);
	}
	return DEST_OK;
}

static int fs_attach(struct dest *d)
{
	if (d->url.kind == DEST_USB) {
		if (!d->set->stick)
			return fail(DEST_PERMANENT, "no stick is mounted read-write for results%s%s", "", "");
		snprintf(d->base, sizeof(d->base), "%s/results", d->set->stick);
		if (make_dirs(d->base))
			return fail(errno_kind(errno), "cannot make %s: %s", d->base, errno_text(errno));
		return DEST_OK;
	}
	return mount_share(d);
}

static void fs_detach(struct dest *d)
{
	if (!d->mnt[0])
		return;
	sync();
	if (unmount_patiently(d->mnt))
		note("save: cannot unmount %s: %s", d->mnt, strerror(errno));
	rmdir(d->mnt);
	d->mnt[0] = 0;
}

static void full(struct dest *d, const char *rel, char *out, size_t len)
{
	snprintf(out, len, "%s/%s", d->base, rel);
}

static int fs_exists(struct dest *d, const char *rel)
{
	char p[PATH_MAX + 1100];
	struct stat st;

	full(d, rel, p, sizeof(p));
	if (!stat(p, &st))
		return 1;
	if (errno == ENOENT)
		return 0;
	set_err("%s: %s", rel, errno_text(errno));
	return -errno_kind(errno);
}

/* fsync of a folder: its entry and its contents' entries on disk. */
static int sync_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc;

	if (fd < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

static int fs_mkdirs(struct dest *d, const char *rel)
{
	char p[PATH_MAX + 1100];

	full(d, rel, p, sizeof(p));
	/* the new folder's entry on disk before anything goes in it: on FAT
	 * an entry left without its first cluster reads as the root
	 * directory, and a later clean-up of it would empty the stick */
	if (!make_dirs(p) && !sync_dir(p) && !sync_dir(d->base))
		return DEST_OK;
	set_err("cannot make %s: %s", rel, errno_text(errno));
	return errno_kind(errno);
}

static int fs_put(struct dest *d, const char *local, const char *rel)
{
	char p[PATH_MAX + 1100], buf[65536];
	int in, out, e = 0;
	size_t unsynced = 0;
	ssize_t n = 0;

	full(d, rel, p, sizeof(p));
	in = open(local, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return fail(DEST_PERMANENT, "cannot read %s: %s", local, strerror(errno));
	out = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);	/* consent: a file on the share or stick */
	if (out < 0) {
		e = errno;
		close(in);
		set_err("cannot write %s: %s", rel, errno_text(e));
		return errno_kind(e);
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		char *b = buf;

		while (n > 0) {
			ssize_t w = write(out, b, (size_t)n);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				e = w < 0 ? errno : ENOSPC;
				goto done;
			}
			b += w;
			n -= w;
			unsynced += (size_t)w;
		}
		/* on the server a MiB at a time, each a sign of life for the stall watch:
		 * a whole file's flush at the end could outlast it on a slow link */
		if (unsynced >= (1u << 20)) {
			if (fdatasync(out)) {
				e = errno;
				goto done;
			}
			unsynced = 0;
			dest_progress();
		}
	}
	if (n < 0)
		e = errno;
	/* on the server's disk, not in our page cache: the rename that follows makes it visible */
	if (!e && fsync(out))
		e = errno;
done:
	if (close(out) && !e)
		e = errno;
	close(in);
	if (!e)
		return DEST_OK;
	set_err("writing %s failed: %s", rel, errno_text(e));
	return errno_kind(e);
}

static int fs_rename(struct dest *d, const char *from, const char *to)
{
	char a[PATH_MAX + 1100], b[PATH_MAX + 1100];
	struct stat st;

	full(d, from, a, sizeof(a));
	full(d, to, b, sizeof(b));
	if (!stat(b, &st))
		return fail(DEST_PERMANENT, "%s already exists (not made by this run)%s", to, "");
	if (!rename(a, b)) {
		/*
		 * The rename on disk: the folder first, then its parent. On FAT
		 * the renamed folder's new entry is written without its first
		 * cluster, which only the folder's own inode write fills in: a
		 * power cut after the parent's fsync alone left "new" pointing
		 * at the root directory (tests/boot/power_cut.sh found it).
		 */
		if (sync_dir(b) || sync_dir(d->base)) {
			int e = errno;

			set_err("writing the rename of %s to disk failed: %s", to, errno_text(e));
			return errno_kind(e);
		}
		return DEST_OK;
	}
	set_err("renaming %s to %s failed: %s", from, to, errno_text(errno));
	return errno_kind(errno);
}

static int remove_tree(const char *path)
{
	DIR *dir = opendir(path);
	struct dirent *e;
	char p[PATH_MAX];

	if (!dir)
		return errno == ENOENT ? 0 : unlink(path);
	while ((e = readdir(dir))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", path, e->d_name);
		if (e->d_type == DT_DIR ? remove_tree(p) : unlink(p)) {
			closedir(dir);
			return -1;
		}
	}
	closedir(dir);
	return rmdir(path);
}

static int fs_remove(struct dest *d, const char *rel)
{
	char p[PATH_MAX + 1100];

	full(d, rel, p, sizeof(p));
	if (!remove_tree(p) || errno == ENOENT)
		return DEST_OK;
	set_err("cannot remove %s: %s", rel, errno_text(errno));
	return errno_kind(errno);
}

const struct dest_ops dest_fs_ops = {
	.name = "filesystem",
	.attach = fs_attach,
	.detach = fs_detach,
	.exists = fs_exists,
	.mkdirs = fs_mkdirs,
	.put = fs_put,
	.rename = fs_rename,
	.remove = fs_remove,
};
