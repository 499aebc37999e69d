// SPDX-License-Identifier: MIT
/*
 * fuzz_url.c - what a stick's bootbench.conf, the kernel command line or a
 * fetched config hands the save layer (save/url.c): destinations, credential
 * keys, config URL templates with ${serial} and ${mac}, and a credentials
 * file read line by line (the input written to a scratch file).
 */
#include <stdio.h>
#include <unistd.h>

#include "fuzz.h"
#include "save/url.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char file[64];
	struct dest_url u, key;
	char buf[2048], pw[256];
	char *s = fuzz_string(data, size);
	FILE *f;

	if (!url_parse(s, &u))
		url_where(&u, buf, sizeof(buf));
	url_parse_key(s, &key);
	url_expand(s, "SRV-01/x", "52-54-00-12-34-56", buf, sizeof(buf));
	if (!file[0])
		snprintf(file, sizeof(file), "/tmp/bbfuzz-cred.%d", (int)getpid());
	f = fopen(file, "w");
	if (f) {
		fwrite(data, 1, size, f);
		fclose(f);
		if (!url_parse("smb://RACK;bench@fs1:445/share/x", &u))
			cred_lookup(file, &u, pw, sizeof(pw));
		if (!url_parse("https://bench@[::1]:8443/dav/", &u))
			cred_lookup(file, &u, pw, sizeof(pw));
		unlink(file);
	}
	free(s);
	return 0;
}
