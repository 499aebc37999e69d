// SPDX-License-Identifier: MIT
/*
 * disks.c - the disk inventory, from sysfs and ioctls only (the image has no
 * udev): identity (model, serial, firmware; the by-id name when /dev/disk
 * exists), geometry, transport, queue, contents, users and our own media;
 * health.c adds what the device says of its health.
 * The boot and results media are the disks /init wrote to
 * /run/bootbench/media ("boot /dev/sda", "results /dev/sda").
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <linux/nvme_ioctl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/util.h"
#include "sys/contents.h"
#include "sys/disks.h"
#include "sys/mounts.h"

/* Written by /init; tests point BOOTBENCH_MEDIA_FILE elsewhere. */
static const char *media_file(void)
{
	const char *f = getenv("BOOTBENCH_MEDIA_FILE");

	return f && *f ? f : "/run/bootbench/media";
}

static void attr(const char *disk, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/block/%s/%s", disk, rel);
	if (read_attr(path, buf, len))
		buf[0] = 0;
}

static uint64_t attr_u64(const char *disk, const char *rel)
{
	char buf[64];

	attr(disk, rel, buf, sizeof(buf));
	return strtoull(buf, NULL, 10);
}

/*
 * The image's own parts: the loop devices /etc/rc.d/05-parts.sh set up over
 * the squashfs images in the initramfs. They are the running system, not a
 * disk of the machine.
 */
#define IMAGE_PARTS_DIR "/lib/bootbench/parts/"

int disk_is_image_part(const char *name)
{
	char path[PATH_MAX], backing[PATH_MAX];

	if (strncmp(name, "loop", 4))
		return 0;
	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", name);
	if (read_attr(path, backing, sizeof(backing)))
		return 0;
	return !strncmp(backing, IMAGE_PARTS_DIR, strlen(IMAGE_PARTS_DIR));
}

/* Devices that hold no data of their own, or are ours for a moment. */
static int skip_device(const char *name)
{
	static const char *const prefixes[] = { "ram", "zram", "dm-", "md", "sr", "fd", "nbd" };
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return 1;
	return disk_is_image_part(name);
}

