// SPDX-License-Identifier: MIT
/*
 * chroot.c - `bootbench chroot`: into an installed system to repair it
 * (rescue/session.h), or `--list` of the systems on this machine
 * (rescue/probe.h). After arch-chroot; mounts read-only unless a device is
 * named in --write=, through the consent gate (never the boot or results
 * medium); everything in private namespaces, gone when the session ends or
 * the helper is killed.
 *
 * Its flags and help: the declaration at the end (lib/args.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/args.h"
#include "lib/json.h"
#include "lib/util.h"
#include "rescue/machine.h"
#include "rescue/probe.h"
#include "rescue/session.h"
#include "rescue/volumes.h"
#include "safety/consent.h"
#include "sys/disks.h"
#include "sys/mounts.h"

/*
 * The repairs: scripts of the image (under /usr/share/bootbench/repair, or
 * BOOTBENCH_SHARE/repair for a run from the source tree) run inside the
 * installed system.
 */
static const struct {
	const char *name, *script;
} repairs[] = {
	{ "bootloader", "repair/bootloader.sh" },
	{ "initramfs", "repair/initramfs.sh" },
};

static void print_list(const struct installed *s, int n, int as_json)
{
	int i;

	if (as_json) {
		struct json j;

		json_init(&j, stdout);
		json_obj_open(&j, NULL);
		json_arr_open(&j, "systems");
		for (i = 0; i < n; i++) {
			json_obj_open(&j, NULL);
			json_str(&j, "name", s[i].name);
			json_str(&j, "id", s[i].id);
			json_str(&j, "version_id", s[i].version);
			json_str(&j, "device", s[i].dev);
			json_str(&j, "fstype", s[i].fstype);
			json_str(&j, "subvol", s[i].subvol);
			json_uint(&j, "bytes", s[i].bytes);
			json_str(&j, "boot", s[i].boot);
			json_str(&j, "esp", s[i].esp);
			json_str(&j, "cmdline", s[i].cmdline);
			json_str(&j, "missing", s[i].missing);
			json_str(&j, "machine", s[i].machine);
			json_obj_close(&j);
		}
		json_arr_close(&j);
		json_obj_close(&j);
		printf("\n");
		return;
	}
	if (!n) {
		printf("no installed system found\n");
		return;
	}
	for (i = 0; i < n; i++) {
		printf("%-32s %-18s %-6s %6.1f GiB", s[i].name, s[i].dev, s[i].fstype, s[i].bytes / 1073741824.0);
		if (s[i].subvol[0])
			printf("  subvol=%s", s[i].subvol);
		printf("  /boot: %s  ESP: %s", s[i].boot[0] ? s[i].boot : "on the root", s[i].esp[0] ? s[i].esp : "-");
		if (s[i].missing[0])
			printf("  (%s)", s[i].missing);
		if (s[i].machine[0] && !machine_runs_here(s[i].machine))
			printf("  (%s programs: not for this %s machine)", s[i].machine, machine_here());
		printf("\n");
	}
}

static int list_systems(int as_json)
{
	struct installed *s = NULL;
	int n;

	if (probe_private_namespace()) {
		note("chroot: %s", bb_err);
		return EXIT_FAIL;
	}
	n = probe_systems(&s);
	if (n < 0) {
		note("chroot: %s", bb_err);
		return EXIT_FAIL;
	}
	print_list(s, n, as_json);
	free(s);
	return EXIT_OK;
}

