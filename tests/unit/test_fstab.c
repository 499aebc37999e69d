// SPDX-License-Identifier: MIT
/* test_fstab.c - rescue/fstab.c: fstab(5) fields and escapes, what a chroot mounts, mount data. */
#include <stdlib.h>
#include <string.h>

#include "rescue/fstab.h"
#include "unit.h"
#include "lib/util.h"

int main(void)
{
	const char *text = "# /etc/fstab\n"
			   "\n"
			   "UUID=1111-2222 / ext4 errors=remount-ro 0 1\n"
			   "  PARTUUID=abcd\t/boot/efi\tvfat\tumask=0077,noatime 0 1\n"
			   "LABEL=my\\040disk /mnt/my\\040disk ext4 defaults\n"
			   "/dev/sda3 none swap sw 0 0\n"
			   "nas:/x /mnt/nas nfs4 defaults 0 0\n"
			   "/dev/sdb1 /media/usb vfat noauto,user 0 0\n"
			   "/dev/mapper/vg-home /home btrfs subvol=@home,compress=zstd,x-systemd.automount 0 0\n"
			   "/dev/sdc1 /srv ext4 noautodefrag 0 2\n"
			   "/dev/sdd1 /net ext4 _netdev 0 2\n";
	struct fstab_entry *e = NULL;
	char buf[512];
	int n = fstab_parse(text, &e);

	CHECK(n == 9, "9 entries, got %d", n);
	if (n != 9)
		return unit_done();
	CHECK(!strcmp(e[0].spec, "UUID=1111-2222") && !strcmp(e[0].dir, "/") && e[0].line == 3, "root line");
	CHECK(!strcmp(e[1].dir, "/boot/efi") && !strcmp(e[1].type, "vfat"), "tabs and leading blanks");
	CHECK(!strcmp(e[2].dir, "/mnt/my disk"), "\\040 is a space: %s", e[2].dir);
	CHECK(!strcmp(e[2].spec, "LABEL=my disk") && !strcmp(e[2].opts, "defaults"), "the spec decoded, options kept");
	CHECK(!fstab_wanted(&e[0]), "the root is mounted by the chroot itself");
	CHECK(fstab_wanted(&e[1]), "the ESP is mounted");
	CHECK(!fstab_wanted(&e[3]), "swap is not");
	CHECK(!fstab_wanted(&e[4]), "nfs is not");
	CHECK(!fstab_wanted(&e[5]), "noauto is not");
	CHECK(fstab_wanted(&e[6]), "btrfs /home is");
	CHECK(fstab_wanted(&e[7]), "noautodefrag is not noauto");
	CHECK(!fstab_wanted(&e[8]), "_netdev is a network filesystem");
	CHECK(!fstab_opt(e[6].opts, "subvol", buf, sizeof(buf)) && !strcmp(buf, "@home"), "subvol=@home: %s", buf);
	CHECK(fstab_opt(e[6].opts, "vol", buf, sizeof(buf)) == -1, "vol= is not subvol=");
	fstab_fs_data(e[6].opts, buf, sizeof(buf));
	CHECK(!strcmp(buf, "subvol=@home,compress=zstd"), "mount data without x-systemd.*: %s", buf);
	fstab_fs_data(e[1].opts, buf, sizeof(buf));
	CHECK(!strcmp(buf, "umask=0077"), "noatime is a flag, not data: %s", buf);
	fstab_fs_data(e[0].opts, buf, sizeof(buf));
	CHECK(!strcmp(buf, ""), "errors= left out: '%s'", buf);
	free(e);
	CHECK(fstab_parse("UUID=x /only-two\n", &e) == -1 && strstr(bb_err, "line 1"), "a short line: %s", bb_err);
	CHECK(fstab_parse("# nothing\n\n", &e) == 0, "comments only");
	free(e);
	CHECK(fstab_resolve("UUID=no-such-uuid-here", buf, sizeof(buf)) == -1 && strstr(bb_err, "no device has UUID=no-such"),
	      "a missing device is named: %s", bb_err);
	CHECK(fstab_resolve("/etc/passwd", buf, sizeof(buf)) == -1, "a file is not a device");
	return unit_done();
}
