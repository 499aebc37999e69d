#!/bin/sh
# SPDX-License-Identifier: MIT
# Stage 2 of the image chain, beside busybox and fio: the OpenZFS kernel
# modules, built once from the source Debian ships in zfs-dkms against the
# headers of the image's own kernel (linux-headers-*, linux-kbuild-*; all
# role zfs-src in image/packages.list), so nothing is compiled at run time.
# ARCH=arm64 (issue 47): cross-built into out/arm64/zfs/ against the arm64
# kernel's headers (dl/arm64/), with Debian's cross gcc-12 (the kernel's own
# compiler, as CC in the headers' .kernelvariables) and kbuild's host
# programs (fixdep, modpost) from this machine's linux-kbuild of the same
# version, taken from x86_64's downloads (dl/manifest.tsv): the arm64
# package's would run only under qemu-user, once for every object built.
# Reads dl/debs and dl/manifest.tsv (scripts/fetch.sh); writes out/zfs/:
#   modules/*.ko   stripped of debug information (62 MB -> 6 MB for zfs.ko)
#   release        the source and kernel versions, copied into the image
#   build.log      configure's and kbuild's output
# Cached: rebuilt only when the source, the kernel or this script changes;
# the modules of a key (those three) are kept in BOOTBENCH_CACHE (default
# /var/cache/bootbench, outside the tree: a fresh clone on the same machine
# reuses them; BOOTBENCH_CACHE= or off turns it off, as for
# scripts/build-rootfs.sh). The build gives the same bytes wherever it runs
# (tests/cli/reproducible.sh), so a kept copy is the build.
# The modules are not signed: Debian's kernel under Secure Boot refuses them
# (docs/user.md, "ZFS and Secure Boot").
set -eu
ROOT=${ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
HOST_DL=$ROOT/dl
die() { echo "zfs: $*" >&2; exit 2; }
case ${ARCH:=x86_64} in arm64) OUT=${OUT:-$ROOT/out/arm64} ;; *) OUT=${OUT:-$ROOT/out} ;; esac
. "$ROOT/scripts/arch.sh"
CROSS=$CROSS_COMPILE
# configure links a test program with the target's C compiler, though it
# builds only the modules: for arm64 the musl of out/arm64/musl (Debian's
# cross gcc has no C library here)
DL=$HOST_DL
set --
if [ "$ARCH" = arm64 ]; then
	DL=$HOST_DL/arm64
	set -- $CONFIGURE_CROSS --host=aarch64-linux-gnu CC="$MUSL_GCC"
	[ -x "$MUSL_GCC" ] || die "$MUSL_GCC is missing: run scripts/build-musl.sh (make ARCH=arm64)"
fi
OUT=$OUT/zfs

[ -f "$DL/manifest.tsv" ] || die "${DL#$ROOT/}/manifest.tsv is missing: run scripts/fetch.sh (ARCH=$ARCH)"
for t in ${CROSS}gcc-12 make dpkg-deb ${CROSS}strip; do
	command -v $t >/dev/null 2>&1 || die "$t is missing: run 'make deps' as root"
