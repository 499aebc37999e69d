/* SPDX-License-Identifier: MIT */
/*
 * sshkeys.h - the keys that may log in over ssh (bootbench.ssh_key) and
 * the host's own: authorized_keys lines read from outside (a web server, a
 * stick) checked before dropbear sees them, and a public key's fingerprint
 * as OpenSSH's client shows it (SHA256:, base64 without padding).
 */
#ifndef BB_SSHKEYS_H
#define BB_SSHKEYS_H

#include <stddef.h>

struct ssh_key {
	char type[40];		/* ssh-ed25519, ecdsa-sha2-nistp256, ... */
	char fingerprint[64];	/* SHA256:43 characters */
	char comment[128];	/* printable characters only, may be empty */
	unsigned bits;		/* the key's size as ssh-keygen -l says it (0: not known) */
};

/*
 * Checks one authorized_keys line (no newline): [OPTIONS] TYPE BASE64
 * [COMMENT], OPTIONS those dropbear knows. Fills KEY; 0, or -1 with bb_err
 * saying what is wrong (never quoting the line: it may be anything).
 * Blank and '#' lines are not keys: 1.
 */
int ssh_key_parse(const char *line, struct ssh_key *key);

#endif
