// SPDX-License-Identifier: MIT
/*
 * erase.c - `bootbench erase`: disks made empty for decommissioning, as
 * NIST SP 800-88 says, proven by reading them back, with a certificate per
 * disk and per machine (erase/erase.h, erase/certificate.h). Everything is
 * checked before the first write: the method, the pattern, the key, and
 * every disk through the consent gate (named in --destroy, not the boot or
 * results medium, not mounted or in use); bad input is one line, exit 2,
 * nothing written.
 *
 * Its flags and help: the declaration at the end (lib/args.h).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "erase/certificate.h"
#include "erase/erase.h"
#include "lib/args.h"
#include "lib/util.h"
#include "raid/collect.h"
#include "safety/consent.h"
#include "sys/disks.h"

struct erase_opts {
	const char *method, *verify, *pattern, *trim, *destroy, *output, *operator_name, *asset_tag, *key;
	unsigned passes;
	int check;
};

static const struct erase_opts erase_defaults = { .method = "auto", .verify = "full", .pattern = "zero",
						  .trim = "auto", .passes = 1 };

static volatile sig_atomic_t stop;

static void on_int(int sig)
{
	stop = 1;
	if (collect_child > 0)
		kill(collect_child, sig);
}

/* zero, one, random, or 0xHEX of 1, 2 or 4 bytes */
static void erase_pattern(const char *s, struct erase_job *e)
{
	size_t n;

	if (!strcmp(s, "zero")) {
		e->pattern[0] = 0;
		e->pattern_len = 1;
	} else if (!strcmp(s, "one")) {
		e->pattern[0] = 0xff;
		e->pattern_len = 1;
	} else if (!strcmp(s, "random")) {
		e->pattern_len = 0;
	} else if (!strncmp(s, "0x", 2) && (n = strlen(s + 2)) && (n == 2 || n == 4 || n == 8) &&
		   strspn(s + 2, "0123456789abcdefABCDEF") == n) {
		for (size_t i = 0; i < n / 2; i++) {
			char b[3] = { s[2 + 2 * i], s[3 + 2 * i], 0 };

			e->pattern[i] = (unsigned char)strtoul(b, NULL, 16);
		}
		e->pattern_len = (unsigned)n / 2;
	} else {
		die_usage("erase: --pattern=%.40s: expected zero, one, random or 0xHEX of 1, 2 or 4 bytes", s);
	}
}

