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

/* The sectors IDENTIFY data ID shows the host */
static uint64_t sectors_shown(const uint16_t *id)
{
	if (id[83] & (1 << 10))	/* 48-bit addressing: words 100-103 */
		return (uint64_t)id[100] | (uint64_t)id[101] << 16 | (uint64_t)id[102] << 32 | (uint64_t)id[103] << 48;
	return (uint64_t)id[60] | (uint64_t)id[61] << 16;
}

static uint64_t capacity(const struct erase_job *e)
{
	return sectors_shown(e->ata_id);
}

/*
 * READ NATIVE MAX ADDRESS (EXT): *NATIVE the drive's last LBA + 1; sg_ata's
 * answer, M's status saying whether the drive aborted it. A 28-bit drive
 * returns the LBA's bits 27:24 in the device register, not the LBA's high
 * bytes (those are the 48-bit command's).
 */
static int read_native_max(int fd, const struct erase_job *e, struct ata_regs *m, uint64_t *native, char *why,
			   size_t len)
{
	int ext = !!(W(e, 83) & (1 << 10)), rc;

	*m = (struct ata_regs){ .command = ext ? 0x27 : 0xf8, .device = 0x40 };
	rc = sg_ata(fd, m, SG_NONE, NULL, 0, 10, why, len);
	*native = (ext ? m->lba : (m->lba & 0xffffff) | (uint64_t)(m->device & 0xf) << 24) + 1;
	return rc;
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
	e->ata_shown = capacity(e);
	/* HPA: the native maximum against what the host is shown */
	if (W(e, 82) & (1 << 10)) {
		struct ata_regs m;
		uint64_t native;

		if (!read_native_max(fd, e, &m, &native, why, sizeof(why))) {
			e->ata_native_max = native;	/* erase_ata_open_hpa's: the clear may reach it */
			if (native > capacity(e))
				n += snprintf(e->exceptions + n, sizeof(e->exceptions) - n, "%sa Host Protected Area "
					      "of %llu sectors (native %llu, shown %llu)", n ? "; " : "",
					      (unsigned long long)(native - capacity(e)), (unsigned long long)native,
					      (unsigned long long)capacity(e));
		} else if (m.status & 1 && n < sizeof(e->exceptions))
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

/* LIST's "; "-separated item that starts with PHRASE taken out */
static void drop_item(char *list, const char *phrase)
{
	char *p = strstr(list, phrase), *end;

	if (!p)
		return;
	end = strstr(p, "; ");
	if (end)
		memmove(p, end + 2, strlen(end + 2) + 1);
	else
		*(p > list + 1 ? p - 2 : p) = 0;	/* the last item: its "; " goes with it */
}

/*
 * The kernel's capacity of the disk, read again: libata answers READ
 * CAPACITY from the size it found at probe (never from the drive), so a
 * rescan alone shows the old size behind it. A SET FEATURES that changes
 * the write cache or read look-ahead makes libata revalidate the drive
 * (IDENTIFY again: "new n_sectors matches native, probably late HPA unlock",
 * then a SCSI rescan) without a reset, which would hide the area again:
 * it is sent with the setting the drive has now, so nothing changes. Then
 * the SCSI rescan for a USB bridge, which asks the drive itself. Waits for
 * WANT bytes in /sys/block/NAME/size; the bytes seen last (WHY: the
 * rescan's error, "" none).
 */
static uint64_t kernel_reread(struct erase_job *e, int fd, const uint16_t *id, uint64_t want, char *why, size_t len)
{
	struct ata_regs f = { .command = 0xef };
	char path[96], buf[32];
	uint64_t size = 0, t0 = now_ns();
	int sfd;

	why[0] = 0;
	if (id[82] & (1 << 5))		/* write cache: enable (02h) or disable (82h), as it is now (word 85) */
		f.feature = id[85] & (1 << 5) ? 0x02 : 0x82;
	else if (id[82] & (1 << 6))	/* read look-ahead: enable (AAh) or disable (55h) */
		f.feature = id[85] & (1 << 6) ? 0xaa : 0x55;
	if (f.feature)
		sg_ata(fd, &f, SG_NONE, NULL, 0, 30, buf, sizeof(buf));	/* refused: the rescan still asks */
	snprintf(path, sizeof(path), "/sys/block/%s/device/rescan", e->disk.name);
	sfd = open(path, O_WRONLY | O_CLOEXEC);	/* consent: a sysfs file, the kernel's rescan; no disk */
	if (sfd < 0 || write(sfd, "1", 1) != 1)
		snprintf(why, len, "; %s: %s", path, strerror(errno));
	if (sfd >= 0)
		close(sfd);
	/* libata's revalidation and its rescan run in its error handler, after this call returns */
	snprintf(path, sizeof(path), "/sys/block/%s/size", e->disk.name);
	for (;;) {
		if (!read_attr(path, buf, sizeof(buf)))
			size = strtoull(buf, NULL, 10) * 512;
		if (size == want || now_ns() - t0 > 15 * 1000000000ull)
			return size;
		sleep_ns(200000000ull);
	}
}

int erase_ata_open_hpa(struct erase_job *e)
{
	int ext = !!(W(e, 83) & (1 << 10)), fd, tries, rc = -1;
	const char *cmd = ext ? "SET MAX ADDRESS EXT" : "SET MAX ADDRESS";
	uint64_t hidden, native = 0, lbs = e->disk.lbs ? e->disk.lbs : 512, size;
	struct ata_regs m, set, id = { .command = 0xec };
	uint16_t now[256];
	char why[256];
	size_t n;

	if (!is_ata(e) || !e->restore_hpa || e->ata_native_max <= e->ata_shown)
		return 0;
	hidden = e->ata_native_max - e->ata_shown;
	fd = consent_open(e->dev, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		snprintf(e->failure, sizeof(e->failure), "%s", bb_err);
		return -1;
	}
	/*
	 * The drive takes SET MAX only right after READ NATIVE MAX (ATA8-ACS):
	 * it is read again, and a command of the kernel's in between costs a
	 * second try. The count field's bit 0 (Value Volatile) stays 0, as
	 * libata's ata_set_max_sectors sends it: the drive hides the area
	 * again from its next power-on or hardware reset, its configuration
	 * kept (libata itself opens it again after a reset in the clear: "late
	 * HPA lock, will try to unlock HPA"); a non-volatile SET MAX is taken
	 * once a power-on only. A 28-bit address's bits 27:24 go in the device
	 * register; 48-bit, the LBA's high bytes need ATA PASS-THROUGH's
	 * EXTEND bit, which sg_ata must set for 37h.
	 */
	for (tries = 0; tries < 2; tries++) {
		if (read_native_max(fd, e, &m, &native, why, sizeof(why))) {
			snprintf(e->failure, sizeof(e->failure), "READ NATIVE MAX ADDRESS%s, before %s: %s",
				 ext ? " EXT" : "", cmd, why);
			goto out;
		}
		if (native != e->ata_native_max) {
			snprintf(e->failure, sizeof(e->failure), "the drive's native maximum changed since it was read "
				 "(%llu sectors, then %llu): the Host Protected Area was left as it is",
				 (unsigned long long)native, (unsigned long long)e->ata_native_max);
			goto out;
		}
		set = (struct ata_regs){ .command = ext ? 0x37 : 0xf9, .lba = native - 1, .device = 0x40 };
		if (!ext) {
			set.lba = (native - 1) & 0xffffff;
			set.device |= (uint8_t)((native - 1) >> 24 & 0xf);
		}
		rc = sg_ata(fd, &set, SG_NONE, NULL, 0, 30, why, sizeof(why));
		if (rc <= 0)
			break;
	}
	if (rc) {
		snprintf(e->failure, sizeof(e->failure), "%s to LBA %llu (a Host Protected Area of %llu sectors): "
			 "%s%s", cmd, (unsigned long long)(native - 1), (unsigned long long)hidden, why,
			 set.status & 1 ? " (the drive's SET MAX is locked or frozen, by a SET MAX password or its "
			 "BIOS at boot, or took a non-volatile SET MAX since power-on: power-cycle the drive, then "
			 "erase again)" : "");
		rc = -1;
		goto out;
	}
	rc = -1;
	/* the drive's own word first (a wrong LBA would show here), then the kernel's */
	if (sg_ata(fd, &id, SG_IN, now, 512, 10, why, sizeof(why))) {
		snprintf(e->failure, sizeof(e->failure), "the drive took %s to LBA %llu, but IDENTIFY DEVICE then: "
			 "%s: the clear was not started", cmd, (unsigned long long)(native - 1), why);
		goto out;
	}
	if (sectors_shown(now) != native) {
		snprintf(e->failure, sizeof(e->failure), "the drive took %s to LBA %llu, but IDENTIFY then shows %llu "
			 "sectors, not its native %llu: the clear was not started (the drive's next power-on gives it "
			 "its old size back)", cmd, (unsigned long long)(native - 1),
			 (unsigned long long)sectors_shown(now), (unsigned long long)native);
		goto out;
	}
	memcpy(e->ata_id, now, sizeof(e->ata_id));
	e->ata_shown = native;
	size = kernel_reread(e, fd, now, native * lbs, why, sizeof(why));
	if (size != native * lbs) {
		snprintf(e->failure, sizeof(e->failure), "the drive shows its native %llu sectors after %s, but the "
			 "kernel still gives %s %llu bytes, not %llu%s (a USB bridge may keep the size it read when "
			 "plugged in): the clear was not started; the area stays open until the drive's next power-on",
			 (unsigned long long)native, cmd, e->dev, (unsigned long long)size,
			 (unsigned long long)(native * lbs), why);
		goto out;
	}
	e->disk.size = size;
	drop_item(e->exceptions, "a Host Protected Area of ");
	n = strlen(e->notes);
	snprintf(e->notes + n, sizeof(e->notes) - n, "%sthe Host Protected Area of %llu sectors was removed before "
		 "the clear (%s to LBA %llu): the clear overwrote it (a volatile setting: the drive hides the area "
		 "again, overwritten, from its next power-on)", n ? "; " : "", (unsigned long long)hidden, cmd,
		 (unsigned long long)(native - 1));
	rc = 0;
out:
	close(fd);
	return rc;
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
