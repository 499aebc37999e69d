/* SPDX-License-Identifier: MIT */
/*
 * efivar.h - UEFI's global variables (SecureBoot, BootCurrent, Boot####)
 * as efivarfs gives them, under BOOTBENCH_SYSROOT when it is set.
 */
#ifndef BB_SYS_EFIVAR_H
#define BB_SYS_EFIVAR_H

#include <stddef.h>

/*
 * The global variable NAME's value (efivarfs' 4 bytes of attributes
 * dropped) into BUF of LEN bytes: its length, or -1 when it is missing,
 * shorter than its attributes, or longer than LEN or 4 KiB (not read
 * whole, not trusted).
 */
long efi_global_var(const char *name, unsigned char *buf, size_t len);

#endif
