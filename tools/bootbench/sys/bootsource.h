/* SPDX-License-Identifier: MIT */
/*
 * bootsource.h - what the firmware booted this time, as UEFI records it:
 * the load option BootCurrent names, and the kind of device its path ends
 * in. A UEFI HTTP boot of the ISO runs it from a RAM disk the firmware
 * keeps, which Linux does not see: /init must know the machine came over
 * the network, not wait for a CD that is not there.
 */
#ifndef BB_SYS_BOOTSOURCE_H
#define BB_SYS_BOOTSOURCE_H

enum boot_via {
	BOOT_VIA_UNKNOWN,	/* not UEFI, or its variables unreadable or malformed */
	BOOT_VIA_MEDIUM,	/* a disk, a CD, a USB stick, a file path; a disk over the
				 * network (iSCSI, NVMe over Fabrics) too */
	BOOT_VIA_PXE,		/* a NIC: MAC or IP nodes, no URI (PXE, TFTP) */
	BOOT_VIA_HTTP,		/* a URI node: UEFI HTTP boot */
};

struct boot_source {
	enum boot_via via;
	unsigned option;		/* the Boot#### that booted */
	char description[96];		/* its description, printable ASCII ('?' for any other) */
	char uri[256];			/* the URI node's text when the option holds one (often
					 * empty: the firmware takes the URI from DHCP) */
	char mac[18];			/* PXE, HTTP: the NIC's MAC (aa:bb:cc:dd:ee:ff), "" if none */
};

/*
 * Reads BootCurrent and its load option from efivarfs (under
 * BOOTBENCH_SYSROOT when set). 0 with S filled; -1 with S->via
 * BOOT_VIA_UNKNOWN when there is no answer to trust (BIOS, a variable
 * missing, short, over 4 KiB or malformed, a path with no end node).
 */
int boot_source_read(struct boot_source *s);
/* "http", "pxe", "medium" or "unknown" */
const char *boot_via_name(enum boot_via via);

#endif
