// SPDX-License-Identifier: MIT
/*
 * registry.c - the ways to erase, strongest first, and one disk's erase
 * from the method's choice to the verdict (erase.h).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "erase/erase.h"
#include "lib/util.h"

static int always(struct erase_job *e, char *why, size_t len)
{
	(void)e;
	(void)why;
	(void)len;
	return 1;
}

/* strongest first (for each kind of drive): auto tries them in this order */
const struct erase_method erase_methods[] = {
	{ "nvme-sanitize-crypto", ERASE_PURGE, LEAVES_UNKNOWN,
	  "NVMe Sanitize, crypto erase: the media key replaced, every namespace",
	  erase_nvme_sanitize_crypto_offered, erase_nvme_sanitize_crypto },
	{ "nvme-sanitize-block", ERASE_PURGE, LEAVES_UNKNOWN,
	  "NVMe Sanitize, block erase: every block of the media, every namespace",
	  erase_nvme_sanitize_block_offered, erase_nvme_sanitize_block },
	{ "ata-sanitize-crypto", ERASE_PURGE, LEAVES_UNKNOWN,
	  "ATA SANITIZE, CRYPTO SCRAMBLE EXT: the key changed, hidden areas too",
	  erase_ata_sanitize_crypto_offered, erase_ata_sanitize_crypto },
	{ "scsi-sanitize-crypto", ERASE_PURGE, LEAVES_UNKNOWN,
	  "SCSI SANITIZE, crypto erase: the key changed (tried: a drive may refuse)",
	  erase_scsi_offered, erase_scsi_sanitize_crypto },
	{ "ata-sanitize-block", ERASE_PURGE, LEAVES_UNKNOWN,
	  "ATA SANITIZE, BLOCK ERASE EXT: every block erased, hidden areas too",
	  erase_ata_sanitize_block_offered, erase_ata_sanitize_block },
	{ "scsi-sanitize-block", ERASE_PURGE, LEAVES_UNKNOWN,
	  "SCSI SANITIZE, block erase: every block (tried: a drive may refuse)",
	  erase_scsi_offered, erase_scsi_sanitize_block },
	{ "nvme-sanitize-overwrite", ERASE_PURGE, LEAVES_UNKNOWN,
	  "NVMe Sanitize, overwrite: one pass of zeros by the drive, every namespace",
	  erase_nvme_sanitize_overwrite_offered, erase_nvme_sanitize_overwrite },
	{ "nvme-format-crypto", ERASE_PURGE, LEAVES_UNKNOWN,
	  "NVMe Format, Secure Erase Settings 2: cryptographic erase of the namespace",
	  erase_nvme_format_crypto_offered, erase_nvme_format_crypto },
	{ "nvme-format-user", ERASE_PURGE, LEAVES_UNKNOWN,
	  "NVMe Format, Secure Erase Settings 1: user data erase of the namespace",
	  erase_nvme_offered, erase_nvme_format_user },
	{ "ata-security-erase-enhanced", ERASE_PURGE, LEAVES_UNKNOWN,
	  "ATA SECURITY ERASE UNIT, enhanced: all user data, remapped sectors too",
	  erase_ata_security_enhanced_offered, erase_ata_security_enhanced },
	{ "ata-security-erase", ERASE_PURGE, LEAVES_UNKNOWN,
	  "ATA SECURITY ERASE UNIT, normal: the user data area, by the drive",
	  erase_ata_security_offered, erase_ata_security },
	{ "clear", ERASE_CLEAR, LEAVES_PATTERN,
	  "overwrite of the whole user-addressable space (--passes, --pattern)", always, erase_clear_run },
};
const unsigned erase_nmethods = ARRAY_SIZE(erase_methods);

const struct erase_method *erase_method_named(const char *name)
{
	for (unsigned i = 0; i < erase_nmethods; i++)
		if (!strcmp(erase_methods[i].name, name))
			return &erase_methods[i];
	return NULL;
}

const char *erase_verdict_name(enum erase_verdict v)
{
	static const char *const names[] = { "erased", "erased with exceptions", "not erased" };

	return names[v];
}

const char *erase_verdict_word(enum erase_verdict v)
{
	static const char *const words[] = { "erased", "exceptions", "not-erased" };

	return words[v];
}