static void transport_of(struct disk *d)
{
	char link[PATH_MAX], path[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/block/%s", d->name);
	n = readlink(link, path, sizeof(path) - 1);
	path[n > 0 ? n : 0] = 0;
	if (!strncmp(d->name, "nvme", 4))
		strcpy(d->transport, "nvme");
	else if (!strncmp(d->name, "vd", 2))
		strcpy(d->transport, "virtio");
	else if (!strncmp(d->name, "loop", 4))
		strcpy(d->transport, "loop");
	else if (!strncmp(d->name, "mmcblk", 6))
		strcpy(d->transport, "mmc");
	else if (strstr(path, "/usb"))
		strcpy(d->transport, "usb");
	else if (strstr(path, "/ata"))
		strcpy(d->transport, "sata");
	else if (strstr(path, "/end_device-") || strstr(path, "/expander-"))
		strcpy(d->transport, "sas");
	else if (strstr(path, "/virtio"))
		strcpy(d->transport, "virtio");
	else if (strncmp(d->name, "sd", 2) == 0)
		strcpy(d->transport, "scsi");
	else
		strcpy(d->transport, "other");
}

/* The unit serial number of a SCSI/SATA/USB disk: VPD page 80h. */
static void scsi_serial(struct disk *d)
{
	unsigned char vpd[256];
	char path[PATH_MAX];
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/block/%s/device/vpd_pg80", d->name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, vpd, sizeof(vpd));
	close(fd);
	if (n > 4) {
		size_t len = vpd[3] < n - 4 ? vpd[3] : (size_t)n - 4;
		char *s = d->serial, *e;

		snprintf(s, sizeof(d->serial), "%.*s", (int)len, (char *)vpd + 4);
		while (*s == ' ')
			memmove(s, s + 1, strlen(s));
		for (e = s + strlen(s); e > s && e[-1] == ' '; e--)
			e[-1] = 0;
	}
}

static void identity(struct disk *d)
{
	char buf[DISK_STR];

	attr(d->name, "device/model", d->model, sizeof(d->model));
	if (!strncmp(d->name, "nvme", 4)) {
		attr(d->name, "device/serial", d->serial, sizeof(d->serial));
		attr(d->name, "device/firmware_rev", d->firmware, sizeof(d->firmware));
	} else if (!strncmp(d->name, "vd", 2)) {
		attr(d->name, "serial", d->serial, sizeof(d->serial));
	} else {
		scsi_serial(d);
		attr(d->name, "device/rev", d->firmware, sizeof(d->firmware));
		attr(d->name, "device/vendor", buf, sizeof(buf));
		if (buf[0] && strcmp(buf, "ATA") && !strstr(d->model, buf)) {
			char model[2 * DISK_STR];

			snprintf(model, sizeof(model), "%s %s", buf, d->model);
			snprintf(d->model, sizeof(d->model), "%.127s", model);
		}
	}
	/* a device's own text (INQUIRY, VPD, NVMe identify: ASCII by their specifications) */
	printable_ascii(d->model);
	printable_ascii(d->serial);
	printable_ascii(d->firmware);
}

/*
 * The image has no udev, so no /dev/disk/by-id: give the name udev would
 * (bus-model_serial, blanks as '_'), which is what a person looks for on the
 * disk's label and in another system's /dev/disk/by-id.
 */
static void synth_by_id(struct disk *d)
{
	static const struct { const char *transport, *prefix; } buses[] = {
		{ "nvme", "nvme" }, { "sata", "ata" }, { "usb", "usb" }, { "sas", "scsi" }, { "scsi", "scsi" },
	};
	const char *prefix = NULL;
	char *c;
	unsigned i;

	if (!strcmp(d->transport, "virtio") && !strncmp(d->name, "vd", 2)) {
		snprintf(d->by_id, sizeof(d->by_id), "/dev/disk/by-id/virtio-%.100s", d->serial);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(buses); i++)
		if (!strcmp(d->transport, buses[i].transport))
			prefix = buses[i].prefix;
	if (!strncmp(d->name, "sd", 2) && !prefix)
		prefix = "scsi";
	if (!prefix)
		return;
	snprintf(d->by_id, sizeof(d->by_id), "/dev/disk/by-id/%s-%.100s_%.100s", prefix, d->model, d->serial);
	for (c = d->by_id + 16; *c; c++)
		if (*c == ' ')
			*c = '_';
}

static void by_id(struct disk *d)
{
	char path[PATH_MAX], target[PATH_MAX];
	DIR *dir = opendir("/dev/disk/by-id");
	struct dirent *e;

	while (dir && (e = readdir(dir))) {
		ssize_t n;

		snprintf(path, sizeof(path), "/dev/disk/by-id/%s", e->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = 0;
		if (!strcmp(strrchr(target, '/') ? strrchr(target, '/') + 1 : target, d->name) &&
		    (!d->by_id[0] || strlen(path) < strlen(d->by_id)))
			snprintf(d->by_id, sizeof(d->by_id), "%s", path);
	}
	if (dir)
		closedir(dir);
	if (!d->by_id[0] && d->serial[0])
		synth_by_id(d);
}

/* A USB disk without VPD page 80h: the serial of the USB device above it (iSerialNumber). */
static void usb_serial(const char *name, char *buf, size_t len)
{
	char path[PATH_MAX], real[PATH_MAX], file[PATH_MAX + 16];

	snprintf(path, sizeof(path), "/sys/block/%s/device", name);
	if (!realpath(path, real))
		return;
	while (strlen(real) > 12 && strstr(real, "/usb")) {
		snprintf(file, sizeof(file), "%s/idVendor", real);
		if (!access(file, F_OK)) {
			snprintf(file, sizeof(file), "%s/serial", real);
			read_attr(file, buf, len);
			return;
		}
		*strrchr(real, '/') = 0;
	}
}

/* Printable, no blanks or commas: one word of the identity line. */
static void identity_word(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || (unsigned char)*s >= 127 || *s == ',')
			*s = '_';
}

int disk_kernel_names(dev_t rdev, char *name, size_t name_len, char *whole, size_t whole_len)
{
	char path[128], link[PATH_MAX], *slash;
	struct stat st;
	ssize_t n;
	int is_part;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return -1;
	link[n] = 0;
	slash = strrchr(link, '/');
	snprintf(name, name_len, "%.63s", slash ? slash + 1 : link);
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "/partition");
	is_part = !stat(path, &st);
	/* a partition's folder is inside its disk's */
	if (is_part && slash) {
		*slash = 0;
		slash = strrchr(link, '/');
	}
	snprintf(whole, whole_len, "%.63s", slash ? slash + 1 : link);
	return is_part;
}

