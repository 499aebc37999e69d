// SPDX-License-Identifier: MIT
/* contents.c - what a block device holds, from its first 68 KiB (contents.h). */
#include "sys/contents.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"

/* Signatures at fixed offsets, enough to say what a user would lose. */
static const struct signature {
	uint64_t off;
	const char *magic;
	size_t len;
	const char *what;
} signatures[] = {
	{ 512, "EFI PART", 8, "GPT partition table" },
	{ 4096, "EFI PART", 8, "GPT partition table" },
	{ 1080, "\x53\xef", 2, "ext2/3/4 filesystem" },
	{ 0, "XFSB", 4, "XFS filesystem" },
	{ 65600, "_BHRfS_M", 8, "btrfs filesystem" },
	{ 3, "NTFS    ", 8, "NTFS filesystem" },
	{ 82, "FAT32   ", 8, "FAT32 filesystem" },
	{ 54, "FAT1", 4, "FAT filesystem" },
	{ 0, "LUKS\xba\xbe", 6, "LUKS encrypted volume" },
	{ 536, "LVM2 001", 8, "LVM physical volume" },
	{ 4096, "\xfc\x4e\x2b\xa9", 4, "md RAID member (1.1/1.2 superblock)" },
	{ 4086, "SWAPSPACE2", 10, "swap space" },
	{ 32769, "CD001", 5, "ISO 9660 filesystem" },
};

void contents_describe(int fd, char *buf, size_t len)
{
	static unsigned char block[69632];
	ssize_t n = pread(fd, block, sizeof(block), 0);
	size_t used = 0;
	unsigned i;

	buf[0] = 0;
	if (n <= 0)
		return;
	for (i = 0; i < ARRAY_SIZE(signatures); i++) {
		const struct signature *s = &signatures[i];

		if (s->off + s->len > (uint64_t)n || memcmp(block + s->off, s->magic, s->len))
			continue;
		if (strstr(buf, s->what))
			continue;
		used += snprintf(buf + used, len > used ? len - used : 0, "%s%s", used ? ", " : "", s->what);
	}
	if (!used && n >= 512 && block[510] == 0x55 && block[511] == 0xaa)
		snprintf(buf, len, "MBR partition table");
}

