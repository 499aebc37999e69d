/* SPDX-License-Identifier: MIT */
/*
 * crc32c.h - CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the
 * checksum of iSCSI, ext4 and btrfs metadata, and of fio's verify=crc32c.
 */
#ifndef BB_CRC32C_H
#define BB_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* crc = 0 to start; feed the result back to continue over more data. */
uint32_t crc32c(uint32_t crc, const void *data, size_t len);

#endif
