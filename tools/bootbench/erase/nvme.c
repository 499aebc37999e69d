// SPDX-License-Identifier: MIT
/*
 * nvme.c - NIST's purge on NVMe (erase.h), through the admin passthrough
 * (NVMe Base Specification 2.0): Identify tells what the controller offers
 * (FNA: whether Format's secure erase is a crypto erase and reaches every
 * namespace; SANICAP: which Sanitize actions), Format NVM with Secure
 * Erase Settings erases the namespace (its completion is the command's),
 * Sanitize erases the whole NVM subsystem and is polled to its end through
 * its log page (81h). A command the drive refuses comes back with its
 * status code, said in the specification's words; a format that exits 0
 * without Secure Erase Settings (FOG's lesson) cannot happen here: SES is
 * always set, and the read-back proves the rest. Every namespace a command
 * reaches must have been named (--destroy) and be free: the consent gate
 * checks each and holds the named one open exclusively while it runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <linux/fs.h>
#include <linux/nvme_ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "erase/erase.h"
#include "lib/util.h"
#include "safety/consent.h"

#define SANITIZE_MAX_S (24 * 3600)

/* A few status codes by name (NVMe 2.0, figures 100 and 101); the rest as a number. */
static const char *status_words(int st)
{
	switch (st & 0x7ff) {
	case 0x001: return "Invalid Command Opcode: the drive does not implement it";
	case 0x002: return "Invalid Field in Command: the drive does not support these settings";
	case 0x00b: return "Invalid Namespace or Format";
	case 0x01c: return "Sanitize Failed";
	case 0x01d: return "Sanitize In Progress";
	case 0x10a: return "Invalid Format";
	case 0x115: return "Namespace is Write Protected";
	case 0x120: return "Sanitize Prohibited While Persistent Memory Region is Enabled";
	default: return "";
	}
}

static int admin(int fd, struct nvme_admin_cmd *c, char *why, size_t len)
{
	int rc = ioctl(fd, NVME_IOCTL_ADMIN_CMD, c);

	if (rc < 0)
		snprintf(why, len, "the admin command failed: %s", strerror(errno));
	else if (rc > 0)
		snprintf(why, len, "the drive refused it: status 0x%x%s%s", rc, *status_words(rc) ? ", " : "",
			 status_words(rc));
	return rc;
}

static int identify(int fd, unsigned cns, unsigned nsid, void *buf, char *why, size_t len)
{
	struct nvme_admin_cmd c = { .opcode = 0x06, .nsid = nsid, .addr = (uintptr_t)buf, .data_len = 4096,
				    .cdw10 = cns };

	return admin(fd, &c, why, len);
}

static unsigned le16(const unsigned char *p) { return p[0] | p[1] << 8; }
static unsigned le32(const unsigned char *p) { return le16(p) | (unsigned)le16(p + 2) << 16; }
static uint64_t le64(const unsigned char *p) { return le32(p) | (uint64_t)le32(p + 4) << 32; }

/* /dev/nvme0n1 -> 0 (its controller's number) and "nvme0" */
static int controller_of(const char *dev, char *ctrl, size_t len)
{
	const char *b = strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
	int n, end = 0;

	if (sscanf(b, "nvme%dn%*u%n", &n, &end) != 1 || !end)
		return -1;
	snprintf(ctrl, len, "nvme%d", n);
	return 0;
}

void erase_nvme_hidden(struct erase_job *e)
{
	unsigned char *id = xcalloc(1, 4096), *list = xcalloc(1, 4096), *ns = xcalloc(1, 4096);
	char why[256], ctrl[32];
	int fd = open(e->dev, O_RDONLY | O_CLOEXEC), nsid;
	size_t n = 0;

	if (fd < 0 || controller_of(e->dev, ctrl, sizeof(ctrl)) || (nsid = ioctl(fd, NVME_IOCTL_ID)) <= 0 ||
	    identify(fd, 1, 0, id, why, sizeof(why))) {
		snprintf(e->exceptions, sizeof(e->exceptions), "the controller's other namespaces and unallocated "
			 "capacity are not known (Identify did not answer)");
		goto out;
	}
	e->nvme_known = 1;
	e->nvme_nsid = (unsigned)nsid;
	e->nvme_fna = id[524];
	e->nvme_sanicap = le32(id + 328);
	e->nvme_unallocated = le64(id + 296);	/* UNVMCAP's low 64 bits */
	if (!identify(fd, 0, (unsigned)nsid, ns, why, sizeof(why)))
		e->nvme_lbaf = (ns[26] & 0xf) | ((ns[26] >> 5) & 3) << 4;
	/* the active namespaces (CNS 02h): every one but ours is another disk */
	if (!identify(fd, 2, 0, list, why, sizeof(why)))
		for (unsigned i = 0; i < 1024; i++) {
			unsigned other = le32(list + 4 * i);

			if (!other)
				break;
			if (other != (unsigned)nsid && n + 24 < sizeof(e->nvme_others))
				n += snprintf(e->nvme_others + n, sizeof(e->nvme_others) - n, "%s%sn%u", n ? ", " : "", ctrl,
					      other);
		}
out:
	if (fd >= 0)
		close(fd);
	free(id);
	free(list);
	free(ns);
}

