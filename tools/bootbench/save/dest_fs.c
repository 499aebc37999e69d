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

#include "lib/util.h"
#include "safety/consent.h"
#include "save/dest.h"
#include "sys/modules.h"

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
	case ELOOP:
	case ENOTDIR:
	case EEXIST:
	case EXDEV:
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
	case ELOOP:
	case ENOTDIR:
		return "a symbolic link or a file stands where a folder of ours belongs (links are never followed)";
	case EEXIST:
		return "something is already there (not made by this run)";
	case EXDEV:
		return "another filesystem is mounted below it (not emptied)";
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

/* mkdir -p of PATH (absolute): our own mount point, under the save's mount folder. */
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

/*
 * What is on a share or the stick is untrusted: anyone who can write there
 * can leave a symbolic link where a folder of ours is expected, pointing at
 * the stick, a mounted disk or /. So no path below the destination's base is
 * ever resolved by the kernel in one go: each element is opened from the
 * folder before it with O_NOFOLLOW, and a link met on the way is an error
 * (ELOOP), never followed.
 */
static int open_dir_at(int dirfd, const char *name)
{
	return openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* The next element of *P (skipping empty ones and "."), copied to NAME; 0 at the end. */
static int next_element(const char **p, char *name, size_t len)
{
	for (;;) {
		size_t n;

		while (**p == '/')
			(*p)++;
		n = strcspn(*p, "/");
		if (!n)
			return 0;
		if (n >= len || (n == 2 && !strncmp(*p, "..", 2))) {
			errno = EINVAL;	/* a name too long, or one that climbs out */
			return -1;
		}
		memcpy(name, *p, n);
		name[n] = 0;
		*p += n;
		if (strcmp(name, "."))
			return 1;
	}
}

/* Walks REL below DIRFD; MAKE: makes missing folders (mkdir -p). Returns the last folder's fd, or -1 with errno. */
static int walk_dirs(int dirfd, const char *rel, int make)
{
	char name[NAME_MAX + 1];
	int fd = dup(dirfd), next, more;

	while (fd >= 0 && (more = next_element(&rel, name, sizeof(name))) != 0) {
		if (more < 0 || (make && mkdirat(fd, name, 0755) && errno != EEXIST)) {
			int e = errno;

			close(fd);
			errno = e;
			return -1;
		}
		next = open_dir_at(fd, name);
		close(fd);
		fd = next;
	}
	return fd;
}

/* The folder holding REL's last element, walked from the base without following a link; LEAF gets that element. */
static int open_parent(struct dest *d, const char *rel, char *leaf, size_t len)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(rel, '/'), *name = slash ? slash + 1 : rel;

	if (!*name || !strcmp(name, ".") || !strcmp(name, "..") || strlen(name) >= len) {
		errno = EINVAL;
		return -1;
	}
	snprintf(leaf, len, "%s", name);
	snprintf(dir, sizeof(dir), "%.*s", (int)(name - rel), rel);
	return walk_dirs(d->base_fd, dir, 0);
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
		/* nosymfollow: the kernel follows no link of the share's either */
		if (!consent_mount_share(source, d->mnt, type, MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_NOSYMFOLLOW,
					 opts))
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
	rc = open(d->mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	d->base_fd = rc < 0 ? -1 : walk_dirs(rc, sub, 1);
	if (rc >= 0)
		close(rc);
	if (d->base_fd < 0) {
		rc = errno;
		set_err("cannot make %s on the share: %s", sub[0] ? sub : "/", errno_text(rc));
		return errno_kind(rc);
	}
	return DEST_OK;
}

static int fs_attach(struct dest *d)
{
	if (d->url.kind == DEST_USB) {
		if (!d->set->stick)
			return fail(DEST_PERMANENT, "no stick is mounted read-write for results%s%s", "", "");
		int stick;

		if (!d->set->stick)
			return fail(DEST_PERMANENT, "no stick is mounted read-write for results%s%s", "", "");
		snprintf(d->base, sizeof(d->base), "%s/results", d->set->stick);
		/* the stick's mount point is ours; what is on it is not (results/ may be a link) */
		stick = open(d->set->stick, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		d->base_fd = stick < 0 ? -1 : walk_dirs(stick, "results", 1);
		if (stick >= 0)
			close(stick);
		if (d->base_fd < 0)
			return fail(errno_kind(errno), "cannot make %s: %s", d->base, errno_text(errno));
		return DEST_OK;
	}
	return mount_share(d);
}

static void fs_detach(struct dest *d)
{
	if (d->base_fd >= 0) {
		/*
		 * What this save wrote, on its own filesystem only: a system-wide
		 * sync() would wait on every other mount too, a dead share's
		 * included. Each file and folder was fsynced already.
		 */
		syncfs(d->base_fd);
		close(d->base_fd);
		d->base_fd = -1;
	}
	if (!d->mnt[0])
		return;
	if (unmount_patiently(d->mnt))
		note("save: cannot unmount %s: %s", d->mnt, strerror(errno));
	rmdir(d->mnt);
	d->mnt[0] = 0;
}

/* Sets bb_err for a failed operation on REL and returns how it bears on retrying. */
static int op_failed(const char *what, const char *rel, int e)
{
	set_err("%s %s: %s", what, rel, errno_text(e));
	return errno_kind(e);
}

static int fs_exists(struct dest *d, const char *rel)
{
	char leaf[NAME_MAX + 1];
	struct stat st;
	int dir = open_parent(d, rel, leaf, sizeof(leaf)), rc;

	if (dir < 0)
		return errno == ENOENT ? 0 : -op_failed("cannot look at", rel, errno);
	rc = fstatat(dir, leaf, &st, AT_SYMLINK_NOFOLLOW);
	close(dir);
	if (rc)
		return errno == ENOENT ? 0 : -op_failed("cannot look at", rel, errno);
	if (S_ISLNK(st.st_mode))
		return -op_failed("cannot look at", rel, ELOOP);
	return 1;
}

static int fs_mkdirs(struct dest *d, const char *rel)
{
	int fd = walk_dirs(d->base_fd, rel, 1), rc;

	if (fd < 0)
		return op_failed("cannot make", rel, errno);
	/* the new folder's entry on disk before anything goes in it: on FAT
	 * an entry left without its first cluster reads as the root
	 * directory, and a later clean-up of it would empty the stick */
	rc = fsync(fd) || fsync(d->base_fd) ? errno : 0;
	close(fd);
	return rc ? op_failed("cannot make", rel, rc) : DEST_OK;
}

static int fs_put(struct dest *d, const char *local, const char *rel)
{
	char leaf[NAME_MAX + 1], buf[65536];
	int in, out, dir, e = 0;
	size_t unsynced = 0;
	ssize_t n = 0;

	in = open(local, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return fail(DEST_PERMANENT, "cannot read %s: %s", local, strerror(errno));
	dir = open_parent(d, rel, leaf, sizeof(leaf));
	/* a new file in the folder this attempt made: whatever is there already (a link, a FIFO) is not ours */
	out = dir < 0 ? -1 : openat(dir, leaf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);	/* consent: a file on the share or stick */
	if (out < 0) {
		e = errno;
		if (dir >= 0)
			close(dir);
		close(in);
		return op_failed("cannot write", rel, e);
	}
	close(dir);
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

/* FROM and TO: folders directly in the base (deliver.c's .NAME.partial and NAME). */
static int fs_rename(struct dest *d, const char *from, const char *to)
{
	struct stat st;
	int fd, e;

	if (strchr(from, '/') || strchr(to, '/'))
		return fail(DEST_PERMANENT, "renaming %s to %s: not folders of the base", from, to);
	if (!fstatat(d->base_fd, to, &st, AT_SYMLINK_NOFOLLOW))
		return fail(DEST_PERMANENT, "%s already exists (not made by this run)%s", to, "");
	if (renameat(d->base_fd, from, d->base_fd, to)) {
		e = errno;
		set_err("renaming %s to %s failed: %s", from, to, errno_text(e));
		return errno_kind(e);
	}
	/*
	 * The rename on disk: the folder first, then its parent. On FAT
	 * the renamed folder's new entry is written without its first
	 * cluster, which only the folder's own inode write fills in: a
	 * power cut after the parent's fsync alone left "new" pointing
	 * at the root directory (tests/boot/power_cut.sh found it).
	 */
	/* a file renamed (a heartbeat) is synced as a file: opened as a folder it would fail */
	if (!fstatat(d->base_fd, to, &st, AT_SYMLINK_NOFOLLOW) && S_ISREG(st.st_mode))
		fd = openat(d->base_fd, to, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	else
		fd = open_dir_at(d->base_fd, to);
	e = fd < 0 || fsync(fd) || fsync(d->base_fd) ? errno : 0;
	if (fd >= 0)
		close(fd);
	if (e) {
		set_err("writing the rename of %s to disk failed: %s", to, errno_text(e));
		return errno_kind(e);
	}
	return DEST_OK;
}

/*
 * Removes NAME in DIRFD and what is in it, on the filesystem DEV only. A
 * link is removed itself, never what it points at; a folder is opened
 * with O_NOFOLLOW (one swapped for a link meanwhile fails with ELOOP).
 */
static int remove_at(int dirfd, const char *name, dev_t dev, unsigned depth)
{
	struct dirent *e;
	struct stat st;
	DIR *dir;
	int fd, rc = 0;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(dirfd, name, 0);
	if (st.st_dev != dev || depth > 64) {
		errno = st.st_dev != dev ? EXDEV : ELOOP;
		return -1;
	}
	fd = open_dir_at(dirfd, name);
	if (fd < 0)
		return -1;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return -1;
	}
	while (!rc && (e = readdir(dir)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			rc = remove_at(fd, e->d_name, dev, depth + 1);
	closedir(dir);
	return rc ? -1 : unlinkat(dirfd, name, AT_REMOVEDIR);
}

static int fs_remove(struct dest *d, const char *rel)
{
	char leaf[NAME_MAX + 1];
	struct stat base;
	int dir = open_parent(d, rel, leaf, sizeof(leaf)), rc;

	if (dir < 0)
		return errno == ENOENT ? DEST_OK : op_failed("cannot remove", rel, errno);
	rc = fstat(d->base_fd, &base) ? -1 : remove_at(dir, leaf, base.st_dev, 0);
	if (rc) {
		int e = errno;

		close(dir);
		return op_failed("cannot remove", rel, e);
	}
	close(dir);
	return DEST_OK;
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
