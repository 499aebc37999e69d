// SPDX-License-Identifier: MIT
/*
 * bootsource.c - the load option the firmware booted (bootsource.h).
 *
 * BootCurrent is a UINT16; Boot#### an EFI_LOAD_OPTION (UEFI 2.10, 3.1.3):
 * UINT32 attributes, UINT16 the device path list's length, the description
 * in UCS-2 ending in a 0, then the device path: nodes of a type byte, a
 * subtype byte and a UINT16 length that counts its own 4 bytes, up to an
 * end node (type 0x7f). Messaging nodes (type 3) say what the firmware
 * booted over: MAC 0x0b, IPv4 0x0c, IPv6 0x0d, URI 0x18 (10.3.4); iSCSI
 * 0x13 and NVMe over Fabrics 0x22 behind a MAC are disks, not a network
 * boot. The variables are the firmware's, written by whoever set the boot
 * order: every length is checked against what was read, and the text kept
 * is printable ASCII only.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sys/bootsource.h"
#include "sys/efivar.h"

#define NODE_MESSAGING 0x03
#define NODE_END 0x7f
#define MSG_MAC 0x0b
#define MSG_IPV4 0x0c
#define MSG_IPV6 0x0d
#define MSG_URI 0x18
#define MSG_ISCSI 0x13
#define MSG_NVME_OF 0x22

static unsigned u16le(const unsigned char *p) { return p[0] | (unsigned)p[1] << 8; }

static void printable(char *dst, size_t len, const unsigned char *src, size_t n, size_t step)
{
	size_t i, o = 0;

	for (i = 0; i + step <= n && o + 1 < len; i += step) {
		unsigned c = step == 2 ? u16le(src + i) : src[i];

		if (!c)
			break;
		dst[o++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	dst[o] = 0;
}

int boot_source_read(struct boot_source *s)
{
	unsigned char cur[8], opt[4096];
	long n, i, path_len;
	int mac = 0, ip = 0, uri = 0, disk = 0, nodes = 0, ended = 0;
	char name[16];

	memset(s, 0, sizeof(*s));
	if (efi_global_var("BootCurrent", cur, sizeof(cur)) != 2)
		return -1;
	s->option = u16le(cur);
	snprintf(name, sizeof(name), "Boot%04X", s->option);
	n = efi_global_var(name, opt, sizeof(opt));
	if (n < 6)
		return -1;
	path_len = u16le(opt + 4);
	/* the description: UCS-2 up to its 0 */
	for (i = 6; i + 1 < n && u16le(opt + i); i += 2)
		;
	if (i + 1 >= n)
		return -1;
	printable(s->description, sizeof(s->description), opt + 6, (size_t)(i - 6), 2);
	i += 2;
	if (path_len < 4 || i + path_len > n)
		return -1;
	/* the first device path instance, node by node */
	for (long end = i + path_len; i + 4 <= end; ) {
		unsigned type = opt[i], sub = opt[i + 1], len = u16le(opt + i + 2);

		if (len < 4 || i + (long)len > end)
			return -1;
		if (type == NODE_END) {
			ended = 1;
			break;
		}
		nodes++;
		if (type == NODE_MESSAGING && sub == MSG_MAC && len >= 4 + 6) {
			mac = 1;
			snprintf(s->mac, sizeof(s->mac), "%02x:%02x:%02x:%02x:%02x:%02x", opt[i + 4], opt[i + 5],
				 opt[i + 6], opt[i + 7], opt[i + 8], opt[i + 9]);
		} else if (type == NODE_MESSAGING && (sub == MSG_ISCSI || sub == MSG_NVME_OF))
			disk = 1;
		else if (type == NODE_MESSAGING && (sub == MSG_IPV4 || sub == MSG_IPV6))
			ip = 1;
		else if (type == NODE_MESSAGING && sub == MSG_URI) {
			uri = 1;
			printable(s->uri, sizeof(s->uri), opt + i + 4, len - 4, 1);
		}
		i += len;
	}
	if (!nodes || !ended) {
		s->mac[0] = s->uri[0] = 0;
		return -1;
	}
	s->via = disk ? BOOT_VIA_MEDIUM : uri ? BOOT_VIA_HTTP : mac || ip ? BOOT_VIA_PXE : BOOT_VIA_MEDIUM;
	if (s->via == BOOT_VIA_MEDIUM)
		s->mac[0] = 0;
	return 0;
}

const char *boot_via_name(enum boot_via via)
{
	switch (via) {
	case BOOT_VIA_MEDIUM:
		return "medium";
	case BOOT_VIA_PXE:
		return "pxe";
	case BOOT_VIA_HTTP:
		return "http";
	default:
		return "unknown";
	}
}
