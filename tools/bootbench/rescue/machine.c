// SPDX-License-Identifier: MIT
/*
 * machine.c - an installed system's machine from its programs' ELF headers
 * (machine.h). The names are the ones the image's ARCH takes (x86_64,
 * arm64) and the usual ones for the rest.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <unistd.h>

#include "lib/util.h"
#include "rescue/inroot.h"
#include "rescue/machine.h"
#include "rescue/passwd.h"

#define HEADER 64	/* an ELF header, and what binfmt_misc's magic may reach */

/* ELF's e_machine numbers (the System V ABI's registry), for each class */
static const struct {
	unsigned e_machine, elf_class;	/* 1: 32-bit, 2: 64-bit */
	const char *name;
} machines[] = {
	{ 3, 1, "i386" },     { 8, 1, "mips" },	      { 8, 2, "mips64" },    { 20, 1, "ppc" },
	{ 21, 2, "ppc64" },   { 22, 2, "s390x" },     { 40, 1, "arm" },	     { 62, 2, "x86_64" },
	{ 62, 1, "x32" },     { 183, 2, "arm64" },    { 183, 1, "arm64-ilp32" },
	{ 243, 2, "riscv64" }, { 258, 2, "loongarch64" },
};

/* PATH's first bytes inside ROOT into H; how many, or -1 */
static ssize_t head_of(const char *root, const char *path, unsigned char *h, size_t len)
{
	int fd = inroot_open(root, path, O_RDONLY);
	ssize_t got;

	if (fd < 0)
		return -1;
	got = read(fd, h, len);
	close(fd);
	return got;
}

/* PATH's ELF header inside ROOT into H, through one "#!" line; 0 when found */
static int elf_header(const char *root, const char *path, unsigned char h[HEADER])
{
	char interp[256];
	ssize_t got = head_of(root, path, h, HEADER);
	size_t n;

	if (got >= 2 && h[0] == '#' && h[1] == '!') {
		const char *p = (const char *)h + 2;
		size_t k = (size_t)got - 2;

		while (k && (*p == ' ' || *p == '\t'))
			p++, k--;
		for (n = 0; n < k && n + 1 < sizeof(interp) && p[n] != ' ' && p[n] != '\t' && p[n] != '\n'; n++)
			interp[n] = p[n];
		interp[n] = 0;
		if (interp[0] != '/')
			return -1;
		got = head_of(root, interp, h, HEADER);
	}
	if (got < 20 || memcmp(h, "\177ELF", 4) || (h[4] != 1 && h[4] != 2) || (h[5] != 1 && h[5] != 2))
		return -1;
	memset(h + got, 0, HEADER - (size_t)got);
	return 0;
}

/* root's login shell, from the system's passwd ("" if none) */
static void root_shell_of(const char *root, char *out, size_t len)
{
	char *text = xcalloc(1, 65536);

	out[0] = 0;
	if (!inroot_read(root, "/etc/passwd", text, 65536))
		passwd_root_shell(text, out, len);
	free(text);
}

void machine_of_installed(const char *root, char *out, size_t len)
{
	/* what a chroot runs first (root's shell; /bin/sh for a repair), then
	 * what every system has: the first that is an ELF file (directly or
	 * by its "#!") decides, so a shell lost in a failed upgrade, or an
	 * i386 /bin/sh of a multiarch system, does not */
	const char *const others[] = { "/bin/sh", "/usr/bin/env", "/bin/true", "/sbin/init", "/usr/lib/systemd/systemd" };
	unsigned char h[HEADER];
	char shell[256];
	unsigned m, i;
	int found = 0;

	out[0] = 0;
	root_shell_of(root, shell, sizeof(shell));
	found = shell[0] && !elf_header(root, shell, h);
	for (i = 0; !found && i < ARRAY_SIZE(others); i++)
		found = !elf_header(root, others[i], h);
	if (!found)
		return;
	m = h[5] == 1 ? (unsigned)(h[18] | h[19] << 8) : (unsigned)(h[18] << 8 | h[19]);
	for (i = 0; i < ARRAY_SIZE(machines); i++)
		if (machines[i].e_machine == m && machines[i].elf_class == h[4]) {
			snprintf(out, len, "%s", machines[i].name);
			return;
		}
	snprintf(out, len, "ELF-machine-%u-%u", m, h[4] * 32);	/* one word: the list's mark is parsed */
}