int erase_nvme_offered(struct erase_job *e, char *why, size_t len)
{
	if (strcmp(e->disk.transport, "nvme"))
		return 0;	/* not this kind of disk: nothing to say */
	if (!e->nvme_known) {
		snprintf(why, len, "the controller did not answer Identify");
		return 0;
	}
	return 1;
}

int erase_nvme_format_crypto_offered(struct erase_job *e, char *why, size_t len)
{
	if (!erase_nvme_offered(e, why, len))
		return 0;
	if (!(e->nvme_fna & 4)) {
		snprintf(why, len, "the controller does not offer a cryptographic erase in Format (FNA bit 2 clear)");
		return 0;
	}
	return 1;
}

/* Sanitize reaches every namespace: each must have been named and be free. */
static int every_namespace_named(struct erase_job *e, char *why, size_t len)
{
	char ctrl[32], pattern[64];
	glob_t g;
	int ok = 1;

	if (controller_of(e->dev, ctrl, sizeof(ctrl)))
		return 0;
	snprintf(pattern, sizeof(pattern), "/dev/%sn*", ctrl);
	if (glob(pattern, 0, NULL, &g))
		return 1;
	for (size_t i = 0; i < g.gl_pathc && ok; i++) {
		const char *p = g.gl_pathv[i];

		if (strchr(p + strlen(pattern) - 1, 'p'))
			continue;	/* a partition: its namespace is checked whole */
		if (consent_check(p)) {
			snprintf(why, len, "Sanitize erases every namespace of %s: %s", ctrl, bb_err);
			ok = 0;
		}
	}
	globfree(&g);
	return ok;
}

static int sanitize_offered(struct erase_job *e, unsigned bit, const char *what, char *why, size_t len)
{
	if (!erase_nvme_offered(e, why, len))
		return 0;
	if (!(e->nvme_sanicap & bit)) {
		snprintf(why, len, "the controller does not offer Sanitize's %s (SANICAP)", what);
		return 0;
	}
	return every_namespace_named(e, why, len);
}

int erase_nvme_sanitize_crypto_offered(struct erase_job *e, char *why, size_t len)
{
	return sanitize_offered(e, 1, "crypto erase", why, len);
}

int erase_nvme_sanitize_block_offered(struct erase_job *e, char *why, size_t len)
{
	return sanitize_offered(e, 2, "block erase", why, len);
}

int erase_nvme_sanitize_overwrite_offered(struct erase_job *e, char *why, size_t len)
{
	return sanitize_offered(e, 4, "overwrite", why, len);
}

