/* SPDX-License-Identifier: MIT */
/*
 * pci.h - the machine's PCI devices for the inventory: what each is
 * (vendor and device IDs, class, driver), the slot it sits in, and for
 * PCIe the link it trained at against the most it can do.
 */
#ifndef BB_SYS_PCI_H
#define BB_SYS_PCI_H

#define PCI_MAX 256

struct pci_device {
	char address[16];	/* 0000:3b:00.0 */
	char slot[40];		/* the firmware's slot name (/sys/bus/pci/slots), "" when none */
	unsigned vendor, device, class;	/* class: 24 bits, 0x010802 an NVMe controller */
	char driver[48];
	/* PCIe only; "" and 0 for conventional PCI */
	char link_speed[24], max_speed[24];	/* "8.0 GT/s PCIe" as sysfs says it */
	unsigned link_width, max_width;
	int downtrained;	/* 1: trained narrower or slower than the device can */
};

/*
 * Fills OUT with up to MAX devices, by address, bridges left out (the
 * board's own: a card's link is read on the card); returns how many. Read
 * from /sys/bus/pci (under BOOTBENCH_SYSROOT for a recorded tree).
 */
unsigned pci_scan(struct pci_device *out, unsigned max);

#endif
