// SPDX-License-Identifier: MIT
/*
 * fstab.c - reading an installed system's /etc/fstab (fstab(5)): its
 * fields, the octal escapes of getmntent(3), and its device specs resolved
 * the way mount(8) does (the udev links, else a blkid search).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"
#include "rescue/fstab.h"
#include "sys/modules.h"

/* One whitespace-separated field, its \NNN escapes decoded; the end of it in *P. */
static int field(const char **p, char *out, size_t len)
{
	const char *s = *p;
	size_t o = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || *s == '\n')
		return -1;
	while (*s && *s != ' ' && *s != '\t' && *s != '\n') {
		char c = *s++;

		if (c == '\\' && s[0] >= '0' && s[0] <= '3' && s[1] >= '0' && s[1] <= '7' && s[2] >= '0' &&
		    s[2] <= '7') {
			c = (char)((s[0] - '0') << 6 | (s[1] - '0') << 3 | (s[2] - '0'));
			s += 3;
		}
		if (o + 1 < len)
			out[o++] = c;
	}
	out[o] = 0;
	*p = s;
	return 0;
}

int fstab_parse(const char *text, struct fstab_entry **out)
{
	const char *line = text;
	int n = 0, lineno = 0;

	*out = NULL;
	while (line && *line) {
		const char *next = strchr(line, '\n'), *p = line;
		struct fstab_entry e = { 0 };

		lineno++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p && *p != '#' && *p != '\n') {
			if (field(&p, e.spec, sizeof(e.spec)) || field(&p, e.dir, sizeof(e.dir)) ||
			    field(&p, e.type, sizeof(e.type))) {
				free(*out);
				*out = NULL;
				return set_err("fstab line %d: expected a device, a mount point and a type", lineno);
			}
			if (field(&p, e.opts, sizeof(e.opts)))
				snprintf(e.opts, sizeof(e.opts), "defaults");
			e.line = lineno;
			*out = xrealloc(*out, (size_t)(n + 1) * sizeof(**out));
			(*out)[n++] = e;
		}
		line = next ? next + 1 : NULL;
	}
	return n;
}

/* Whether OPTS holds the option NAME on its own (noauto, not noautodefrag). */
static int has_opt(const char *opts, const char *name)
{
	size_t n = strlen(name);
	const char *p = opts;

	while ((p = strstr(p, name))) {
		if ((p == opts || p[-1] == ',') && (p[n] == 0 || p[n] == ','))
			return 1;
		p += n;
	}
	return 0;
}

int fstab_wanted(const struct fstab_entry *e)
{
	static const char *const skip_types[] = { "swap", "nfs", "nfs4", "cifs", "smb3", "smbfs", "sshfs",
						  "fuse.sshfs", "glusterfs", "ceph", "9p", "davfs", "none",
						  "proc", "sysfs", "devpts", "tmpfs", "ignore" };
	unsigned i;

	if (!strcmp(e->dir, "/") || e->dir[0] != '/' || has_opt(e->opts, "noauto") || has_opt(e->opts, "_netdev"))
		return 0;
	for (i = 0; i < ARRAY_SIZE(skip_types); i++)
		if (!strcmp(e->type, skip_types[i]))
			return 0;
	return 1;
}

int fstab_opt(const char *opts, const char *name, char *buf, size_t len)
{
	size_t n = strlen(name);
	const char *p = opts;

	for (;;) {
		if (!strncmp(p, name, n) && p[n] == '=') {
			size_t k = strcspn(p + n + 1, ",");

			snprintf(buf, len, "%.*s", (int)k, p + n + 1);
			return 0;
		}
		p = strchr(p, ',');
		if (!p)
			return -1;
		p++;
	}
}

void fstab_fs_data(const char *opts, char *buf, size_t len)
{
	static const char *const flags[] = { "defaults", "ro", "rw", "auto", "noauto", "nofail", "user", "nouser",
					     "users", "owner", "group", "_netdev", "noatime", "atime", "relatime",
					     "norelatime", "strictatime", "nodiratime", "diratime", "nosuid", "suid",
					     "nodev", "dev", "noexec", "exec", "sync", "async", "dirsync", "lazytime",
					     "nolazytime", "silent", "loud", "discard", "nodiscard" };
	char copy[512], *tok, *save;
	size_t o = 0;
	unsigned i;

	buf[0] = 0;
	snprintf(copy, sizeof(copy), "%s", opts);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < ARRAY_SIZE(flags); i++)
			if (!strcmp(tok, flags[i]))
				break;
		/* discard is ext4's and xfs' own option: kept; the rest are flags or user space */
		if ((i < ARRAY_SIZE(flags) && strcmp(tok, "discard")) || !strncmp(tok, "x-", 2) ||
		    !strncmp(tok, "comment=", 8) || !strncmp(tok, "errors=", 7))
			continue;
		o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%s", o ? "," : "", tok);
	}
}

