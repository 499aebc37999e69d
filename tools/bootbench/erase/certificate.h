/* SPDX-License-Identifier: MIT */
/*
 * certificate.h - what an erase proves, written down: per disk and per
 * machine, as JSON and as a printable page, with NIST SP 800-88's fields
 * (Appendix G: the media, the method and its category, the tool, the
 * verification and its result, the times, the person), the drive's health
 * before and after, and the verdict. Signed with an Ed25519 key (wolfSSL)
 * when one is given: FILE.sig holds the 64-byte signature of FILE's bytes,
 * and signing-key.pub.pem the public key, so that anyone can check it:
 *   openssl pkeyutl -verify -pubin -inkey signing-key.pub.pem -rawin \
 *       -in erase-sdb.json -sigfile erase-sdb.json.sig
 */
#ifndef BB_ERASE_CERTIFICATE_H
#define BB_ERASE_CERTIFICATE_H

#include "erase/erase.h"

struct cert_who {
	char machine_serial[128], machine_id[128], asset_tag[128], vendor[128], product[128];
	const char *operator_name;	/* NULL: not given */
	const char *key;		/* the Ed25519 private key (PEM), NULL: unsigned */
};

/* The machine's side of it (DMI, or the --asset-tag given). */
void cert_who_fill(struct cert_who *w, const char *asset_tag);
/*
 * Writes erase-NAME.json and .html for each disk and erase.json and
 * erase.html for the machine into DIR, each JSON signed when W->key is
 * set. -1 with bb_err (a file that could not be written, a key that is
 * not an Ed25519 private key).
 */
int cert_write(const char *dir, const struct cert_who *w, struct erase_job *jobs, unsigned n);
/* Whether KEY is an Ed25519 private key wolfSSL reads (PEM); -1 with bb_err. */
int cert_key_check(const char *key);

#endif
