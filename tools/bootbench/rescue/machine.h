/* SPDX-License-Identifier: MIT */
/*
 * machine.h - the machine an installed system's programs are built for,
 * read from the ELF header of its /bin/sh, against the machine this stick
 * runs on: a disk moved from an arm64 server into an x86_64 one (or the
 * wrong stick booted) holds programs the chroot cannot run, which exec
 * would report only as "Exec format error".
 */
#ifndef BB_MACHINE_H
#define BB_MACHINE_H

#include <stddef.h>

/* The machine of the system mounted at ROOT ("x86_64", "arm64", "i386", ...) into OUT; "" when not known. */
void machine_of_installed(const char *root, char *out, size_t len);
/* The machine this program runs on, by the same names. */
const char *machine_here(void);
/* Whether programs for MACHINE run here: the same, or its 32-bit kin where the kernel runs them. */
int machine_runs_here(const char *machine);

#endif
