// SPDX-License-Identifier: MIT
/*
 * sg.c - SG_IO for the erase's purges (sg.h): SPC-4's sense data, SAT-4's
 * ATA PASS-THROUGH (16) and its ATA Status Return descriptor.
 */
#include <errno.h>
#include <scsi/sg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "erase/sg.h"

static const char *const sense_keys[16] = {
	"NO SENSE", "RECOVERED ERROR", "NOT READY", "MEDIUM ERROR", "HARDWARE ERROR", "ILLEGAL REQUEST",
	"UNIT ATTENTION", "DATA PROTECT", "BLANK CHECK", "VENDOR SPECIFIC", "COPY ABORTED", "ABORTED COMMAND",
	"RESERVED", "VOLUME OVERFLOW", "MISCOMPARE", "COMPLETED",
};

/* The few ASC/ASCQ a refused erase meets (SPC-4 Annex D), the rest as numbers. */
static const char *asc_words(unsigned asc, unsigned ascq)
{
	switch (asc << 8 | ascq) {
	case 0x2000: return "INVALID COMMAND OPERATION CODE";
	case 0x2400: return "INVALID FIELD IN CDB";
	case 0x2600: return "INVALID FIELD IN PARAMETER LIST";
	case 0x0400: return "LOGICAL UNIT NOT READY";
	case 0x041b: return "LOGICAL UNIT NOT READY, SANITIZE IN PROGRESS";
	case 0x3100: return "MEDIUM FORMAT CORRUPTED";
	case 0x3103: return "SANITIZE COMMAND FAILED";
	case 0x2700: return "WRITE PROTECTED";
	case 0x0000: return "NO ADDITIONAL SENSE INFORMATION";
	default: return "";
	}
}

/* Sense key and ASC/ASCQ from fixed (70h/71h) or descriptor (72h/73h) sense data. */
static void sense_of(const unsigned char *s, unsigned len, unsigned *key, unsigned *asc, unsigned *ascq)
{
	*key = *asc = *ascq = 0;
	if (len < 8)
		return;
	if ((s[0] & 0x7f) >= 0x72) {
		*key = s[1] & 0xf;
		*asc = s[2];
		*ascq = s[3];
	} else if (len >= 14) {
		*key = s[2] & 0xf;
		*asc = s[12];
		*ascq = s[13];
	}
}

static int run(int fd, unsigned char *cdb, unsigned cdb_len, enum sg_dir dir, void *buf, unsigned len,
	       unsigned timeout_s, unsigned char *sense, unsigned slen, unsigned *sb_len, char *why, size_t wlen)
{
	struct sg_io_hdr h = {
		.interface_id = 'S',
		.dxfer_direction = dir == SG_IN ? SG_DXFER_FROM_DEV : dir == SG_OUT ? SG_DXFER_TO_DEV : SG_DXFER_NONE,
		.cmd_len = (unsigned char)cdb_len,
		.mx_sb_len = (unsigned char)slen,
		.dxfer_len = len,
		.dxferp = buf,
		.cmdp = cdb,
		.sbp = sense,
		.timeout = timeout_s > 4000000 ? 4000000000u : timeout_s * 1000,
	};

	if (ioctl(fd, SG_IO, &h) < 0) {
		snprintf(why, wlen, "SG_IO: %s", strerror(errno));
		return -1;
	}
	*sb_len = h.sb_len_wr;
	/* the driver's own 06h: the command timed out (the kernel's DRIVER_TIMEOUT) */
	if (h.host_status || (h.driver_status & 0xf) == 0x06) {
		snprintf(why, wlen, "the command did not reach the drive (host status 0x%x, driver status 0x%x)",
			 h.host_status, h.driver_status);
		return -1;
	}
	return h.status;	/* SCSI status: 0 good, 2 check condition */
}

