// SPDX-License-Identifier: MIT
/*
 * session.c - the rescue chroot (session.h), after arch-chroot's common
 * script: the cleanup path is in place before the first mount, each mount
 * is recorded only once it succeeded, the first failure stops, and the
 * undoing goes in reverse. Better than the script: the helper forks a
 * child that is PID 1 of a new PID namespace and unshares a mount
 * namespace of its own with / made private; the mounts exist only in that
 * namespace, which dies with its last process. The child's parent-death
 * signal is SIGKILL: a helper killed even with SIGKILL takes the child with
 * it, the kernel kills every process of the PID namespace, and the
 * namespace and its mounts are gone.
 *
 * A little over 500 lines on purpose: the mount record, every mount that
 * goes in it and the one teardown that empties it are kept in one file, so
 * no mount can be made where the teardown does not see it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <linux/capability.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "lib/util.h"
#include "rescue/fstab.h"
#include "rescue/inroot.h"
#include "rescue/passwd.h"
#include "rescue/probe.h"
#include "rescue/session.h"
#include "safety/caps.h"
#include "safety/consent.h"
#include "safety/mountns.h"
#include "sys/disks.h"

#define SESSION_DIR "/run/bootbench/chroot"
#define MAX_MOUNTS 64
#define REPAIR_SCRIPT "/run/bootbench-repair.sh"	/* in the session's own /run */

static char mounted[MAX_MOUNTS][PATH_MAX];
static unsigned nmounted;
static int quiet;
/* the installed system's devices mounted in the session: its /dev offers them */
static char system_devs[MAX_MOUNTS][PATH_MAX];
static unsigned nsystem_devs;

static void say(const char *fmt, const char *a, const char *b, const char *c)
{
	if (!quiet) {
		printf(fmt, a, b, c);
		fflush(stdout);
	}
}

static int record(const char *dir)
{
	if (nmounted == MAX_MOUNTS)
		return set_err("more than %d mounts", MAX_MOUNTS);
	snprintf(mounted[nmounted++], PATH_MAX, "%s", dir);
	return 0;
}

/* Mounts a filesystem of the installed system: read-write only with consent for its device. */
static int mount_disk(const char *dev, const char *dir, const char *opts_data, const char *what)
{
	char type[64], data[600];
	struct stat st;
	unsigned long flags = 0;
	int writable;

	if (stat(dev, &st) || !S_ISBLK(st.st_mode))
		return set_err("%s (%s) is not a block device", dev, what);
	/* an fstab is the installed system's text: it may name any device, never ours (the stick holds credentials) */
	if (disk_is_our_medium(st.st_rdev, data, sizeof(data)))
		return set_err("%s (%s): %s: refused", dev, what, data);
	fs_type_of(dev, type, sizeof(type));
	if (!type[0])
		return set_err("%s (%s) holds no filesystem blkid knows", dev, what);
	writable = consent_named(st.st_rdev);
	if (writable) {
		snprintf(data, sizeof(data), "%s", opts_data ? opts_data : "");
	} else {
		flags |= MS_RDONLY;
		readonly_data(type, opts_data, data, sizeof(data));
	}
	if (consent_mount_data(dev, dir, type, flags, data[0] ? data : NULL)) {
		char why[sizeof(bb_err)];

		/* a refusal by the gate has its reason in bb_err, which set_err must not read while writing */
		snprintf(why, sizeof(why), "%s", errno == EPERM && writable ? bb_err : strerror(errno));
		return set_err("cannot mount %s (%s, %s) on %s: %s", dev, what, type, dir, why);
	}
	say("chroot: %s on %s (%s)\n", dev, dir, writable ? "read-write" : "read-only");
	if (nsystem_devs < MAX_MOUNTS)
		snprintf(system_devs[nsystem_devs++], PATH_MAX, "%s", dev);
	return record(dir);
}

