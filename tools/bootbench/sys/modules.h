/* SPDX-License-Identifier: MIT */
/* modules.h - kernel modules loaded on demand, with their soft dependencies. */
#ifndef BB_MODULES_H
#define BB_MODULES_H

/*
 * Loads MODULE (a name or an alias such as fs-btrfs) and the modules
 * modules.softdep names for it. Built in, loaded already, or missing: no
 * error; the mount that follows says what is wrong.
 */
void module_load(const char *module);

#endif
