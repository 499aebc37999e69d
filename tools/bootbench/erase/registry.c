// SPDX-License-Identifier: MIT
/*
 * registry.c - the ways to erase, strongest first, and one disk's erase
 * from the method's choice to the verdict (erase.h).
 */
#include <string.h>
#include <time.h>

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

/* Runs M; 0 done, -1 failed (e->failure says why). */
static int run_method(struct erase_job *e, const struct erase_method *m)
{
	uint64_t t0 = now_ns();
	int rc;

	e->method = m;
	e->leaves = m->category == ERASE_CLEAR && !e->pattern_len ? LEAVES_UNKNOWN : m->leaves;
	e->failure[0] = 0;
	rc = m->run(e);
	e->erase_s = (double)(now_ns() - t0) / 1e9;
	return rc;
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
		else if (why[0] && n < sizeof(e->fallback))
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
			if (why[0] && n < sizeof(e->fallback))
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
		snprintf(e->failure, sizeof(e->failure), "the drive offers no %s (%s)", purge_only ? "purge" : "method",
			 e->fallback[0] ? e->fallback : "nothing said");
	return -1;
}

int erase_disk(struct erase_job *e, const char *method)
{
	const struct erase_method *m = NULL;
	uint64_t t0;
	int rc;

	e->started = time(NULL);
	e->verdict = NOT_ERASED;
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
			e->ended = time(NULL);
			return -1;
		}
	} else if (!strcmp(method, "purge") && !purge_offered(e)) {
		snprintf(e->failure, sizeof(e->failure), "the drive offers no purge (%s)", e->fallback[0] ? e->fallback :
			 "not a kind of disk bootbench can purge: use --method=clear");
		e->ended = time(NULL);
		return -1;
	}
	if (erase_mark(e)) {
		snprintf(e->failure, sizeof(e->failure), "%s", bb_err);
		e->ended = time(NULL);
		return -1;
	}
	rc = m ? run_method(e, m) : run_strongest(e, !strcmp(method, "purge"));
	if (rc) {
		e->ended = time(NULL);
		return -1;
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
	t0 = now_ns();
	if (erase_verify(e))
		snprintf(e->failure, sizeof(e->failure), "verification: %s", bb_err);
	e->verify_s = (double)(now_ns() - t0) / 1e9;
	e->ended = time(NULL);
	if (e->failure[0] || e->markers_left || e->mismatches || e->old_left)
		e->verdict = NOT_ERASED;
	else
		e->verdict = e->exceptions[0] ? ERASED_WITH_EXCEPTIONS : ERASED;
	return e->verdict == NOT_ERASED ? -1 : 0;
}