/* The named namespace claimed through the gate (O_EXCL) for the command's time. */
static int claim(struct erase_job *e)
{
	int fd = consent_open(e->dev, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		snprintf(e->failure, sizeof(e->failure), "%s", bb_err);
	return fd;
}

/* After a command that changed the media: the kernel reads the namespace anew. */
static void reread(int fd)
{
	ioctl(fd, NVME_IOCTL_RESCAN);
	ioctl(fd, BLKFLSBUF);
}

static int format_ses(struct erase_job *e, unsigned ses)
{
	/* the namespace's own LBA format kept; metadata, protection info as they are (0) */
	struct nvme_admin_cmd c = { .opcode = 0x80, .timeout_ms = 3600 * 1000,
				    .cdw10 = (e->nvme_lbaf & 0xf) | ses << 9 | ((e->nvme_lbaf >> 4) & 3) << 12 };
	char why[256];
	int fd = claim(e), rc;

	if (fd < 0)
		return -1;
	/* FNA bit 1: a secure erase reaches every namespace, so it is asked for all (NSID FFFFFFFFh) */
	c.nsid = e->nvme_fna & 2 ? 0xffffffff : e->nvme_nsid;
	if (c.nsid == 0xffffffff && !every_namespace_named(e, why, sizeof(why))) {
		snprintf(e->failure, sizeof(e->failure), "%s", why);
		close(fd);
		return -1;
	}
	snprintf(e->command, sizeof(e->command), "NVMe Format NVM, Secure Erase Settings %u (%s), LBA format %u, "
		 "namespace %s", ses, ses == 2 ? "cryptographic erase" : "user data erase", e->nvme_lbaf,
		 c.nsid == 0xffffffff ? "all (FFFFFFFFh)" : e->disk.name);
	rc = admin(fd, &c, why, sizeof(why));
	reread(fd);
	close(fd);
	if (rc) {
		snprintf(e->failure, sizeof(e->failure), "Format NVM (SES %u): %s", ses, why);
		return -1;
	}
	if (c.nsid == 0xffffffff)
		e->nvme_others[0] = 0;	/* reached too */
	return 0;
}

int erase_nvme_format_crypto(struct erase_job *e)
{
	return format_ses(e, 2);
}

int erase_nvme_format_user(struct erase_job *e)
{
	return format_ses(e, 1);
}

/* Sanitize with SANACT, then its log page polled until it says how it ended. */
static int sanitize(struct erase_job *e, unsigned sanact, const char *what)
{
	/* overwrite (SANACT 3): one pass (OWPASS 1) of the pattern 0 (CDW11, OVRPAT) */
	struct nvme_admin_cmd c = { .opcode = 0x84, .nsid = 0, .cdw10 = sanact | (sanact == 3 ? 1u << 4 : 0),
				    .cdw11 = 0 };
	unsigned char log[512];
	uint64_t t0 = now_ns();
	char why[256];
	int fd = claim(e), rc;

	if (fd < 0)
		return -1;
	snprintf(e->command, sizeof(e->command), "NVMe Sanitize, %s (SANACT %u), every namespace of the controller",
		 what, sanact);
	rc = admin(fd, &c, why, sizeof(why));
	if (rc) {
		snprintf(e->failure, sizeof(e->failure), "Sanitize (%s): %s", what, why);
		close(fd);
		return -1;
	}
	for (;;) {
		struct nvme_admin_cmd g = { .opcode = 0x02, .nsid = 0xffffffff, .addr = (uintptr_t)log,
					    .data_len = sizeof(log), .cdw10 = 0x81 | (sizeof(log) / 4 - 1) << 16 };
		unsigned st;

		if (admin(fd, &g, why, sizeof(why))) {
			snprintf(e->failure, sizeof(e->failure), "Sanitize Status log: %s", why);
			break;
		}
		st = le16(log + 2) & 7;
		if (st == 1 || st == 4) {
			rc = 0;
			break;
		}
		if (st == 3) {
			snprintf(e->failure, sizeof(e->failure), "the drive says the sanitize failed (SSTAT 3): run it "
				 "again; a drive in the failed state accepts only another sanitize");
			break;
		}
		if (st != 2 && (now_ns() - t0) > 5000000000ull) {
			snprintf(e->failure, sizeof(e->failure), "the Sanitize Status log never said it began (SSTAT %u)", st);
			break;
		}
		if ((now_ns() - t0) / 1000000000ull > SANITIZE_MAX_S || (e->stop && *e->stop)) {
			snprintf(e->failure, sizeof(e->failure), "still sanitizing (%.0f%%) when %s: it goes on in the drive",
				 le16(log) / 655.36, e->stop && *e->stop ? "stopped" : "the time was up");
			break;
		}
		sleep_ns(1000000000ull);
	}
	reread(fd);
	close(fd);
	if (!rc && !e->failure[0]) {
		e->nvme_others[0] = 0;	/* every namespace, and the unallocated capacity, sanitized */
		e->nvme_unallocated = 0;
		return 0;
	}
	return -1;
}

int erase_nvme_sanitize_crypto(struct erase_job *e)
{
	return sanitize(e, 4, "crypto erase");
}

int erase_nvme_sanitize_block(struct erase_job *e)
{
	return sanitize(e, 2, "block erase");
}

int erase_nvme_sanitize_overwrite(struct erase_job *e)
{
	return sanitize(e, 3, "overwrite");
}
