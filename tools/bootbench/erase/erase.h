/* SPDX-License-Identifier: MIT */
/*
 * erase.h - a disk erased as NIST SP 800-88 (rev. 1) says, and proven so:
 *   clear: the user-addressable space overwritten (clear.c, through the
 *     engine at the disk's own sequential speed);
 *   purge: the device's own sanitize (NVMe Sanitize or Format with Secure
 *     Erase Settings, nvme.c), polled to its end and its status checked.
 * Each way is an ops struct in one table (registry.c); `auto` takes the
 * strongest one the drive offers. Before the erase, markers (the disk's
 * serial, the time and a nonce) go to its start, middle and end, and a
 * sample of the old data is fingerprinted; after it the markers must be
 * gone and every byte read back (all of them, or a sample) must be what the
 * method leaves (verify.c). An area the erase could not reach (another
 * NVMe namespace, unallocated capacity) makes the result "erased with
 * exceptions". The certificate (certificate.c) says all of it.
 */
#ifndef BB_ERASE_H
#define BB_ERASE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "sys/disks.h"

enum erase_category { ERASE_CLEAR, ERASE_PURGE };

/* What the disk holds after the method, as the read-back checks it. */
enum erase_leaves {
	LEAVES_PATTERN,		/* every byte the pattern (zeros for most) */
	LEAVES_UNKNOWN,		/* not the markers, not the old data (crypto erase, random data) */
};

enum erase_verdict { ERASED, ERASED_WITH_EXCEPTIONS, NOT_ERASED };

#define ERASE_MISMATCH_MAX 16

struct erase_job {
	const char *dev;		/* /dev/X */
	struct disk disk;		/* who it is, health before */
	struct disk after;		/* health after */
	unsigned passes;		/* clear: overwrite passes */
	unsigned char pattern[4];	/* clear: the last pass's bytes, repeated */
	unsigned pattern_len;		/* 0: random data in every pass */
	int trim;			/* clear: discard after the last pass where the device can */
	int full_verify;		/* 1: every byte read back; 0: NIST's representative sample */
	volatile sig_atomic_t *stop;
	const char *outdir;		/* the engine's pass logs */

	/* NVMe: what the controller holds besides this namespace (erase_nvme_hidden) */
	char nvme_others[256];		/* the other active namespaces, "nvme0n2, nvme0n3" */
	uint64_t nvme_unallocated;	/* bytes in no namespace */
	unsigned nvme_fna, nvme_sanicap, nvme_nsid, nvme_lbaf;
	int nvme_known;			/* the controller answered Identify */
	/* ATA (through SAT): IDENTIFY's words the purges read (erase_ata_hidden) */
	int ata_known;
	char ata_why[256];		/* why IDENTIFY did not answer */
	uint16_t ata_id[256];

	/* filled in */
	const struct erase_method *method;
	char command[256];		/* what ran: "NVMe Format, Secure Erase Settings 2 (crypto erase)" */
	char fallback[512];		/* auto: what the drive refused before this method, in its words */
	enum erase_leaves leaves;
	char exceptions[1024];		/* areas not reached, ", " separated ("" none) */
	char failure[1024];		/* why the erase or its verification failed ("" none) */
	double erase_s, verify_s, write_mbs;
	time_t started, ended;
	char marker_id[64];
	/* the read-back */
	uint64_t verified_bytes;
	double verified_share;		/* of the device's bytes */
	unsigned markers_left;		/* markers still found after the erase */
	uint64_t mismatches;		/* 4 KiB blocks not as the method leaves them */
	uint64_t mismatch_lba[ERASE_MISMATCH_MAX];	/* the first ones, in logical blocks */
	unsigned old_blocks, old_left;	/* old data fingerprinted before, found again after */
	enum erase_verdict verdict;
};

/* One way to erase. */
struct erase_method {
	const char *name;		/* "clear", "nvme-sanitize-crypto", ... */
	enum erase_category category;
	enum erase_leaves leaves;
	const char *what;		/* the help's and the certificate's words */
	/* 1 when the drive offers it (WHY says why not, in its words, when 0) */
	int (*offered)(struct erase_job *e, char *why, size_t len);
	/* 0 done; -1 failed or refused, e->failure in the drive's words */
	int (*run)(struct erase_job *e);
};

extern const struct erase_method erase_methods[];
extern const unsigned erase_nmethods;
const struct erase_method *erase_method_named(const char *name);

/* clear.c */
int erase_clear_run(struct erase_job *e);
/* nvme.c: the purges of an NVMe namespace, and what else its controller holds */
int erase_nvme_offered(struct erase_job *e, char *why, size_t len);
int erase_nvme_sanitize_crypto(struct erase_job *e);
int erase_nvme_sanitize_block(struct erase_job *e);
int erase_nvme_format_crypto(struct erase_job *e);
int erase_nvme_format_user(struct erase_job *e);
int erase_nvme_sanitize_crypto_offered(struct erase_job *e, char *why, size_t len);
int erase_nvme_sanitize_block_offered(struct erase_job *e, char *why, size_t len);
int erase_nvme_sanitize_overwrite(struct erase_job *e);
int erase_nvme_sanitize_overwrite_offered(struct erase_job *e, char *why, size_t len);
int erase_nvme_format_crypto_offered(struct erase_job *e, char *why, size_t len);
void erase_nvme_hidden(struct erase_job *e);
/* ata.c: SANITIZE and SECURITY ERASE UNIT of an ATA drive, its HPA and DCO */
void erase_ata_hidden(struct erase_job *e);
int erase_ata_sanitize_crypto_offered(struct erase_job *e, char *why, size_t len);
int erase_ata_sanitize_block_offered(struct erase_job *e, char *why, size_t len);
int erase_ata_security_enhanced_offered(struct erase_job *e, char *why, size_t len);
int erase_ata_security_offered(struct erase_job *e, char *why, size_t len);
int erase_ata_sanitize_crypto(struct erase_job *e);
int erase_ata_sanitize_block(struct erase_job *e);
int erase_ata_security_enhanced(struct erase_job *e);
int erase_ata_security(struct erase_job *e);
/* scsi.c: SANITIZE of a SCSI (SAS) drive */
int erase_scsi_offered(struct erase_job *e, char *why, size_t len);
int erase_scsi_sanitize_crypto(struct erase_job *e);
int erase_scsi_sanitize_block(struct erase_job *e);

/*
 * verify.c: markers at the start, middle and end, and fingerprints of old
 * data, before the erase (written through the consent gate); -1 with bb_err.
 */
int erase_mark(struct erase_job *e);
/* After it: the markers, the fingerprints, then every byte or the sample. -1 with bb_err when unreadable. */
int erase_verify(struct erase_job *e);

/* The whole erase of one disk: method (or auto), markers, erase, read-back, verdict. */
int erase_disk(struct erase_job *e, const char *method);
const char *erase_verdict_name(enum erase_verdict v);

#endif