int disk_identity(dev_t rdev, int fd, char *buf, size_t len)
{
	char path[PATH_MAX], name[64], whole[64], start[32] = "", part_size[32] = "";
	struct disk d;
	int is_part;

	buf[0] = 0;
	is_part = disk_kernel_names(rdev, name, sizeof(name), whole, sizeof(whole));
	if (is_part < 0)
		return set_err("device %u:%u is not there", major(rdev), minor(rdev));
	if (is_part) {
		snprintf(path, sizeof(path), "/sys/class/block/%s/start", name);
		read_attr(path, start, sizeof(start));
		snprintf(path, sizeof(path), "/sys/class/block/%s/size", name);
		read_attr(path, part_size, sizeof(part_size));
	}
	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "%.31s", whole);
	identity(&d);
	if (!d.serial[0])
		attr(whole, "wwid", d.serial, sizeof(d.serial));
	if (!d.serial[0])
		usb_serial(whole, d.serial, sizeof(d.serial));
	identity_word(d.model);
	identity_word(d.serial);
	snprintf(buf, len, "model=%s,serial=%s,sectors=%llu", d.model, d.serial,
		 (unsigned long long)attr_u64(whole, "size"));
	if (!strncmp(whole, "loop", 4)) {
		/* a loop device is the file behind it: its device and inode, never its name */
		struct loop_info64 info;
		int own = fd < 0;

		if (own) {
			snprintf(path, sizeof(path), "/dev/%s", whole);
			fd = open(path, O_RDONLY | O_CLOEXEC);
		}
		memset(&info, 0, sizeof(info));
		if (fd >= 0 && !ioctl(fd, LOOP_GET_STATUS64, &info))
			snprintf(buf + strlen(buf), len - strlen(buf), ",file=%llx:%llu,offset=%llu",
				 (unsigned long long)info.lo_device, (unsigned long long)info.lo_inode,
				 (unsigned long long)info.lo_offset);
		else
			snprintf(buf + strlen(buf), len - strlen(buf), ",file=none");
		if (own && fd >= 0)
			close(fd);
	}
	if (is_part)
		snprintf(buf + strlen(buf), len - strlen(buf), ",part=%s+%s", start, part_size);
	return 0;
}

static void append(char *buf, size_t len, const char *fmt, const char *a, const char *b)
{
	size_t used = strlen(buf);

	snprintf(buf + used, len - used, fmt, used ? ", " : "", a, b);
}

static void contents(const char *dev, char *buf, size_t len)
{
	int fd = open(dev, O_RDONLY | O_CLOEXEC);

	buf[0] = 0;
	if (fd < 0)
		return;
	contents_describe(fd, buf, len);
	close(fd);
}

