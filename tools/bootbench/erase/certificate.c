// SPDX-License-Identifier: MIT
/*
 * certificate.c - the erase certificates (certificate.h). The signature is
 * wolfCrypt's Ed25519 over the file's bytes; what is ours is only the key's
 * wrapping, which is fixed for Ed25519 (RFC 8410): a PKCS#8 private key is
 * 16 known bytes and the 32-byte seed, a public key 12 known bytes and the
 * 32-byte point, each in PEM's base64 armor. A key file is a secret: it is
 * read, never shown, and a file that is not such a key is refused whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <wolfssl/wolfcrypt/settings.h>
#include <wolfssl/wolfcrypt/coding.h>
#include <wolfssl/wolfcrypt/ed25519.h>
#include <wolfssl/wolfcrypt/sha256.h>

#include "erase/certificate.h"
#include "lib/json.h"
#include "lib/util.h"
#include "report/html.h"
#include "sys/machine.h"
#include "sys/root.h"

static const unsigned char pkcs8_prefix[16] = { 0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06,
						0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20 };
static const unsigned char spki_prefix[12] = { 0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00 };

/* A DMI string, printable ASCII only (firmware's text is untrusted). */
static void dmi(const char *attr, char *buf, size_t len)
{
	char path[256];

	root_path(path, sizeof(path), "/sys/class/dmi/id/%s", attr);
	if (read_attr(path, buf, len))
		buf[0] = 0;
	for (char *c = buf; *c; c++)
		if ((unsigned char)*c < 32 || (unsigned char)*c > 126)
			*c = '?';
}

void cert_who_fill(struct cert_who *w, const char *asset_tag)
{
	machine_serial(w->machine_serial, sizeof(w->machine_serial));
	machine_id(w->machine_id, sizeof(w->machine_id));
	dmi("sys_vendor", w->vendor, sizeof(w->vendor));
	dmi("product_name", w->product, sizeof(w->product));
	if (asset_tag)
		snprintf(w->asset_tag, sizeof(w->asset_tag), "%s", asset_tag);
	else
		dmi("chassis_asset_tag", w->asset_tag, sizeof(w->asset_tag));
	{
		/* the time and 64 random bits: unique across runs, machines and clocks set alike */
		uint64_t r;
		char t[32];
		time_t now = time(NULL);
		struct tm tm;

		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			r = now_ns() ^ (uint64_t)getpid() << 32;
		gmtime_r(&now, &tm);
		strftime(t, sizeof(t), "%Y%m%dT%H%M%SZ", &tm);
		snprintf(w->erase_id, sizeof(w->erase_id), "%.16s-%016llx", t, (unsigned long long)r);
	}
}

/* The 32-byte seed of an Ed25519 private key in PEM (openssl genpkey -algorithm ed25519). */
static int read_key(const char *path, unsigned char seed[32])
{
	static const char begin[] = "-----BEGIN PRIVATE KEY-----", end[] = "-----END PRIVATE KEY-----";
	char text[4096], *b, *e, b64[4096];
	unsigned char der[256];
	word32 dlen = sizeof(der), n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	ssize_t got;

	if (fd < 0)
		return set_err("the signing key %s: %s", path, strerror(errno));
	got = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (got <= 0)
		return set_err("the signing key %s: empty or unreadable", path);
	text[got] = 0;
	b = strstr(text, begin);
	e = b ? strstr(b, end) : NULL;
	if (!b || !e)
		return set_err("the signing key %s is not a PEM private key (openssl genpkey -algorithm ed25519 makes one)",
			       path);
	for (b += sizeof(begin) - 1; b < e && n < sizeof(b64) - 1; b++)
		if (*b != '\n' && *b != '\r' && *b != ' ')
			b64[n++] = *b;
	if (Base64_Decode((const byte *)b64, n, der, &dlen) || dlen != 48 || memcmp(der, pkcs8_prefix, 16)) {
		memset(der, 0, sizeof(der));
		memset(text, 0, sizeof(text));
		return set_err("the signing key %s is not an Ed25519 private key (openssl genpkey -algorithm ed25519 "
			       "makes one)", path);
	}
	memcpy(seed, der + 16, 32);
	memset(der, 0, sizeof(der));
	memset(text, 0, sizeof(text));
	memset(b64, 0, sizeof(b64));
	return 0;
}

