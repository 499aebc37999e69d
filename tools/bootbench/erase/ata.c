// SPDX-License-Identifier: MIT
/*
 * ata.c - NIST's purge on ATA drives (erase.h), through SCSI/ATA
 * Translation (sg.h), as ACS-3 has the commands:
 *   - SANITIZE (B4h): CRYPTO SCRAMBLE EXT (0011h) or BLOCK ERASE EXT
 *     (0012h), each with its signature in the LBA field, then SANITIZE
 *     STATUS EXT (0000h) polled until the drive says it completed without
 *     error or why it did not;
 *   - SECURITY ERASE UNIT (F4h), enhanced where the drive has it: a user
 *     password set (F1h), ERASE PREPARE (F3h), the erase with that
 *     password, given the time IDENTIFY says it takes; the drive clears the
 *     password when it is done, and bootbench clears it (F6h) if not.
 * A drive frozen by its BIOS (SECURITY FREEZE LOCK at boot), locked, or
 * with a password already set is refused with what to do. The hidden
 * areas: a Host Protected Area (READ NATIVE MAX ADDRESS EXT against the
 * capacity IDENTIFY reports) and a Device Configuration Overlay (DEVICE
 * CONFIGURATION IDENTIFY's maximum LBA) hide sectors a clear cannot reach:
 * an exception; SANITIZE and SECURITY ERASE reach them (ACS-3 7.36, 7.44).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "erase/erase.h"
#include "erase/sg.h"
#include "lib/util.h"
#include "safety/consent.h"

#define W(e, n) ((e)->ata_id[n])
/* the password bootbench sets for SECURITY ERASE UNIT, and says when it could not clear it */
#define PASSWORD "bootbench"
#define SANITIZE_MAX_S (24 * 3600)

static int is_ata(const struct erase_job *e)
{
	return !strcmp(e->disk.transport, "sata") || !strcmp(e->disk.transport, "usb") ||
	       !strcmp(e->disk.transport, "ata");
}

static uint64_t capacity(const struct erase_job *e)
{
	if (W(e, 83) & (1 << 10))	/* 48-bit addressing: words 100-103 */
		return (uint64_t)W(e, 100) | (uint64_t)W(e, 101) << 16 | (uint64_t)W(e, 102) << 32 |
		       (uint64_t)W(e, 103) << 48;
	return (uint64_t)W(e, 60) | (uint64_t)W(e, 61) << 16;
}