static void holders_of(const char *sysdir, char *buf, size_t len)
{
	char path[PATH_MAX];
	DIR *dir;
	struct dirent *e;

	snprintf(path, sizeof(path), "%s/holders", sysdir);
	dir = opendir(path);
	while (dir && (e = readdir(dir))) {
		char name[64] = "";

		if (e->d_name[0] == '.')
			continue;
		/* md0, or the dm name a person knows (vg-lv, luks-...) */
		snprintf(path, sizeof(path), "%s/holders/%s/dm/name", sysdir, e->d_name);
		read_attr(path, name, sizeof(name));
		append(buf, len, "%s%s%s", e->d_name, "");
		if (name[0]) {
			size_t used = strlen(buf);

			snprintf(buf + used, len - used, " (%s)", name);
		}
	}
	if (dir)
		closedir(dir);
}

static void partitions(struct disk *d)
{
	char path[PATH_MAX], dev[64];
	DIR *dir;
	struct dirent *e;

	snprintf(path, sizeof(path), "/sys/block/%s", d->name);
	holders_of(path, d->holders, sizeof(d->holders));
	dir = opendir(path);
	while (dir && (e = readdir(dir)) && d->nparts < ARRAY_SIZE(d->parts)) {
		struct partition *p = &d->parts[d->nparts];
		struct stat st;

		if (strncmp(e->d_name, d->name, strlen(d->name)))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/%s/partition", d->name, e->d_name);
		if (stat(path, &st))
			continue;
		snprintf(p->name, sizeof(p->name), "%.31s", e->d_name);
		snprintf(dev, sizeof(dev), "%.31s/size", p->name);
		p->size = attr_u64(d->name, dev) * 512;
		snprintf(dev, sizeof(dev), "/dev/%.31s", p->name);
		contents(dev, p->content, sizeof(p->content));
		snprintf(path, sizeof(path), "/sys/block/%s/%s", d->name, e->d_name);
		holders_of(path, d->holders, sizeof(d->holders));
		d->nparts++;
	}
	if (dir)
		closedir(dir);
}

/* The disk's name, or one of its partitions' (sda for sda1, nvme0n1 for nvme0n1p2). */
static int belongs(const struct disk *d, const char *dev)
{
	const char *name = strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
	size_t n = strlen(d->name);

	if (strncmp(name, d->name, n))
		return 0;
	name += n;
	if (*name == 'p')
		name++;
	return !*name || (*name >= '0' && *name <= '9');
}

int disk_rdev_of(const char *name, dev_t *rdev)
{
	char path[PATH_MAX], v[32];
	unsigned ma, mi;

	snprintf(path, sizeof(path), "/sys/class/block/%s/dev", name);
	if (read_attr(path, v, sizeof(v)) || sscanf(v, "%u:%u", &ma, &mi) != 2)
		return -1;
	*rdev = makedev(ma, mi);
	return 0;
}

/*
 * Whether a whole disk is the boot or results medium /init recorded, as
 * "boot|results /dev/NAME IDENTITY" lines: by its identity (a stick that
 * re-enumerates keeps it, and the name it left to another disk does not
 * carry it); by name only on a line without one.
 */
static void media_roles(const char *name, int *boot, int *results)
{
	char line[1024], what[16], dev[256], want[600], have[600] = "";
	FILE *f = fopen(media_file(), "re");
	int have_done = 0;

	*boot = *results = 0;
	while (f && fgets(line, sizeof(line), f)) {
		int n = sscanf(line, "%15s %255s %599s", what, dev, want), match;

		if (n < 2)
			continue;
		if (n == 3) {
			dev_t rdev;

			if (!have_done) {
				have_done = 1;
				if (disk_rdev_of(name, &rdev) || disk_identity(rdev, -1, have, sizeof(have)))
					have[0] = 0;
			}
			match = have[0] && !strcmp(have, want);
		} else {
			match = !strcmp(strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev, name);
		}
		if (match && !strcmp(what, "boot"))
			*boot = 1;
		if (match && !strcmp(what, "results"))
			*results = 1;
	}
	if (f)
		fclose(f);
}