struct cert_signer {
	ed25519_key key;
	unsigned char spki[44];		/* the public key's DER */
	char fingerprint[80];
};

struct cert_signer *cert_signer_load(const char *path)
{
	struct cert_signer *s = xcalloc(1, sizeof(*s));
	unsigned char seed[32], digest[WC_SHA256_DIGEST_SIZE];
	wc_Sha256 sha;
	int rc;

	if (read_key(path, seed)) {
		free(s);
		return NULL;
	}
	wc_ed25519_init(&s->key);
	rc = wc_ed25519_import_private_only(seed, 32, &s->key) ||
	     wc_ed25519_make_public(&s->key, s->key.p, ED25519_PUB_KEY_SIZE);
	memset(seed, 0, sizeof(seed));
	if (rc) {
		cert_signer_free(s);
		set_err("the signing key %s: wolfCrypt would not take it", path);
		return NULL;
	}
	s->key.pubKeySet = 1;
	memcpy(s->spki, spki_prefix, 12);
	memcpy(s->spki + 12, s->key.p, 32);
	if (wc_InitSha256(&sha) || wc_Sha256Update(&sha, s->spki, sizeof(s->spki)) || wc_Sha256Final(&sha, digest)) {
		cert_signer_free(s);
		set_err("the signing key %s: its fingerprint could not be made", path);
		return NULL;
	}
	strcpy(s->fingerprint, "SHA256:");
	for (unsigned i = 0; i < sizeof(digest); i++)
		snprintf(s->fingerprint + 7 + 2 * i, 3, "%02x", digest[i]);
	return s;
}

void cert_signer_free(struct cert_signer *s)
{
	if (!s)
		return;
	wc_ed25519_free(&s->key);
	memset(s, 0, sizeof(*s));
	free(s);
}

const char *cert_signer_fingerprint(const struct cert_signer *s)
{
	return s->fingerprint;
}

/*
 * A new file, never one that is there: written aside, then renamed with
 * RENAME_NOREPLACE (FAT, the stick's, has no hard links); where the
 * filesystem has no such rename, link() does it; where it has neither, the
 * name is looked up just before a plain rename (the folder was checked
 * before the erase, so only a writer racing this one could be lost).
 */
static int write_new(const char *path, const void *buf, size_t len)
{
	char tmp[1200];
	struct stat st;
	int fd, rc;

	snprintf(tmp, sizeof(tmp), "%s.%d.new", path, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);	/* consent: a regular file */
	if (fd < 0)
		return set_err("%s: %s", tmp, strerror(errno));
	rc = write(fd, buf, len) == (ssize_t)len && !fsync(fd) ? 0 : -1;
	close(fd);
	if (!rc && syscall(SYS_renameat2, AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE)) {
		if (errno == EINVAL || errno == ENOSYS) {
			if (!link(tmp, path))
				unlink(tmp);
			else if (errno != EPERM && errno != EOPNOTSUPP)
				rc = -1;
			else if (!lstat(path, &st))
				rc = -1, errno = EEXIST;
			else if (rename(tmp, path))
				rc = -1;
		} else {
			rc = -1;
		}
	}
	if (rc) {
		set_err("%s: %s", path, errno == EEXIST ? "there already: a certificate is never replaced" : strerror(errno));
		unlink(tmp);
	}
	return rc;
}

static int write_all(const char *path, const void *buf, size_t len)
{
	return write_new(path, buf, len);
}