int sg_scsi(int fd, const unsigned char *cdb, unsigned cdb_len, enum sg_dir dir, void *buf, unsigned len,
	    unsigned timeout_s, unsigned char *sense, char *why, size_t wlen)
{
	unsigned char own[64], c[16], *s = sense ? sense : own;
	unsigned sb = 0, key, asc, ascq;
	int st;

	memcpy(c, cdb, cdb_len);
	memset(s, 0, 18);
	st = run(fd, c, cdb_len, dir, buf, len, timeout_s, s, sense ? 18 : sizeof(own), &sb, why, wlen);
	if (st <= 0)
		return st;
	sense_of(s, sb, &key, &asc, &ascq);
	if (st == 2 && (key == 0 || key == 1))
		return 0;	/* no sense, or recovered: done */
	snprintf(why, wlen, "%s, ASC/ASCQ %02xh/%02xh%s%s", sense_keys[key], asc, ascq, *asc_words(asc, ascq) ? " " : "",
		 asc_words(asc, ascq));
	return 1;
}

int sg_ata(int fd, struct ata_regs *r, enum sg_dir dir, void *buf, unsigned len, unsigned timeout_s, char *why,
	   size_t wlen)
{
	/* protocol: 3 non-data, 4 PIO data-in, 5 PIO data-out; EXTEND only for the 48-bit
	 * commands (READ NATIVE MAX ADDRESS EXT, SET MAX ADDRESS EXT, SANITIZE DEVICE), as
	 * hdparm sends them: without it libata drops the LBA's upper 24 bits */
	int ext = r->command == 0x27 || r->command == 0x37 || r->command == 0xb4;
	unsigned char cdb[16] = { 0x85, (unsigned char)((dir == SG_IN ? 4 : dir == SG_OUT ? 5 : 3) << 1 | ext) };
	unsigned char sense[64] = { 0 };
	unsigned sb = 0;
	int st;

	/* the data's length is given in blocks, in the count field */
	if (dir != SG_NONE && !r->count)
		r->count = (uint16_t)(len / 512);
	/* a command without data: CK_COND, the registers come back (what it answers is
	 * there); with data: T_DIR, BYTE_BLOCK, the length in the count field */
	cdb[2] = dir == SG_NONE ? 0x20 : (dir == SG_IN ? 0x08 : 0) | 0x04 | 0x02;
	cdb[3] = (unsigned char)(r->feature >> 8);
	cdb[4] = (unsigned char)r->feature;
	cdb[5] = (unsigned char)(r->count >> 8);
	cdb[6] = (unsigned char)r->count;
	cdb[7] = (unsigned char)(r->lba >> 24);
	cdb[8] = (unsigned char)r->lba;
	cdb[9] = (unsigned char)(r->lba >> 32);
	cdb[10] = (unsigned char)(r->lba >> 8);
	cdb[11] = (unsigned char)(r->lba >> 40);
	cdb[12] = (unsigned char)(r->lba >> 16);
	cdb[13] = r->device;
	cdb[14] = r->command;
	st = run(fd, cdb, 16, dir, buf, len, timeout_s, sense, sizeof(sense), &sb, why, wlen);
	if (st < 0)
		return -1;
	/* descriptor sense with the ATA Status Return descriptor (09h): the registers after the command */
	if (sb >= 8 + 14 && (sense[0] & 0x7f) == 0x72 && sense[8] == 0x09) {
		const unsigned char *d = sense + 8;

		r->error = d[3];
		r->count = (uint16_t)(d[4] << 8 | d[5]);
		r->lba = (uint64_t)d[7] | (uint64_t)d[9] << 8 | (uint64_t)d[11] << 16 | (uint64_t)d[6] << 24 |
			 (uint64_t)d[8] << 32 | (uint64_t)d[10] << 40;
		r->device = d[12];
		r->status = d[13];
	} else if (st == 0) {
		r->status = 0x50;	/* no registers back (no CK_COND support): the command was good */
		r->error = 0;
	} else {
		unsigned key, asc, ascq;

		sense_of(sense, sb, &key, &asc, &ascq);
		snprintf(why, wlen, "the drive or its bridge refused the ATA command: %s, ASC/ASCQ %02xh/%02xh%s%s",
			 sense_keys[key], asc, ascq, *asc_words(asc, ascq) ? " " : "", asc_words(asc, ascq));
		return 1;
	}
	if (r->status & 0x01) {
		snprintf(why, wlen, "the drive aborted it (status 0x%02x, error 0x%02x%s)", r->status, r->error,
			 r->error & 0x04 ? ": ABRT, the command or its settings refused" : "");
		return 1;
	}
	return 0;
}