const char *machine_here(void)
{
#if defined(__x86_64__)
	return "x86_64";
#elif defined(__aarch64__)
	return "arm64";
#else
#error "bootbench is built for x86_64 and arm64"
#endif
}

/* ELF headers of MACHINE as binfmt_misc's entries see them: the class,
 * the byte order and e_machine, the rest as a typical executable's */
static int header_for(const char *machine, unsigned char h[HEADER])
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(machines) && strcmp(machines[i].name, machine); i++)
		;
	if (i == ARRAY_SIZE(machines))
		return -1;
	memset(h, 0, HEADER);
	memcpy(h, "\177ELF", 4);
	h[4] = (unsigned char)machines[i].elf_class;
	/* s390x and ppc64 (not ppc64el) are big-endian; the rest here little */
	h[5] = !strcmp(machine, "s390x") ? 2 : 1;
	h[6] = 1;
	h[16] = h[5] == 1 ? 2 : 0, h[17] = h[5] == 1 ? 0 : 2;	/* ET_EXEC */
	h[18] = h[5] == 1 ? machines[i].e_machine & 0xff : machines[i].e_machine >> 8;
	h[19] = h[5] == 1 ? machines[i].e_machine >> 8 : machines[i].e_machine & 0xff;
	h[20] = h[5] == 1 ? 1 : 0, h[23] = h[5] == 1 ? 0 : 1;	/* EV_CURRENT */
	return 0;
}

static int hex_bytes(const char *hex, unsigned char *out, size_t max)
{
	size_t n = 0;
	unsigned v;

	while (hex[0] && hex[1] && n < max && sscanf(hex, "%2x", &v) == 1)
		out[n++] = (unsigned char)v, hex += 2;
	return (int)n;
}

/*
 * Whether the kernel hands MACHINE's programs to an interpreter of
 * binfmt_misc (qemu-user) that works inside a chroot: an enabled entry
 * with the F flag (the interpreter opened when registered) whose magic
 * matches. A build host with qemu-user-static has them; the appliance none.
 */
static int binfmt_runs(const char *machine)
{
	DIR *d = opendir("/proc/sys/fs/binfmt_misc");
	struct dirent *e;
	unsigned char h[HEADER], magic[HEADER], mask[HEADER];
	int found = 0;

	if (!d || header_for(machine, h)) {
		if (d)
			closedir(d);
		return 0;
	}
	while (!found && (e = readdir(d))) {
		char path[300], text[1024], *p;
		int n, k, offset = 0, fixed = 0, enabled = 0;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, "register") || !strcmp(e->d_name, "status"))
			continue;
		snprintf(path, sizeof(path), "/proc/sys/fs/binfmt_misc/%s", e->d_name);
		if (read_attr(path, text, sizeof(text)))
			continue;
		enabled = !strncmp(text, "enabled", 7);
		if ((p = strstr(text, "\nflags: ")))
			fixed = strchr(p + 8, 'F') && strchr(p + 8, 'F') < strchr(p + 1, '\n');
		if ((p = strstr(text, "\noffset ")))
			offset = atoi(p + 8);
		if (!enabled || !fixed || !(p = strstr(text, "\nmagic ")) || offset < 0)
			continue;
		n = hex_bytes(p + 7, magic, sizeof(magic));
		memset(mask, 0xff, sizeof(mask));
		if ((p = strstr(text, "\nmask ")))
			hex_bytes(p + 6, mask, sizeof(mask));
		if (n <= 0 || offset + n > HEADER)
			continue;
		for (k = 0; k < n && (h[offset + k] & mask[k]) == (magic[k] & mask[k]); k++)
			;
		found = k == n;
	}
	closedir(d);
	return found;
}

int machine_runs_here(const char *machine)
{
	if (!strcmp(machine, machine_here()))
		return 1;
#if defined(__x86_64__)
	/* Debian's amd64 kernel runs i386 programs (IA32 emulation; not x32) */
	if (!strcmp(machine, "i386"))
		return 1;
#else
	/* arm64 servers without 32-bit user mode (Ampere Altra, AmpereOne,
	 * Grace) refuse the 32-bit personality: the kernel's own answer */
	if (!strcmp(machine, "arm")) {
		int old = personality(0xffffffff), ok = personality(PER_LINUX32) != -1;

		personality((unsigned long)old);
		if (ok)
			return 1;
	}
#endif
	return binfmt_runs(machine);
}
