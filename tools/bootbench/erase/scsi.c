// SPDX-License-Identifier: MIT
/*
 * scsi.c - NIST's purge on SCSI (SAS) drives (erase.h): SANITIZE (48h, SBC-4)
 * with its crypto erase or block erase service action, started in the
 * background (IMMED) and polled with REQUEST SENSE, which says "sanitize in
 * progress" (04h/1Bh) with its progress until it ends, or why it failed
 * (31h/03h). No SCSI command says beforehand whether a drive has it
 * (REPORT SUPPORTED OPERATION CODES is optional itself), so the command is
 * tried: a drive without it refuses it (ILLEGAL REQUEST), which is said,
 * and auto goes on to the next method.
 */
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "erase/erase.h"
#include "erase/sg.h"
#include "lib/util.h"
#include "safety/consent.h"

#define SANITIZE_MAX_S (24 * 3600)

/* A SCSI disk (sd*: SAS, a virtio-scsi or USB one) that is not an ATA drive (those have ATA's own). */
int erase_scsi_offered(struct erase_job *e, char *why, size_t len)
{
	(void)why;
	(void)len;
	return !strncmp(e->disk.name, "sd", 2) && strcmp(e->disk.transport, "sata") && !e->ata_known;
}

static int sanitize(struct erase_job *e, unsigned action, const char *what)
{
	unsigned char cdb[10] = { 0x48, (unsigned char)(0x80 | action) }, rs[6] = { 0x03, 0, 0, 0, 18, 0 };
	unsigned char sense[18];
	uint64_t t0 = now_ns();
	char why[256];
	int fd = consent_open(e->dev, O_RDWR | O_CLOEXEC), rc = -1;

	if (fd < 0) {
		snprintf(e->failure, sizeof(e->failure), "%s", bb_err);
		return -1;
	}
	snprintf(e->command, sizeof(e->command), "SCSI SANITIZE, %s (48h, service action %u)", what, action);
	if (sg_scsi(fd, cdb, sizeof(cdb), SG_NONE, NULL, 0, 60, NULL, why, sizeof(why))) {
		snprintf(e->failure, sizeof(e->failure), "SANITIZE (%s): %s", what, why);
		close(fd);
		return -1;
	}
	for (;;) {
		int st;

		sleep_ns(1000000000ull);
		memset(sense, 0, sizeof(sense));
		st = sg_scsi(fd, rs, sizeof(rs), SG_IN, sense, sizeof(sense), 30, NULL, why, sizeof(why));
		if (st) {
			snprintf(e->failure, sizeof(e->failure), "REQUEST SENSE: %s", why);
			break;
		}
		/* fixed-format sense: key in byte 2, ASC/ASCQ in 12-13, progress in 16-17 */
		if ((sense[2] & 0xf) == 2 && sense[12] == 0x04 && sense[13] == 0x1b) {
			if ((now_ns() - t0) / 1000000000ull > SANITIZE_MAX_S || (e->stop && *e->stop)) {
				snprintf(e->failure, sizeof(e->failure), "still sanitizing (%.0f%%) when %s: it goes on in "
					 "the drive", (sense[16] << 8 | sense[17]) / 655.36,
					 e->stop && *e->stop ? "stopped" : "the time was up");
				break;
			}
			continue;
		}
		if (sense[12] == 0x31 && sense[13] == 0x03) {
			snprintf(e->failure, sizeof(e->failure), "the drive says the sanitize failed (31h/03h SANITIZE "
				 "COMMAND FAILED): run it again; the drive takes only another sanitize until then");
			break;
		}
		rc = 0;
		break;
	}
	ioctl(fd, BLKFLSBUF);
	close(fd);
	return rc;
}

int erase_scsi_sanitize_crypto(struct erase_job *e)
{
	return sanitize(e, 3, "crypto erase");
}

int erase_scsi_sanitize_block(struct erase_job *e)
{
	return sanitize(e, 2, "block erase");
}
