# SPDX-License-Identifier: MIT
# Reproducible bytes: a second build of this commit, from the same dl/,
# into another output folder, gives the same initramfs, packs, USB image,
# ISO and pxe/ files as out/ (make image). Here the cheap part of the chain
# is built again: bootbench (compiled anew, with jansson: no build path may
# reach the stripped program; wolfSSL's objects taken from out/, checked for
# build paths) and the image stages (scripts/build-rootfs.sh,
# scripts/build-image.sh) from out/'s busybox, fio, curl and ZFS modules.
# The stages' compressed archives come from the build's cache (out/cache)
# when their input bytes are the first build's, so what this checks is
# that the second build assembles the same bytes to compress (a difference
# misses the cache and the archive differs); `make bench-image` builds the
# whole chain twice with no cache, the compressors' determinism included.
# timeout: 900
# tier: image (not in make check: it reads the built image)
. tests/lib.sh
for f in initramfs.img firmware.img rescue.img zfs.img bootbench-usb.img bootbench.iso pxe/boot.ipxe; do
	[ -e "out/$f" ] || { echo "out/$f is missing: run 'make image'"; exit 1; }
done
B=$T/second
mkdir -p "$B"
# the first build's compiled inputs, as they are (the second build compiles
# bootbench anew)
cp -a out/busybox out/fio out/curl out/zfs "$B/"
ln -s "$PWD/out/pkgs" "$B/pkgs"
# bootbench compiled in a folder named relative to the checkout (as `make
# OUT=out/repro` names it): the relative build paths must be mapped too
R2=out/.reproducible-test
rm -rf "$R2"
# wolfSSL's objects as the first build made them (their mtimes kept, so make finds them up to
# date): compiled without -g, with the checkout's path mapped, they can hold no output folder's
# name, which is checked here instead of compiling them again (9 CPU-s of this test, issue 49);
# jansson's (-g) and bootbench's are compiled anew
check "wolfSSL's objects name no build folder (out/, dl/ or the checkout)" sh -c "
	! grep -l -e '$PWD/' -e 'out/wolfcrypt' out/wolfcrypt/*.o"
mkdir -p "$R2" && cp -a out/wolfcrypt "$R2/"
make --no-print-directory -j2 OUT="$R2" "$R2/bootbench" > "$T/make.log" 2>&1
check "bootbench builds in a second output folder" [ $? = 0 ]
strip -o "$T/bb1" out/bootbench && strip -o "$T/bb2" "$R2/bootbench"
check "... the same program, stripped, as out/bootbench" cmp -s "$T/bb1" "$T/bb2"
objcopy --only-keep-debug "$R2/bootbench" "$T/bb2.debug"
check "... and the same debug information" cmp -s out/bootbench.debug "$T/bb2.debug"
cp "$R2/bootbench" "$B/bootbench"
rm -rf "$R2"
check "no build path is in the image's programs and the ZFS modules" sh -c "
	! grep -l -e '$PWD/out/' -e '$PWD/dl/' -e '$PWD/tools/' -e '$B' out/rootfs/usr/bin/bootbench out/rootfs/usr/bin/curl out/rootfs/usr/bin/fio out/rootfs/bin/busybox \
		out/zfs/modules/*.ko"
sde=$(scripts/source-date.sh)
check "busybox's banner carries the last commit's date" sh -c "
	out/busybox/busybox 2>&1 | head -n1 | grep -qF \"(\$(date -u -d @$sde '+%Y-%m-%d %H:%M:%S UTC'))\""
OUT="$B" scripts/build-rootfs.sh > "$T/rootfs.log" 2>&1
check "the second build's root filesystem and packs" [ $? = 0 ]
# a key is a checksum of the input and the tool's flags: an archive the
# first build made is found by it (one cache entry a part and kind per key)
check "the cache holds the first build's archives" sh -c "ls out/cache | grep -q '^base\.zstd-'"

OUT="$B" scripts/build-image.sh > "$T/image.log" 2>&1
check "the second build's images" [ $? = 0 ] || cat "$T/rootfs.log" "$T/image.log"
sums() { (cd "$1" && sha256sum initramfs.img firmware.img rescue.img zfs.img bootbench-usb.img bootbench.iso \
	$(find pxe -type f | LC_ALL=C sort)); }
sums out > "$T/first.sums"
sums "$B" > "$T/second.sums"
echo "first build:"; cat "$T/first.sums"
for f in $(awk '{ print $2 }' "$T/first.sums"); do
	check "$f: the same bytes in both builds" sh -c "[ \"\$(grep ' $f\$' '$T/first.sums')\" = \"\$(grep ' $f\$' '$T/second.sums')\" ]"
done
check "the files of the FAT and ISO file systems carry the commit's time" sh -c "
	mdir -i out/bootbench-usb.img@@1M ::/boot/initramfs.img | grep -q \"\$(date -u -d @$sde '+%Y-%m-%d')\" &&
	xorriso -indev out/bootbench.iso -find /boot/initramfs.img -exec lsdl 2>/dev/null | grep -q \"\$(date -u -d @$sde '+%b %e')\""
finish
