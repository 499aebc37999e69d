/* SPDX-License-Identifier: MIT */
/*
 * passwd.h - root's login shell from an installed system's /etc/passwd
 * text: what a chroot runs, and so what tells the system's machine.
 */
#ifndef BB_PASSWD_H
#define BB_PASSWD_H

#include <stddef.h>

/* root's shell (an absolute path) from passwd TEXT (changed) into OUT; "" if none. */
void passwd_root_shell(char *text, char *out, size_t len);

#endif
