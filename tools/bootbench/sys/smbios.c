// SPDX-License-Identifier: MIT
/*
 * smbios.c - the SMBIOS table read for the inventory (smbios.h). The
 * layout is DMTF's SMBIOS Reference Specification (DSP0134): structures of
 * a 4-byte header (type, formatted length, handle), the formatted area,
 * then their strings, each NUL-terminated, the set ended by one more NUL.
 * A field is read only when the structure's formatted length covers it
 * (an older table stops earlier), and a structure that runs past the table
 * ends the walk: the table is the firmware's and may be wrong.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "sys/root.h"
#include "sys/smbios.h"

#define TABLE_MAX (1 << 20)	/* a server's table is some 10 KiB */

enum { T_BIOS = 0, T_SYSTEM = 1, T_BOARD = 2, T_PROCESSOR = 4, T_MEMORY_DEVICE = 17, T_END = 127 };

struct structure {
	const uint8_t *p;	/* the header and formatted area */
	unsigned len;		/* the formatted length */
	const char *strings, *end;
};

static unsigned byte_at(const struct structure *s, unsigned off)
{
	return off < s->len ? s->p[off] : 0;
}

static unsigned word_at(const struct structure *s, unsigned off)
{
	return off + 1 < s->len ? (unsigned)s->p[off] | (unsigned)s->p[off + 1] << 8 : 0;
}

static uint32_t dword_at(const struct structure *s, unsigned off)
{
	return off + 3 < s->len ? (uint32_t)word_at(s, off) | (uint32_t)word_at(s, off + 2) << 16 : 0;
}

/* String OFF of the structure (its number: 1 the first), printable ASCII, blanks trimmed; "" when none. */
static void string_at(const struct structure *s, unsigned off, char *buf, size_t len)
{
	unsigned n = byte_at(s, off), i;
	const char *str = s->strings;
	size_t k = 0;

	buf[0] = 0;
	if (!n)
		return;
	for (i = 1; i < n && str < s->end; i++)
		str += strnlen(str, (size_t)(s->end - str)) + 1;
	if (str >= s->end)
		return;
	while (str < s->end && *str == ' ')
		str++;
	for (; str < s->end && *str && k + 1 < len; str++)
		buf[k++] = *str >= 0x20 && *str < 0x7f ? *str : '?';
	while (k && buf[k - 1] == ' ')
		k--;
	buf[k] = 0;
}

static const char *memory_type(unsigned t)
{
	static const struct { unsigned code; const char *name; } types[] = {
		{ 0x03, "DRAM" }, { 0x07, "RAM" }, { 0x0F, "SDRAM" }, { 0x12, "DDR" }, { 0x13, "DDR2" },
		{ 0x18, "DDR3" }, { 0x1A, "DDR4" }, { 0x1B, "LPDDR" }, { 0x1C, "LPDDR2" }, { 0x1D, "LPDDR3" },
		{ 0x1E, "LPDDR4" }, { 0x1F, "NVRAM" }, { 0x20, "HBM" }, { 0x21, "HBM2" }, { 0x22, "DDR5" },
		{ 0x23, "LPDDR5" }, { 0x24, "HBM3" },
	};
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(types); i++)
		if (types[i].code == t)
			return types[i].name;
	return "other";
}

