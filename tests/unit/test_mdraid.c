// SPDX-License-Identifier: MIT
/*
 * test_mdraid.c - the RAID level table (names, aliases, capacities, the
 * minimum disk counts mdadm accepts) and the reading of a v1.2 superblock's
 * name, which decides which arrays the cleanup may stop: on files laid out
 * as md writes them, on one with another magic, and on one too short.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "raid/mdraid.h"
#include "unit.h"

static const struct {
	const char *given, *level;
} names[] = {
	{ "0", "raid0" }, { "raid0", "raid0" }, { "1", "raid1" }, { "5", "raid5" }, { "raid6", "raid6" },
	{ "10", "raid10-n2" }, { "raid10", "raid10-n2" }, { "10-n2", "raid10-n2" }, { "raid10-f2", "raid10-f2" },
	{ "10-o2", "raid10-o2" }, { "linear", "linear" },
};

/* A file of 16 KiB with a v1.2 superblock (or MAGIC) 4 KiB in, named NAME. */
static void write_image(const char *path, unsigned magic, const char *name, size_t size)
{
	unsigned char buf[16384] = { 0 };
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	buf[4096] = magic & 0xff;
	buf[4097] = (magic >> 8) & 0xff;
	buf[4098] = (magic >> 16) & 0xff;
	buf[4099] = magic >> 24;
	buf[4100] = 1;	/* major version */
	strncpy((char *)buf + 4096 + 32, name, 32);
	if (fd < 0 || write(fd, buf, size) != (ssize_t)size)
		perror(path);
	close(fd);
}

int main(void)
{
	char dir[] = "/tmp/bbmd.XXXXXX", path[64], name[64];
	unsigned i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct raid_level *l = raid_level_find(names[i].given);

		CHECK(l && !strcmp(l->name, names[i].level), "'%s' is %s", names[i].given, names[i].level);
	}
	CHECK(!raid_level_find("7"), "no raid7");
	CHECK(!raid_level_find("raid10-x2"), "no raid10-x2");
	CHECK(!raid_level_find(""), "an empty name is no level");
	CHECK(raid_level_find("5")->min_disks == 3 && raid_level_find("6")->min_disks == 4, "minimum disks");
	CHECK(raid_capacity(raid_level_find("5"), 4) == 3, "raid5 on 4 disks holds 3");
	CHECK(raid_capacity(raid_level_find("6"), 6) == 4, "raid6 on 6 disks holds 4");
	CHECK(raid_capacity(raid_level_find("10-f2"), 4) == 2, "raid10 on 4 disks holds 2");
	CHECK(raid_capacity(raid_level_find("1"), 3) == 1, "raid1 holds 1");
	CHECK(raid_capacity(raid_level_find("0"), 3) == 3, "raid0 holds all");
	for (i = 0; i < raid_level_count; i++)
		CHECK(raid_levels[i].redundant == (raid_levels[i].md_level[0] != '0' &&
						   strcmp(raid_levels[i].md_level, "linear")),
		      "%s: redundant only with mirrors or parity", raid_levels[i].name);

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/ours", dir);
	write_image(path, 0xa92b4efc, "bootbench:bootbench-raid5", sizeof(((char[16384]){ 0 })));
	CHECK(md_superblock_name(path, name, sizeof(name)) == 1 && !strcmp(name, "bootbench:bootbench-raid5"),
	      "our superblock is read with its name (got '%s')", name);
	snprintf(path, sizeof(path), "%s/full", dir);
	write_image(path, 0xa92b4efc, "a-name-of-exactly-32-characters!", 16384);
	CHECK(md_superblock_name(path, name, sizeof(name)) == 1 && strlen(name) == 32,
	      "a 32-byte name without a terminator stops at 32 (got %zu)", strlen(name));
	snprintf(path, sizeof(path), "%s/other", dir);
	write_image(path, 0x12345678, "bootbench-raid5", 16384);
	CHECK(md_superblock_name(path, name, sizeof(name)) == 0, "another magic is no superblock");
	snprintf(path, sizeof(path), "%s/short", dir);
	write_image(path, 0xa92b4efc, "bootbench-raid5", 4096);
	CHECK(md_superblock_name(path, name, sizeof(name)) == -1, "a device too short cannot be read");
	CHECK(md_superblock_name("/nonexistent/x", name, sizeof(name)) == -1, "a missing device cannot be read");
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path))
		return 1;
	return unit_done();
}