/* The installed system on ROOT, looked at read-only: its subvolume and command line. */
static int find_installed(const char *root, struct installed *found)
{
	int pipefd[2], status, rc = -1;
	pid_t pid;

	if (pipe(pipefd))
		return -1;
	/* in a child: its private mount namespace goes with it */
	pid = fork();
	if (!pid) {
		close(pipefd[0]);
		if (probe_private_namespace() || !probe_device(root, found) ||
		    write(pipefd[1], found, sizeof(*found)) != (ssize_t)sizeof(*found))
			_exit(1);
		_exit(0);
	}
	close(pipefd[1]);
	if (pid > 0 && read(pipefd[0], found, sizeof(*found)) == (ssize_t)sizeof(*found))
		rc = 0;
	close(pipefd[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	return rc;
}

/* LUKS first (LVM and md may sit in it), then md, then LVM (on md or LUKS). */
static int start_volumes(const char *open_list, const char *key_file, int assemble, int activate)
{
	if (open_list) {
		char *copy = xstrdup(open_list), *tok, *save;
		int rc = 0;

		for (tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save))
			rc = volumes_open_luks(tok, key_file);
		free(copy);
		if (rc)
			return -1;
	}
	if (assemble && volumes_assemble_md())
		return -1;
	if (activate && volumes_activate_lvm())
		return -1;
	return 0;
}

struct chroot_opts {
	int list, json, quiet, rc, assemble, activate;
	const char *write, *subvol, *repair, *open, *key_file;
};

static int chroot_main(void *opts, int argc, char **argv)
{
	struct chroot_opts *o = opts;
	const char *write_list = o->write, *subvol = o->subvol, *root = NULL, *open_list = o->open;
	const char *key_file = o->key_file, *repair = o->repair;
	static char script[4096];
	int list = o->list, as_json = o->json, quiet = o->quiet, assemble = o->assemble, activate = o->activate;
	int rc_files = o->rc, i;
	char *const *cmd = NULL;
	struct chroot_request r = { 0 };
	struct installed sys = { 0 };
	char why[256];
	struct stat st;

	if (key_file && access(key_file, R_OK))
		die_usage("chroot: --key-file=%s: %s", key_file, strerror(errno));
	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			if (i + 1 >= argc)
				die_usage("chroot: -- must be followed by a command");
			cmd = argv + i + 1;
			break;
		} else if (!root) {
			root = argv[i];
		} else {
			die_usage("chroot: one ROOT (put the command after --)");
		}
	}
	if (list && (root || cmd || write_list || repair))
		die_usage("chroot: --list takes no ROOT, command, --write or --repair");
	if (repair) {
		unsigned k;

		for (k = 0; k < ARRAY_SIZE(repairs) && strcmp(repairs[k].name, repair); k++)
			;
		if (k == ARRAY_SIZE(repairs))
			die_usage("chroot: --repair=%s: expected bootloader or initramfs", repair);
		if (!write_list)
			die_usage("chroot: --repair=%s writes the installed system: name its devices in --write=", repair);
		if (cmd)
			die_usage("chroot: --repair runs no command of yours");
		snprintf(script, sizeof(script), "%s/%s",
			 getenv("BOOTBENCH_SHARE") ? getenv("BOOTBENCH_SHARE") : "/usr/share/bootbench", repairs[k].script);
		if (access(script, R_OK))
			die_usage("chroot: --repair=%s: its script %s cannot be read: %s", repair, script, strerror(errno));
		r.script = script;
	}
	if (key_file && !open_list)
		die_usage("chroot: --key-file is for --open");
	if (consent_allow(write_list))
		die_usage("chroot: --write: %s", bb_err);
	if (start_volumes(open_list, key_file, assemble, activate))
		die_usage("chroot: %s", bb_err);
	if (list)
		return list_systems(as_json);
	if (!root)
		die_usage("chroot: name the installed system's root device (see 'bootbench chroot --list')");
	if (stat(root, &st) || !S_ISBLK(st.st_mode))
		die_usage("chroot: %s is not a block device", root);
	if (disk_is_our_medium(st.st_rdev, why, sizeof(why)))
		die_usage("chroot: %s: %s: refused", root, why);
	if (mounts_has_dev(st.st_rdev))
		die_usage("chroot: %s is already mounted on this system: unmount it first", root);
	if (write_list) {
		char *copy = xstrdup(write_list), *tok, *save;

		for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			if (consent_check(tok))
				die_usage("chroot: --write: %s", bb_err);
		free(copy);
	}
	if (find_installed(root, &sys))
		die_usage("chroot: %s holds no installed system (no os-release found on it)", root);
	/* before anything is mounted: exec would say only "Exec format error" */
	if (sys.machine[0] && !machine_runs_here(sys.machine)) {
		int stick = !strcmp(sys.machine, "x86_64") || !strcmp(sys.machine, "arm64");	/* bootbench's machines */

		die_usage("chroot: %s holds a system for %s: its programs cannot run on this %s machine%s%s%s", root,
			  sys.machine, machine_here(), stick ? " (enter it on an " : "", stick ? sys.machine : "",
			  stick ? " machine, with bootbench's stick for it)" : "");
	}
	r.root = root;
	r.subvol = subvol ? subvol : sys.subvol;
	r.argv = cmd;
	/* what a repair may write besides its mounts (BIOS GRUB: the disk's boot sector) */
	if (write_list)
		setenv("BB_WRITE", write_list, 1);
	r.quiet = quiet;
	r.write_list = write_list;
	r.rc_files = rc_files;
	if (!quiet)
		printf("chroot: %s on %s%s%s%s%s%s\n", sys.name, root, r.subvol[0] ? ", subvolume " : "", r.subvol,
		       sys.missing[0] ? " (" : "", sys.missing, sys.missing[0] ? ")" : "");
	return chroot_session(&r);
}

