// SPDX-License-Identifier: MIT
/*
 * fsck.c - `bootbench fsck`: check filesystems of an installed system
 * without changing them, and repair only what was consented to. Each
 * filesystem gets its own checker in its no-change mode first (e2fsck -n,
 * xfs_repair -n, fsck.fat -n, btrfs check --readonly); a repair
 * (e2fsck -y, xfs_repair, fsck.fat -a) runs only with --repair and the
 * device named in --write, through the consent gate: never the boot or
 * results medium, nothing mounted or in use. btrfs is checked, never
 * repaired here (btrfs check --repair is a last resort to take by hand).
 * Its flags and help: the declaration at the end (lib/args.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/args.h"
#include "lib/util.h"
#include "rescue/fstab.h"
#include "safety/consent.h"
#include "sys/disks.h"
#include "sys/mounts.h"

/* A checker: the filesystem type, its no-change check and its repair (NULL: none here). */
static const struct checker {
	const char *type;
	const char *check[5];
	const char *repair[5];
} checkers[] = {
	{ "ext4", { "e2fsck", "-f", "-n" }, { "e2fsck", "-f", "-y" } },
	{ "ext3", { "e2fsck", "-f", "-n" }, { "e2fsck", "-f", "-y" } },
	{ "ext2", { "e2fsck", "-f", "-n" }, { "e2fsck", "-f", "-y" } },
	{ "xfs", { "xfs_repair", "-n" }, { "xfs_repair" } },
	{ "vfat", { "fsck.fat", "-n" }, { "fsck.fat", "-a" } },
	{ "btrfs", { "btrfs", "check", "--readonly" }, { NULL } },
};

static const struct checker *checker_of(const char *type)
{
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(checkers); i++)
		if (!strcmp(checkers[i].type, type))
			return &checkers[i];
	return NULL;
}

/* Runs one checker's step on DEV, printing the command, its output and its exit status. */
static int run_step(const char *const step[], const char *dev, int writes)
{
	char *argv[8], out[8192], line[256] = "";
	char *devs[] = { (char *)dev };
	unsigned n = 0;
	int rc;

	while (step[n] && n < 5) {
		argv[n] = (char *)step[n];
		snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s ", step[n]);
		n++;
	}
	argv[n++] = (char *)dev;
	argv[n] = NULL;
	printf("fsck: running %s%s\n", line, dev);
	fflush(stdout);
	if (writes)
		rc = consent_spawn(devs, 1, argv, NULL, 1, out, sizeof(out));
	else
		rc = spawn(argv, NULL, 1, out, sizeof(out));	/* consent: a checker's no-change mode */
	if (rc < 0)
		return rc;
	if (out[0])
		printf("%s\n", out);
	printf("fsck: %s%s: exit status %d\n", line, dev, rc);
	fflush(stdout);
	return rc;
}

struct fsck_opts {
	int repair;
	const char *write_list;
};

static int fsck_main(void *opts, int ndev, char **devs)
{
	struct fsck_opts *o = opts;
	const char *write_list = o->write_list;
	int repair = o->repair, i, failed = 0;
	char type[64], why[256];
	struct stat st;

	if (!ndev)
		die_usage("fsck: name the filesystems' devices (see 'bootbench chroot --list')");
	if (write_list && !repair)
		die_usage("fsck: --write is for --repair");
	if (consent_allow(write_list))
		die_usage("fsck: --write: %s", bb_err);
	/* every device checked before anything runs: bad input changes nothing */
	for (i = 0; i < ndev; i++) {
		if (stat(devs[i], &st) || !S_ISBLK(st.st_mode))
			die_usage("fsck: %s is not a block device", devs[i]);
		if (disk_is_our_medium(st.st_rdev, why, sizeof(why)))
			die_usage("fsck: %s: %s: refused", devs[i], why);
		if (mounts_has_dev(st.st_rdev))
			die_usage("fsck: %s is mounted: a mounted filesystem is not checked", devs[i]);
		if (fs_type_of(devs[i], type, sizeof(type)))
			die_usage("fsck: %s holds no filesystem blkid knows", devs[i]);
		if (!checker_of(type))
			die_usage("fsck: %s holds %s, which bootbench fsck does not check", devs[i], type);
		if (repair && checker_of(type)->repair[0] && !consent_named(st.st_rdev))
			die_usage("fsck: --repair of %s needs it named in --write=", devs[i]);
		if (repair && consent_named(st.st_rdev) && consent_check(devs[i]))
			die_usage("fsck: %s", bb_err);
	}
	for (i = 0; i < ndev; i++) {
		const struct checker *c;
		int rc;

		fs_type_of(devs[i], type, sizeof(type));
		c = checker_of(type);
		rc = run_step(c->check, devs[i], 0);
		if (rc == 0)
			continue;
		if (!repair || !c->repair[0]) {
			printf("fsck: %s (%s) has errors%s\n", devs[i], type,
			       !c->repair[0] ? " (btrfs: not repaired here)" : ": repair with --repair --write=DEV");
			failed = 1;
			continue;
		}
		rc = run_step(c->repair, devs[i], 1);
		if (rc < 0) {
			printf("fsck: %s: %s\n", devs[i], bb_err);
			failed = 1;
			continue;
		}
		/* the repair's own word is not the last one: a fresh no-change check is */
		if (run_step(c->check, devs[i], 0)) {
			printf("fsck: %s (%s) still has errors after the repair\n", devs[i], type);
			failed = 1;
		} else {
			printf("fsck: %s (%s) repaired, clean now\n", devs[i], type);
		}
	}
		return failed ? EXIT_FAIL : EXIT_OK;
}

static const struct arg fsck_args[] = {
	{ .name = "--repair", .kind = ARG_FLAG, .offset = ARG_AT(struct fsck_opts, repair),
	  .help = "repair a filesystem with errors when its device is in --write" },
	{ .name = "--write", .kind = ARG_STR, .offset = ARG_AT(struct fsck_opts, write_list), .meta = "DEV[,DEV]",
	  .help = "the devices --repair may write (the consent gate)" },
	{ NULL },
};

const struct command fsck_command = {
	.name = "fsck",
	.summary = "check filesystems without changing them; repair with consent",
	.usage = "[--repair --write=DEV[,DEV]] DEV...",
	.help = "Checks each filesystem without changing it (e2fsck -n, xfs_repair -n, fsck.fat -n,\n"
		"btrfs check --readonly), printing what runs and its exit status. With --repair, a\n"
		"filesystem with errors is repaired (e2fsck -y, xfs_repair, fsck.fat -a) when its device\n"
		"is named in --write (the consent gate: never the boot or results medium, nothing\n"
		"mounted or in use), then checked again. btrfs is never repaired here.\n",
	.exit_status = "0 every filesystem clean (or repaired clean), 1 errors remain,\n"
		       "2 bad input (a device that is not a filesystem, is mounted or is the boot medium).",
	.args = fsck_args,
	.opts_size = sizeof(struct fsck_opts),
	.run = fsck_main,
};
