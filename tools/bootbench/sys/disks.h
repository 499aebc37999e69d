/* SPDX-License-Identifier: MIT */
/*
 * disks.h - the disk inventory: every whole block device with what a person
 * needs before testing or wiping it (identity, geometry, transport, queue,
 * what is on it and who uses it, whether it is our boot or results medium)
 * and its health where the device tells (NVMe SMART/health log through the
 * admin ioctl; ATA and SCSI through smartctl -j when it is there).
 */
#ifndef BB_DISKS_H
#define BB_DISKS_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "lib/json.h"

#define DISK_STR 128

/* A figure a drive did not report is "not reported" on every screen, null
 * in JSON and absent from the Pushgateway, never a 0 (issue 48). */
struct nvme_health {
	int valid;
	int temperature_reported;	/* the log's composite temperature is not 0 K */
	int temperature_c;
	unsigned available_spare, percentage_used, critical_warning;
	/*
	 * The spare, its threshold, the wear and the spare warning all 0: a
	 * controller that fills none of them in (QEMU's), not a drive with no
	 * spare left (it would have worn: a percentage used, or a threshold
	 * set). Such a spare is "not reported".
	 */
	int spare_reported;
	uint64_t media_errors, unsafe_shutdowns, power_on_hours;
};

/* ATA/SCSI health as smartctl -j reports it; -1 where it did not say. */
struct smart_health {
	int valid;
	int passed;		/* SMART overall assessment: 1 passed, 0 failed, -1 unknown */
	int temperature_reported;
	int temperature_c;
	long long power_on_hours;
	/* ATA attributes 5, 197, 198, 199 (raw values) */
	long long reallocated, pending, offline_uncorrectable, crc_errors;
};

struct partition {
	char name[32];
	uint64_t size;
	char content[DISK_STR];	/* filesystem signature, "" if none seen */
};

struct disk {
	char name[32], by_id[256];
	char model[DISK_STR], serial[DISK_STR], firmware[DISK_STR];
	char transport[16];	/* nvme, sata, sas, usb, virtio, scsi, mmc, loop, other */
	uint64_t size;
	unsigned lbs, pbs;
	int rotational;
	unsigned queue_depth, nr_requests;
	char scheduler[32], write_cache[32];
	char content[DISK_STR];	/* partition table or filesystem on the disk */
	struct partition parts[32];
	unsigned nparts;
	char holders[DISK_STR];	/* md/dm devices built on it or its partitions */
	char mounts[256];	/* "sda1 on /mnt, ..." */
	int swap, boot_medium, results_medium;
	struct nvme_health health;
	struct smart_health smart;
};

/* Fills d->health or d->smart from the device (health.c). */
void disk_health(struct disk *d);
/* H's wear and spare as words: "N% used", "spare N%", or each "... not
 * reported" where the controller fills neither in (spare_reported). */
void nvme_wear_words(const struct nvme_health *h, char used[32], char spare[32]);

/* Scans /sys/block; returns the number of disks in *out (caller frees). */
unsigned disks_scan(struct disk **out);
/* Whether block device NAME is one of the image's own parts (a loop device
 * over a squashfs in /lib/bootbench/parts/): the running system, no disk. */
int disk_is_image_part(const char *name);
/* One disk by /dev path or name; 0 found. */
int disk_find(const char *name, struct disk *d);
/* Why a disk must not be written ("" if nothing stands in the way). */
void disk_refusal(const struct disk *d, char *buf, size_t len);
/* Whether a block device (or the disk it is a partition of) is the boot or
 * results medium /init recorded; why says which. Written under no consent. */
int disk_is_our_medium(dev_t rdev, char *why, size_t len);
/*
 * The kernel's names of block device RDEV, by its number (never a path's
 * text): NAME (sda1, dm-0) and WHOLE, the disk it is part of (sda; NAME
 * for a whole device). 1 for a partition, 0 for a whole device, -1 when
 * the kernel has no such device.
 */
int disk_kernel_names(dev_t rdev, char *name, size_t name_len, char *whole, size_t whole_len);
/*
 * A block device's identity, not its name or numbers (which a re-enumerated
 * or re-attached device gives to another): the whole disk's model, serial
 * (VPD 80h, NVMe/virtio serial, WWID, the USB device's serial) and size; a
 * loop device's backing file by device and inode; a partition's place on
 * its disk. FD: the device held open, or -1. -1 with bb_err when it is gone.
 */
int disk_identity(dev_t rdev, int fd, char *buf, size_t len);
/* The device number of the block device the kernel calls NAME; -1 if none. */
int disk_rdev_of(const char *name, dev_t *rdev);
/* Whether a --destroy list (comma separated paths) names the block device
 * RDEV, by device number: /dev/sdb and a by-id link to it are the same. */
int destroy_list_has(const char *destroy, dev_t rdev);
void disk_json(struct json *j, const struct disk *d);

#endif