static void system_uuid(struct smbios *sm, const struct structure *s, int le)
{
	const uint8_t *u = s->p + 8;
	unsigned i, ff = 0, zero = 0;

	if (s->len < 0x19)
		return;
	for (i = 0; i < 16; i++) {
		ff += u[i] == 0xff;
		zero += u[i] == 0;
	}
	if (ff == 16 || zero == 16)
		return;		/* "not present", "not settable" */
	/* from 2.6 on the first three fields are little-endian, as the kernel's product_uuid reads them */
	if (le)
		snprintf(sm->sys_uuid, sizeof(sm->sys_uuid),
			 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[3], u[2], u[1], u[0],
			 u[5], u[4], u[7], u[6], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
	else
		snprintf(sm->sys_uuid, sizeof(sm->sys_uuid),
			 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3],
			 u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

static void processor(struct smbios *sm, const struct structure *s)
{
	struct smbios_socket *k;

	if (sm->nsockets == SMBIOS_MAX_SOCKETS)
		return;
	k = &sm->sockets[sm->nsockets++];
	string_at(s, 0x04, k->socket, sizeof(k->socket));
	string_at(s, 0x07, k->manufacturer, sizeof(k->manufacturer));
	string_at(s, 0x10, k->version, sizeof(k->version));
	k->max_mhz = word_at(s, 0x14);
	k->populated = (byte_at(s, 0x18) & 0x40) != 0;
	k->cores = byte_at(s, 0x23);
	k->threads = byte_at(s, 0x25);
	if (k->cores == 0xff)	/* more than 255: the 3.0 word */
		k->cores = word_at(s, 0x2a);
	if (k->threads == 0xff)
		k->threads = word_at(s, 0x2e);
}

static void memory_device(struct smbios *sm, const struct structure *s)
{
	struct smbios_dimm *d;
	unsigned size = word_at(s, 0x0c);

	if (sm->ndimms == SMBIOS_MAX_DIMMS || s->len < 0x15)
		return;
	d = &sm->dimms[sm->ndimms++];
	string_at(s, 0x10, d->slot, sizeof(d->slot));
	string_at(s, 0x11, d->bank, sizeof(d->bank));
	if (size == 0x7fff && s->len >= 0x20)
		d->size = (uint64_t)(dword_at(s, 0x1c) & 0x7fffffff) << 20;
	else if (size != 0xffff)
		d->size = size & 0x8000 ? (uint64_t)(size & 0x7fff) << 10 : (uint64_t)size << 20;
	if (!d->size)
		return;		/* an empty slot: its locators are all there is */
	snprintf(d->type, sizeof(d->type), "%s", memory_type(byte_at(s, 0x12)));
	d->speed_mts = word_at(s, 0x15);
	d->configured_mts = word_at(s, 0x20);
	if (d->speed_mts == 0xffff)
		d->speed_mts = dword_at(s, 0x54);
	if (d->configured_mts == 0xffff)
		d->configured_mts = dword_at(s, 0x58);
	string_at(s, 0x17, d->manufacturer, sizeof(d->manufacturer));
	string_at(s, 0x18, d->serial, sizeof(d->serial));
	string_at(s, 0x1a, d->part, sizeof(d->part));
}

int smbios_parse(struct smbios *sm, const uint8_t *t, size_t len)
{
	size_t at = 0;
	unsigned found = 0;
	int le = 1;

	if (sm->version[0]) {
		unsigned major = 0, minor = 0;

		sscanf(sm->version, "%u.%u", &major, &minor);
		le = major > 2 || (major == 2 && minor >= 6);
	}
	while (at + 4 <= len) {
		struct structure s = { .p = t + at, .len = t[at + 1] };
		const char *end;

		if (s.len < 4 || at + s.len > len)
			break;
		s.strings = (const char *)t + at + s.len;
		/* the string set ends at two NULs (one more when there are no strings) */
		for (end = s.strings; end + 1 < (const char *)t + len && (end[0] || end[1]); end++)
			;
		if (end + 1 >= (const char *)t + len)
			break;
		s.end = end + 1;
		found++;
		switch (t[at]) {
		case T_BIOS:
			string_at(&s, 0x04, sm->bios_vendor, sizeof(sm->bios_vendor));
			string_at(&s, 0x05, sm->bios_version, sizeof(sm->bios_version));
			string_at(&s, 0x08, sm->bios_date, sizeof(sm->bios_date));
			break;
		case T_SYSTEM:
			string_at(&s, 0x04, sm->sys_vendor, sizeof(sm->sys_vendor));
			string_at(&s, 0x05, sm->sys_product, sizeof(sm->sys_product));
			string_at(&s, 0x06, sm->sys_version, sizeof(sm->sys_version));
			string_at(&s, 0x07, sm->sys_serial, sizeof(sm->sys_serial));
			system_uuid(sm, &s, le);
			string_at(&s, 0x19, sm->sys_sku, sizeof(sm->sys_sku));
			string_at(&s, 0x1a, sm->sys_family, sizeof(sm->sys_family));
			break;
		case T_BOARD:
			string_at(&s, 0x04, sm->board_vendor, sizeof(sm->board_vendor));
			string_at(&s, 0x05, sm->board_product, sizeof(sm->board_product));
			string_at(&s, 0x06, sm->board_version, sizeof(sm->board_version));
			string_at(&s, 0x07, sm->board_serial, sizeof(sm->board_serial));
			break;
		case T_PROCESSOR:
			processor(sm, &s);
			break;
		case T_MEMORY_DEVICE:
			memory_device(sm, &s);
			break;
		}
		if (t[at] == T_END)
			break;
		at = (size_t)(s.end - (const char *)t) + 1;
	}
	return found ? 0 : set_err("the SMBIOS table holds no structure");
}

/* The table's version from its entry point: "_SM_" (2.x) or "_SM3_" (3.x). */
static void entry_version(struct smbios *sm)
{
	char path[PATH_MAX];
	uint8_t e[32];
	ssize_t n;
	int fd;

	root_path(path, sizeof(path), "/sys/firmware/dmi/tables/smbios_entry_point");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, e, sizeof(e));
	close(fd);
	if (n >= 9 && !memcmp(e, "_SM3_", 5))
		snprintf(sm->version, sizeof(sm->version), "%u.%u", e[7], e[8]);
	else if (n >= 8 && !memcmp(e, "_SM_", 4))
		snprintf(sm->version, sizeof(sm->version), "%u.%u", e[6], e[7]);
}

int smbios_read(struct smbios *sm)
{
	char path[PATH_MAX];
	uint8_t *t = xcalloc(1, TABLE_MAX);
	size_t len = 0;
	ssize_t n;
	int fd, rc;

	memset(sm, 0, sizeof(*sm));
	root_path(path, sizeof(path), "/sys/firmware/dmi/tables/DMI");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(t);
		return set_err("no SMBIOS table (%s: %s)", path, strerror(errno));
	}
	while (len < TABLE_MAX && (n = read(fd, t + len, TABLE_MAX - len)) > 0)
		len += (size_t)n;
	close(fd);
	entry_version(sm);
	rc = smbios_parse(sm, t, len);
	free(t);
	return rc;
}