static int mount_api(const char *src, const char *dir, const char *type, unsigned long flags, const char *data)
{
	struct stat st;

	if (stat(dir, &st)) {
		if (flags & MS_BIND && !stat(src, &st) && !S_ISDIR(st.st_mode)) {
			int fd = open(dir, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);	/* consent: a file in the tmpfs /run */

			if (fd >= 0)
				close(fd);
		} else {
			mkdir(dir, 0755);
		}
	}
	if (consent_mount_api(src, dir, type, flags, data))
		return set_err("cannot mount %s on %s: %s", type ? type : src, dir, strerror(errno));
	return record(dir);
}

/* Unmounts everything in reverse; returns how many stayed busy, each named. */
static unsigned teardown(void)
{
	unsigned busy = 0, i;

	/*
	 * What the session wrote, each filesystem by its own descriptor: a
	 * system-wide sync() would wait on every mount of the appliance too,
	 * a dead network share's included, and hang here.
	 */
	for (i = 0; i < nmounted; i++) {
		int fd = open(mounted[i], O_RDONLY | O_NONBLOCK | O_CLOEXEC);

		if (fd >= 0) {
			syncfs(fd);
			close(fd);
		}
	}
	while (nmounted) {
		const char *dir = mounted[--nmounted];

		if (umount2(dir, 0) && errno != EINVAL && errno != ENOENT) {
			int e = errno;

			if (umount2(dir, MNT_DETACH) || e == EBUSY) {
				printf("chroot: %s was busy (%s): detached\n", dir, strerror(e));
				fflush(stdout);
				busy++;
			}
		}
	}
	return busy;
}

/* DIR inside the root, resolved as the installed system would (links never lead out of it). */
static int inside(const char *root, const char *dir, char *out, size_t len)
{
	if (inroot_path(root, dir, out, len))
		return set_err("the mount point %s is missing in the installed system", dir);
	return 0;
}