static const struct arg chroot_args[] = {
	{ .name = "--list", .kind = ARG_FLAG, .offset = ARG_AT(struct chroot_opts, list),
	  .help = "list the installed systems (with --json: as JSON)" },
	{ .name = "--json", .kind = ARG_FLAG, .offset = ARG_AT(struct chroot_opts, json), .help = "--list as JSON" },
	{ .name = "--write", .kind = ARG_STR, .offset = ARG_AT(struct chroot_opts, write), .meta = "DEVS",
	  .help = "mount these devices read-write (consent: never the boot or results\n"
		  "medium, nothing mounted or in use); every other mount is read-only" },
	{ .name = "--subvol", .kind = ARG_STR, .offset = ARG_AT(struct chroot_opts, subvol), .meta = "NAME",
	  .help = "btrfs: the root's subvolume (default: what --list found)" },
	{ .name = "--rc", .kind = ARG_FLAG, .offset = ARG_AT(struct chroot_opts, rc),
	  .help = "the shell runs the installed system's startup files (.bashrc, ...)" },
	{ .name = "-q", .kind = ARG_FLAG, .offset = ARG_AT(struct chroot_opts, quiet), .help = "no line per mount" },
	{ .name = "--assemble", .kind = ARG_FLAG, .offset = ARG_AT(struct chroot_opts, assemble),
	  .help = "first assemble the md arrays found (read-only)" },
	{ .name = "--activate", .kind = ARG_FLAG, .offset = ARG_AT(struct chroot_opts, activate),
	  .help = "first activate the LVM volume groups found" },
	{ .name = "--open", .kind = ARG_STR, .offset = ARG_AT(struct chroot_opts, open), .meta = "DEVS",
	  .help = "first open these LUKS volumes as /dev/mapper/luks-UUID, asking for the\n"
		  "passphrase here (3 tries); read-only unless named in --write" },
	{ .name = "--key-file", .kind = ARG_STR, .offset = ARG_AT(struct chroot_opts, key_file), .meta = "F",
	  .help = "the key for --open instead of a passphrase" },
	{ .name = "--repair", .kind = ARG_STR, .offset = ARG_AT(struct chroot_opts, repair), .meta = "NAME",
	  .help = "run a repair inside, each step printed with its exit status:\n"
		  "bootloader  GRUB reinstalled as the system has it (UEFI: into its ESP,\n"
		  "            the removable path too, a boot entry; BIOS: on the disk of\n"
		  "            /boot, which must be in --write), then its grub.cfg\n"
		  "initramfs   update-initramfs, dracut or mkinitcpio, as the system uses" },
	{ NULL },
};

const struct command chroot_command = {
	.name = "chroot",
	.summary = "into an installed system to repair it (or --list the systems on this machine)",
	.usage = "--list [--json] [START...]\n"
		 "[START...] [--write=DEV[,DEV]] [--subvol=NAME] [--rc] [-q] ROOT [-- COMMAND [ARG...]]\n"
		 "[START...] --write=DEV[,DEV] --repair=bootloader|initramfs ROOT\n"
		 " START: --assemble --activate --open=DEV[,DEV] [--key-file=F]",
	.help = "--list finds the installed systems: every partition, disk, md array and LVM/LUKS volume\n"
		"with a Linux filesystem is looked at read-only (nothing replayed, nothing written); one\n"
		"with an os-release is a system, marked (no init) when its init is missing.\n\n"
		"chroot mounts ROOT and every local filesystem its /etc/fstab names (UUID=, PARTUUID=,\n"
		"LABEL=, PARTLABEL=, /dev/...; btrfs subvol=), /proc, /sys, efivarfs when booted by UEFI,\n"
		"a /dev of its own, /dev/pts, /dev/shm, a private /run and /tmp and resolv.conf, then\n"
		"runs COMMAND or the installed system's shell. /proc/cmdline inside is the installed\n"
		"system's (its grub.cfg). All of it in private mount and PID namespaces: when the command\n"
		"ends, or this helper is killed, nothing stays mounted and no process of the chroot\n"
		"survives.\n\n"
		"Without --write nothing can be changed: every mount is read-only, /dev holds only null,\n"
		"zero, full, random, urandom, tty, ptmx and the system's own disks (read-only), no\n"
		"capability to mount, make devices, do raw I/O or override permissions is kept, and the\n"
		"shell starts without the system's startup files (.bashrc, /etc/profile) unless --rc.\n"
		"With --write only the devices named there are writable. LUKS is opened first, then md,\n"
		"then LVM; they stay started afterwards.\n",
	.exit_status = "COMMAND's; 1 when a mount was still busy at the end; 2 bad input (a ROOT\n"
		       "that is no installed system, is mounted or is the boot medium; a missing fstab device):\n"
		       "then nothing is left mounted.",
	.args = chroot_args,
	.opts_size = sizeof(struct chroot_opts),
	.run = chroot_main,
};
