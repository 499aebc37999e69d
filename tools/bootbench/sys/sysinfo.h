/* SPDX-License-Identifier: MIT */
/* sysinfo.h - the machine's description (sysinfo.c), for every saved result. */
#ifndef BB_SYSINFO_H
#define BB_SYSINFO_H

#include "lib/json.h"

/* Writes the description as an object under key (NULL inside an array or at the top). */
void sysinfo_json(struct json *j, const char *key);

/* Prints the description as a table (`bootbench sysinfo`). */
void sysinfo_print(void);

#endif