static char *read_small(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = xcalloc(1, 65536);
	n = fread(buf, 1, 65535, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static int mount_fstab(const char *root)
{
	char dev[PATH_MAX], dir[PATH_MAX], data[512], what[PATH_MAX + 32];
	struct fstab_entry *e = NULL;
	char *text;
	int n, i, rc = 0;

	text = xcalloc(1, 65536);
	if (inroot_read(root, "/etc/fstab", text, 65536)) {
		free(text);
		return 0;	/* no fstab: the root alone */
	}
	n = fstab_parse(text, &e);
	free(text);
	if (n < 0)
		return -1;
	for (i = 0; i < n && !rc; i++) {
		if (!fstab_wanted(&e[i]))
			continue;
		snprintf(what, sizeof(what), "fstab line %d, %s", e[i].line, e[i].dir);
		if (fstab_resolve(e[i].spec, dev, sizeof(dev)) || inside(root, e[i].dir, dir, sizeof(dir))) {
			char why[sizeof(bb_err)];

			snprintf(why, sizeof(why), "%s", bb_err);	/* set_err must not read what it writes */
			if (!strstr(e[i].opts, "nofail")) {
				rc = set_err("%s: %s", what, why);
				break;
			}
			say("chroot: %s: %s%s\n", what, why, " (nofail: left out)");
			continue;
		}
		fstab_fs_data(e[i].opts, data, sizeof(data));
		rc = mount_disk(dev, dir, data, what);
	}
	free(e);
	return rc;
}

/* An empty file PATH (and its folders) under ROOT, in the session's tmpfs /run. */
static void make_file_in(const char *root, const char *path)
{
	char made[2 * PATH_MAX], *slash;
	int fd;

	snprintf(made, sizeof(made), "%s%s", root, path);
	for (slash = strchr(made + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = 0;
		mkdir(made, 0755);
		*slash = '/';
	}
	fd = open(made, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);	/* consent: a file in the session's tmpfs /run */
	if (fd >= 0)
		close(fd);
}

/*
 * /dev/disk/by-{uuid,partuuid,label,partlabel} inside the chroot when the
 * appliance has none (mdev makes no such links): update-grub writes
 * root=UUID= only when the link exists, and root=/dev/vda3 breaks when the
 * disk's name changes. The links live on a tmpfs of the session's, gone
 * with it; the appliance's /dev is not changed (but for an empty disk/
 * folder a mount point needs).
 */
static int make_disk_links(const char *root)
{
	static const struct { const char *key, *dir; } kinds[] = {
		{ "UUID", "by-uuid" }, { "PART_ENTRY_UUID", "by-partuuid" },
		{ "LABEL", "by-label" }, { "PART_ENTRY_NAME", "by-partlabel" },
	};
	char dir[PATH_MAX + 64], link[2 * PATH_MAX], out[4096], dev[300], target[300];
	struct dirent *e;
	struct stat st;
	DIR *d;
	unsigned k;

	if (!stat("/dev/disk/by-uuid", &st))
		return 0;	/* udev's own are there, bound with /dev */
	snprintf(dir, sizeof(dir), "%s/dev/disk", root);
	mkdir(dir, 0755);
	if (mount_api("disk", dir, "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755"))
		return -1;
	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		snprintf(link, sizeof(link), "%s/%s", dir, kinds[k].dir);
		mkdir(link, 0755);
	}
	d = opendir("/sys/class/block");
	while (d && (e = readdir(d))) {
		char *argv[] = { "blkid", "-p", "-o", "export", dev, NULL };
		const char *line;

		if (e->d_name[0] == '.' || !strncmp(e->d_name, "ram", 3))
			continue;
		snprintf(dev, sizeof(dev), "/dev/%s", e->d_name);
		if (spawn(argv, NULL, 1, out, sizeof(out)))	/* consent: blkid only reads the superblock */
			continue;
		for (line = out; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
			for (k = 0; k < ARRAY_SIZE(kinds); k++) {
				size_t n = strlen(kinds[k].key), v = strcspn(line + n + 1, "\n");

				if (strncmp(line, kinds[k].key, n) || line[n] != '=' || !v || memchr(line + n + 1, '/', v))
					continue;
				snprintf(link, sizeof(link), "%s/%s/%.*s", dir, kinds[k].dir, (int)v, line + n + 1);
				snprintf(target, sizeof(target), "../../%s", e->d_name);
				if (symlink(target, link) && errno != EEXIST)
					break;
			}
	}
	if (d)
		closedir(d);
	return 0;
}

/* A node at DEV's place (/dev/X, /dev/mapper/X) under DEVDIR, its folders made. */
static int dev_node(const char *devdir, const char *dev, mode_t mode, dev_t rdev)
{
	char path[PATH_MAX + 64], *slash;

	if (strncmp(dev, "/dev/", 5) || strstr(dev, "/../"))
		return 0;	/* no place under /dev: reached by no name inside */
	snprintf(path, sizeof(path), "%s/%s", devdir, dev + 5);
	for (slash = strchr(path + strlen(devdir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = 0;
		mkdir(path, 0755);
		*slash = '/';
	}
	if (mknod(path, mode, rdev) && errno != EEXIST)
		return set_err("cannot make %s in the chroot's /dev: %s", dev, strerror(errno));
	return 0;
}

/* DEV, the whole disk it is on, and what a device-mapper or md device is built on: the system's devices. */
static int system_dev(const char *devdir, const char *dev, const char *write_list, unsigned depth)
{
	char path[PATH_MAX], link[PATH_MAX], name[256];
	struct stat st;
	struct dirent *e;
	DIR *d;
	ssize_t n;
	int rc;

	if (stat(dev, &st) || !S_ISBLK(st.st_mode) || depth > 8)
		return 0;
	/* consent is by device number: 0600 only for a device --write named */
	rc = dev_node(devdir, dev, S_IFBLK | (write_list && destroy_list_has(write_list, st.st_rdev) ? 0600 : 0400),
		      st.st_rdev);
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	n = readlink(path, link, sizeof(link) - 1);
	if (rc || n <= 0)
		return rc;
	link[n] = 0;
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "/partition");
	if (!stat(path, &st)) {
		*strrchr(link, '/') = 0;
		snprintf(name, sizeof(name), "/dev/%.200s", strrchr(link, '/') + 1);
		rc = system_dev(devdir, name, write_list, depth + 1);
	}
	snprintf(path, sizeof(path), "/sys/class/block/%.200s/slaves", strrchr(dev, '/') + 1);
	d = opendir(path);
	while (!rc && d && (e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(name, sizeof(name), "/dev/%.200s", e->d_name);
			rc = system_dev(devdir, name, write_list, depth + 1);
		}
	if (d)
		closedir(d);
	return rc;
}

/*
 * The chroot's /dev (a tmpfs of the session's): what a shell needs, and the
 * installed system's own devices, by the names it knows them by. No other
 * disk of this machine is there, and without CAP_MKNOD none can be made.
 */
static int make_dev(const char *devdir, const char *write_list)
{
	static const struct { const char *name; unsigned major, minor; } chars[] = {
		{ "null", 1, 3 }, { "zero", 1, 5 }, { "full", 1, 7 }, { "random", 1, 8 }, { "urandom", 1, 9 },
		{ "tty", 5, 0 }, { "ptmx", 5, 2 },
	};
	static const struct { const char *name, *target; } links[] = {
		{ "fd", "/proc/self/fd" }, { "stdin", "/proc/self/fd/0" }, { "stdout", "/proc/self/fd/1" },
		{ "stderr", "/proc/self/fd/2" },
	};
	char path[PATH_MAX + 64];
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(chars); i++) {
		snprintf(path, sizeof(path), "%s/%s", devdir, chars[i].name);
		if (mknod(path, S_IFCHR | 0666, makedev(chars[i].major, chars[i].minor)))
			return set_err("cannot make %s: %s", path, strerror(errno));
	}
	for (i = 0; i < ARRAY_SIZE(links); i++) {
		snprintf(path, sizeof(path), "%s/%s", devdir, links[i].name);
		symlink(links[i].target, path);
	}
	snprintf(path, sizeof(path), "%s/pts", devdir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/shm", devdir);
	mkdir(path, 01777);
	for (i = 0; i < nsystem_devs; i++)
		if (system_dev(devdir, system_devs[i], write_list, 0))
			return -1;
	if (write_list) {
		char *copy = xstrdup(write_list), *tok, *save, real[PATH_MAX];
		int rc = 0;

		/* what --write named besides: a BIOS GRUB's whole disk */
		for (tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save))
			rc = system_dev(devdir, realpath(tok, real) ? real : tok, write_list, 0);
		free(copy);
		if (rc)
			return -1;
	}
	return 0;
}

/* DIR's mount read-only (mountns.h), said in bb_err when it cannot be. */
static int seal(const char *dir)
{
	if (mount_set_readonly(dir, 0, 0))
		return set_err("cannot make %s read-only: %s", dir, strerror(errno));
	return 0;
}

/* The kernel's filesystems, a private /run and /tmp, resolv.conf, and the installed system's cmdline. */
static int mount_kernel_fs(const char *root, const char *state, const char *cmdline, const struct chroot_request *r)
{
	static const struct { const char *src, *dir, *type; unsigned long flags; const char *data; } api[] = {
		{ "proc", "/proc", "proc", MS_NOSUID | MS_NOEXEC | MS_NODEV, NULL },
		{ "sys", "/sys", "sysfs", MS_NOSUID | MS_NOEXEC | MS_NODEV | MS_RDONLY, NULL },
		{ "efivarfs", "/sys/firmware/efi/efivars", "efivarfs", MS_NOSUID | MS_NOEXEC | MS_NODEV, NULL },
		{ "dev", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755,size=1m" },
		{ "/dev/pts", "/dev/pts", NULL, MS_BIND, NULL },
		{ "shm", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777" },
		{ "run", "/run", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755" },
		{ "/run/lvm", "/run/lvm", NULL, MS_BIND, NULL },
		{ "/run/udev", "/run/udev", NULL, MS_BIND, NULL },
		{ "tmp", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV | MS_STRICTATIME, "mode=1777" },
	};
	char dir[PATH_MAX + 32], file[PATH_MAX + 32], real[PATH_MAX];
	struct stat st;
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(api); i++) {
		snprintf(dir, sizeof(dir), "%s%s", root, api[i].dir);
		if (!strcmp(api[i].type ? api[i].type : "", "efivarfs") && stat("/sys/firmware/efi/efivars", &st))
			continue;	/* booted by BIOS: no EFI variables to offer */
		if (api[i].flags & MS_BIND && stat(api[i].src, &st))
			continue;	/* the appliance has none to share */
		if (stat(dir, &st) && strncmp(api[i].dir, "/run/", 5))
			continue;	/* the installed system has no such folder */
		if (mount_api(api[i].src, dir, api[i].type,
			      api[i].flags | (!r->write_list && !strcmp(api[i].dir, "/sys/firmware/efi/efivars") ? MS_RDONLY : 0),
			      api[i].data))
			return -1;
		/* the appliance's own folders (LVM's locks, udev's database): read-only unless a repair */
		if (api[i].flags & MS_BIND && !r->write_list && !strncmp(api[i].dir, "/run/", 5) && seal(dir))
			return -1;
		if (!strcmp(api[i].dir, "/dev") && make_dev(dir, r->write_list))
			return -1;
	}
	if (make_disk_links(root))
		return -1;
	/* what update-grub or a kernel's postinst reads as "the running system's" command line */
	snprintf(file, sizeof(file), "%s/cmdline", state);
	snprintf(real, sizeof(real), "%s%s", cmdline, *cmdline ? "\n" : "");	/* the kernel's ends in a newline */
	if (write_file_atomic(file, real, strlen(real)))
		return -1;
	snprintf(dir, sizeof(dir), "%s/proc/cmdline", root);
	if (mount_api(file, dir, NULL, MS_BIND, NULL) || seal(dir))
		return -1;
	/* resolv.conf: bound onto what the installed system's link names, inside it (its /run is ours) */
	snprintf(dir, sizeof(dir), "%s/etc/resolv.conf", root);
	if (stat("/etc/resolv.conf", &st) || lstat(dir, &st))
		return 0;
	if (S_ISLNK(st.st_mode)) {
		/* systemd-resolved's link into /run: its file is made in the session's own /run */
		char target[PATH_MAX];
		ssize_t n = readlink(dir, target, sizeof(target) - 1);

		if (n <= 0)
			return 0;
		target[n] = 0;
		if (!strncmp(target, "/run/", 5) && !strstr(target, ".."))
			make_file_in(root, target);
		if (inside(root, "/etc/resolv.conf", real, sizeof(real)))
			return 0;	/* a dangling link elsewhere: the chroot has no name service */
		return mount_api("/etc/resolv.conf", real, NULL, MS_BIND, NULL) || seal(real);
	}
	/* the appliance's own resolv.conf: read, never written from inside */
	return mount_api("/etc/resolv.conf", dir, NULL, MS_BIND, NULL) || seal(dir);
}

/* The installed system's shell for root (its /etc/passwd), else /bin/sh. */
static void root_shell(char *buf, size_t len)
{
	char *text = read_small("/etc/passwd");

	buf[0] = 0;
	if (text)
		passwd_root_shell(text, buf, len);
	if (!buf[0] || access(buf, X_OK))
		snprintf(buf, len, "/bin/sh");
	free(text);
}

/*
 * What the session's processes keep. Not CAP_SYS_ADMIN (mount: a devtmpfs
 * with every disk), CAP_MKNOD, CAP_SYS_RAWIO, CAP_DAC_OVERRIDE (a 0400
 * node opened for writing), CAP_SYS_CHROOT and CAP_SYS_PTRACE (out of the
 * chroot into the appliance's own /dev, or through /proc/1/root),
 * CAP_DAC_READ_SEARCH (open_by_handle_at out of a bound folder), modules,
 * reboot, the clock, the network's settings. A repair (--write) keeps
 * CAP_LINUX_IMMUTABLE too: EFI variables are immutable until efibootmgr
 * clears the flag.
 */
static int drop_caps(int repair)
{
	static const int kept[] = {
		CAP_CHOWN, CAP_FOWNER, CAP_FSETID, CAP_KILL, CAP_SETGID, CAP_SETUID, CAP_SETPCAP,
		CAP_NET_BIND_SERVICE, CAP_NET_RAW, CAP_AUDIT_WRITE, CAP_SETFCAP, CAP_SYS_NICE, CAP_LINUX_IMMUTABLE,
	};

	return caps_keep_only(kept, ARRAY_SIZE(kept) - (repair ? 0 : 1));
}

/*
 * The arguments that start SHELL interactive without its startup files
 * (.bashrc, .profile, /etc/profile, $ENV): in a read-only session nothing
 * of the installed system runs unless asked (--rc). A shell not known here
 * is replaced by /bin/sh, which reads none of them when $ENV is unset.
 */
static void shell_argv(char *shell, size_t len, int rc_files, char **argv)
{
	static const struct { const char *name, *no_rc[2]; } shells[] = {
		{ "bash", { "--noprofile", "--norc" } }, { "zsh", { "-f" } }, { "fish", { "--no-config" } },
		{ "tcsh", { "-f" } }, { "csh", { "-f" } }, { "sh", { NULL } }, { "dash", { NULL } },
		{ "ash", { NULL } }, { "ksh", { NULL } }, { "mksh", { NULL } }, { "busybox", { NULL } },
	};
	const char *base = strrchr(shell, '/') ? strrchr(shell, '/') + 1 : shell;
	unsigned i, n = 0, k;

	argv[n++] = shell;
	if (!rc_files) {
		unsetenv("ENV");
		for (i = 0; i < ARRAY_SIZE(shells) && strcmp(base, shells[i].name); i++)
			;
		if (i == ARRAY_SIZE(shells))
			snprintf(shell, len, "/bin/sh");
		else
			for (k = 0; k < 2 && shells[i].no_rc[k]; k++)
				argv[n++] = (char *)shells[i].no_rc[k];
	}
	argv[n++] = "-i";
	argv[n] = NULL;
}

/* The repair script, copied into the session's /run of the installed system. */
static int copy_script(const char *path, const char *root)
{
	char *text = read_small(path), dest[PATH_MAX + 32];
	int rc;

	if (!text)
		return set_err("cannot read %s: %s", path, strerror(errno));
	snprintf(dest, sizeof(dest), "%s%s", root, REPAIR_SCRIPT);
	rc = write_file_atomic(dest, text, strlen(text));
	free(text);
	return rc;
}

/* PID 1 of the session's namespaces: mounts, runs the command, undoes. */
static int session_init(const struct chroot_request *r)
{
	char state[PATH_MAX], root[PATH_MAX], data[300], shell[256], *shell_args[6];
	pid_t cmd, w;
	int status = 0, rc;
	unsigned busy;

	if (private_mount_namespace(0)) {
		note("chroot: %s", bb_err);
		return EXIT_FAIL;
	}
	mkdir("/run/bootbench", 0755);
	mkdir(SESSION_DIR, 0700);
	if (mount_api("chroot", SESSION_DIR, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0700")) {
		note("chroot: %s", bb_err);
		return EXIT_FAIL;
	}
	snprintf(state, sizeof(state), SESSION_DIR "/state");
	snprintf(root, sizeof(root), SESSION_DIR "/root");
	mkdir(state, 0700);
	mkdir(root, 0755);
	snprintf(data, sizeof(data), "%s%s", r->subvol && *r->subvol ? "subvol=" : "", r->subvol ? r->subvol : "");
	rc = mount_disk(r->root, root, data, "the root");
	if (!rc)
		rc = mount_fstab(root);
	if (!rc) {
		char cmdline[1024];

		/* the installed system's own, from its boot loader (its /boot is mounted now) */
		if (r->cmdline)
			snprintf(cmdline, sizeof(cmdline), "%s", r->cmdline);
		else
			probe_cmdline(root, cmdline, sizeof(cmdline));
		rc = mount_kernel_fs(root, state, cmdline, r);
	}
	if (!rc) {
		char dir[PATH_MAX + 16];

		/* after the last mount below them: /dev's nodes and /proc's files (sysrq-trigger) change nothing */
		snprintf(dir, sizeof(dir), "%s/dev", root);
		rc = seal(dir);
		snprintf(dir, sizeof(dir), "%s/proc", root);
		if (!rc)
			rc = seal(dir);
	}
	if (rc) {
		printf("chroot: %s\n", bb_err);
		fflush(stdout);
		teardown();
		return EXIT_USAGE;
	}
	if (r->script && copy_script(r->script, root)) {
		note("chroot: %s", bb_err);
		teardown();
		return EXIT_FAIL;
	}
	cmd = fork();
	if (cmd < 0) {
		teardown();
		return EXIT_FAIL;
	}
	if (!cmd) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		if (chroot(root) || chdir("/")) {
			note("chroot: cannot enter %s: %s", root, strerror(errno));
			_exit(EXIT_FAIL);
		}
		if (drop_caps(r->write_list != NULL)) {
			note("chroot: cannot drop capabilities: %s", strerror(errno));
			_exit(EXIT_FAIL);
		}
		setenv("PS1", "(chroot) \\w# ", 1);
		setenv("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", 1);
		setenv("HOME", "/root", 1);
		if (r->script) {
			execl("/bin/sh", "sh", REPAIR_SCRIPT, (char *)NULL);	/* consent: a repair, in the chroot */
			note("chroot: cannot run /bin/sh in the installed system: %s", strerror(errno));
			_exit(127);
		}
		if (r->argv && r->argv[0]) {
			execvp(r->argv[0], r->argv);	/* consent: the user's command, in the chroot */
			note("chroot: cannot run %s: %s", r->argv[0], strerror(errno));
			_exit(127);
		}
		root_shell(shell, sizeof(shell));
		shell_argv(shell, sizeof(shell), r->rc_files, shell_args);
		execv(shell, shell_args);	/* consent: the installed system's shell */
		note("chroot: cannot run %s: %s", shell, strerror(errno));
		_exit(127);
	}
	/* PID 1 reaps every orphan of the session until its command ends */
	while ((w = wait(&status)) != cmd)
		if (w < 0 && errno != EINTR)
			break;
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	kill(-1, SIGKILL);	/* what the command left running, in this PID namespace only */
	while (wait(NULL) > 0 || errno == EINTR)
		;
	busy = teardown();
	if (busy && !rc)
		rc = EXIT_FAIL;
	return rc;
}

int chroot_session(const struct chroot_request *r)
{
	pid_t child, foreground;
	int status, alive[2];
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;

	quiet = r->quiet;
	foreground = isatty(STDIN_FILENO) ? tcgetpgrp(STDIN_FILENO) : -1;
	fflush(stdout);
	if (unshare(CLONE_NEWPID)) {
		note("chroot: cannot make a PID namespace: %s", strerror(errno));
		return EXIT_FAIL;
	}
	/* the helper holds the write end: a hang-up means it is gone (its PID is not seen from inside) */
	if (pipe2(alive, O_CLOEXEC)) {
		note("chroot: pipe: %s", strerror(errno));
		return EXIT_FAIL;
	}
	child = fork();
	if (child < 0) {
		note("chroot: fork: %s", strerror(errno));
		return EXIT_FAIL;
	}
	if (!child) {
		struct pollfd p = { .fd = alive[0], .events = POLLIN };

		/* the helper gone, even by SIGKILL: this PID 1 goes, and with it the namespaces */
		close(alive[1]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (poll(&p, 1, 0) > 0)
			_exit(EXIT_FAIL);	/* it died before the line above */
		signal(SIGINT, SIG_IGN);
		signal(SIGQUIT, SIG_IGN);
		_exit(session_init(r));
	}
	close(alive[0]);
	/* like system(3): Ctrl-C is for the command inside */
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	/*
	 * An interactive shell inside made its own group the terminal's
	 * foreground and cannot give it back: from inside the PID namespace
	 * the group it found there has no number. Given back here, or the
	 * caller (the menu) would be stopped at its next read.
	 */
	if (foreground > 0) {
		struct sigaction old_ttou;

		sigaction(SIGTTOU, &ign, &old_ttou);
		tcsetpgrp(STDIN_FILENO, foreground);
		sigaction(SIGTTOU, &old_ttou, NULL);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	close(alive[1]);
	return WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_FAIL;
}