static int add_mount(const char *dev, const char *mnt, void *ctx)
{
	struct disk *d = ctx;

	if (!strncmp(dev, "/dev/", 5) && belongs(d, dev))
		append(d->mounts, sizeof(d->mounts), "%s%s on %s", dev + 5, mnt);
	return 0;
}

static int note_swap(const char *dev, const char *unused, void *ctx)
{
	struct disk *d = ctx;

	if (belongs(d, dev))
		d->swap = 1;
	return 0;
}

static void users(struct disk *d)
{
	mounts_each(add_mount, d);
	swaps_each(note_swap, d);
	media_roles(d->name, &d->boot_medium, &d->results_medium);
}

static int disk_load(const char *name, struct disk *d)
{
	char dev[64];

	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->size = attr_u64(name, "size") * 512;
	if (!d->size)
		return -1;
	d->lbs = attr_u64(name, "queue/logical_block_size");
	d->pbs = attr_u64(name, "queue/physical_block_size");
	d->rotational = attr_u64(name, "queue/rotational");
	d->nr_requests = attr_u64(name, "queue/nr_requests");
	d->queue_depth = attr_u64(name, "device/queue_depth");
	attr(name, "queue/scheduler", d->scheduler, sizeof(d->scheduler));
	if (strchr(d->scheduler, '[')) {
		char *s = strchr(d->scheduler, '[') + 1;

		memmove(d->scheduler, s, strlen(s) + 1);
		*strchr(d->scheduler, ']') = 0;
	}
	attr(name, "queue/write_cache", d->write_cache, sizeof(d->write_cache));
	transport_of(d);
	identity(d);
	by_id(d);
	snprintf(dev, sizeof(dev), "/dev/%s", name);
	contents(dev, d->content, sizeof(d->content));
	partitions(d);
	users(d);
	disk_health(d);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct disk *)a)->name, ((const struct disk *)b)->name);
}

unsigned disks_scan(struct disk **out)
{
	DIR *dir = opendir("/sys/block");
	struct dirent *e;
	struct disk *v = NULL;
	unsigned n = 0;

	while (dir && (e = readdir(dir))) {
		if (e->d_name[0] == '.' || skip_device(e->d_name))
			continue;
		v = xrealloc(v, (n + 1) * sizeof(*v));
		if (disk_load(e->d_name, &v[n]) == 0)
			n++;
	}
	if (dir)
		closedir(dir);
	if (n)
		qsort(v, n, sizeof(*v), by_name);
	*out = v;
	return n;
}

int disk_find(const char *name, struct disk *d)
{
	char path[PATH_MAX];
	struct stat st;

	if (!strncmp(name, "/dev/", 5))
		name += 5;
	snprintf(path, sizeof(path), "/sys/block/%s", name);
	if (strchr(name, '/') || stat(path, &st))
		return -1;
	return disk_load(name, d);
}

int disk_is_our_medium(dev_t rdev, char *why, size_t len)
{
	char part[64], name[64];
	int boot, results;

	/* the whole disk's name, also for a partition of it */
	if (disk_kernel_names(rdev, part, sizeof(part), name, sizeof(name)) < 0)
		return 0;
	why[0] = 0;
	media_roles(name, &boot, &results);
	if (boot)
		append(why, len, "%sit is the %s medium%s", "boot", "");
	if (results)
		append(why, len, "%sit is the %s medium%s", "results", "");
	return boot || results;
}

void disk_refusal(const struct disk *d, char *buf, size_t len)
{
	buf[0] = 0;
	if (d->boot_medium)
		append(buf, len, "%s%s%s", "it is the boot medium", "");
	if (d->results_medium)
		append(buf, len, "%s%s%s", "it is the results medium", "");
	if (d->mounts[0])
		append(buf, len, "%smounted: %s%s", d->mounts, "");
	if (d->holders[0])
		append(buf, len, "%sheld by %s%s", d->holders, "");
	if (d->swap)
		append(buf, len, "%s%s%s", "used as swap", "");
}

