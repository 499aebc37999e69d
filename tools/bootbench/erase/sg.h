/* SPDX-License-Identifier: MIT */
/*
 * sg.h - SCSI commands to a disk through the kernel's SG_IO, and ATA
 * commands through SCSI/ATA Translation (ATA PASS-THROUGH (16), which
 * libata and SAT-speaking USB bridges take): the erase's purges of ATA and
 * SCSI drives (ata.c, scsi.c). Each command's outcome in the drive's own
 * words when it refuses (sense key and ASC/ASCQ; ATA's status and error).
 */
#ifndef BB_ERASE_SG_H
#define BB_ERASE_SG_H

#include <stddef.h>
#include <stdint.h>

enum sg_dir { SG_NONE, SG_IN, SG_OUT };

/* ATA registers, 48-bit (the "EXT" commands) */
struct ata_regs {
	uint16_t feature, count;
	uint64_t lba;
	uint8_t device, command;
	/* returned */
	uint8_t status, error;
};

/*
 * A SCSI command: 0 done; 1 the drive refused it (WHY: sense key and
 * ASC/ASCQ in the standard's words); -1 it did not reach the drive (WHY).
 * SENSE (18 bytes at least, may be NULL) gets the sense data.
 */
int sg_scsi(int fd, const unsigned char *cdb, unsigned cdb_len, enum sg_dir dir, void *buf, unsigned len,
	    unsigned timeout_s, unsigned char *sense, char *why, size_t wlen);
/*
 * An ATA command through ATA PASS-THROUGH (16), 512-byte blocks of data
 * (LEN a multiple of 512, 0 for none); R's returned registers filled in
 * (CK_COND). 0 done; 1 the drive aborted it (WHY: its status and error
 * bits); -1 it did not reach the drive.
 */
int sg_ata(int fd, struct ata_regs *r, enum sg_dir dir, void *buf, unsigned len, unsigned timeout_s, char *why,
	   size_t wlen);

#endif
