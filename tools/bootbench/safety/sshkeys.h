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

/*
 * The longest line taken, below dropbear's: 2022.83 reads an authorized_keys
 * line into a buffer of 4200 bytes (MAX_AUTHKEYS_LINE, svr-authpubkey.c);
 * a longer one is dropped and its rest read as a line of its own, so a key
 * could hide behind the one shown. The longest real key (RSA 16384 bits)
 * takes about 2800 characters.
 */
#define SSH_KEY_LINE_MAX 4096

struct ssh_key {
	char type[40];		/* ssh-ed25519, ecdsa-sha2-nistp256, ... */
	char fingerprint[64];	/* SHA256:43 characters */
	char comment[128];	/* printable characters only, may be empty */
	unsigned bits;		/* the key's size as ssh-keygen -l says it (0: not known) */
};

/*
 * Checks one authorized_keys line (no newline): [OPTIONS] TYPE BASE64
 * [COMMENT], OPTIONS those dropbear knows, command= once (dropbear refuses
 * the line otherwise), the line at most SSH_KEY_LINE_MAX characters, a
 * comment line too. Fills KEY; 0, or -1 with bb_err
 * saying what is wrong (never quoting the line: it may be anything).
 * Blank and '#' lines are not keys: 1.
 */
int ssh_key_parse(const char *line, struct ssh_key *key);

#endif