/*
 * The block device whose KEY (blkid -p -o export) is VALUE. Every device is
 * probed itself: blkid's own search (-t) answers from a cache, or skips
 * devices, and a cached answer can name what a device held before.
 */
static int search_devices(const char *key, const char *value, char *dev, size_t len)
{
	DIR *d = opendir("/sys/class/block");
	struct dirent *e;
	char want[600], path[PATH_MAX], out[4096];
	int found = -1;

	if (!d)
		return -1;
	snprintf(want, sizeof(want), "%s=%s", key, value);
	while (found && (e = readdir(d))) {
		char *argv[] = { "blkid", "-p", "-o", "export", path, NULL };
		const char *line;

		if (e->d_name[0] == '.' || !strncmp(e->d_name, "ram", 3))
			continue;
		snprintf(path, sizeof(path), "/dev/%s", e->d_name);
		if (spawn(argv, NULL, 1, out, sizeof(out)))	/* consent: blkid only reads the superblock */
			continue;
		for (line = out; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
			if (!strncmp(line, want, strlen(want)) && (line[strlen(want)] == '\n' || !line[strlen(want)])) {
				snprintf(dev, len, "%s", path);
				found = 0;
				break;
			}
	}
	closedir(d);
	return found;
}

int fstab_resolve(const char *spec, char *dev, size_t len)
{
	/* the udev link, and the name blkid's low-level probe gives the value */
	static const struct { const char *prefix, *dir, *probe_key; } kinds[] = {
		{ "UUID=", "/dev/disk/by-uuid/", "UUID" },
		{ "PARTUUID=", "/dev/disk/by-partuuid/", "PART_ENTRY_UUID" },
		{ "LABEL=", "/dev/disk/by-label/", "LABEL" },
		{ "PARTLABEL=", "/dev/disk/by-partlabel/", "PART_ENTRY_NAME" },
	};
	char path[PATH_MAX + 600], out[PATH_MAX], value[512];
	struct stat st;
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		size_t n = strlen(kinds[i].prefix);

		if (strncmp(spec, kinds[i].prefix, n))
			continue;
		snprintf(value, sizeof(value), "%s", spec + n);
		/* fstab may quote the value: LABEL="my disk" */
		if (value[0] == '"' && strlen(value) > 1 && value[strlen(value) - 1] == '"') {
			memmove(value, value + 1, strlen(value));
			value[strlen(value) - 1] = 0;
		}
		/* the installed system's text: a value is one link's name, never a path out of its folder */
		if (strchr(value, '/') || !strcmp(value, ".") || !strcmp(value, ".."))
			return set_err("%s: not a %.*s value", spec, (int)(n - 1), kinds[i].prefix);
		snprintf(path, sizeof(path), "%s%s", kinds[i].dir, value);
		if (realpath(path, out) && !stat(out, &st) && S_ISBLK(st.st_mode)) {
			snprintf(dev, len, "%s", out);
			return 0;
		}
		if (!search_devices(kinds[i].probe_key, value, dev, len))
			return 0;
		return set_err("no device has %s", spec);
	}
	if (spec[0] == '/' && realpath(spec, out) && !stat(out, &st) && S_ISBLK(st.st_mode)) {
		snprintf(dev, len, "%s", out);
		return 0;
	}
	return set_err("%s is not a block device here", spec);
}

int fs_type_of(const char *dev, char *type, size_t len)
{
	char *argv[] = { "blkid", "-p", "-s", "TYPE", "-o", "value", (char *)dev, NULL };
	if (spawn(argv, NULL, 1, type, len) || !type[0]) {	/* consent: blkid only reads the superblock */
		type[0] = 0;
		return -1;
	}
	/* the mount that follows needs the filesystem's module (btrfs and xfs are modules in the image) */
	module_load(type);
	return 0;
}

void readonly_data(const char *fstype, const char *extra, char *buf, unsigned long len)
{
	/* a read-only mount of ext3/4 or xfs still replays a dirty journal: that would write the disk */
	const char *no_replay = !strncmp(fstype, "ext", 3) ? "noload" : !strcmp(fstype, "xfs") ? "norecovery" :
				!strcmp(fstype, "btrfs") ? "rescue=nologreplay" : "";

	snprintf(buf, len, "%s%s%s", no_replay, *no_replay && extra && *extra ? "," : "", extra ? extra : "");
}