/* Runs M; 0 done, -1 failed (e->failure says why). */
static int run_method(struct erase_job *e, const struct erase_method *m)
{
	uint64_t t0 = now_ns();
	int rc;

	e->method = m;
	/* random data too is what the clear leaves: the read-back makes it again from the seed */
	e->leaves = m->leaves;
	e->failure[0] = 0;
	erase_progress_set(e, PHASE_ERASING, 0);
	rc = m->run(e);
	e->erase_s = (double)(now_ns() - t0) / 1e9;
	return rc;
}

/* Why a method that said nothing is not offered: the disk is not of its kind. */
static int not_its_kind(const struct erase_job *e, char *why, size_t len)
{
	snprintf(why, len, "not for a %s disk", e->disk.transport[0] ? e->disk.transport : "block device of no known kind");
	return 1;
}

/* Whether any purge is offered (what is not, and why, goes to e->fallback). */
static int purge_offered(struct erase_job *e)
{
	size_t n = 0;
	int any = 0;

	for (unsigned i = 0; i < erase_nmethods; i++) {
		char why[256] = "";

		if (erase_methods[i].category != ERASE_PURGE)
			continue;
		if (erase_methods[i].offered(e, why, sizeof(why)))
			any = 1;
		else if (n < sizeof(e->fallback) && (why[0] || not_its_kind(e, why, sizeof(why))))
			n += snprintf(e->fallback + n, sizeof(e->fallback) - n, "%s%s: %s", n ? "; " : "",
				      erase_methods[i].name, why);
	}
	if (any)
		e->fallback[0] = 0;
	return any;
}

/*
 * auto: the strongest method the drive offers; one it then refuses is
 * said (in its words) and the next one tried, down to clear. purge: the
 * same, without clear.
 */
static int run_strongest(struct erase_job *e, int purge_only)
{
	size_t n = 0;

	for (unsigned i = 0; i < erase_nmethods; i++) {
		const struct erase_method *m = &erase_methods[i];
		char why[256] = "";

		if (purge_only && m->category != ERASE_PURGE)
			continue;
		if (!m->offered(e, why, sizeof(why))) {
			if (n < sizeof(e->fallback) && (why[0] || not_its_kind(e, why, sizeof(why))))
				n += snprintf(e->fallback + n, sizeof(e->fallback) - n, "%s%s: %s", n ? "; " : "", m->name, why);
			continue;
		}
		if (!run_method(e, m))
			return 0;
		if (n < sizeof(e->fallback))
			n += snprintf(e->fallback + n, sizeof(e->fallback) - n, "%s%s refused: %s", n ? "; " : "", m->name,
				      e->failure);
		if (e->stop && *e->stop)
			return -1;
	}
	if (!e->failure[0])
		snprintf(e->failure, sizeof(e->failure), "the drive offers no %s (%.900s)", purge_only ? "purge" : "method",
			 e->fallback[0] ? e->fallback : "nothing said");
	return -1;
}

/* Whether the three markers still read back whole: then the method changed nothing there. */
static int markers_intact(struct erase_job *e)
{
	unsigned char *buf = NULL;
	unsigned intact = 0;
	int fd;

	if (!e->marked || posix_memalign((void **)&buf, ERASE_BLOCK, ERASE_BLOCK))
		return 0;
	fd = open(e->dev, O_RDONLY | O_DIRECT | O_CLOEXEC);
	for (unsigned i = 0; fd >= 0 && i < e->marked; i++)
		if (pread(fd, buf, ERASE_BLOCK, (off_t)e->marker_at[i]) == ERASE_BLOCK &&
		    !memcmp(buf, e->marker, ERASE_BLOCK))
			intact++;
	if (fd >= 0)
		close(fd);
	free(buf);
	return intact == e->marked;
}

/*
 * BOOTBENCH_ERASE_HOLD=verify: the whole process stops itself (SIGSTOP)
 * once the erase is done and before the read-back, and goes on at SIGCONT.
 * For the tests that change a disk there (data planted, the key removed):
 * the read-back must see what is on the disk then, not what was written.
 */
static void hold_before_verify(const struct erase_job *e)
{
	const char *hold = getenv("BOOTBENCH_ERASE_HOLD");

	if (!hold || strcmp(hold, "verify"))
		return;
	printf("erase: %s: held before the read-back (BOOTBENCH_ERASE_HOLD=verify); SIGCONT goes on\n", e->dev);
	fflush(stdout);
	raise(SIGSTOP);
}

static int finish(struct erase_job *e)
{
	e->ended = time(NULL);
	erase_progress_set(e, PHASE_DONE, 0);
	return e->verdict == NOT_ERASED ? -1 : 0;
}