/* FILE.sig: the signature of BUF (FILE's bytes). */
static int sign_file(const struct cert_signer *signer, const char *path, const char *buf, size_t len)
{
	ed25519_key *k = (ed25519_key *)&signer->key;
	unsigned char sig[ED25519_SIG_SIZE];
	word32 slen = sizeof(sig);
	char sp[1100];

	if (wc_ed25519_sign_msg((const byte *)buf, (word32)len, sig, &slen, k))
		return set_err("%s: wolfCrypt could not sign it", path);
	snprintf(sp, sizeof(sp), "%s.sig", path);
	return write_all(sp, sig, slen);
}

/* signing-key.pub.pem: the same key for every run into a folder; a different one there is an error */
static int write_public(const struct cert_signer *signer, const char *dir)
{
	byte b64[128];
	word32 n = sizeof(b64);
	char path[1100], pem[256], there[256];
	int fd;
	ssize_t got;

	if (Base64_Encode_NoNl(signer->spki, sizeof(signer->spki), b64, &n))
		return set_err("the public key: cannot encode it");
	snprintf(pem, sizeof(pem), "-----BEGIN PUBLIC KEY-----\n%.*s\n-----END PUBLIC KEY-----\n", (int)n, b64);
	snprintf(path, sizeof(path), "%s/signing-key.pub.pem", dir);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		got = read(fd, there, sizeof(there) - 1);
		close(fd);
		if (got == (ssize_t)strlen(pem) && !memcmp(there, pem, (size_t)got))
			return 0;
		return set_err("%s holds another key: a certificate's key is never replaced", path);
	}
	return write_all(path, pem, strlen(pem));
}

static const char *media_type(const struct disk *d)
{
	if (!strcmp(d->transport, "nvme"))
		return "flash (NVMe)";
	if (!strcmp(d->transport, "loop"))
		return "a loop device (a file)";
	if (!strcmp(d->transport, "virtio"))
		return "a virtual disk (virtio)";
	if (d->rotational)
		return "magnetic (hard disk)";
	if (!strcmp(d->transport, "sata") || !strcmp(d->transport, "sas"))
		return "flash (solid-state, ATA/SCSI)";
	return "block device (type not known)";
}

static void utc(time_t t, char *buf, size_t len)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void health_json(struct json *j, const char *key, const struct disk *d)
{
	json_obj_open(j, key);
	if (d->health.valid) {
		if (d->health.temperature_reported)
			json_int(j, "temperature_c", d->health.temperature_c);
		else
			json_null_member(j, "temperature_c");
		/* the wear is not filled in where the spare is not (sys/disks.h): null, never 0 */
		if (d->health.spare_reported) {
			json_uint(j, "percentage_used", d->health.percentage_used);
			json_uint(j, "available_spare", d->health.available_spare);
		} else {
			json_null_member(j, "percentage_used");
			json_null_member(j, "available_spare");
		}
		json_uint(j, "critical_warning", d->health.critical_warning);
		json_uint(j, "media_errors", d->health.media_errors);
		json_uint(j, "power_on_hours", d->health.power_on_hours);
	} else if (d->smart.valid) {
		json_str(j, "smart_overall", d->smart.passed == 1 ? "PASSED" : d->smart.passed == 0 ? "FAILED" : "unknown");
		if (d->smart.temperature_reported)
			json_int(j, "temperature_c", d->smart.temperature_c);
		else
			json_null_member(j, "temperature_c");
		/* -1: the drive did not say (null, never -1) */
		const struct { const char *key; long long v; } counts[] = {
			{ "power_on_hours", d->smart.power_on_hours }, { "reallocated", d->smart.reallocated },
			{ "pending", d->smart.pending } };
		for (unsigned k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
			if (counts[k].v >= 0)
				json_int(j, counts[k].key, counts[k].v);
			else
				json_null_member(j, counts[k].key);
		}
	} else {
		json_str(j, "note", "the drive reports no health (no NVMe log, no SMART through smartctl)");
	}
	json_obj_close(j);
}

static void lbas(struct json *j, const char *key, const uint64_t *list, uint64_t n)
{
	json_arr_open(j, key);
	for (uint64_t i = 0; i < n && i < ERASE_MISMATCH_MAX; i++)
		json_uint(j, NULL, list[i]);
	json_arr_close(j);
}

