// SPDX-License-Identifier: MIT
/*
 * probe.c - the installed systems of this machine (probe.h), found the way
 * SystemRescue's findroot does: by mounting each candidate read-only and
 * looking, never by guessing from partition types. Every look is in this
 * process's private mount namespace, so a candidate is never left mounted.
 */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"
#include "rescue/fstab.h"
#include "rescue/inroot.h"
#include "rescue/machine.h"
#include "rescue/probe.h"
#include "safety/consent.h"
#include "safety/mountns.h"
#include "sys/disks.h"
#include "sys/mounts.h"

#define PROBE_DIR "/run/bootbench/probe-root"

static const char *const root_types[] = { "ext4", "ext3", "ext2", "xfs", "btrfs", "f2fs", "jfs", "reiserfs", NULL };

int probe_private_namespace(void)
{
	if (private_mount_namespace(0))
		return -1;
	mkdir("/run/bootbench", 0755);
	mkdir(PROBE_DIR, 0700);
	return 0;
}

/* The disk's text, shown on a terminal and parsed by line (the menu): no
 * control characters (escape sequences, a newline that would end the line
 * with words of the disk's own). */
static void scrub(char *text)
{
	for (char *c = text; *c; c++)
		if ((unsigned char)*c < ' ' || *c == 127)
			*c = '?';
}

