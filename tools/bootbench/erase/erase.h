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

#define ERASE_MISMATCH_MAX 16	/* LBAs a certificate names (the lowest ones) */
#define ERASE_BLOCK 4096u		/* the read-back's unit, and the markers' size */
#define ERASE_FINGERPRINTS 64

/* Where a disk's erase is, for the progress table, --progress-fd and the Pushgateway. */
enum erase_phase { PHASE_WAITING, PHASE_MARKING, PHASE_ERASING, PHASE_FLUSHING, PHASE_VERIFYING, PHASE_DISCARDING,
		   PHASE_DONE };

struct erase_progress {
	/* written by the disk's thread, read by the reporter (relaxed atomics: a figure a second late is fine) */
	int phase;			/* enum erase_phase */
	unsigned pass;			/* the pass being written (clear), 1-based */
	uint64_t done;			/* bytes written (or read back) in this phase */
	uint64_t total;			/* bytes this phase covers */
	uint64_t errors;		/* blocks that could not be written or read so far */
	uint64_t phase_ns;		/* when the phase started (now_ns) */
};

struct erase_job {
	const char *dev;		/* /dev/X */
	struct disk disk;		/* who it is, health before */
	struct disk after;		/* health after */
	unsigned passes;		/* clear: overwrite passes asked */
	unsigned passes_done;		/* clear: passes written to the end and flushed */
	unsigned char pattern[4];	/* clear: the last pass's bytes, repeated */
	unsigned pattern_len;		/* 0: random data in every pass */
	uint64_t seed;			/* random data: the stream's seed (the certificate's; the read-back regenerates it) */
	int trim;			/* clear: discard after the read-back where the device can */
	int full_verify;		/* 1: every byte read back; 0: NIST's representative sample */
	int verify_only;		/* read and certify what the disk holds, write nothing */
	int restore_hpa;		/* clear: an ATA drive's Host Protected Area removed first (consent given) */
	volatile sig_atomic_t *stop;
	const char *outdir;		/* the certificates' folder */
	struct erase_progress progress;
	const char *method_asked;	/* auto, purge or a method's name */
	int finished;			/* the disk's thread is done (atomic) */

	/* NVMe: what the controller holds besides this namespace (erase_nvme_hidden) */
	char nvme_others[256];		/* the other active namespaces, "nvme0n2, nvme0n3" */
	uint64_t nvme_unallocated;	/* bytes in no namespace */
	unsigned nvme_fna, nvme_sanicap, nvme_nsid, nvme_lbaf;
	int nvme_known;			/* the controller answered Identify */
	/* ATA (through SAT): IDENTIFY's words the purges read (erase_ata_hidden) */
	int ata_known;
	char ata_why[256];		/* why IDENTIFY did not answer */
	uint16_t ata_id[256];
	uint64_t ata_native_max;	/* READ NATIVE MAX ADDRESS's last LBA + 1 (0: not read) */
	uint64_t ata_shown;		/* the sectors IDENTIFY shows the host */

	/* what erase_mark leaves for erase_verify */
	uint64_t marker_at[3];
	unsigned char marker[ERASE_BLOCK];
	unsigned char *saved;		/* the three blocks the markers replaced (put back when nothing erased) */
	uint64_t old_at[ERASE_FINGERPRINTS];
	uint32_t old_crc[ERASE_FINGERPRINTS];
	unsigned marked;		/* markers on the disk now (0 again once put back) */
	unsigned markers_written;	/* markers this erase wrote */

	/* filled in */
	const struct erase_method *method;
	char command[256];		/* what ran: "NVMe Format, Secure Erase Settings 2 (crypto erase)" */
	char fallback[1024];		/* auto: what the drive refused or does not offer, in its words */
	char notes[512];		/* what else was done (an HPA removed, the markers' blocks put back) */
	char discard[256];		/* clear: the discard after the read-back ("" none asked) */
	enum erase_leaves leaves;
	char exceptions[1024];		/* areas not reached, "; " separated ("" none) */
	char failure[1024];		/* why the erase or its verification failed ("" none) */
	int interrupted;		/* a signal stopped it */
	double erase_s, verify_s, write_mbs;
	time_t started, ended;
	char marker_id[64];
	/* write errors the clear went past */
	uint64_t bad_blocks;		/* logical blocks that could not be written */
	uint64_t bad_lba[ERASE_MISMATCH_MAX];	/* the lowest ones */
	/* the read-back */
	uint64_t verified_bytes;
	double verified_share;		/* of the device's bytes */
	unsigned markers_left;		/* markers still found after the erase */
	uint64_t mismatches;		/* 4 KiB blocks not as the method leaves them (or unreadable) */
	uint64_t mismatch_lba[ERASE_MISMATCH_MAX];	/* the lowest ones: each one's first differing logical block, in order */
	uint64_t unreadable;		/* of those, blocks the device would not read */
	unsigned old_blocks, old_left;	/* old data fingerprinted before, found again after */
	char holds[64];			/* verify-only: what the disk was found to hold ("zeros", "ones", "the pattern 0x..") */
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

/* clear.c: the overwrite passes (erase_clear_run), and the discard after the read-back */
int erase_clear_run(struct erase_job *e);
void erase_clear_discard(struct erase_job *e);
/* fill.c: what a clear pass writes at byte OFF (1 MiB aligned) for LEN bytes; the read-back makes it again */
void erase_fill(const struct erase_job *e, unsigned pass, uint64_t off, unsigned char *buf, size_t len);
/* A sorted list of the lowest LBAs (N counts all of them; the first ERASE_MISMATCH_MAX are kept). */
void erase_lba_add(uint64_t *list, uint64_t n, uint64_t lba);
/* io_uring_submit, then one completion; a signal's EINTR tried again. 0, or -errno (liburing leaves errno alone). */
struct io_uring;
struct io_uring_cqe;
int erase_submit_wait(struct io_uring *ring, struct io_uring_cqe **cqe);
/* The progress a thread reports (relaxed atomic stores). */
void erase_progress_set(struct erase_job *e, enum erase_phase phase, uint64_t total);
void erase_progress_add(struct erase_job *e, uint64_t bytes);
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
/*
 * Before a clear, with the consent given: an ATA drive's Host Protected
 * Area removed (SET MAX ADDRESS to the native maximum) so that the clear
 * overwrites it, the kernel's capacity read again and e->disk.size with
 * it; what was done goes to e->notes. 0 done or nothing to do; -1 with
 * e->failure when the drive refused (nothing else written).
 */
int erase_ata_open_hpa(struct erase_job *e);
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
/* The marker blocks put back as they were (nothing was erased: a refused purge). */
void erase_unmark(struct erase_job *e);
/* After it: the markers, the fingerprints, then every byte or the sample. -1 with bb_err when it could not be read. */
int erase_verify(struct erase_job *e);
/* Verify-only: what the disk holds (the first block: zeros, ones, or PATTERN when given), then every byte or the sample. */
int erase_verify_only(struct erase_job *e, int pattern_given);

/* The whole erase of one disk: method (or auto), markers, erase, read-back, verdict. */
int erase_disk(struct erase_job *e, const char *method);
const char *erase_verdict_name(enum erase_verdict v);
/* The verdict in one word (erased, exceptions, not-erased): the live table's and --progress-fd's */
const char *erase_verdict_word(enum erase_verdict v);

#endif
