// SPDX-License-Identifier: MIT
/*
 * test_bootsource.c - boot_source_read on recorded efivarfs trees
 * (BOOTBENCH_SYSROOT): a UEFI HTTP boot (its URI node empty, as edk2
 * stores it, and one holding a URI), a PXE boot, an iSCSI disk behind a
 * NIC, a disk; then variables that must give no answer: none, BootCurrent
 * short, a load option cut inside its description or its path, a node of
 * length 0 or running past the path (a loop or a read past the end if
 * trusted), a path with no end node, a variable over 4 KiB; and text that
 * is not printable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "unit.h"
#include "sys/bootsource.h"

#define GUID "8be4df61-93ca-11d2-aa0d-00e098032b8c"

static char root[] = "/tmp/bbboot.XXXXXX";

static void put(const char *name, const unsigned char *v, size_t n)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/firmware/efi/efivars/%s-" GUID, root, name);
	f = fopen(path, "wb");
	if (!f)
		exit(2);
	fwrite("\x07\0\0\0", 1, 4, f);	/* the attributes efivarfs puts first */
	fwrite(v, 1, n, f);
	fclose(f);
}

static void current(unsigned option)
{
	unsigned char v[2] = { option & 0xff, option >> 8 };

	put("BootCurrent", v, 2);
}

/* Boot0001: DESCRIPTION, then PATH's NODES bytes and an end node; a path length of PATH_LEN (0: the real one) */
static void option(const char *description, const unsigned char *path, size_t nodes, int path_len)
{
	unsigned char v[2048];
	size_t n = 6, i;

	memcpy(v, "\1\0\0\0", 4);
	for (i = 0; description[i]; i++) {
		v[n++] = (unsigned char)description[i];
		v[n++] = 0;
	}
	v[n++] = 0;
	v[n++] = 0;
	memcpy(v + n, path, nodes);
	n += nodes;
	memcpy(v + n, "\x7f\xff\x04\x00", 4);
	n += 4;
	path_len = path_len ? path_len : (int)nodes + 4;
	v[4] = path_len & 0xff;
	v[5] = (unsigned char)(path_len >> 8);
	put("Boot0001", v, n);
}

/* PciRoot(0)/Pci(1,0): the NIC's or the disk's controller */
static const unsigned char pci[] = { 2, 1, 12, 0, 0xd0, 0x41, 0x03, 0x0a, 0, 0, 0, 0, 1, 1, 6, 0, 0, 1 };
static const unsigned char mac[] = { 3, 0x0b, 37, 0, 0x52, 0x54, 0, 0x12, 0x34, 0x56, [36] = 1 };
static const unsigned char ipv4[] = { 3, 0x0c, 27, 0 };

static size_t path_of(unsigned char *p, int with_mac, int with_ip, const char *uri)
{
	size_t n = 0;

	memcpy(p, pci, sizeof(pci));
	n += sizeof(pci);
	if (with_mac) {
		memcpy(p + n, mac, sizeof(mac));
		n += sizeof(mac);
	}
	if (with_ip) {
		memset(p + n, 0, 27);
		memcpy(p + n, ipv4, sizeof(ipv4));
		n += 27;
	}
	if (uri) {
		size_t len = strlen(uri);

		p[n] = 3, p[n + 1] = 0x18, p[n + 2] = (unsigned char)(4 + len), p[n + 3] = 0;
		memcpy(p + n + 4, uri, len);
		n += 4 + len;
	}
	return n;
}