static void disk_cert(struct json *j, const struct cert_who *w, const struct erase_job *e)
{
	char t[32];

	char id[128];

	json_obj_open(j, NULL);
	json_uint(j, "bootbench_erase_certificate", 1);
	snprintf(id, sizeof(id), "%s-%s", w->erase_id, e->disk.name);
	json_str(j, "certificate_id", id);
	json_str(j, "erase_id", w->erase_id);
	json_str(j, "signing_key", w->signer ? cert_signer_fingerprint(w->signer) : "");
	json_str(j, "standard", "NIST SP 800-88 Rev. 1, Guidelines for Media Sanitization");
	json_obj_open(j, "tool");
	json_str(j, "name", "bootbench erase");
	json_str(j, "version", BB_VERSION);
	json_obj_close(j);
	json_str(j, "operator", w->operator_name ? w->operator_name : "");
	json_obj_open(j, "machine");
	json_str(j, "serial", w->machine_serial);
	json_str(j, "name", w->machine_id);
	json_str(j, "asset_tag", w->asset_tag);
	json_str(j, "manufacturer", w->vendor);
	json_str(j, "product", w->product);
	json_obj_close(j);
	json_obj_open(j, "media");
	json_str(j, "device", e->dev);
	json_str(j, "model", e->disk.model);
	json_str(j, "serial", e->disk.serial);
	json_str(j, "firmware", e->disk.firmware);
	json_str(j, "transport", e->disk.transport);
	json_str(j, "type", media_type(&e->disk));
	json_uint(j, "capacity_bytes", e->disk.size);
	json_uint(j, "logical_block_size", e->disk.lbs);
	json_obj_close(j);
	health_json(j, "health_before", &e->disk);
	health_json(j, "health_after", &e->after);
	json_obj_open(j, "sanitization");
	json_str(j, "category", e->verify_only ? "none (verification only)" : !e->method ? "" :
		 e->method->category == ERASE_PURGE ? "purge" : "clear");
	json_str(j, "method", e->verify_only ? "verify-only" : e->method ? e->method->name : "");
	json_str(j, "description", e->verify_only ? "nothing written: the disk read and certified as it is" :
		 e->method ? e->method->what : "");
	json_str(j, "command", e->command);
	if (e->method && e->method->category == ERASE_CLEAR) {
		/* the passes that were written to the end and flushed, not the ones asked */
		json_uint(j, "passes", e->passes_done);
		json_uint(j, "passes_asked", e->passes);
		if (!e->pattern_len)
			json_str(j, "random_seed", (snprintf(t, sizeof(t), "%016llx", (unsigned long long)e->seed), t));
		json_uint(j, "blocks_not_written", e->bad_blocks);
		lbas(j, "lbas_not_written", e->bad_lba, e->bad_blocks);
		json_str(j, "discard", e->discard);
	}
	json_str(j, "not_used", e->fallback);
	json_str(j, "notes", e->notes);
	json_bool(j, "interrupted", e->interrupted);
	json_double(j, "seconds", e->erase_s);
	if (e->write_mbs > 0)
		json_double(j, "write_mb_per_s", e->write_mbs);
	json_obj_close(j);
	json_obj_open(j, "verification");
	json_str(j, "method", e->full_verify ? "full: every byte read back" :
		 "sample: the first and last MiB and 10% of the LBA space in random 1 MiB stripes, one per stratum");
	json_str(j, "expected", e->verify_only ? e->holds : e->leaves != LEAVES_PATTERN ?
		 "neither the markers nor the old data (the content is the drive's)" : !e->pattern_len ?
		 "the last pass's random data, made again from its seed, in every byte" :
		 "the pattern of the last pass in every byte");
	if (e->pattern_len && !e->verify_only) {
		char hex[16];

		for (unsigned i = 0; i < e->pattern_len; i++)
			snprintf(hex + 2 * i, 3, "%02x", e->pattern[i]);
		json_str(j, "pattern", (snprintf(t, sizeof(t), "0x%s", hex), t));
	}
	json_str(j, "marker", e->marker_id);
	json_uint(j, "markers_written", e->markers_written);
	json_uint(j, "markers_left", e->markers_left);
	json_uint(j, "old_data_blocks_fingerprinted", e->old_blocks);
	json_uint(j, "old_data_blocks_left", e->old_left);
	json_uint(j, "bytes_read", e->verified_bytes);
	json_double(j, "share_read", e->verified_share);
	json_uint(j, "mismatched_blocks", e->mismatches);
	json_uint(j, "mismatched_block_bytes", ERASE_BLOCK);	/* the unit counted; the LBAs are logical blocks */
	json_uint(j, "unreadable_blocks", e->unreadable);
	lbas(j, "mismatched_lbas", e->mismatch_lba, e->mismatches);
	json_double(j, "seconds", e->verify_s);
	json_obj_close(j);
	json_str(j, "exceptions", e->exceptions);
	json_str(j, "failure", e->failure);
	utc(e->started, t, sizeof(t));
	json_str(j, "started", t);
	utc(e->ended, t, sizeof(t));
	json_str(j, "ended", t);
	json_str(j, "result", erase_verdict_name(e->verdict));
	json_obj_close(j);
}