static int verify_only(struct erase_job *e)
{
	uint64_t t0 = now_ns();

	snprintf(e->command, sizeof(e->command), "none: verification only, nothing written");
	if (erase_verify_only(e, e->pattern_len != 0))
		snprintf(e->failure, sizeof(e->failure), "verification: %s", bb_err);
	e->verify_s = (double)(now_ns() - t0) / 1e9;
	e->verdict = e->failure[0] || e->mismatches ? NOT_ERASED : ERASED;
	return finish(e);
}

int erase_disk(struct erase_job *e, const char *method)
{
	const struct erase_method *m = NULL;
	uint64_t t0;
	int rc;

	e->started = time(NULL);
	e->verdict = NOT_ERASED;
	if (e->verify_only)
		return verify_only(e);
	if (!strcmp(e->disk.transport, "nvme"))
		erase_nvme_hidden(e);
	else
		erase_ata_hidden(e);	/* an ATA drive's HPA and DCO (nothing for others) */
	/* a method the drive does not offer is said before anything is written */
	if (strcmp(method, "auto") && strcmp(method, "purge")) {
		char why[256] = "";

		m = erase_method_named(method);
		if (!m->offered(e, why, sizeof(why))) {
			snprintf(e->failure, sizeof(e->failure), "%s is not offered by the drive: %s", m->name,
				 why[0] ? why : "not this kind of disk");
			e->method = m;
			return finish(e);
		}
	} else if (!strcmp(method, "purge") && !purge_offered(e)) {
		snprintf(e->failure, sizeof(e->failure), "the drive offers no purge (%.900s)", e->fallback[0] ? e->fallback :
			 "not a kind of disk bootbench can purge: use --method=clear");
		return finish(e);
	}
	if (e->stop && *e->stop) {
		e->interrupted = 1;
		snprintf(e->failure, sizeof(e->failure), "stopped by a signal before anything was written");
		return finish(e);
	}
	/* a clear named: the Host Protected Area opened first, so that the markers and the passes reach its end */
	if (m && m->category == ERASE_CLEAR && erase_ata_open_hpa(e))
		return finish(e);
	if (erase_mark(e)) {
		snprintf(e->failure, sizeof(e->failure), "%s", bb_err);
		erase_unmark(e);
		return finish(e);
	}
	rc = m ? run_method(e, m) : run_strongest(e, !strcmp(method, "purge"));
	if (rc) {
		/* a purge the drive refused changed nothing: the blocks under the markers are put back */
		if (markers_intact(e))
			erase_unmark(e);
		return finish(e);
	}
	/* what the method did not reach (an NVMe controller's other namespaces, its unallocated capacity) */
	if (e->nvme_others[0] || e->nvme_unallocated) {
		size_t n = strlen(e->exceptions);

		if (e->nvme_others[0])
			n += snprintf(e->exceptions + n, sizeof(e->exceptions) - n, "%sthe controller's other "
				      "namespaces, not erased: %s", n ? "; " : "", e->nvme_others);
		if (e->nvme_unallocated && n < sizeof(e->exceptions))
			snprintf(e->exceptions + n, sizeof(e->exceptions) - n, "%s%llu bytes of the controller's capacity "
				 "in no namespace (only a Sanitize reaches them)", n ? "; " : "",
				 (unsigned long long)e->nvme_unallocated);
	}
	hold_before_verify(e);
	t0 = now_ns();
	if (e->stop && *e->stop) {
		e->interrupted = 1;
		snprintf(e->failure, sizeof(e->failure), "stopped by a signal before the read-back");
	} else if (erase_verify(e)) {
		snprintf(e->failure, sizeof(e->failure), "verification: %s", bb_err);
	}
	e->verify_s = (double)(now_ns() - t0) / 1e9;
	/* the discard comes after the read-back, and proves nothing of its own */
	if (e->method->category == ERASE_CLEAR && !e->failure[0] && !e->mismatches)
		erase_clear_discard(e);
	if (e->failure[0] || e->markers_left || e->mismatches || e->old_left || e->bad_blocks) {
		e->verdict = NOT_ERASED;
		/* a "not erased" always says why */
		if (!e->failure[0])
			snprintf(e->failure, sizeof(e->failure), "the read-back found %u of %u marker(s) left, %u of %u "
				 "fingerprinted block(s) of old data left, %llu block(s) not as expected",
				 e->markers_left, e->markers_written, e->old_left, e->old_blocks,
				 (unsigned long long)e->mismatches);
	} else
		e->verdict = e->exceptions[0] ? ERASED_WITH_EXCEPTIONS : ERASED;
	return finish(e);
}
