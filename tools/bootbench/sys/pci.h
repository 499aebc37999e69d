/* SPDX-License-Identifier: MIT */
/*
 * pci.h - the machine's PCI devices for the inventory: what each is
 * (vendor and device IDs, class, driver), the slot it sits in, and for
 * PCIe the link it trained at against the most it can do; for the
 * burn-in's pcie component, the same link as numbers, where a device sits
 * in the hierarchy, its power state and its AER error counters.
 */
#ifndef BB_SYS_PCI_H
#define BB_SYS_PCI_H

#include <stddef.h>

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

/* The firmware's name of the slot ADDRESS sits in (its bus and device
 * number: every function of a card is in its slot), "" when none. */
/* The name of the driver bound to the device at ADDR ("" when none) in OUT. */
void pci_driver_of(const char *addr, char *out, size_t len);
void pci_slot_of(const char *address, char *slot, size_t len);

/*
 * A PCIe link as one of its ends reads it (current_link_speed/width,
 * max_link_speed/width): speeds in GT/s, 0 where sysfs says "Unknown" or
 * the file does not read; widths in lanes, 0 likewise.
 */
struct pci_link {
	double speed, max_speed;
	unsigned width, max_width;
};
/* ADDRESS's link: 0, or -1 when it has no link files (not PCIe, or gone). */
int pci_link_read(const char *address, struct pci_link *l);
/* Whether L's current reading is a trained link's: a speed and 1 to 32
 * lanes (a device that does not answer reads as all ones: 63 lanes). */
int pci_link_up(const struct pci_link *l);

/*
 * Where ADDRESS sits, from its place under /sys/devices: PATH (from its
 * host bridge on, "pci0000:00/0000:00:01.0/0000:01:00.0"), its DEPTH
 * below the host bridge (1 on the root bus) and the PARENT above it ("" on
 * the root bus). -1 when its place cannot be read (not a link in sysfs).
 */
int pci_place(const char *address, char *path, size_t plen, char *parent, size_t parlen, int *depth);

/*
 * Whether ADDRESS is up (D0) for its link to be read: 1 yes, 0 in a
 * low-power state (STATE says which: "D3hot", "runtime suspended"), -1
 * unknown (neither power_state nor power/runtime_status reads).
 */
int pci_powered(const char *address, char *state, size_t len);

/*
 * AER's counters of a device since Linux found it (aer_dev_correctable,
 * aer_dev_fatal, aer_dev_nonfatal: a line a kind of error, "RxErr 0",
 * then TOTAL_ERR_COR and the like), and for a root port or a root complex
 * event collector the error messages it received, its own and those from
 * below it (aer_rootport_total_err_cor, _fatal, _nonfatal).
 */
enum { PCI_AER_COR, PCI_AER_FATAL, PCI_AER_NONFATAL, PCI_AER_NFILES };
#define PCI_AER_KINDS 40
struct pci_aer_file {
	unsigned nkinds;
	char kind[PCI_AER_KINDS][28];	/* "BadTLP", "dev_fatal_errs_bit[27]" */
	unsigned long long count[PCI_AER_KINDS];
	unsigned long long total;	/* TOTAL_ERR_*: messages the device sent */
};
struct pci_aer {
	struct pci_aer_file f[PCI_AER_NFILES];
	int rootport;				/* rp[] read */
	unsigned long long rp[PCI_AER_NFILES];	/* messages received */
};
extern const char *const pci_aer_files[PCI_AER_NFILES];	/* "aer_dev_correctable", ... */
extern const char *const pci_aer_rootport_files[PCI_AER_NFILES];
/* 1 read, 0 ADDRESS has no AER counters, -1 with bb_err when they are
 * there but do not read (or read as no counter Linux writes). */
int pci_aer_read(const char *address, struct pci_aer *a);
/* Whether Linux handles AER itself (native: a port bound to its aer
 * service) rather than the firmware (firmware first): 1, 0. */
int pci_aer_native(void);

#endif
