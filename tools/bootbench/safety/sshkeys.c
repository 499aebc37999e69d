// SPDX-License-Identifier: MIT
/*
 * sshkeys.c - authorized_keys lines checked, public keys fingerprinted.
 * A line is the key type, the key's wire blob in base64 (whose first field
 * repeats the type: RFC 4253 6.6), and a comment; options before it are
 * the ones dropbear's authorized_keys reader knows, command= once. A line
 * is at most SSH_KEY_LINE_MAX characters, below dropbear's buffer (a longer
 * one would be read as two, the second unseen here). The fingerprint is
 * SHA-256 over the blob, base64 without '=' (what `ssh-keygen -l` and
 * OpenSSH's first-connection question show), so an operator compares
 * equal strings.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <wolfssl/wolfcrypt/settings.h>
#include <wolfssl/wolfcrypt/coding.h>
#include <wolfssl/wolfcrypt/sha256.h>

#include "lib/util.h"
#include "safety/sshkeys.h"

/* The key types dropbear 2022.83 accepts for a login; DSA is gone from OpenSSH too. */
static const char *const key_types[] = {
	"ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521",
	"sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-nistp256@openssh.com", NULL,
};

/* dropbear's authorized_keys options (svr-authpubkeyoptions.c); VALUE ones take ="..." */
static const struct {
	const char *name;
	int value;
} key_options[] = {
	{ "no-port-forwarding", 0 }, { "no-agent-forwarding", 0 }, { "no-x11-forwarding", 0 },
	{ "no-pty", 0 }, { "restrict", 0 }, { "no-touch-required", 0 }, { "command", 1 },
	{ "permitopen", 1 }, { NULL, 0 },
};

static int known_type(const char *t, size_t n)
{
	for (int i = 0; key_types[i]; i++)
		if (strlen(key_types[i]) == n && !memcmp(key_types[i], t, n))
			return 1;
	return 0;
}

/* OPTIONS up to the first blank outside quotes; returns its end, or NULL with bb_err. */
static const char *skip_options(const char *p)
{
	int commands = 0;

	while (*p && *p != ' ' && *p != '\t') {
		size_t n = strcspn(p, "=, \t");
		int i, found = -1;

		for (i = 0; key_options[i].name; i++)
			if (strlen(key_options[i].name) == n && !strncasecmp(key_options[i].name, p, n))
				found = i;
		if (found < 0) {
			set_err("an option or key type dropbear does not know (%.*s)", (int)(n > 40 ? 40 : n), p);
			return NULL;
		}
		/* dropbear 2022.83 refuses a line with two (svr-authpubkeyoptions.c) */
		if (!strcmp(key_options[found].name, "command") && commands++) {
			set_err("two command= options (dropbear refuses the line)");
			return NULL;
		}
		p += n;
		if (key_options[found].value) {
			if (p[0] != '=' || p[1] != '"') {
				set_err("option %s needs a value in double quotes", key_options[found].name);
				return NULL;
			}
			p += 2;
			while (*p && *p != '"')
				p += (*p == '\\' && p[1]) ? 2 : 1;
			if (*p != '"') {
				set_err("option %s: its quotes are not closed", key_options[found].name);
				return NULL;
			}
			p++;
		} else if (*p == '=') {
			set_err("option %s takes no value", key_options[found].name);
			return NULL;
		}
		if (*p == ',')
			p++;
	}
	return p;
}

static uint32_t be32(const unsigned char *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

/* The size ssh-keygen -l gives: the curve's, or the RSA modulus's bits. */
static unsigned key_bits(const char *type, const unsigned char *blob, size_t len)
{
	if (strstr(type, "ed25519"))
		return 256;
	if (strstr(type, "nistp256"))
		return 256;
	if (strstr(type, "nistp384"))
		return 384;
	if (strstr(type, "nistp521"))
		return 521;
	if (!strcmp(type, "ssh-rsa")) {
		/* string type, mpint e, mpint n */
		size_t off = 4 + be32(blob), n;

		if (off + 4 > len)
			return 0;
		off += 4 + be32(blob + off);
		if (off + 4 > len)
			return 0;
		n = be32(blob + off);
		off += 4;
		if (off + n > len || n == 0)
			return 0;
		while (n && blob[off] == 0)
			off++, n--;
		if (!n)
			return 0;
		unsigned top = blob[off], bits = (unsigned)(n - 1) * 8;

		while (top)
			bits++, top >>= 1;
		return bits;
	}
	return 0;
}

int ssh_key_parse(const char *line, struct ssh_key *key)
{
	const char *p = line, *t, *b, *c;
	unsigned char blob[2048], digest[WC_SHA256_DIGEST_SIZE], fp[64];
	word32 blen = sizeof(blob), flen = sizeof(fp);
	size_t tn, bn, i;

	memset(key, 0, sizeof(*key));
	if (strlen(line) > SSH_KEY_LINE_MAX)
		return set_err("the line is longer than %d characters (dropbear reads 4200 and takes the rest as "
			       "a line of its own)", SSH_KEY_LINE_MAX);
	for (const char *q = line; *q; q++)
		if ((unsigned char)*q < ' ' && *q != '\t')
			return set_err("a control character in the line");
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p || *p == '#')
		return 1;
	tn = strcspn(p, " \t");
	if (!known_type(p, tn)) {
		p = skip_options(p);
		if (!p)
			return -1;
		while (*p == ' ' || *p == '\t')
			p++;
		tn = strcspn(p, " \t");
		if (!known_type(p, tn))
			return set_err("expected a key type (ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256/384/521, "
				       "sk-ssh-ed25519@openssh.com, sk-ecdsa-sha2-nistp256@openssh.com) and the key");
	}
	t = p;
	b = t + tn;
	while (*b == ' ' || *b == '\t')
		b++;
	bn = strcspn(b, " \t");
	if (!bn)
		return set_err("no key after its type");
	for (i = 0; i < bn; i++)
		if (!isalnum((unsigned char)b[i]) && b[i] != '+' && b[i] != '/' && b[i] != '=')
			return set_err("the key is not base64");
	if (bn % 4 || bn > 4 * (sizeof(blob) / 3) || Base64_Decode((const byte *)b, (word32)bn, blob, &blen))
		return set_err("the key is not base64");
	/* the blob's first field names the same type */
	if (blen < 4 || be32(blob) != tn || 4 + tn > blen || memcmp(blob + 4, t, tn))
		return set_err("the key's own type is not %.*s", (int)tn, t);
	snprintf(key->type, sizeof(key->type), "%.*s", (int)tn, t);
	key->bits = key_bits(key->type, blob, blen);
	wc_Sha256 sha;

	if (wc_InitSha256(&sha) || wc_Sha256Update(&sha, blob, blen) || wc_Sha256Final(&sha, digest) ||
	    Base64_Encode_NoNl(digest, sizeof(digest), fp, &flen))
		return set_err("cannot compute the key's fingerprint");
	while (flen && fp[flen - 1] == '=')
		flen--;
	snprintf(key->fingerprint, sizeof(key->fingerprint), "SHA256:%.*s", (int)flen, fp);
	c = b + bn;
	while (*c == ' ' || *c == '\t')
		c++;
	for (i = 0; *c && i + 1 < sizeof(key->comment); c++)
		key->comment[i++] = isprint((unsigned char)*c) ? *c : '?';
	while (i && key->comment[i - 1] == ' ')
		i--;
	key->comment[i] = 0;
	return 0;
}
