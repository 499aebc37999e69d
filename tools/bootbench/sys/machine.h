/* SPDX-License-Identifier: MIT */
/* machine.h - this machine's identity (machine.c). */
#ifndef BB_MACHINE_H
#define BB_MACHINE_H

#include <stddef.h>

/* Whether a serial is a vendor's placeholder, not a serial (the list in machine.c). */
int serial_is_placeholder(const char *serial);
/* The DMI serial, "" when the vendor left a placeholder. */
void machine_serial(char *buf, size_t len);
/* The first wired NIC's MAC as aa-bb-cc-dd-ee-ff, "" when none. */
void machine_mac(char *buf, size_t len);
/* The serial, else "mac-aabbccddeeff"; "" when the machine has neither (no name of its own). */
void machine_unique_id(char *buf, size_t len);
/* The serial, else "mac-aabbccddeeff", else the hostname, in [A-Za-z0-9._-]: the machine's
 * one name (result folders, ${serial} in config URLs, the Pushgateway's group). */
void machine_id(char *buf, size_t len);

#endif