int destroy_list_has(const char *destroy, dev_t rdev)
{
	char *list, *save, *tok;
	int ok = 0;

	if (!destroy)
		return 0;
	list = xstrdup(destroy);
	for (tok = strtok_r(list, ",", &save); tok && !ok; tok = strtok_r(NULL, ",", &save)) {
		struct stat st;

		ok = !stat(tok, &st) && S_ISBLK(st.st_mode) && st.st_rdev == rdev;
	}
	free(list);
	return ok;
}

void disk_json(struct json *j, const struct disk *d)
{
	char dev[64], why[512];
	unsigned i;

	snprintf(dev, sizeof(dev), "/dev/%s", d->name);
	json_obj_open(j, NULL);
	json_str(j, "name", d->name);
	json_str(j, "path", dev);
	json_str(j, "by_id", d->by_id);
	json_str(j, "model", d->model);
	json_str(j, "serial", d->serial);
	json_str(j, "firmware", d->firmware);
	json_str(j, "transport", d->transport);
	json_uint(j, "size", d->size);
	json_uint(j, "logical_block_size", d->lbs);
	json_uint(j, "physical_block_size", d->pbs);
	json_bool(j, "rotational", d->rotational);
	json_uint(j, "queue_depth", d->queue_depth);
	json_uint(j, "nr_requests", d->nr_requests);
	json_str(j, "scheduler", d->scheduler);
	json_str(j, "write_cache", d->write_cache);
	json_str(j, "content", d->content);
	json_arr_open(j, "partitions");
	for (i = 0; i < d->nparts; i++) {
		json_obj_open(j, NULL);
		json_str(j, "name", d->parts[i].name);
		json_uint(j, "size", d->parts[i].size);
		json_str(j, "content", d->parts[i].content);
		json_obj_close(j);
	}
	json_arr_close(j);
	json_str(j, "holders", d->holders);
	json_str(j, "mounted", d->mounts);
	json_bool(j, "swap", d->swap);
	json_bool(j, "boot_medium", d->boot_medium);
	json_bool(j, "results_medium", d->results_medium);
	disk_refusal(d, why, sizeof(why));
	json_str(j, "refuse_writes", why);
	if (d->health.valid) {
		json_obj_open(j, "nvme_health");
		if (d->health.temperature_reported)
			json_int(j, "temperature_c", d->health.temperature_c);
		else
			json_null_member(j, "temperature_c");
		/* the wear is not filled in where the spare is not (disks.h): null, never 0 */
		if (d->health.spare_reported) {
			json_uint(j, "available_spare_pct", d->health.available_spare);
			json_uint(j, "percentage_used", d->health.percentage_used);
		} else {
			json_null_member(j, "available_spare_pct");
			json_null_member(j, "percentage_used");
		}
		json_uint(j, "critical_warning", d->health.critical_warning);
		json_uint(j, "media_errors", d->health.media_errors);
		json_uint(j, "unsafe_shutdowns", d->health.unsafe_shutdowns);
		json_uint(j, "power_on_hours", d->health.power_on_hours);
		json_obj_close(j);
	}
	if (d->smart.valid) {
		json_obj_open(j, "smart");
		if (d->smart.passed >= 0)
			json_bool(j, "passed", d->smart.passed);
		if (d->smart.temperature_reported)
			json_int(j, "temperature_c", d->smart.temperature_c);
		else
			json_null_member(j, "temperature_c");
		if (d->smart.power_on_hours >= 0)
			json_int(j, "power_on_hours", d->smart.power_on_hours);
		json_obj_close(j);
	}
	json_obj_close(j);
}