static void row(FILE *f, const char *k, const char *v)
{
	fputs("<tr><th>", f);
	html_escape(f, k);
	fputs("</th><td>", f);
	html_escape(f, v && *v ? v : "-");
	fputs("</td></tr>\n", f);
}

static void disk_html(FILE *f, const struct cert_who *w, const struct erase_job *e)
{
	char a[64], b[64], buf[1024];

	snprintf(buf, sizeof(buf), "%s %s (serial %s): %s", e->dev, e->disk.model, e->disk.serial,
		 erase_verdict_name(e->verdict));
	fputs("<h2>", f);
	html_escape(f, buf);
	fputs("</h2>\n<table>\n", f);
	row(f, "Result", erase_verdict_name(e->verdict));
	row(f, "Manufacturer and model", e->disk.model);
	row(f, "Serial number", e->disk.serial);
	row(f, "Firmware", e->disk.firmware);
	row(f, "Media type", media_type(&e->disk));
	row(f, "Capacity", fmt_iec((double)e->disk.size, a, sizeof(a)));
	row(f, "Machine (serial, asset tag)", (snprintf(buf, sizeof(buf), "%s %s, %s, %s", w->vendor, w->product,
						       w->machine_serial[0] ? w->machine_serial : w->machine_id,
						       w->asset_tag[0] ? w->asset_tag : "no asset tag"), buf));
	row(f, "Certificate ID", (snprintf(buf, sizeof(buf), "%s-%s", w->erase_id, e->disk.name), buf));
	row(f, "Sanitization category", e->verify_only ? "None: verification only" : !e->method ? "" :
	    e->method->category == ERASE_PURGE ? "Purge" : "Clear");
	row(f, "Method", e->verify_only ? "nothing written: the disk read and certified as it is" :
	    e->method ? e->method->what : "");
	row(f, "Command", e->command);
	if (e->method && e->method->category == ERASE_CLEAR) {
		snprintf(buf, sizeof(buf), "%u of %u%s", e->passes_done, e->passes,
			 e->passes_done < e->passes ? " (the rest not written)" : "");
		row(f, "Passes written", buf);
		if (!e->pattern_len)
			row(f, "Random data's seed", (snprintf(buf, sizeof(buf), "%016llx", (unsigned long long)e->seed), buf));
		if (e->bad_blocks) {
			size_t n = (size_t)snprintf(buf, sizeof(buf), "%llu: ", (unsigned long long)e->bad_blocks);

			for (unsigned i = 0; i < e->bad_blocks && i < ERASE_MISMATCH_MAX; i++)
				n += snprintf(buf + n, sizeof(buf) - n, "%s%llu", i ? ", " : "", (unsigned long long)e->bad_lba[i]);
			row(f, "Blocks that could not be written (LBAs)", buf);
		}
		row(f, "Discard", e->discard);
	}
	if (e->verify_only)
		row(f, "Found", e->holds);
	row(f, "Not used (the drive's words)", e->fallback);
	row(f, "Notes", e->notes);
	snprintf(buf, sizeof(buf), "%s; %s of %s read back (%.1f%%); markers left %u of %u; old data left %u of %u "
		 "blocks; %llu block(s) not as expected", e->full_verify ? "full" : "sample",
		 fmt_iec((double)e->verified_bytes, a, sizeof(a)), fmt_iec((double)e->disk.size, b, sizeof(b)),
		 e->verified_share * 100, e->markers_left, e->markers_written, e->old_left, e->old_blocks,
		 (unsigned long long)e->mismatches);
	row(f, "Verification", buf);
	if (e->mismatches) {
		size_t n = 0;

		for (unsigned i = 0; i < e->mismatches && i < ERASE_MISMATCH_MAX; i++)
			n += snprintf(buf + n, sizeof(buf) - n, "%s%llu", i ? ", " : "", (unsigned long long)e->mismatch_lba[i]);
		row(f, "Mismatched LBAs (first ones)", buf);
	}
	row(f, "Exceptions (not reached)", e->exceptions);
	row(f, "Failure", e->failure);
	utc(e->started, a, sizeof(a));
	utc(e->ended, b, sizeof(b));
	snprintf(buf, sizeof(buf), "%s to %s", a, b);
	row(f, "Time", buf);
	row(f, "Tool", "bootbench erase " BB_VERSION);
	row(f, "Operator", w->operator_name);
	fputs("</table>\n", f);
}

