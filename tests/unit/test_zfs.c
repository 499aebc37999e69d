// SPDX-License-Identifier: MIT
/*
 * test_zfs.c - the ZFS topology table (names, the widths each can be made
 * of, capacities) and the reading of a label's pool name, which decides
 * what the cleanup may clear and which disks are refused: an nvlist packed
 * as ZFS packs it (XDR) in the first label, in the last label only, one
 * without "name", one cut short, and a file too small to hold labels.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "raid/zfs.h"

static size_t put32(unsigned char *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
	return 4;
}

static size_t put_str(unsigned char *p, const char *s)
{
	size_t n = strlen(s), padded = (n + 3) & ~(size_t)3;

	put32(p, (uint32_t)n);
	memset(p + 4, 0, padded);
	memcpy(p + 4, s, n);
	return 4 + padded;
}

/* One pair: sizes, name, type, count, then VALUE (a string) or 8 bytes of a uint64. */
static size_t put_pair(unsigned char *p, const char *name, const char *value)
{
	size_t n = 8;

	n += put_str(p + n, name);
	n += put32(p + n, value ? 9 : 8);	/* DATA_TYPE_STRING, DATA_TYPE_UINT64 */
	n += put32(p + n, 1);
	if (value) {
		n += put_str(p + n, value);
	} else {
		memset(p + n, 0, 8);
		p[n + 7] = 5000 % 256;
		n += 8;
	}
	put32(p, (uint32_t)n);
	put32(p + 4, (uint32_t)n + 16);
	return n;
}

/* An XDR nvlist as ZFS packs a label's: version first, then the pool's name. */
static size_t nvlist(unsigned char *p, const char *pool)
{
	size_t n = 0;

	p[n++] = 1;	/* NV_ENCODE_XDR */
	p[n++] = 1;	/* little-endian host */
	p[n++] = 0;
	p[n++] = 0;
	n += put32(p + n, 0);	/* nvl_version */
	n += put32(p + n, 1);	/* NV_UNIQUE_NAME */
	n += put_pair(p + n, "version", NULL);
	if (pool)
		n += put_pair(p + n, "name", pool);
	n += put_pair(p + n, "hostname", "bbtest");
	n += put32(p + n, 0);
	n += put32(p + n, 0);
	return n;
}

static void image(const char *path, size_t size, const char *pool, int at_end)
{
	unsigned char *buf = calloc(1, size);
	size_t label = at_end ? size - 256 * 1024 : 0;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (size >= 1024 * 1024)
		nvlist(buf + label + 16 * 1024, pool);
	if (fd < 0 || write(fd, buf, size) != (ssize_t)size)
		perror(path);
	close(fd);
	free(buf);
}

int main(void)
{
	char dir[] = "/tmp/bbzfs.XXXXXX", path[64], name[64], why[128];
	unsigned char buf[512];
	size_t n;

	CHECK(zfs_topology_find("raidz2") && zfs_topology_find("raidz2")->parity == 2, "raidz2 has two parity disks");
	CHECK(!zfs_topology_find("raidz4") && !zfs_topology_find("raid5") && !zfs_topology_find(""), "unknown names");
	CHECK(!zfs_width_fits(zfs_topology_find("raidz3"), 3, why, sizeof(why)) && strstr(why, "at least 4"),
	      "raidz3 over 3 disks is refused: %s", why);
	CHECK(zfs_width_fits(zfs_topology_find("raidz3"), 4, why, sizeof(why)), "raidz3 over 4 disks");
	CHECK(!zfs_width_fits(zfs_topology_find("mirror"), 5, why, sizeof(why)) && strstr(why, "even"),
	      "a mirror of 5 is refused: %s", why);
	CHECK(zfs_width_fits(zfs_topology_find("stripe"), 1, why, sizeof(why)), "a stripe of one disk");
	CHECK(zfs_capacity(zfs_topology_find("mirror"), 6) == 3, "mirror vdevs over 6 hold 3");
	CHECK(zfs_capacity(zfs_topology_find("raidz2"), 6) == 4, "raidz2 over 6 holds 4");
	CHECK(zfs_capacity(zfs_topology_find("stripe"), 6) == 6, "a stripe holds all");
	zfs_pool_name(zfs_topology_find("raidz1"), 6, name, sizeof(name));
	CHECK(!strcmp(name, "bootbench-raidz1-6") && zfs_is_ours(name), "the pool's name: %s", name);
	CHECK(!zfs_is_ours("tank") && !zfs_is_ours("bootbench"), "other pools are not ours");

	n = nvlist(buf, "bootbench-mirror-2");
	CHECK(zfs_nvlist_string(buf, n, "name", name, sizeof(name)) == 1 && !strcmp(name, "bootbench-mirror-2"),
	      "the name from the nvlist: %s", name);
	CHECK(zfs_nvlist_string(buf, n, "hostname", name, sizeof(name)) == 1 && !strcmp(name, "bbtest"),
	      "a later pair: %s", name);
	CHECK(!zfs_nvlist_string(buf, n, "version", name, sizeof(name)), "a number is not a string");
	CHECK(!zfs_nvlist_string(buf, 40, "name", name, sizeof(name)), "a list cut short reads as none");
	buf[0] = 0;
	CHECK(!zfs_nvlist_string(buf, n, "name", name, sizeof(name)), "a native-encoded list is not read");

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/head.img", dir);
	image(path, 4u << 20, "tank", 0);
	CHECK(zfs_label_pool(path, name, sizeof(name)) == 1 && !strcmp(name, "tank"), "the first label: %s", name);
	image(path, 4u << 20, "bootbench-raidz2-6", 1);
	CHECK(zfs_label_pool(path, name, sizeof(name)) == 1 && !strcmp(name, "bootbench-raidz2-6"),
	      "only the last label left: %s", name);
	image(path, 4u << 20, NULL, 0);
	CHECK(zfs_label_pool(path, name, sizeof(name)) == 0, "a label without a name is no pool");
	unlink(path);
	image(path, 512 * 1024, NULL, 0);
	CHECK(zfs_label_pool(path, name, sizeof(name)) == 0, "a file too small for labels has none");
	unlink(path);
	CHECK(zfs_label_pool(path, name, sizeof(name)) == -1, "a missing device cannot be read");
	rmdir(dir);
	return unit_done();
}