void erase_ata_hidden(struct erase_job *e)
{
	struct ata_regs r = { .command = 0xec };
	uint16_t dco[256];
	char why[256];
	size_t n = strlen(e->exceptions);
	int fd;

	if (!is_ata(e))
		return;
	fd = open(e->dev, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return;
	if (sg_ata(fd, &r, SG_IN, e->ata_id, 512, 10, e->ata_why, sizeof(e->ata_why))) {
		close(fd);
		return;		/* not an ATA drive SAT reaches (a USB bridge without it): no purge offered */
	}
	e->ata_known = 1;
	/* HPA: the native maximum against what the host is shown */
	if (W(e, 82) & (1 << 10)) {
		struct ata_regs m = { .command = W(e, 83) & (1 << 10) ? 0x27 : 0xf8, .device = 0x40 };

		if (!sg_ata(fd, &m, SG_NONE, NULL, 0, 10, why, sizeof(why)) && m.lba + 1 > capacity(e))
			n += snprintf(e->exceptions + n, sizeof(e->exceptions) - n, "%sa Host Protected Area of %llu "
				      "sectors (native %llu, shown %llu)", n ? "; " : "",
				      (unsigned long long)(m.lba + 1 - capacity(e)), (unsigned long long)(m.lba + 1),
				      (unsigned long long)capacity(e));
		else if (m.status & 1 && n < sizeof(e->exceptions))
			n += snprintf(e->exceptions + n, sizeof(e->exceptions) - n, "%sthe Host Protected Area could "
				      "not be read (%s)", n ? "; " : "", why);
	}
	/* DCO: the factory's maximum LBA against the native one */
	if (W(e, 83) & (1 << 11)) {
		struct ata_regs d = { .command = 0xb1, .feature = 0xc2, .count = 1 };

		if (!sg_ata(fd, &d, SG_IN, dco, 512, 10, why, sizeof(why))) {
			uint64_t factory = (uint64_t)dco[3] | (uint64_t)dco[4] << 16 | (uint64_t)dco[5] << 32 |
					   (uint64_t)dco[6] << 48;

			if (factory + 1 > capacity(e) && n < sizeof(e->exceptions))
				n += snprintf(e->exceptions + n, sizeof(e->exceptions) - n, "%sa Device Configuration "
					      "Overlay: the factory's maximum LBA %llu, %llu shown", n ? "; " : "",
					      (unsigned long long)factory, (unsigned long long)capacity(e) - 1);
		}
	}
	close(fd);
}

/* SANITIZE and SECURITY ERASE reach the HPA and the DCO's area: nothing is left out after them */
static void reached_all(struct erase_job *e)
{
	e->exceptions[0] = 0;
}

static int ata_offered(struct erase_job *e, char *why, size_t len)
{
	if (!is_ata(e))
		return 0;
	if (!e->ata_known) {
		snprintf(why, len, "the drive did not answer IDENTIFY DEVICE through SCSI/ATA Translation (%s)",
			 e->ata_why[0] ? e->ata_why : "not opened");
		return 0;
	}
	return 1;
}

static int sanitize_offered(struct erase_job *e, unsigned bit, const char *what, char *why, size_t len)
{
	if (!ata_offered(e, why, len))
		return 0;
	if (!(W(e, 59) & (1 << 12)) || !(W(e, 59) & (1 << bit))) {
		snprintf(why, len, "the drive does not offer SANITIZE's %s (IDENTIFY word 59)", what);
		return 0;
	}
	return 1;
}

int erase_ata_sanitize_crypto_offered(struct erase_job *e, char *why, size_t len)
{
	return sanitize_offered(e, 13, "CRYPTO SCRAMBLE", why, len);
}

int erase_ata_sanitize_block_offered(struct erase_job *e, char *why, size_t len)
{
	return sanitize_offered(e, 15, "BLOCK ERASE", why, len);
}

/* The security feature set's state (word 128): what stands in the way, said with what to do. */
static int security_offered(struct erase_job *e, int enhanced, char *why, size_t len)
{
	unsigned s = W(e, 128);

	if (!ata_offered(e, why, len))
		return 0;
	if (!(W(e, 82) & (1 << 1)) || !(s & 1)) {
		snprintf(why, len, "the drive does not offer the Security feature set (IDENTIFY word 82)");
		return 0;
	}
	if (enhanced && !(s & (1 << 5))) {
		snprintf(why, len, "the drive offers no enhanced SECURITY ERASE (IDENTIFY word 128 bit 5)");
		return 0;
	}
	if (s & (1 << 3)) {
		snprintf(why, len, "the drive is frozen (its BIOS froze security at boot): suspend and resume the "
			 "machine, or unplug and plug the drive's power (hot-plug), then erase again");
		return 0;
	}
	if (s & (1 << 2)) {
		snprintf(why, len, "the drive is locked by a password bootbench does not know");
		return 0;
	}
	if (s & (1 << 1)) {
		snprintf(why, len, "the drive has a user password set already: clear it (SECURITY DISABLE PASSWORD) first");
		return 0;
	}
	return 1;
}

int erase_ata_security_enhanced_offered(struct erase_job *e, char *why, size_t len)
{
	return security_offered(e, 1, why, len);
}

int erase_ata_security_offered(struct erase_job *e, char *why, size_t len)
{
	return security_offered(e, 0, why, len);
}

static int claim(struct erase_job *e)
{
	int fd = consent_open(e->dev, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		snprintf(e->failure, sizeof(e->failure), "%s", bb_err);
	return fd;
}

static int sanitize(struct erase_job *e, uint16_t feature, uint64_t signature, const char *what)
{
	struct ata_regs r = { .command = 0xb4, .feature = feature, .lba = signature, .device = 0x40 };
	uint64_t t0 = now_ns();
	char why[256];
	int fd = claim(e), rc = -1;

	if (fd < 0)
		return -1;
	snprintf(e->command, sizeof(e->command), "ATA SANITIZE, %s (SANITIZE B4h, feature %04Xh)", what, feature);
	if (sg_ata(fd, &r, SG_NONE, NULL, 0, 60, why, sizeof(why))) {
		snprintf(e->failure, sizeof(e->failure), "SANITIZE %s: %s%s", what, why,
			 r.status & 1 ? " (a BIOS that froze SANITIZE at boot: power-cycle the drive, then erase again)" : "");
		close(fd);
		return -1;
	}
	for (;;) {
		struct ata_regs st = { .command = 0xb4, .feature = 0, .device = 0x40 };

		sleep_ns(1000000000ull);
		if (sg_ata(fd, &st, SG_NONE, NULL, 0, 30, why, sizeof(why)) && !(st.status & 1)) {
			snprintf(e->failure, sizeof(e->failure), "SANITIZE STATUS EXT: %s", why);
			break;
		}
		if (st.count & 0x8000) {
			rc = 0;		/* SANITIZE OPERATION COMPLETED WITHOUT ERROR */
			break;
		}
		if (!(st.count & 0x4000)) {
			snprintf(e->failure, sizeof(e->failure), "the drive says the sanitize did not complete (status "
				 "0x%02x, error 0x%02x, reason %llu): run it again; a drive in the failed state takes only "
				 "another sanitize", st.status, st.error, (unsigned long long)(st.lba & 0xff));
			break;
		}
		if ((now_ns() - t0) / 1000000000ull > SANITIZE_MAX_S || (e->stop && *e->stop)) {
			snprintf(e->failure, sizeof(e->failure), "still sanitizing (%.0f%%) when %s: it goes on in the "
				 "drive", (st.lba & 0xffff) / 655.36, e->stop && *e->stop ? "stopped" : "the time was up");
			break;
		}
	}
	ioctl(fd, BLKFLSBUF);
	close(fd);
	if (!rc)
		reached_all(e);
	return rc;
}

int erase_ata_sanitize_crypto(struct erase_job *e)
{
	return sanitize(e, 0x0011, 0x43727970, "CRYPTO SCRAMBLE EXT");	/* "Cryp" */
}

int erase_ata_sanitize_block(struct erase_job *e)
{
	return sanitize(e, 0x0012, 0x426b4572, "BLOCK ERASE EXT");	/* "BkEr" */
}

/* A 512-byte password block: word 0 the control word, words 1-16 the password. */
static void password_block(uint16_t *b, uint16_t control)
{
	memset(b, 0, 512);
	b[0] = control;
	memcpy(b + 1, PASSWORD, sizeof(PASSWORD) - 1);
}

static int security(struct erase_job *e, int enhanced)
{
	uint16_t block[256];
	/* words 89/90: the erase's time in 2-minute units (255: more than 508 minutes) */
	unsigned units = W(e, enhanced ? 90 : 89) & 0xff, timeout = units ? (units == 255 ? 48 * 3600 : units * 120 * 2) :
		24 * 3600;
	struct ata_regs set = { .command = 0xf1 }, prep = { .command = 0xf3 }, erase = { .command = 0xf4 };
	char why[256];
	int fd = claim(e), rc = -1;

	if (fd < 0)
		return -1;
	snprintf(e->command, sizeof(e->command), "ATA SECURITY ERASE UNIT%s (F4h), after SECURITY SET PASSWORD (F1h) "
		 "and ERASE PREPARE (F3h)", enhanced ? ", enhanced" : "");
	password_block(block, 0);	/* user password, high security */
	if (sg_ata(fd, &set, SG_OUT, block, 512, 30, why, sizeof(why))) {
		snprintf(e->failure, sizeof(e->failure), "SECURITY SET PASSWORD: %s", why);
		close(fd);
		return -1;
	}
	password_block(block, enhanced ? 2 : 0);
	if (sg_ata(fd, &prep, SG_NONE, NULL, 0, 30, why, sizeof(why)) ||
	    sg_ata(fd, &erase, SG_OUT, block, 512, timeout, why, sizeof(why))) {
		struct ata_regs off = { .command = 0xf6 };

		snprintf(e->failure, sizeof(e->failure), "SECURITY ERASE UNIT: %s", why);
		/* the password must not stay: cleared, or said */
		password_block(block, 0);
		if (sg_ata(fd, &off, SG_OUT, block, 512, 30, why, sizeof(why)))
			snprintf(e->failure + strlen(e->failure), sizeof(e->failure) - strlen(e->failure),
				 "; the drive keeps the user password \"" PASSWORD "\" (SECURITY DISABLE PASSWORD with "
				 "it): %s", why);
	} else {
		rc = 0;
		reached_all(e);
	}
	ioctl(fd, BLKFLSBUF);
	close(fd);
	return rc;
}

int erase_ata_security_enhanced(struct erase_job *e)
{
	return security(e, 1);
}

int erase_ata_security(struct erase_job *e)
{
	return security(e, 0);
}
