// SPDX-License-Identifier: MIT
/*
 * volumes.c - md, LVM and LUKS started on request for the rescue
 * (volumes.h), through the tools the image ships: mdadm, lvm, cryptsetup.
 * Nothing here writes a disk: arrays come up read-only, activation writes
 * no LVM metadata, and a LUKS volume opened read-only cannot be written.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util.h"
#include "rescue/volumes.h"
#include "safety/consent.h"

/* Runs ARGV on this terminal (cryptsetup asks for the passphrase there); its exit status. */
static int run_on_terminal(char *const argv[])
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		execvp(argv[0], argv);	/* consent: a tool of volumes.c, which writes no disk */
		dprintf(STDERR_FILENO, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int volumes_assemble_md(void)
{
	char *argv[] = { "mdadm", "--assemble", "--scan", "--readonly", NULL };
	char out[1024];
	int rc = spawn(argv, NULL, 1, out, sizeof(out));	/* consent: read-only arrays, no superblock written */

	if (out[0])
		printf("chroot: mdadm: %s\n", out);
	/* 2: nothing (more) to assemble, which is no failure here */
	if (rc && rc != 2 && rc != 1)
		return set_err("mdadm --assemble --scan failed (exit status %d)", rc);
	return 0;
}

int volumes_activate_lvm(void)
{
	char *argv[] = { "lvm", "vgchange", "-ay", NULL };
	char out[2048];
	int rc = spawn(argv, NULL, 1, out, sizeof(out));	/* consent: activation writes no LVM metadata */

	if (out[0])
		printf("chroot: lvm: %s\n", out);
	if (rc == 127)
		return set_err("lvm is not installed");
	if (rc)
		return set_err("vgchange -ay failed (exit status %d)", rc);
	return 0;
}

int volumes_open_luks(const char *dev, const char *key_file)
{
	char uuid[128], name[160], path[200], kf[4200];
	char *check[] = { "cryptsetup", "luksUUID", (char *)dev, NULL };
	char *argv[12];
	struct stat st;
	int argc = 0, rc, writable;

	if (stat(dev, &st) || !S_ISBLK(st.st_mode))
		return set_err("--open=%s: not a block device", dev);
	/* writable only with consent for the volume itself */
	writable = consent_named(st.st_rdev);
	if (spawn(check, NULL, 1, uuid, sizeof(uuid)) || !uuid[0] || strchr(uuid, ' '))	/* consent: reads the header */
		return set_err("--open=%s: not a LUKS volume", dev);
	snprintf(name, sizeof(name), "luks-%s", uuid);
	snprintf(path, sizeof(path), "/dev/mapper/%s", name);
	if (!stat(path, &st)) {
		printf("chroot: %s is open already as %s\n", dev, path);
		return 0;
	}
	argv[argc++] = "cryptsetup";
	argv[argc++] = "open";
	argv[argc++] = "--type=luks";
	argv[argc++] = "--tries=3";
	if (!writable)
		argv[argc++] = "--readonly";
	if (key_file) {
		snprintf(kf, sizeof(kf), "--key-file=%s", key_file);
		argv[argc++] = kf;
	}
	argv[argc++] = (char *)dev;
	argv[argc++] = name;
	argv[argc] = NULL;
	printf("chroot: opening the LUKS volume %s as %s%s\n", dev, path, writable ? "" : " (read-only)");
	rc = run_on_terminal(argv);
	if (rc == 2)
		return set_err("--open=%s: no key fits (a wrong passphrase, %s)", dev, key_file ? "the key file" : "3 tries");
	if (rc)
		return set_err("--open=%s: cryptsetup open failed (exit status %d)", dev, rc);
	return 0;
}
