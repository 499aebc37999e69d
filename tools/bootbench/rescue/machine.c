// SPDX-License-Identifier: MIT
/*
 * machine.c - an installed system's machine from its shell's ELF header
 * (machine.h). The names are the ones the image's ARCH takes (x86_64,
 * arm64) and the usual ones for the rest.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/personality.h>
#include <unistd.h>

#include "lib/util.h"
#include "rescue/inroot.h"
#include "rescue/machine.h"

/* ELF's e_machine numbers (the System V ABI's registry) */
static const struct {
	unsigned e_machine;
	const char *name;
} machines[] = {
	{ 3, "i386" },	  { 8, "mips" },       { 20, "ppc" },	  { 21, "ppc64" },   { 22, "s390x" },
	{ 40, "arm" },	  { 62, "x86_64" },    { 183, "arm64" }, { 243, "riscv64" }, { 258, "loongarch64" },
};

void machine_of_installed(const char *root, char *out, size_t len)
{
	unsigned char h[20];
	unsigned m;
	size_t i;
	int fd;
	ssize_t got;

	out[0] = 0;
	/* its shell is what a chroot runs first (links resolved inside ROOT: usrmerge, dash) */
	fd = inroot_open(root, "/bin/sh", O_RDONLY);
	if (fd < 0)
		return;
	got = read(fd, h, sizeof(h));
	close(fd);
	if (got != (ssize_t)sizeof(h) || memcmp(h, "\177ELF", 4) || (h[5] != 1 && h[5] != 2))
		return;
	m = h[5] == 1 ? (unsigned)(h[18] | h[19] << 8) : (unsigned)(h[18] << 8 | h[19]);
	for (i = 0; i < ARRAY_SIZE(machines); i++)
		if (machines[i].e_machine == m) {
			snprintf(out, len, "%s", machines[i].name);
			return;
		}
	snprintf(out, len, "ELF-machine-%u", m);	/* one word: the list's mark is parsed */
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

int machine_runs_here(const char *machine)
{
	if (!strcmp(machine, machine_here()))
		return 1;
#if defined(__x86_64__)
	/* Debian's amd64 kernel runs i386 programs (IA32 emulation) */
	return !strcmp(machine, "i386");
#else
	/* arm64 servers without 32-bit user mode (Ampere Altra, AmpereOne,
	 * Grace) refuse the 32-bit personality: the kernel's own answer */
	if (!strcmp(machine, "arm")) {
		int old = personality(0xffffffff), ok = personality(PER_LINUX32) != -1;

		personality((unsigned long)old);
		return ok;
	}
	return 0;
#endif
}