done
pin() { awk -F'\t' -v p="$1" '$2 == p { print $3; exit }' "${2:-$DL}/manifest.tsv"; }
deb() { echo "${2:-$DL}/debs/$(awk -F'\t' -v p="$1" '$2 == p { print $5; exit }' "${2:-$DL}/manifest.tsv")"; }
kpkg=$(awk -F'\t' '$1 == "kernel" && $2 ~ /^linux-image-[0-9]/ { print $2; exit }' "$DL/manifest.tsv")
[ -n "$kpkg" ] || die "no kernel image package in ${DL#$ROOT/}/manifest.tsv"
kver=${kpkg#linux-image-}
hpkg=linux-headers-$kver
cpkg=linux-headers-${kver%-*}-common
bpkg=$(awk -F'\t' '$1 == "zfs-src" && $2 ~ /^linux-kbuild-/ { print $2; exit }' "$DL/manifest.tsv")
zver=$(pin zfs-dkms)
for p in zfs-dkms "$hpkg" "$cpkg" "$bpkg"; do
	[ -n "$p" ] && [ -n "$(pin "$p")" ] || die "package ${p:-linux-kbuild} is not in ${DL#$ROOT/}/manifest.tsv (the packages list's role zfs-src)"
done
[ "$(pin "$hpkg")" = "$(pin "$kpkg")" ] || die "$hpkg $(pin "$hpkg") is not the kernel's version $(pin "$kpkg")"
# kbuild's host programs run here: this machine's build of the package
KBUILD_DL=$DL
if [ "$ARCH" != x86_64 ]; then
	KBUILD_DL=$HOST_DL
	[ "$(pin "$bpkg" "$HOST_DL")" = "$(pin "$bpkg")" ] ||
		die "$bpkg for this machine is $(pin "$bpkg" "$HOST_DL"), not the arm64 kernel's $(pin "$bpkg"): fetch both again (rm dl/.fetched dl/arm64/.fetched dl/apt/lists/*_InRelease dl/arm64/apt/lists/*_InRelease; make image ARCH=arm64), or pin both in one BOOTBENCH_PINS file"
fi

want="zfs-dkms $zver kernel $kver $(pin "$kpkg") script $(sha256sum "$0" | cut -c1-16)"
if [ -f "$OUT/.built" ] && [ "$(cat "$OUT/.built")" = "$want" ]; then
	exit 0
fi
CACHE=${BOOTBENCH_CACHE-/var/cache/bootbench}
[ "$CACHE" != off ] || CACHE=""	# (the image benches' repro builds say off: never a folder "off")
kept=${CACHE:+$CACHE/zfs-$(echo "$want" | sha256sum | cut -c1-16)}
if [ -n "$kept" ] && [ -f "$kept/.built" ] && [ "$(cat "$kept/.built")" = "$want" ]; then
	rm -rf "$OUT"
	mkdir -p "$OUT"
	cp -a "$kept/modules" "$kept/release" "$OUT/"
	echo "$want" > "$OUT/.built"
	echo "  ZFS     $(ls "$OUT/modules" | wc -l) modules, kept from $kept (same key: source, kernel, script)"
	exit 0
fi
echo "  BUILD   zfs $zver modules for $kver"
start=$(date +%s)
rm -rf "$OUT"
mkdir -p "$OUT/sys" "$OUT/modules"
for p in zfs-dkms "$hpkg" "$cpkg"; do
	dpkg-deb -x "$(deb "$p")" "$OUT/sys" || die "cannot unpack $(deb "$p")"
done
dpkg-deb -x "$(deb "$bpkg" "$KBUILD_DL")" "$OUT/sys" || die "cannot unpack $(deb "$bpkg" "$KBUILD_DL")"
# the kernel's tree and compiler for kbuild, from the environment (the
# headers' .kernelvariables sets CC to \$(CROSS_COMPILE)gcc-12)
export ARCH CROSS_COMPILE=$CROSS
H=$OUT/sys/usr/src
# the headers' Makefile includes the common tree by its installed path
echo "include $H/$cpkg/Makefile" > "$H/$hpkg/Makefile"
src=$(ls -d "$H"/zfs-* | head -n1)
[ -f "$src/configure" ] || die "zfs-dkms carries no configure script"
log=$OUT/build.log
(cd "$src" && ./configure "$@" --with-config=kernel --with-linux="$H/$cpkg" --with-linux-obj="$H/$hpkg") > "$log" 2>&1 ||
	{ tail -20 "$log" >&2; die "configure failed (${log#$ROOT/})"; }
# the source's path (in every ASSERT's __FILE__, and in the debug lines of
# the assembler files: icp's AES and SHA, zlua's setjmp, which set the
# build-id) mapped to a fixed name, so that equal sources give equal modules
# wherever out/ is
map="-ffile-prefix-map=$OUT/sys=/build"
# no debug information: it is stripped below anyway, and not making it
# takes a fifth off the compile (210 s -> 173 s alone on 2 cores; GCC's -g
# changes no code); kbuild's own switches, given on the command line
make -C "$src/module" -j"$(nproc)" KCFLAGS="$map" KAFLAGS="$map" CONFIG_DEBUG_INFO= CONFIG_DEBUG_INFO_BTF_MODULES= >> "$log" 2>&1 || { tail -20 "$log" >&2; die "module build failed (${log#$ROOT/})"; }
for ko in $(find "$src/module" -name '*.ko'); do
	${CROSS}strip --strip-debug -o "$OUT/modules/${ko##*/}" "$ko"
done
[ -f "$OUT/modules/zfs.ko" ] && [ -f "$OUT/modules/spl.ko" ] || die "the build made no zfs.ko or spl.ko"
for ko in "$OUT"/modules/*.ko; do
	vermagic=$(strings "$ko" | sed -n 's/^vermagic=\([^ ]*\) .*/\1/p' | head -n1)
	[ "$vermagic" = "$kver" ] || die "${ko##*/} is built for '$vermagic', not $kver"
done
{
	echo "zfs-dkms $zver"
	echo "zfs-kernel $kver"
	echo "zfs-modules $(cd "$OUT/modules" && ls | sed 's/\.ko$//' | tr '\n' ' ' | sed 's/ $//')"
} > "$OUT/release"
rm -rf "$OUT/sys"
echo "$want" > "$OUT/.built"
# kept for the next clone on this machine; whole or not at all
if [ -n "$kept" ] && mkdir -p "$CACHE" 2>/dev/null; then
	rm -rf "$kept.tmp" && mkdir -p "$kept.tmp" && cp -a "$OUT/modules" "$OUT/release" "$OUT/.built" "$kept.tmp/" &&
		rm -rf "$kept" && mv "$kept.tmp" "$kept" || rm -rf "$kept.tmp"
fi
echo "  ZFS     $(ls "$OUT/modules" | wc -l) modules, $(du -sk "$OUT/modules" | cut -f1) KiB, built in $(( $(date +%s) - start )) s"