/* KEY=value of an os-release text into BUF, quotes removed. */
static void os_release_value(const char *text, const char *key, char *buf, size_t len)
{
	size_t n = strlen(key);
	const char *p = text;

	buf[0] = 0;
	while (p && *p) {
		if (!strncmp(p, key, n) && p[n] == '=') {
			const char *v = p + n + 1;
			size_t k = strcspn(v, "\n");

			if (k >= 2 && (v[0] == '"' || v[0] == '\'') && v[k - 1] == v[0]) {
				v++;
				k -= 2;
			}
			snprintf(buf, len, "%.*s", (int)k, v);
			scrub(buf);
			return;
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
}

void probe_cmdline(const char *root, char *buf, size_t len)
{
	static const char *const configs[] = { "/boot/grub/grub.cfg", "/boot/grub2/grub.cfg", "/etc/kernel/cmdline" };
	char *text = xcalloc(1, 1 << 20), *p;
	unsigned i;

	buf[0] = 0;
	for (i = 0; i < ARRAY_SIZE(configs) && !buf[0]; i++) {
		if (inroot_read(root, configs[i], text, 1 << 20))
			continue;
		if (i == 2) {
			snprintf(buf, len, "%.*s", (int)strcspn(text, "\n"), text);
			break;
		}
		/* the first menu entry's "linux /vmlinuz-... ARGS" */
		for (p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
			const char *l = p + strspn(p, " \t");
			size_t k;

			if (strncmp(l, "linux", 5) || (l[5] != ' ' && l[5] != '\t' && strncmp(l + 5, "efi ", 4)))
				continue;
			l += strcspn(l, " \t");
			l += strspn(l, " \t");
			l += strcspn(l, " \t\n");	/* the kernel's path */
			l += strspn(l, " \t");
			k = strcspn(l, "\n");
			snprintf(buf, len, "%.*s", (int)k, l);
			break;
		}
	}
	free(text);
}

/* What its fstab mounts on DIR, resolved to a device here ("" if none). */
static void fstab_device_of(const char *root, const char *const dirs[], char *dev, size_t len)
{
	char *text = xcalloc(1, 65536);
	struct fstab_entry *e = NULL;
	int n, i;
	unsigned k;

	dev[0] = 0;
	if (!inroot_read(root, "/etc/fstab", text, 65536) && (n = fstab_parse(text, &e)) > 0) {
		for (i = 0; i < n && !dev[0]; i++)
			for (k = 0; dirs[k]; k++)
				if (!strcmp(e[i].dir, dirs[k]) && fstab_resolve(e[i].spec, dev, len)) {
					/* its fstab's text, \NNN decoded (\012 a newline) */
					snprintf(dev, len, "%s (missing)", e[i].spec);
					scrub(dev);
				}
	}
	free(e);
	free(text);
}

static int try_mount_at(const char *dev, const char *type, const char *subvol, const char *dir);

/* Looks at the filesystem mounted at PROBE_DIR; 1 and S filled when it is a system. */
static int looks_installed(struct installed *s)
{
	static const char *const boot_dirs[] = { "/boot", NULL }, *const esp_dirs[] = { "/boot/efi", "/efi", NULL };
	char text[8192], version[64];

	if (inroot_read(PROBE_DIR, "/etc/os-release", text, sizeof(text)) &&
	    inroot_read(PROBE_DIR, "/usr/lib/os-release", text, sizeof(text)))
		return 0;
	/*
	 * An os-release at the root's place makes a system to rescue; one
	 * whose init is gone (a debootstrap minbase, a failed upgrade that
	 * removed it) needs rescue the most: listed, marked.
	 */
	if (!inroot_executable(PROBE_DIR, "/sbin/init") && !inroot_executable(PROBE_DIR, "/usr/lib/systemd/systemd"))
		snprintf(s->missing, sizeof(s->missing), "no init");
	os_release_value(text, "PRETTY_NAME", s->name, sizeof(s->name));
	os_release_value(text, "ID", s->id, sizeof(s->id));
	os_release_value(text, "VERSION_ID", s->version, sizeof(s->version));
	if (!s->name[0]) {
		os_release_value(text, "NAME", s->name, sizeof(s->name));
		os_release_value(text, "VERSION", version, sizeof(version));
		if (version[0])
			snprintf(s->name + strlen(s->name), sizeof(s->name) - strlen(s->name), " %s", version);
	}
	machine_of_installed(PROBE_DIR, s->machine, sizeof(s->machine));
	fstab_device_of(PROBE_DIR, boot_dirs, s->boot, sizeof(s->boot));
	fstab_device_of(PROBE_DIR, esp_dirs, s->esp, sizeof(s->esp));
	probe_cmdline(PROBE_DIR, s->cmdline, sizeof(s->cmdline));
	if (!s->cmdline[0] && s->boot[0] == '/' && !strchr(s->boot, ' ')) {
		/* a separate /boot holds the grub.cfg: looked at read-only on the root's /boot */
		char boot_dir[PATH_MAX], type[64];

		if (!inroot_path(PROBE_DIR, "/boot", boot_dir, sizeof(boot_dir)) && !fs_type_of(s->boot, type, sizeof(type)) &&
		    !try_mount_at(s->boot, type, NULL, boot_dir)) {
			probe_cmdline(PROBE_DIR, s->cmdline, sizeof(s->cmdline));
			umount2(boot_dir, MNT_DETACH);
		}
	}
	return 1;
}

static int try_mount_at(const char *dev, const char *type, const char *subvol, const char *dir)
{
	char data[128], extra[80] = "";

	if (subvol)
		snprintf(extra, sizeof(extra), "subvol=%s", subvol);
	readonly_data(type, extra, data, sizeof(data));
	return consent_mount_data(dev, dir, type, MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, data);
}

int probe_device(const char *dev, struct installed *found)
{
	static const char *const btrfs_layouts[] = { NULL, "@", "@root", "root" };
	char type[64] = "";
	unsigned i, tries;

	if (fs_type_of(dev, type, sizeof(type)))
		return 0;
	for (i = 0; root_types[i] && strcmp(type, root_types[i]); i++)
		;
	if (!root_types[i])
		return 0;
	tries = strcmp(type, "btrfs") ? 1 : ARRAY_SIZE(btrfs_layouts);
	for (i = 0; i < tries; i++) {
		struct installed s = { 0 };
		int is_system;

		if (try_mount_at(dev, type, btrfs_layouts[i], PROBE_DIR))
			continue;
		is_system = looks_installed(&s);
		umount2(PROBE_DIR, MNT_DETACH);
		if (!is_system)
			continue;
		snprintf(s.dev, sizeof(s.dev), "%s", dev);
		snprintf(s.fstype, sizeof(s.fstype), "%s", type);
		snprintf(s.subvol, sizeof(s.subvol), "%s", btrfs_layouts[i] ? btrfs_layouts[i] : "");
		*found = s;
		return 1;
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int probe_systems(struct installed **out)
{
	DIR *d = opendir("/sys/class/block");
	struct dirent *e;
	char **names = NULL, path[PATH_MAX], dev[PATH_MAX], v[256];
	struct installed one;
	unsigned nn = 0, i;
	int n = 0;
	struct stat st;

	*out = NULL;
	if (!d)
		return set_err("cannot read /sys/class/block: %s", strerror(errno));
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !strncmp(e->d_name, "ram", 3) || !strncmp(e->d_name, "zram", 4) ||
		    !strncmp(e->d_name, "sr", 2) || !strncmp(e->d_name, "fd", 2) ||
		    /* the image's own parts hold no installed system (probing them,
		     * blkid -p took 4-20 s of a TCG guest's CPU after a repair) */
		    disk_is_image_part(e->d_name))
			continue;
		names = xrealloc(names, (nn + 1) * sizeof(*names));
		names[nn++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (nn)
		qsort(names, nn, sizeof(*names), by_name);
	for (i = 0; i < nn; i++) {
		const char *name = names[i];

		/* an empty loop device or a whole disk whose partitions carry the filesystems */
		snprintf(path, sizeof(path), "/sys/class/block/%s/size", name);
		if (read_attr(path, v, sizeof(v)) || !strtoull(v, NULL, 10))
			continue;
		snprintf(dev, sizeof(dev), "/dev/%s", name);
		/* device-mapper volumes by the name LVM and cryptsetup gave them */
		snprintf(path, sizeof(path), "/sys/class/block/%s/dm/name", name);
		if (!read_attr(path, v, sizeof(v))) {
			snprintf(path, sizeof(path), "/dev/mapper/%s", v);
			if (!stat(path, &st) && S_ISBLK(st.st_mode))
				snprintf(dev, sizeof(dev), "%s", path);
		}
		if (stat(dev, &st) || !S_ISBLK(st.st_mode))
			continue;
		if (probe_device(dev, &one)) {
			snprintf(path, sizeof(path), "/sys/class/block/%s/size", name);
			if (!read_attr(path, v, sizeof(v)))
				one.bytes = strtoull(v, NULL, 10) * 512;
			*out = xrealloc(*out, (size_t)(n + 1) * sizeof(**out));
			(*out)[n++] = one;
		}
	}
	for (i = 0; i < nn; i++)
		free(names[i]);
	free(names);
	return n;
}
