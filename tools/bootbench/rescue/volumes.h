/* SPDX-License-Identifier: MIT */
/*
 * volumes.h - what an installed system's root may sit under, started only
 * when asked: md arrays (assembled read-only), LVM volume groups
 * (activated), LUKS volumes (opened with a passphrase typed on the
 * terminal, three tries, or a key file; read-only unless consented to).
 * They stay started after the chroot (vgchange -an, cryptsetup close,
 * mdadm --stop undo them).
 */
#ifndef BB_VOLUMES_H
#define BB_VOLUMES_H

/* mdadm --assemble --scan --readonly; 0, or -1 with bb_err. */
int volumes_assemble_md(void);
/* vgchange -ay: every volume group found; 0, or -1 with bb_err. */
int volumes_activate_lvm(void);
/*
 * Opens the LUKS volume DEV as /dev/mapper/luks-UUID (the name systemd
 * gives it), read-only unless DEV was consented to; KEY_FILE NULL asks for
 * the passphrase on the terminal. One that is open already is fine. 0, or
 * -1 with bb_err (EXIT_USAGE-worthy: not LUKS, a wrong passphrase).
 */
int volumes_open_luks(const char *dev, const char *key_file);

#endif
