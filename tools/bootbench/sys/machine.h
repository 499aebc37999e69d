/* SPDX-License-Identifier: MIT */
/* machine.h - this machine's identity (machine.c). */
#ifndef BB_MACHINE_H
#define BB_MACHINE_H

#include <stddef.h>

/* The DMI serial, "" when the vendor left a placeholder. */
void machine_serial(char *buf, size_t len);
/* The first wired NIC's MAC as aa-bb-cc-dd-ee-ff, "" when none. */
void machine_mac(char *buf, size_t len);
/* The serial, else "mac-aabbccddeeff", else the hostname: as /init names result folders. */
void machine_id(char *buf, size_t len);

#endif