int main(void)
{
	struct boot_source s;
	unsigned char p[512];
	char dir[600];
	size_t n;

	if (!mkdtemp(root))
		return 2;
	snprintf(dir, sizeof(dir), "%s/sys", root);
	mkdir(dir, 0755);
	snprintf(dir, sizeof(dir), "%s/sys/firmware", root);
	mkdir(dir, 0755);
	snprintf(dir, sizeof(dir), "%s/sys/firmware/efi", root);
	mkdir(dir, 0755);
	snprintf(dir, sizeof(dir), "%s/sys/firmware/efi/efivars", root);
	mkdir(dir, 0755);
	setenv("BOOTBENCH_SYSROOT", root, 1);

	CHECK(boot_source_read(&s) == -1 && s.via == BOOT_VIA_UNKNOWN, "no variables: no answer (%d)", s.via);

	current(1);
	n = path_of(p, 1, 1, "");
	option("UEFI HTTPv4 (MAC:525400123456)", p, n, 0);
	CHECK(boot_source_read(&s) == 0 && s.via == BOOT_VIA_HTTP, "edk2's HTTPv4 option, its URI node empty: http (%s)",
	      boot_via_name(s.via));
	CHECK(s.option == 1 && !strcmp(s.description, "UEFI HTTPv4 (MAC:525400123456)") && !s.uri[0] &&
		      !strcmp(s.mac, "52:54:00:12:34:56"),
	      "Boot%04X '%s' uri '%s' mac '%s'", s.option, s.description, s.uri, s.mac);

	n = path_of(p, 1, 1, "http://10.0.0.5/bootbench/arm64/bootbench.iso");
	option("rack boot", p, n, 0);
	CHECK(boot_source_read(&s) == 0 && s.via == BOOT_VIA_HTTP &&
		      !strcmp(s.uri, "http://10.0.0.5/bootbench/arm64/bootbench.iso"),
	      "a URI set in the option: kept (%s)", s.uri);

	n = path_of(p, 1, 1, NULL);
	option("UEFI PXEv4 (MAC:525400123456)", p, n, 0);
	CHECK(boot_source_read(&s) == 0 && s.via == BOOT_VIA_PXE, "MAC and IPv4, no URI: pxe (%s)", boot_via_name(s.via));

	/* a disk over the network behind the NIC: iSCSI (MAC/IPv4/iSCSI) is a medium, not PXE */
	n = path_of(p, 1, 1, NULL);
	memcpy(p + n, "\x03\x13\x12\x00\x06\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00", 18);
	option("iSCSI disk", p, n + 18, 0);
	CHECK(boot_source_read(&s) == 0 && s.via == BOOT_VIA_MEDIUM && !s.mac[0], "iSCSI behind a MAC: medium (%s, mac '%s')",
	      boot_via_name(s.via), s.mac);

	n = path_of(p, 0, 0, NULL);
	option("UEFI QEMU QEMU CD-ROM", p, n, 0);
	CHECK(boot_source_read(&s) == 0 && s.via == BOOT_VIA_MEDIUM, "a controller's disk: medium (%s)",
	      boot_via_name(s.via));

	/* what must give no answer */
	current(2);
	CHECK(boot_source_read(&s) == -1 && s.via == BOOT_VIA_UNKNOWN, "BootCurrent names an option that is not there");
	put("BootCurrent", (const unsigned char *)"\1", 1);
	CHECK(boot_source_read(&s) == -1, "BootCurrent of one byte");
	current(1);
	n = path_of(p, 1, 1, "");
	option("UEFI HTTPv4", p, n, (int)n + 4 + 40);
	CHECK(boot_source_read(&s) == -1, "a path length past the variable's end");
	p[sizeof(pci) + 2] = 0, p[sizeof(pci) + 3] = 0;	/* the MAC node's length 0 */
	option("UEFI HTTPv4", p, n, 0);
	CHECK(boot_source_read(&s) == -1, "a node of length 0");
	n = path_of(p, 1, 1, "");
	p[sizeof(pci) + 2] = 0xff;			/* the MAC node runs past the path */
	option("UEFI HTTPv4", p, n, 0);
	CHECK(boot_source_read(&s) == -1, "a node past the path's end");
	{
		unsigned char v[] = { 1, 0, 0, 0, 8, 0, 'A', 0, 'B', 0 };	/* no 0 after the description */

		put("Boot0001", v, sizeof(v));
		CHECK(boot_source_read(&s) == -1, "a description with no end");
	}
	option("", p, 0, 0);
	CHECK(boot_source_read(&s) == -1, "a path of the end node alone: nothing booted from it");
	{
		/* a URI node with no end node after it, the path's length its own */
		unsigned char v[64] = { 1, 0, 0, 0, 0, 0, 'H', 0, 0, 0, 3, 0x18, 8, 0, 'h', 't', 't', 'p' };

		v[4] = 8;
		put("Boot0001", v, 18);
		CHECK(boot_source_read(&s) == -1 && s.via == BOOT_VIA_UNKNOWN, "a path with no end node: no answer (%s)",
		      boot_via_name(s.via));
	}
	{
		/* a load option of 4 KiB and more: not read whole, not trusted */
		static unsigned char big[5000];

		n = path_of(big + 10, 1, 1, "");
		memcpy(big, "\1\0\0\0\0\0H\0\0\0", 10);
		memcpy(big + 10 + n, "\x7f\xff\x04\x00", 4);
		big[4] = (unsigned char)((n + 4) & 0xff);
		put("Boot0001", big, 10 + n + 4);
		CHECK(boot_source_read(&s) == 0 && s.via == BOOT_VIA_HTTP, "the same option, its optional data short: http");
		put("Boot0001", big, sizeof(big));
		CHECK(boot_source_read(&s) == -1, "the same option with 5000 bytes of optional data: over 4 KiB, no answer");
	}
	n = path_of(p, 1, 1, "http://x/\x1b[2Jz\x7f");
	option("HTTP \x1b[31mboot", p, n, 0);
	CHECK(boot_source_read(&s) == 0 && !strcmp(s.description, "HTTP ?[31mboot") && !strcmp(s.uri, "http://x/?[2Jz?"),
	      "control characters shown as '?': '%s' '%s'", s.description, s.uri);

	{
		char cmd[700];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd))
			return 2;
	}
	return unit_done();
}
