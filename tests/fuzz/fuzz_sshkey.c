// SPDX-License-Identifier: MIT
/*
 * fuzz_sshkey.c - authorized_keys lines as bootbench.ssh_key fetches them
 * from a web server or a stick (safety/sshkeys.c): each line of the input
 * parsed as dropbear would be handed it, options, base64 blob, RSA modulus
 * and comment included.
 */
#include <stdio.h>

#include "fuzz.h"
#include "safety/sshkeys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size), *line, *next;
	struct ssh_key key;

	for (line = text; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		ssh_key_parse(line, &key);
	}
	free(text);
	return 0;
}
