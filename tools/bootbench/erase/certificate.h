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

/* An Ed25519 signing key, read and checked before anything is written. */
struct cert_signer;

struct cert_who {
	char machine_serial[128], machine_id[128], asset_tag[128], vendor[128], product[128];
	char erase_id[48];		/* this run's, unique: the certificates' IDs are made from it */
	const char *operator_name;	/* NULL: not given */
	const struct cert_signer *signer;	/* NULL: unsigned */
};

/* The machine's side of it (DMI, or the --asset-tag given), and a new erase ID. */
void cert_who_fill(struct cert_who *w, const char *asset_tag);
/*
 * Writes erase-NAME.json and .html for each disk and erase.json and
 * erase.html for the machine into DIR, each JSON signed when W->signer is
 * set (its key's SHA-256 fingerprint inside), each page naming its JSON's
 * SHA-256. No file is ever replaced: one that is there already is an
 * error. -1 with bb_err.
 */
int cert_write(const char *dir, const struct cert_who *w, struct erase_job *jobs, unsigned n);
/*
 * Whether DIR may take this run's certificates: none of their names there
 * yet (nor a public key of another key), and a file can be made in it.
 * -1 with bb_err. Checked before anything is written.
 */
int cert_dir_check(const char *dir, struct erase_job *jobs, unsigned n, const struct cert_signer *signer);
/* The Ed25519 private key in PEM at PATH, read once, before any write; NULL with bb_err. */
struct cert_signer *cert_signer_load(const char *path);
void cert_signer_free(struct cert_signer *s);
/* The public key's fingerprint: "SHA256:" and the hex of the SHA-256 of its DER (openssl pkey -pubout -outform DER). */
const char *cert_signer_fingerprint(const struct cert_signer *s);

#endif