/* One JSON file (and its signature) from what FILL puts in a memory stream; SHA (65 bytes) gets its SHA-256 in hex. */
static int json_file(const char *path, const struct cert_signer *k, void (*fill)(struct json *, void *), void *arg,
		     char *sha)
{
	unsigned char digest[WC_SHA256_DIGEST_SIZE];
	wc_Sha256 h;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;
	int rc;

	if (!f)
		return set_err("%s: no memory", path);
	json_init(&j, f);
	fill(&j, arg);
	fputc('\n', f);
	fclose(f);
	sha[0] = 0;
	if (!wc_InitSha256(&h) && !wc_Sha256Update(&h, (const byte *)buf, (word32)len) && !wc_Sha256Final(&h, digest))
		for (unsigned i = 0; i < sizeof(digest); i++)
			snprintf(sha + 2 * i, 3, "%02x", digest[i]);
	rc = write_all(path, buf, len) || (k && sign_file(k, path, buf, len)) ? -1 : 0;
	free(buf);
	return rc;
}

static int html_file(const char *path, const struct cert_who *w, struct erase_job *jobs, unsigned n,
		     const char *json_name, const char *json_sha)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f)
		return set_err("%s: no memory", path);
	html_begin(f, "Certificate of media sanitization (NIST SP 800-88)");
	for (unsigned i = 0; i < n; i++)
		disk_html(f, w, &jobs[i]);
	fputs("<p>This page shows ", f);
	html_escape(f, json_name);
	fputs(", whose SHA-256 is <code>", f);
	html_escape(f, json_sha);
	fputs("</code> (sha256sum). ", f);
	if (w->signer) {
		fputs("That file is signed (Ed25519) with the key ", f);
		html_escape(f, cert_signer_fingerprint(w->signer));
		fputs(" (the SHA-256 of signing-key.pub.pem's DER): openssl pkeyutl -verify -pubin -inkey "
		      "signing-key.pub.pem -rawin -in FILE.json -sigfile FILE.json.sig</p>\n", f);
	} else {
		fputs("Not signed: no signing key was given.</p>\n", f);
	}
	html_end(f);
	fclose(f);
	rc = write_all(path, buf, len);
	free(buf);
	return rc;
}

struct fill_args {
	const struct cert_who *w;
	struct erase_job *jobs;
	unsigned n;
};

static void fill_disk(struct json *j, void *arg)
{
	struct fill_args *a = arg;

	disk_cert(j, a->w, a->jobs);
}

