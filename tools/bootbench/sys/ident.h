/* SPDX-License-Identifier: MIT */
/*
 * ident.h - the one key a machine is known by wherever its name is
 * compared: the rack's CSV, the runs saved on a share (their folder names
 * and inventory.json), the Pushgateway's machine label. Text from outside
 * (firmware's serial, a spreadsheet's cell) becomes the name bootbench
 * gives the machine itself (sys/machine.c): a serial's characters other
 * than A-Z a-z 0-9 . _ - made _, so "ABC 123/4" is ABC_123_4 (blanks around
 * it left out, _ at its end too), case folded to upper (sn-0002 is
 * SN-0002); a machine without a serial of its own is mac- and its MAC's 12
 * hex digits in lower case.
 */
#ifndef BB_SYS_IDENT_H
#define BB_SYS_IDENT_H

#include <stddef.h>

/*
 * The key of a machine known by SERIAL (NULL or "" when not known; a
 * vendor's placeholder counts as not known; "mac-aabbccddeeff", bootbench's
 * name for a machine without one, is taken as its MAC) or else by MAC
 * (aa:bb:cc:dd:ee:ff, AA-BB-..., aabbccddeeff; NULL when not known) into
 * OUT. Returns 0, or -1 with OUT "" when neither names the machine (no
 * serial and no MAC, or a MAC that is not one).
 */
int machine_key(const char *serial, const char *mac, char *out, size_t len);

/* A MAC as aa:bb:cc:dd:ee:ff from aa:bb:.., AA-BB-.. or aabbccddeeff; -1 when it is not one. */
int mac_normal(const char *s, char out[18]);

#endif