static int erase_main(void *opts, int argc, char **argv)
{
	struct erase_opts *o = opts;
	struct erase_job *jobs;
	struct cert_who who = { 0 };
	struct sigaction sa = { .sa_handler = on_int };
	int failed = 0, i;
	struct stat st;

	if (!argc && !o->check)
		die_usage("erase: name the disks to erase (and in --destroy)");
	if (strcmp(o->method, "auto") && strcmp(o->method, "purge") && !erase_method_named(o->method)) {
		char names[512] = "";

		for (unsigned k = 0; k < erase_nmethods; k++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), ", %s", erase_methods[k].name);
		die_usage("erase: --method=%.40s: expected auto, purge%s", o->method, names);
	}
	if (strcmp(o->verify, "full") && strcmp(o->verify, "sample"))
		die_usage("erase: --verify=%.40s: expected full or sample", o->verify);
	if (strcmp(o->trim, "auto") && strcmp(o->trim, "off"))
		die_usage("erase: --trim=%.40s: expected auto or off", o->trim);
	{
		struct erase_job probe;

		erase_pattern(o->pattern, &probe);
	}
	if (o->key && cert_key_check(o->key))
		die_usage("erase: --key: %s", bb_err);
	if (o->asset_tag && (strlen(o->asset_tag) > 64 || strspn(o->asset_tag,
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ._-/#:") != strlen(o->asset_tag)))
		die_usage("erase: --asset-tag: letters, digits, blanks and ._-/#: only, 64 at most");
	if (o->operator_name && (strlen(o->operator_name) > 80 || strpbrk(o->operator_name, "\n\r\t<>&\"")))
		die_usage("erase: --operator: a name on one line, 80 characters at most, without <>&\"");
	if (o->check)
		return EXIT_OK;
	if (!o->output)
		die_usage("erase: --output=DIR is needed: the certificates go there");
	if (consent_allow(o->destroy))
		die_usage("erase: --destroy: %s", bb_err);
	jobs = xcalloc((size_t)argc, sizeof(*jobs));
	/* every disk checked before anything is written */
	for (i = 0; i < argc; i++) {
		struct erase_job *e = &jobs[i];

		char kname[64], whole[64];
		int part;

		if (stat(argv[i], &st) || !S_ISBLK(st.st_mode))
			die_usage("erase: %s is not a block device", argv[i]);
		part = disk_kernel_names(st.st_rdev, kname, sizeof(kname), whole, sizeof(whole));
		if (part > 0)
			die_usage("erase: %s is a partition: erase the whole disk", argv[i]);
		if (part < 0 || disk_find(kname, &e->disk))
			die_usage("erase: %s: not a disk this machine has", argv[i]);
		for (int k = 0; k < i; k++)
			if (!strcmp(jobs[k].disk.name, e->disk.name))
				die_usage("erase: %s is named twice", argv[i]);
		if (consent_check(argv[i]))
			die_usage("erase: %s", bb_err);
		e->dev = argv[i];
		e->passes = o->passes;
		erase_pattern(o->pattern, e);
		e->trim = !strcmp(o->trim, "auto");
		e->full_verify = !strcmp(o->verify, "full");
		e->stop = &stop;
		e->outdir = o->output;
	}
	if (mkdir(o->output, 0755) && errno != EEXIST)
		die_usage("erase: --output=%s: %s", o->output, strerror(errno));
	if (stat(o->output, &st) || !S_ISDIR(st.st_mode))
		die_usage("erase: --output=%s is not a folder", o->output);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	for (i = 0; i < argc; i++) {
		struct erase_job *e = &jobs[i];
		char size[32];

		disk_health(&e->disk);
		printf("erase: %s (%s, serial %s, %s): %s method, %s verification\n", e->dev,
		       e->disk.model[0] ? e->disk.model : "model unknown", e->disk.serial[0] ? e->disk.serial : "unknown",
		       fmt_iec((double)e->disk.size, size, sizeof(size)), o->method, o->verify);
		fflush(stdout);
		erase_disk(e, o->method);
		if (!disk_find(e->dev, &e->after))
			disk_health(&e->after);
		/* the line per disk a console (and a rack's log) keeps */
		printf("erase: %s serial %s: %s%s%s (%s; %s; %llu block(s) not as expected, markers left %u)%s%s\n", e->dev,
		       e->disk.serial[0] ? e->disk.serial : "unknown", erase_verdict_name(e->verdict),
		       e->exceptions[0] ? ": " : "", e->exceptions, e->method ? e->method->name : "no method",
		       e->command[0] ? e->command : "nothing ran", (unsigned long long)e->mismatches, e->markers_left,
		       e->failure[0] ? "; " : "", e->failure);
		fflush(stdout);
		failed |= e->verdict != ERASED;
		if (stop)
			break;
	}
	cert_who_fill(&who, o->asset_tag);
	who.operator_name = o->operator_name;
	who.key = o->key;
	if (cert_write(o->output, &who, jobs, i < argc ? (unsigned)i + 1 : (unsigned)argc)) {
		note("erase: the certificates: %s", bb_err);
		failed = 1;
	} else {
		printf("erase: certificates in %s (erase.json, erase.html, erase-DISK.json%s)\n", o->output,
		       o->key ? ", each signed: signing-key.pub.pem checks them" : "; not signed: no --key");
	}
	free(jobs);
	return failed ? EXIT_FAIL : EXIT_OK;
}

static void more_help(FILE *f)
{
	fputs("\nMethods (auto: the strongest the drive offers; purge: the same, clear left out):\n", f);
	for (unsigned k = 0; k < erase_nmethods; k++)
		fprintf(f, "  %s (%s)\n      %s\n", erase_methods[k].name,
			erase_methods[k].category == ERASE_PURGE ? "purge" : "clear", erase_methods[k].what);
}

static const struct arg erase_args[] = {
	{ .name = "--method", .kind = ARG_STR, .offset = ARG_AT(struct erase_opts, method), .meta = "M",
	  .help = "auto, purge, clear or a method below [auto]" },
	{ .name = "--verify", .kind = ARG_STR, .offset = ARG_AT(struct erase_opts, verify), .meta = "full|sample",
	  .help = "read back every byte, or NIST's sample: the first and last MiB and 10%\n"
		  "of the LBA space in random stripes spread over the disk [full]" },
	{ .name = "--pattern", .kind = ARG_STR, .offset = ARG_AT(struct erase_opts, pattern), .meta = "P",
	  .help = "clear: zero, one, random or 0xHEX (1, 2 or 4 bytes) [zero]" },
	{ .name = "--passes", .kind = ARG_UINT, .offset = ARG_AT(struct erase_opts, passes), .meta = "N",
	  .help = "clear: overwrite passes [1: NIST's clear]", .min = 1, .max = 8 },
	{ .name = "--trim", .kind = ARG_STR, .offset = ARG_AT(struct erase_opts, trim), .meta = "auto|off",
	  .help = "clear: discard the whole disk after a last pass of zeros where it takes\n"
		  "discards [auto]" },
	{ .name = "--destroy", .kind = ARG_STR, .offset = ARG_AT(struct erase_opts, destroy), .meta = "DEV[,DEV]",
	  .help = "consent to erase these disks (every disk named must be here)" },
	{ .name = "--output", .kind = ARG_STR, .offset = ARG_AT(struct erase_opts, output), .meta = "DIR",
	  .help = "where the certificates go (made if it is not there)" },
	{ .name = "--operator", .kind = ARG_STR, .offset = ARG_AT(struct erase_opts, operator_name), .meta = "NAME",
	  .help = "the person who erased, for the certificates" },
	{ .name = "--asset-tag", .kind = ARG_STR, .offset = ARG_AT(struct erase_opts, asset_tag), .meta = "TAG",
	  .help = "the machine's asset tag [the DMI chassis asset tag]" },
	{ .name = "--key", .kind = ARG_STR, .offset = ARG_AT(struct erase_opts, key), .meta = "FILE",
	  .help = "sign the certificates with this Ed25519 private key (PEM)" },
	{ .name = "--check", .kind = ARG_FLAG, .offset = ARG_AT(struct erase_opts, check),
	  .help = "only check the flags (the boot parameters' check) and exit" },
	{ NULL },
};

const struct command erase_command = {
	.name = "erase",
	.summary = "erase disks for decommissioning (NIST 800-88 clear or purge), proven, with certificates",
	.usage = "--destroy=DEV[,DEV] --output=DIR [--method=M] [--verify=full|sample] [--key=FILE] DISK...",
	.help = "Erases each DISK as NIST SP 800-88 says and proves it: markers (the disk's serial,\n"
		"the time, a nonce) are written to its start, middle and end and 64 blocks of\n"
		"old data fingerprinted; then the method runs (clear: overwrite passes through\n"
		"the engine at the disk's sequential speed; purge: the drive's own sanitize,\n"
		"polled to its end); then the disk is read back: the markers and the old data\n"
		"must be gone and every byte read (or the sample) must be what the method\n"
		"leaves. A mismatch names its LBAs. Areas an erase cannot reach (an NVMe\n"
		"controller's other namespaces, its unallocated capacity) make the result\n"
		"\"erased with exceptions\". A method the drive refuses is said in its words, and\n"
		"auto goes on to the next one. The certificates (JSON and a printable page, per\n"
		"disk and for the machine) go to --output, signed with --key when given.\n",
	.more_help = more_help,
	.exit_status = "0 every disk erased, 1 one not erased or erased with exceptions,\n"
		       "2 bad input (nothing written).",
	.args = erase_args,
	.opts_size = sizeof(struct erase_opts),
	.defaults = &erase_defaults,
	.run = erase_main,
};