static void fill_machine(struct json *j, void *arg)
{
	struct fill_args *a = arg;

	json_obj_open(j, NULL);
	json_uint(j, "bootbench_erase_certificates", 1);
	json_str(j, "erase_id", a->w->erase_id);
	json_str(j, "signing_key", a->w->signer ? cert_signer_fingerprint(a->w->signer) : "");
	json_arr_open(j, "disks");
	for (unsigned i = 0; i < a->n; i++)
		disk_cert(j, a->w, &a->jobs[i]);
	json_arr_close(j);
	json_obj_close(j);
}

int cert_dir_check(const char *dir, struct erase_job *jobs, unsigned n, const struct cert_signer *signer)
{
	static const char *const kinds[] = { ".json", ".html", ".json.sig" };
	char path[1100], probe[1100];
	struct stat st;
	int fd;

	for (unsigned i = 0; i <= n; i++)
		for (unsigned k = 0; k < ARRAY_SIZE(kinds); k++) {
			if (i < n)
				snprintf(path, sizeof(path), "%s/erase-%s%s", dir, jobs[i].disk.name, kinds[k]);
			else
				snprintf(path, sizeof(path), "%s/erase%s", dir, kinds[k]);
			if (!lstat(path, &st))
				return set_err("%s is there already: certificates are never replaced; name a new folder", path);
		}
	snprintf(path, sizeof(path), "%s/signing-key.pub.pem", dir);
	if (signer && !lstat(path, &st)) {
		/* the same key's is fine (another run into the folder signed by it); another key's is not */
		char pem[256], there[256];
		byte b64[128];
		word32 len = sizeof(b64);
		ssize_t got;

		Base64_Encode_NoNl(signer->spki, sizeof(signer->spki), b64, &len);
		snprintf(pem, sizeof(pem), "-----BEGIN PUBLIC KEY-----\n%.*s\n-----END PUBLIC KEY-----\n", (int)len, b64);
		fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		got = fd >= 0 ? read(fd, there, sizeof(there) - 1) : -1;
		if (fd >= 0)
			close(fd);
		if (got != (ssize_t)strlen(pem) || memcmp(there, pem, (size_t)got))
			return set_err("%s holds another key's public key: name a new folder", path);
	}
	/* the folder takes a file now: a full or read-only one would cost the certificates after the erase */
	snprintf(probe, sizeof(probe), "%s/.erase-probe.%d", dir, (int)getpid());
	fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);	/* consent: a regular file */
	if (fd < 0 || write(fd, "probe\n", 6) != 6 || fsync(fd)) {
		int err = errno;

		if (fd >= 0) {
			close(fd);
			unlink(probe);
		}
		return set_err("%s: a certificate cannot be written there: %s", dir, strerror(err));
	}
	close(fd);
	unlink(probe);
	return 0;
}

int cert_write(const char *dir, const struct cert_who *w, struct erase_job *jobs, unsigned n)
{
	char path[1100], name[300], sha[72];
	int rc = 0;

	if (w->signer)
		rc = write_public(w->signer, dir);
	for (unsigned i = 0; i < n && !rc; i++) {
		struct fill_args a = { w, &jobs[i], 1 };

		snprintf(name, sizeof(name), "erase-%s.json", jobs[i].disk.name);
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		rc = json_file(path, w->signer, fill_disk, &a, sha);
		snprintf(path, sizeof(path), "%s/erase-%s.html", dir, jobs[i].disk.name);
		rc = rc || html_file(path, w, &jobs[i], 1, name, sha) ? -1 : 0;
	}
	if (!rc) {
		struct fill_args a = { w, jobs, n };

		snprintf(path, sizeof(path), "%s/erase.json", dir);
		rc = json_file(path, w->signer, fill_machine, &a, sha);
		snprintf(path, sizeof(path), "%s/erase.html", dir);
		rc = rc || html_file(path, w, jobs, n, "erase.json", sha) ? -1 : 0;
	}
	return rc;
}
