// SPDX-License-Identifier: MIT
/*
 * chroot.c - `bootbench chroot`: into an installed system to repair it
 * (rescue/session.h), or `--list` of the systems on this machine
 * (rescue/probe.h). After arch-chroot; mounts read-only unless a device is
 * named in --write=, through the consent gate (never the boot or results
 * medium); everything in private namespaces, gone when the session ends or
 * the helper is killed.
 *
 * usage: bootbench chroot --list [--json] [START...]
 *        bootbench chroot [START...] [--write=DEV[,DEV]] [--subvol=NAME] [--rc] [-q] ROOT [-- COMMAND [ARG...]]
 *        bootbench chroot [START...] --write=DEV[,DEV] --repair=bootloader|initramfs ROOT
 *        START: --assemble --activate --open=DEV[,DEV] [--key-file=F]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "consent.h"
#include "disks.h"
#include "json.h"
#include "mounts.h"
#include "probe.h"
#include "session.h"
#include "util.h"
#include "volumes.h"

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

static void usage(void)
{
	printf("usage: bootbench chroot --list [--json] [START...]\n"
	       "       bootbench chroot [START...] [--write=DEV[,DEV]] [--subvol=NAME] [--rc] [-q] ROOT [-- COMMAND [ARG...]]\n"
	       "       bootbench chroot [START...] --write=DEV[,DEV] --repair=bootloader|initramfs ROOT\n"
	       "       START: --assemble --activate --open=DEV[,DEV] [--key-file=F]\n\n"
	       "--list finds the installed systems: every partition, disk, md array and LVM/LUKS volume\n"
	       "with a Linux filesystem is looked at read-only (nothing replayed, nothing written).\n\n"
	       "chroot mounts ROOT and every local filesystem its /etc/fstab names (UUID=, PARTUUID=,\n"
	       "LABEL=, PARTLABEL=, /dev/...; btrfs subvol=), /proc, /sys, efivarfs when booted by UEFI,\n"
	       "/dev, /dev/pts, /dev/shm, a private /run and /tmp and resolv.conf, then runs COMMAND or\n"
	       "the installed system's shell. /proc/cmdline inside is the installed system's (its\n"
	       "grub.cfg). All of it in private mount and PID namespaces: when the command ends, or this\n"
	       "helper is killed, nothing stays mounted and no process of the chroot survives.\n\n"
	       "Without --write nothing can be changed: every mount is read-only, /dev holds only null,\n"
	       "zero, full, random, urandom, tty, ptmx and the system's own disks (read-only), no\n"
	       "capability to mount, make devices, do raw I/O or override permissions is kept, and the\n"
	       "shell starts without the system's startup files (.bashrc, /etc/profile) unless --rc.\n"
	       "With --write only the devices named there are writable.\n\n"
	       "Options:\n"
	       "  --list        list the installed systems (with --json: as JSON)\n"
	       "  --write=DEVS  mount these devices read-write (consent: never the boot or results\n"
	       "                medium, nothing mounted or in use); every other mount is read-only\n"
	       "  --subvol=NAME btrfs: the root's subvolume (default: what --list found)\n"
	       "  --rc          the shell runs the installed system's startup files (.bashrc, ...)\n"
	       "  -q            no line per mount\n"
	       "  --assemble    first assemble the md arrays found (read-only)\n"
	       "  --activate    first activate the LVM volume groups found\n"
	       "  --open=DEVS   first open these LUKS volumes as /dev/mapper/luks-UUID, asking for the\n"
	       "                passphrase here (3 tries); read-only unless named in --write\n"
	       "  --key-file=F  the key for --open instead of a passphrase\n"
	       "  (LUKS is opened first, then md, then LVM; they stay started afterwards)\n"
	       "  --repair=NAME run a repair inside, each step printed with its exit status:\n"
	       "                bootloader  GRUB reinstalled as the system has it (UEFI: into its ESP,\n"
	       "                            the removable path too, a boot entry; BIOS: on the disk of\n"
	       "                            /boot, which must be in --write), then its grub.cfg\n"
	       "                initramfs   update-initramfs, dracut or mkinitcpio, as the system uses\n\n"
	       "Exit status: COMMAND's; 1 when a mount was still busy at the end; 2 bad input (a ROOT\n"
	       "that is no installed system, is mounted or is the boot medium; a missing fstab device):\n"
	       "then nothing is left mounted.\n");
}

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
		printf(s[i].missing[0] ? "  (%s)\n" : "%s\n", s[i].missing);
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

int cmd_chroot(int argc, char **argv)
{
	const char *write_list = NULL, *subvol = NULL, *root = NULL, *open_list = NULL, *key_file = NULL;
	const char *repair = NULL;
	static char script[4096];
	int list = 0, as_json = 0, quiet = 0, assemble = 0, activate = 0, rc_files = 0, i;
	char *const *cmd = NULL;
	struct chroot_request r = { 0 };
	struct installed sys = { 0 };
	char why[256];
	struct stat st;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage();
			return EXIT_OK;
		} else if (!strcmp(a, "--list")) {
			list = 1;
		} else if (!strcmp(a, "--json")) {
			as_json = 1;
		} else if (!strcmp(a, "-q")) {
			quiet = 1;
		} else if (!strcmp(a, "--rc")) {
			rc_files = 1;
		} else if (!strncmp(a, "--write=", 8)) {
			write_list = a + 8;
		} else if (!strncmp(a, "--subvol=", 9)) {
			subvol = a + 9;
		} else if (!strncmp(a, "--repair=", 9)) {
			repair = a + 9;
		} else if (!strcmp(a, "--assemble")) {
			assemble = 1;
		} else if (!strcmp(a, "--activate")) {
			activate = 1;
		} else if (!strncmp(a, "--open=", 7) && a[7]) {
			open_list = a + 7;
		} else if (!strncmp(a, "--key-file=", 11)) {
			key_file = a + 11;
			if (access(key_file, R_OK))
				die_usage("chroot: --key-file=%s: %s", key_file, strerror(errno));
		} else if (!strcmp(a, "--")) {
			if (i + 1 >= argc)
				die_usage("chroot: -- must be followed by a command");
			cmd = argv + i + 1;
			break;
		} else if (a[0] == '-') {
			die_usage("chroot: unknown option '%s' (see 'bootbench chroot --help')", a);
		} else if (!root) {
			root = a;
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
