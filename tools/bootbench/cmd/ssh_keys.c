// SPDX-License-Identifier: MIT
/*
 * ssh_keys.c - `bootbench ssh-keys FILE`: the authorized_keys lines of
 * bootbench.ssh_key (fetched over https or read from the stick: untrusted)
 * checked line by line before dropbear reads them, and every key's
 * fingerprint printed; --output writes the checked lines for dropbear.
 * The same reads a host key's public line (dropbearkey -y), so the
 * fingerprint on the console is the one an ssh client shows.
 * Its flags and help: the declaration at the end (lib/args.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/args.h"
#include "lib/util.h"
#include "safety/sshkeys.h"

#define KEYS_MAX_BYTES (64 * 1024)
#define KEYS_MAX 100

struct ssh_keys_opts {
	const char *output;
};

/* FILE whole (a regular file, no link followed), at most KEYS_MAX_BYTES. */
static char *read_keys(const char *path)
{
	char *buf = xcalloc(1, KEYS_MAX_BYTES + 2);
	size_t len = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		die_usage("ssh-keys: cannot read %s: %s", path, errno == ELOOP ? "it is a link" : strerror(errno));
	while ((n = read(fd, buf + len, KEYS_MAX_BYTES + 1 - len)) > 0)
		len += n;
	if (n < 0)
		die_usage("ssh-keys: cannot read %s: %s", path, strerror(errno));
	close(fd);
	if (len > KEYS_MAX_BYTES)
		die_usage("ssh-keys: %s is larger than %d KiB: not an authorized_keys file", path, KEYS_MAX_BYTES / 1024);
	if (memchr(buf, 0, len))
		die_usage("ssh-keys: %s is not text", path);
	return buf;
}

static int ssh_keys_main(void *opts, int argc, char **argv)
{
	struct ssh_keys_opts *o = opts;
	char *text, *line, *save = NULL, *out, *shown;
	size_t outlen = 0, shownlen = 0;
	int lineno = 0, keys = 0;
	struct ssh_key key;

	if (argc != 1)
		die_usage("ssh-keys: give one authorized_keys FILE");
	text = read_keys(argv[0]);
	/* the keys are printed once all of them are known good */
	out = xcalloc(1, strlen(text) + 2);
	shown = xcalloc(KEYS_MAX + 1, sizeof(key) + 16);
	/* strtok_r would skip empty lines and so miscount them: split by hand */
	for (line = text; line; line = save) {
		save = strchr(line, '\n');
		if (save)
			*save++ = 0;
		lineno++;
		if (!*line && !save)
			break;
		size_t n = strlen(line);

		if (n && line[n - 1] == '\r')
			line[--n] = 0;
		int rc = ssh_key_parse(line, &key);

		if (rc < 0)
			die_usage("ssh-keys: %s line %d: %s", argv[0], lineno, bb_err);
		if (rc > 0)
			continue;
		if (++keys > KEYS_MAX)
			die_usage("ssh-keys: %s: more than %d keys", argv[0], KEYS_MAX);
		while (*line == ' ' || *line == '\t')
			line++;
		outlen += sprintf(out + outlen, "%s\n", line);
		shownlen += sprintf(shown + shownlen, "%s %u %s%s%s\n", key.type, key.bits, key.fingerprint,
				    key.comment[0] ? " " : "", key.comment);
	}
	if (!keys)
		die_usage("ssh-keys: %s holds no key (authorized_keys lines: TYPE BASE64 [COMMENT])", argv[0]);
	int rc = EXIT_OK;

	if (o->output && write_file_atomic(o->output, out, outlen)) {
		note("ssh-keys: %s", bb_err);
		rc = EXIT_FAIL;
	} else {
		fputs(shown, stdout);
	}
	free(shown);
	free(out);
	free(text);
	return rc;
}

static const struct arg ssh_keys_args[] = {
	{ .name = "--output", .kind = ARG_STR, .offset = ARG_AT(struct ssh_keys_opts, output), .meta = "FILE",
	  .help = "write the checked lines to FILE (dropbear's authorized_keys), whole or not at all" },
	{ NULL },
};

const struct command ssh_keys_command = {
	.name = "ssh-keys",
	.summary = "check authorized_keys lines and print the keys' fingerprints",
	.usage = "[--output=FILE] FILE",
	.help = "Reads FILE, authorized_keys lines ([OPTIONS] TYPE BASE64 [COMMENT]: what\n"
		"bootbench.ssh_key fetched, or a host key's public line), and prints each key as\n"
		"TYPE BITS SHA256:FINGERPRINT COMMENT, the fingerprint as ssh-keygen -l and an ssh\n"
		"client's first-connection question show it. A line that is not a key of a type\n"
		"dropbear accepts, a blob whose own type differs, an option dropbear does not know,\n"
		"two command= options (dropbear refuses the line), a line over 4096 characters\n"
		"(dropbear reads 4200 and takes the rest as a line of its own: a key could hide\n"
		"there), a link, more than 64 KiB or 100 keys: one line naming FILE and the line,\n"
		"exit 2, nothing written. Blank lines and # comments are skipped.\n",
	.exit_status = "",
	.args = ssh_keys_args,
	.opts_size = sizeof(struct ssh_keys_opts),
	.run = ssh_keys_main,
};
