#!/bin/sh
# SPDX-License-Identifier: MIT
# Stage 3 of the image chain: the root filesystem, as the base initramfs
# and the packs the boot loaders load after it (image/packs.table).
# Reads only what the earlier stages wrote: dl/debs + dl/manifest.tsv (fetch),
# out/busybox/busybox (build-busybox.sh), out/fio/fio (build-fio.sh),
# out/curl/curl (build-curl.sh), out/bootbench (make), out/zfs/
# (build-zfs.sh), plus the data in image/
# and the rootfs/ overlay. Writes the staging trees out/rootfs/ (the base)
# and out/packs/NAME/, out/vmlinuz, and one archive per part: newc cpio,
# compressed, its large files in a squashfs image inside (step 9),
# out/initramfs.img and out/firmware.img, out/rescue.img, out/zfs.img. No root needed: owners are set by cpio, device nodes come
# from devtmpfs at boot. Equal inputs give equal bytes: names sorted, times
# SOURCE_DATE_EPOCH (the last commit's), owners root.
#   BOOTBENCH_COMPRESS=xz|zstd          every archive's compression (default:
#                                       each part's in image/packs.table)
#   BOOTBENCH_MODULE_COMPRESS=none|xz   each kernel module's own (none).
#     xz (busybox modprobe decompresses; Debian's 6.1 kernel cannot) makes
#     the unpacked base 34 MB smaller and its archive 0.3 MB, but every load
#     under TCG pays busybox's decompression (1.6 s for the 12 modules of a
#     guest's boot) and leaves "Invalid ELF header magic" in the kernel log
#     (busybox tries finit_module first).
#   BOOTBENCH_CACHE=DIR|off             the compressed results of step 9 by
#                                       their inputs' checksums (out/cache; out/arm64/cache for arm64)
#     mksquashfs, xz -9 and zstd -22 are most of this stage's time (about
#     90 of 110 CPU-seconds) and are pure functions of their input, flags
#     and version: an archive whose input did not change (a rebuild after a
#     change to bootbench leaves every pack's) is copied from the cache.
#     make bench-image's second build runs with it off, so the tools' own
#     determinism is still checked end to end.
# ARCH=arm64 (make's, issue 47): the same from dl/arm64/manifest.tsv and
# dl/arm64/debs (image/arm64/packages.list) into OUT=out/arm64: aarch64's library folder
# and loader, binutils' cross tools for arm64's ELF files, the programs run
# here under qemu-user, image/arm64/modules/ beside image/modules/ with the
# names of image/arm64/modules.absent skipped (each named in the release
# file), no BCJ filter (the kernel's xz has no arm64 one); the ZFS pack from
# out/arm64/zfs (scripts/build-zfs.sh's cross build).
set -eu
ROOT=${ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
DL=$ROOT/dl
OUT=${OUT:-$ROOT/out}
PKGS=$OUT/pkgs
STAGE=$OUT/rootfs
IMG=$ROOT/image
COMPRESS=${BOOTBENCH_COMPRESS:-}
MODULE_COMPRESS=${BOOTBENCH_MODULE_COMPRESS:-none}
die() { echo "rootfs: $*" >&2; exit 2; }
say() { echo "  ROOTFS  $*"; }
case $COMPRESS in ''|xz|zstd) ;; *) die "BOOTBENCH_COMPRESS=$COMPRESS: xz or zstd" ;; esac
case $MODULE_COMPRESS in xz|none) ;; *) die "BOOTBENCH_MODULE_COMPRESS=$MODULE_COMPRESS: xz or none" ;; esac
. "$ROOT/scripts/arch.sh"
case $ARCH in
x86_64)
	MANIFEST=$DL/manifest.tsv
	DEBS=$DL/debs
	LIBDIR=lib/x86_64-linux-gnu
	LOADER=ld-linux-x86-64.so.2
	LOADER_LINK=lib64/ld-linux-x86-64.so.2
	LIB_SEARCH="lib/x86_64-linux-gnu usr/lib/x86_64-linux-gnu lib64"
	MODULE_LISTS=$(ls "$IMG"/modules/*.modules)
	MODULES_ABSENT=/dev/null
	SQUASHFS_BCJ="-Xbcj x86"
	XZ_BCJ=--x86
	CACHE_DIR=$ROOT/out/cache ;;
arm64)
	MANIFEST=$DL/arm64/manifest.tsv
	DEBS=$DL/arm64/debs
	LIBDIR=lib/aarch64-linux-gnu
	LOADER=ld-linux-aarch64.so.1
	LOADER_LINK=lib/ld-linux-aarch64.so.1
	LIB_SEARCH="lib/aarch64-linux-gnu usr/lib/aarch64-linux-gnu"
	MODULE_LISTS=$(ls "$IMG"/modules/*.modules "$IMG"/arm64/modules/*.modules)
	MODULES_ABSENT=$IMG/arm64/modules.absent
	SQUASHFS_BCJ=
	XZ_BCJ=
	# a cache of its own: one shared would keep each part's newest two
	# entries of both machines', and the builds would evict each other's
	CACHE_DIR=$ROOT/out/arm64/cache ;;
esac
# one of the image's programs, run here (under qemu-user for arm64)
run_target() { $RUN_TARGET "$@"; }
# the time every file of the image carries: the last commit's, given by make
SOURCE_DATE_EPOCH=$("$ROOT/scripts/source-date.sh")

for t in readelf ${CROSS_COMPILE}objcopy ${CROSS_COMPILE}strip cpio zstd xz depmod modinfo mksquashfs; do
	command -v $t >/dev/null 2>&1 || {
		case $t in readelf|objcopy|strip) p=binutils ;; aarch64-*) p=binutils-aarch64-linux-gnu ;; depmod|modinfo) p=kmod ;; xz) p=xz-utils ;; mksquashfs) p=squashfs-tools ;; *) p=$t ;; esac
		die "$t is missing: apt-get install $p (or run 'make${ARCH:+ ARCH=$ARCH} deps' as root)"; }
done
[ -f "$MANIFEST" ] || die "${MANIFEST#$ROOT/} is missing: run scripts/fetch.sh"
[ -x "$OUT/busybox/busybox" ] || die "out/busybox/busybox is missing: run scripts/build-busybox.sh"
[ -x "$OUT/bootbench" ] || die "out/bootbench is missing: run make"
[ -x "$OUT/fio/fio" ] || die "out/fio/fio is missing: run scripts/build-fio.sh"
[ -x "$OUT/curl/curl" ] || die "out/curl/curl is missing: run scripts/build-curl.sh"
[ -f "$OUT/zfs/release" ] || die "out/zfs/ is missing: run scripts/build-zfs.sh"

# The parts (image/packs.table): each pack's staging tree; the base's is
# out/rootfs.
PACKS=$(awk '!/^[[:space:]]*#/ && NF { print $1 }' "$IMG/packs.table")
echo "$PACKS" | grep -qx base || die "image/packs.table has no 'base' line"
stage_of() { if [ "$1" = base ]; then echo "$STAGE"; else echo "$OUT/packs/$1"; fi; }
file_of() { awk -v p="$1" '!/^[[:space:]]*#/ && $1 == p { print $2 }' "$IMG/packs.table"; }
compress_of() {
	c=${COMPRESS:-$(awk -v p="$1" '!/^[[:space:]]*#/ && $1 == p { print $6 }' "$IMG/packs.table")}
	case $c in xz|zstd) echo "$c" ;; *) die "image/packs.table: $1's compression '$c': xz or zstd" ;; esac
}
needs_of() { awk -v p="$1" '!/^[[:space:]]*#/ && $1 == p && $5 != "-" { gsub(/,/, " ", $5); print $5 }' "$IMG/packs.table"; }
# a pack's needs come before it in the table, so their libraries are known
seen=""
for p in $PACKS; do
	for n in $(needs_of $p); do
		case " $seen " in *" $n "*) ;; *) die "image/packs.table: $p needs '$n', which is not a pack listed before it" ;; esac
	done
	seen="$seen $p"
done
# pack_in LIST-FILE NAME PACK: PACK, checked against packs.table (none: base)
pack_in() {
	[ -n "$3" ] || { echo base; return; }
	echo "$PACKS" | grep -qx "$3" || die "${1#$ROOT/}: '$2' names the pack '$3', which image/packs.table does not have"
	echo "$3"
}

# 1. Unpack every fetched package once (dpkg-deb -x; nothing is installed).
mkdir -p "$PKGS"
while IFS='	' read -r role pkg ver sha file; do
	[ "$role" != src ] || continue
	d=$PKGS/$pkg
	[ -f "$d/.$sha" ] && continue
	rm -rf "$d"; mkdir -p "$d"
	dpkg-deb -x "$DEBS/$file" "$d" || die "cannot unpack $file (package '$pkg')"
	touch "$d/.$sha"
done < "$MANIFEST"
pkgs_of() { awk -F'\t' -v r="$1" '$1 == r { print $2 }' "$MANIFEST"; }
version_of() { awk -F'\t' -v p="$1" '$2 == p { print $3; exit }' "$MANIFEST"; }

rm -rf "$STAGE" "$OUT/packs"
mkdir -p "$STAGE"
for d in bin sbin usr/bin usr/sbin lib ${LOADER_LINK%/*} $LIBDIR etc proc sys dev run tmp \
	mnt media root var/log var/tmp usr/share/terminfo; do
	mkdir -p "$STAGE/$d"
done
for p in $PACKS; do
	mkdir -p "$(stage_of $p)/etc/bootbench/packs.d"
done

# 2. busybox, its applets as links, and bootbench.
cp "$OUT/busybox/busybox" "$STAGE/bin/busybox"
run_target "$OUT/busybox/busybox" --list-full | while read -r app; do
	[ -e "$STAGE/$app" ] || [ -L "$STAGE/$app" ] || ln -s /bin/busybox "$STAGE/$app"
done
# bootbench stripped; its debug information in out/bootbench.debug, which
# the stripped program names (gdb finds it by --add-gnu-debuglink)
${CROSS_COMPILE}objcopy --only-keep-debug "$OUT/bootbench" "$OUT/bootbench.debug"
${CROSS_COMPILE}strip -o "$STAGE/usr/bin/bootbench" "$OUT/bootbench"
(cd "$OUT" && ${CROSS_COMPILE}objcopy --add-gnu-debuglink=bootbench.debug "$STAGE/usr/bin/bootbench")
# fio, static, for bootbench fio-server (scripts/build-fio.sh); curl,
# static, for the network results (scripts/build-curl.sh)
cp "$OUT/fio/fio" "$STAGE/usr/bin/fio"
cp "$OUT/curl/curl" "$STAGE/usr/bin/curl"

# 3. Tools from the unpacked tool packages, each into its pack; a busybox
#    applet of the same name gives way to the real program. Which pack has
#    which program is written down for bootbench (/etc/bootbench/packs), so
#    a program of a pack this boot did not load is named with its pack.
tool_pkgs=$(pkgs_of tool)
find_tool() {
	for p in $tool_pkgs; do
		for d in sbin bin usr/sbin usr/bin; do
			[ -e "$PKGS/$p/$d/$1" ] && { echo "$PKGS/$p/$d/$1 $d"; return 0; }
		done
	done
	return 1
}
REGISTRY=$OUT/packs.registry
: > "$REGISTRY"
grep -v '^[[:space:]]*#' "$IMG/tools.list" | while read -r name pack; do
	[ -n "$name" ] || continue
	pack=$(pack_in "$IMG/tools.list" "$name" "$pack")
	found=$(find_tool "$name") || die "image/tools.list: '$name' is in none of the tool packages"
	set -- $found
	dest=$(stage_of $pack)/usr/${2#usr/}
	mkdir -p "$dest"
	rm -f "$STAGE/bin/$name" "$STAGE/sbin/$name" "$STAGE/usr/bin/$name" "$STAGE/usr/sbin/$name"
	cp -L "$1" "$dest/$name"
	echo "$name $pack" >> "$REGISTRY"
done

# The command links image/links.list names (lvm's vgchange, fsck.ext4, ...),
# in the pack of what they point to.
grep -v '^[[:space:]]*#' "$IMG/links.list" | while read -r link target; do
	[ -n "$link" ] || continue
	where=""
	for p in $PACKS; do
		[ -e "$(stage_of $p)$(dirname "$link")/$target" ] && { where=$p; break; }
	done
	[ -n "$where" ] || die "image/links.list: $link -> $target, which the image does not have"
	rm -f "$STAGE$link"
	ln -s "$target" "$(stage_of $where)$link"
	echo "${link##*/} $where" >> "$REGISTRY"
done

# 4. Shared libraries, by reading each ELF's DT_NEEDED entries (transitively)
#    and finding the soname in the unpacked library and tool packages: the
#    base's, then each pack's that the base lacks.
libdirs_of() { # packages...
	for p in "$@"; do
		for d in $LIB_SEARCH; do
			[ -d "$PKGS/$p/$d" ] && echo "$PKGS/$p/$d"
		done
	done
}
needed() { readelf -d "$1" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
is_dynamic_elf() { readelf -l "$1" 2>/dev/null | grep -q 'Requesting program interpreter'; }
# copy_libs DEST "LIBDIRS" "HAVE" FILES...: the libraries FILES need, into
# DEST/$LIBDIR, except the sonames in HAVE (the base's)
copy_libs() {
	dest=$1 dirs=$2 have=" $3 "
	shift 3
	queue="$*"
	while [ -n "$queue" ]; do
		next=""
		for f in $queue; do
			is_dynamic_elf "$f" || case "$f" in *.so*) ;; *) continue ;; esac
			for so in $(needed "$f"); do
				case "$have" in *" $so "*) continue ;; esac
				src=""
				for d in $dirs; do
					[ -e "$d/$so" ] && { src=$d/$so; break; }
				done
				[ -n "$src" ] || die "${f#$OUT/} needs $so, which no fetched package provides: add its package to image/packages.list"
				mkdir -p "$dest/$LIBDIR"
				cp -L "$src" "$dest/$LIBDIR/$so"
				have="$have$so "
				next="$next $dest/$LIBDIR/$so"
			done
		done
		queue=$next
	done
}
programs_in() { find "$1/usr/bin" "$1/usr/sbin" -type f 2>/dev/null; }
copy_libs "$STAGE" "$(libdirs_of $(pkgs_of lib) $tool_pkgs)" "" $(programs_in "$STAGE")
# The dynamic loader the ELF entries name (PT_INTERP).
ld=$(find "$PKGS/libc6" -name "$LOADER" | head -n1)
[ -n "$ld" ] || die "libc6 has no $LOADER"
cp -L "$ld" "$STAGE/$LIBDIR/$LOADER"
ln -sf "/$LIBDIR/$LOADER" "$STAGE/$LOADER_LINK"
base_libs=$(ls "$STAGE/$LIBDIR" | tr '\n' ' ')

# The ZFS pack's programs: zpool, zfs and zdb as Debian built them.
ZSTAGE=$(stage_of zfs)
zpkgs=$(pkgs_of zfs)
mkdir -p "$ZSTAGE/usr/sbin"
for name in zpool zfs zdb; do
	src=""
	for p in $zpkgs; do
		for d in sbin usr/sbin; do
			[ -e "$PKGS/$p/$d/$name" ] && { src=$PKGS/$p/$d/$name; break 2; }
		done
	done
	[ -n "$src" ] || die "no $name in the zfs packages ($zpkgs)"
	cp -L "$src" "$ZSTAGE/usr/sbin/$name"
	echo "$name zfs" >> "$REGISTRY"
done
# a pack's programs: the libraries that neither the base nor the packs it
# needs have
for p in $PACKS; do
	[ "$p" != base ] || continue
	s=$(stage_of $p)
	[ -n "$(programs_in "$s")" ] || continue
	have=$base_libs
	for n in $(needs_of $p); do
		have="$have $(ls "$(stage_of $n)/$LIBDIR" 2>/dev/null | tr '\n' ' ')"
	done
	copy_libs "$s" "$(libdirs_of $(pkgs_of lib) $(pkgs_of zfs-lib) $tool_pkgs $zpkgs)" "$have" $(programs_in "$s")
done

# 5. Terminal descriptions for dialog.
for t in $(grep -v '^[[:space:]]*#' "$IMG/terminfo.list"); do
	src=$(ls "$PKGS"/ncurses-base/lib/terminfo/$t "$PKGS"/ncurses-term/usr/share/terminfo/$t 2>/dev/null | head -n1)
	[ -n "$src" ] || die "image/terminfo.list: no terminfo entry '$t'"
	mkdir -p "$STAGE/usr/share/terminfo/${t%/*}"
	cp -L "$src" "$STAGE/usr/share/terminfo/$t"
done

# 5b. Keyboard layouts (image/keymaps.table), compiled for busybox's loadkmap.
"$ROOT/scripts/build-keymaps.sh" "$STAGE/usr/share/bootbench/keymaps"

# 6. Kernel and modules: the names in image/modules/*.modules with the
#    dependencies depmod finds, each in its pack (a dependency the base
#    has stays there), plus the ZFS modules of scripts/build-zfs.sh; then
#    depmod once over all of them, its index in the base.
kpkg=$(pkgs_of kernel | grep '^linux-image-[0-9]' | head -n1)
[ -n "$kpkg" ] || die "no kernel image package in dl/manifest.tsv"
kver=$(ls "$PKGS/$kpkg/lib/modules" | head -n1)
kdir=$PKGS/$kpkg/lib/modules/$kver
cp "$PKGS/$kpkg/boot/vmlinuz-$kver" "$OUT/vmlinuz"
[ -f "$kdir/modules.dep" ] || depmod -b "$PKGS/$kpkg" "$kver" || die "depmod failed on $kpkg"
norm() { echo "$1" | tr '-' '_'; }
index=$OUT/modules.index
awk -F: '{ n=$1; sub(/.*\//,"",n); sub(/\.ko.*$/,"",n); gsub(/-/,"_",n); print n, $0 }' "$kdir/modules.dep" > "$index"
deps_of() { awk -v n="$(norm "$1")" '$1 == n { $1=""; print; exit }' "$index" | tr -d ':'; }
claims=$OUT/modules.claims	# "pack path" for every module file a pack wants
: > "$claims"
# absent_why NAME: why the arch's kernel lacks the module (image/arm64/modules.absent), or nothing
absent_why() { awk -v m="$1" '!/^[[:space:]]*#/ && $1 == m { $1 = ""; sub(/^ +/, ""); print; exit }' "$MODULES_ABSENT"; }
ABSENT=$OUT/modules.absent	# "module-absent NAME REASON" for the release file
: > "$ABSENT"
for f in $MODULE_LISTS; do
	grep -v '^[[:space:]]*#' "$f" | while read -r m pack; do
		[ -n "$m" ] || continue
		pack=$(pack_in "$f" "$m" "$pack")
		line=$(deps_of "$m")
		if [ -z "$line" ]; then
			grep -q "/$m.ko\$\|/$(norm "$m").ko\$" "$kdir/modules.builtin" && continue
			why=$(absent_why "$m")
			[ -z "$why" ] || { echo "module-absent $m $why" >> "$ABSENT"; continue; }
			die "${f#$ROOT/}: no module '$m' in $kver"
		fi
		for path in $line; do echo "$pack $path"; done >> "$claims"
	done
done
# Soft dependencies (cifs names its crypto this way): busybox modprobe does
# not follow them, so the build adds them here and bootbench loads them
# before the mount. A name may be an alias (aes -> aesni_intel); one that is
# built in, or names no module, needs nothing.
for p in $PACKS; do
	soft=$(awk -v p=$p '$1 == p { n=$2; sub(/.*\//,"",n); sub(/\.ko.*$/,"",n); print n }' "$claims" | sort -u |
		awk 'NR == FNR { want[$1] = 1; next }
		     $1 == "softdep" && want[$2] { for (i = 3; i <= NF; i++) if ($i != "pre:" && $i != "post:") print $i }' \
		- "$kdir/modules.softdep" | sort -u)
	for n in $soft; do
		for target in $(awk -v n="$n" '$1 == "alias" && ($2 == n || $2 == "crypto-" n) { print $3 }' "$kdir/modules.alias" | sort -u) "$n"; do
			for path in $(deps_of "$target"); do echo "$p $path"; done >> "$claims"
		done
	done
done
# The ZFS modules' kernel dependencies go with them.
own=" $(cd "$OUT/zfs/modules" && ls | sed 's/\.ko$//' | tr '\n' ' ') "
for dep in $(modinfo -F depends "$OUT"/zfs/modules/*.ko | tr ',' '\n' | sort -u); do
	case "$own" in *" $dep "*) continue ;; esac
	line=$(deps_of "$dep")
	[ -n "$line" ] || die "the ZFS modules need '$dep', which $kver does not have"
	for path in $line; do echo "zfs $path"; done >> "$claims"
done
# A module the base claims is in the base only; one several packs claim is
# in each of them (a pack must work with the base alone).
sort -u "$claims" | awk '$1 == "base" { base[$2] = 1 } { c[NR] = $0; p[NR] = $1; m[NR] = $2 }
	END { for (i = 1; i <= NR; i++) if (p[i] == "base" || !base[m[i]]) print c[i] }' > "$claims.placed"
# copy_module SRC DEST: a module file, compressed on its own with
# BOOTBENCH_MODULE_COMPRESS=xz
copy_module() {
	mkdir -p "$(dirname "$2")"
	if [ "$MODULE_COMPRESS" = xz ]; then
		xz -9 --check=crc32 -T1 -c "$1" > "$2.xz"
	else
		cp "$1" "$2"
	fi
}
while read -r pack path; do
	copy_module "$kdir/$path" "$(stage_of $pack)/lib/modules/$kver/$path"
done < "$claims.placed"
for ko in "$OUT"/zfs/modules/*.ko; do
	copy_module "$ko" "$ZSTAGE/lib/modules/$kver/extra/zfs/${ko##*/}"
done
kdest=$STAGE/lib/modules/$kver
mkdir -p "$kdest"
cp "$kdir/modules.builtin" "$kdir/modules.order" "$kdest/"
[ -f "$kdir/modules.builtin.modinfo" ] && cp "$kdir/modules.builtin.modinfo" "$kdest/"
union=$OUT/modules.union
rm -rf "$union"; mkdir -p "$union/lib/modules"
for p in $PACKS; do
	[ -d "$(stage_of $p)/lib/modules/$kver" ] && cp -a "$(stage_of $p)/lib/modules" "$union/lib/"
done
depmod -b "$union" "$kver" || die "depmod failed on the image's module set"
cp "$union/lib/modules/$kver"/modules.* "$kdest/"
rm -rf "$union"
nmods() { find "$(stage_of $1)/lib/modules" -name '*.ko*' 2>/dev/null | wc -l; }

# 7. Firmware: every file the image's modules name (modinfo -F firmware)
#    that Debian's firmware packages have, into the firmware pack. Names no
#    package has are listed in the release file: some are not
#    redistributable, some are for hardware variants Debian never shipped.
FSTAGE=$(stage_of firmware)
fw_pkgs=$(pkgs_of firmware)
fw_list=$OUT/firmware.list
: > "$fw_list"
awk '{ print $2 }' "$claims.placed" | sort -u | sed "s|^|$kdir/|" > "$claims.files"
ls "$OUT"/zfs/modules/*.ko >> "$claims.files"
while read -r ko; do
	mod=${ko##*/}; mod=${mod%.ko}
	for fw in $(modinfo -F firmware "$ko"); do
		src="" from=""
		for p in $fw_pkgs; do
			for d in lib/firmware usr/lib/firmware; do
				[ -e "$PKGS/$p/$d/$fw" ] && { src=$PKGS/$p/$d/$fw; from=$p; break 2; }
			done
		done
		if [ -z "$src" ]; then
			echo "firmware-missing $fw $mod" >> "$fw_list"
			continue
		fi
		mkdir -p "$FSTAGE/lib/firmware/$(dirname "$fw")"
		cp -L "$src" "$FSTAGE/lib/firmware/$fw"
		echo "firmware $fw $mod $from $(version_of "$from")" >> "$fw_list"
	done
done < "$claims.files"
sort -u -o "$fw_list" "$fw_list"
rm -f "$claims.files"

# The CA bundle curl reads (update-ca-certificates would write it on an
# installed system; packages are only unpacked here): Mozilla's set.
if [ -d "$PKGS/ca-certificates/usr/share/ca-certificates/mozilla" ]; then
	mkdir -p "$STAGE/etc/ssl/certs"
	cat "$PKGS"/ca-certificates/usr/share/ca-certificates/mozilla/*.crt > "$STAGE/etc/ssl/certs/ca-certificates.crt"
fi

# 8. Our overlay, the man pages (make docs; read anywhere else, as the
#    image has no man: bootbench CMD --help prints the same), then what git
#    cannot carry.
cp -a "$ROOT/rootfs/." "$STAGE/"
mkdir -p "$STAGE/usr/share/man/man1"
cp "$ROOT"/docs/man/*.1 "$STAGE/usr/share/man/man1/"
grep -v '^[[:space:]]*#' "$IMG/permissions.table" | while read -r path mode; do
	[ -n "$path" ] || continue
	[ -e "$STAGE$path" ] || die "image/permissions.table: $path is not in the image"
	chmod "$mode" "$STAGE$path"
done
# bootbench's registry: PROGRAM PACK FILE, for the programs of the packs
awk 'NR == FNR { if ($0 !~ /^[[:space:]]*#/ && NF) file[$1] = $2; next }
     $2 != "base" { print $1, $2, file[$2] }' "$IMG/packs.table" "$REGISTRY" | sort > "$STAGE/etc/bootbench/packs"
rm -f "$REGISTRY"

# count_files TREE FILE: the tree's files, itself not among them, into FILE.
# Counted before FILE exists: in `find | wc -l > FILE` the shell may make
# FILE before or after find passes its folder, and two builds disagreed.
count_files() {
	rm -f "$2"
	_n=$(find "$1" -type f | wc -l)
	echo "$_n" > "$2"
}

# 9. One archive a part: sorted names, the commit's time, root's owner, so
#    equal inputs give equal bytes. Each pack marks itself loaded
#    (/etc/bootbench/packs.d/NAME, its contents' count). The compression is
#    the part's (image/packs.table). xz: the x86 filter takes 2-5% more off
#    the programs and libraries (the kernel's unxz has it). zstd -22: 270 kB
#    less than -19 on the base (1.8%), for a window as large as the archive
#    (64 MiB, the kernel's while it unpacks: the unpacked root takes as
#    much for as long as the machine runs). Both with -T2
#    always: xz's and zstd's output differ between their one- and
#    many-thread modes, so the thread count must not follow the machine.
# The kernel unpacks every archive it is handed, all of it, before /init
# runs; most of those bytes (modules, libraries, firmware, the larger
# programs) are read later, a few of them, or never. So a part's files of
# LAZY_MIN bytes or more go into one squashfs image (xz, x86 filter, 1 MiB
# blocks), carried in the archive as $PARTS/NAME.sqfs and mounted there by
# /etc/rc.d/05-parts.sh; in the archive each of them is a symlink into that
# mount, and a mount reads only the blocks that are used. Plain stay: /etc
# (configuration, written at run time), /init and /lib/bootbench (the boot's
# own scripts), what the mount itself needs (busybox, modules.dep, loop.ko,
# squashfs.ko), and the programs every boot runs before the menu is up
# (EAGER_PROGRAMS) with their libraries: the kernel's zstd unpacks those at
# a third of the time its xz takes to read them from the mount under TCG.
# make bench-image measures the unpack of both ways.
LAZY_MIN=4096
PARTS=/lib/bootbench/parts
EAGER_PROGRAMS="usr/bin/bootbench usr/bin/dialog usr/sbin/blkid"
# eager_files STAGE: the files of STAGE that stay plain, one ./PATH a line
eager_files() {
	echo ./bin/busybox
	(cd "$1" && find . -path '*/drivers/block/loop.ko*' -o -path '*/fs/squashfs/squashfs.ko*')
	queue=""
	for prog in $EAGER_PROGRAMS; do
		[ -f "$1/$prog" ] && queue="$queue $1/$prog"
	done
	seen=" "
	while [ -n "$queue" ]; do
		next=""
		for f in $queue; do
			case "$seen" in *" $f "*) continue ;; esac
			seen="$seen$f "
			echo "./${f#$1/}"
			for so in $(needed "$f"); do
				[ -f "$1/$LIBDIR/$so" ] && next="$next $1/$LIBDIR/$so"
			done
		done
		queue=$next
	done
}
# early_sort LAZY: mksquashfs's sort list for the lazy tree LAZY: the module
# index and the drivers of image/modules/early.list (each after its
# dependencies, as modprobe loads them) first, in that order, so the few
# files every boot reads share blocks; "PATH PRIORITY" a line.
early_sort() {
	m=lib/modules/$kver
	order="$m/modules.alias $m/modules.symbols"
	for name in $(grep -v '^[[:space:]]*#' "$IMG/modules/early.list"); do
		line=$(deps_of "$name")
		[ -n "$line" ] || [ -z "$(absent_why "$name")" ] || continue
		[ -n "$line" ] || die "image/modules/early.list: no module '$name' in $kver"
		grep -qx "base $(echo $line | cut -d' ' -f1)" "$claims.placed" ||
			die "image/modules/early.list: '$name' is not a module of the base (image/modules/*.modules)"
		# its dependencies first, as modprobe loads them
		order="$order $(for path in $line; do echo "$m/$path"; done | awk '{ l[NR] = $0 } END { for (i = NR; i > 0; i--) print l[i] }')"
	done
	for f in $order; do echo "$f"; done | awk '!seen[$0]++' | while read -r f; do
		if [ -f "$1/$f" ]; then echo "$f"; elif [ -f "$1/$f.xz" ]; then echo "$f.xz"; fi
	done | awk '{ print $0, 32767 - NR }'
}
# The cache of step 9: KEY is a checksum of everything the output depends
# on (the input's bytes, the tool's version and flags); an entry is written
# whole (a temporary name, then renamed), so a killed build leaves none
# half-made; each part keeps its newest two entries.
CACHE=${BOOTBENCH_CACHE:-$CACHE_DIR}
[ "${BOOTBENCH_CACHE:-}" != off ] || CACHE=""
# cache_key WHAT...: the key of the checksums and words on stdin and WHAT
cache_key() { { cat; echo "$*"; } | sha256sum | cut -c1-32; }
# cache_get PART KEY DEST: DEST from the cache (0), or 1 when it has none
cache_get() {
	[ -n "$CACHE" ] && [ -f "$CACHE/$1-$2" ] || return 1
	cp "$CACHE/$1-$2" "$3.cache" && mv -f "$3.cache" "$3"
}
# cache_put PART KEY FILE
cache_put() {
	[ -n "$CACHE" ] || return 0
	mkdir -p "$CACHE" && cp "$3" "$CACHE/.$1-$2.$$" && mv -f "$CACHE/.$1-$2.$$" "$CACHE/$1-$2" || return 0
	ls -t "$CACHE" | grep -E "^$1-[0-9a-f]{32}\$" | tail -n +3 | while read -r old; do rm -f "$CACHE/$old"; done
}
squashfs_version=$(mksquashfs -version 2>/dev/null | head -n1)
lazy_split() { # part stage tree
	rm -rf "$3" "$3.lazy"; mkdir -p "${3%/*}"
	cp -a "$2" "$3"
	mkdir -p "$3.lazy" "$3$PARTS/$1"
	eager_files "$2" | sort -u > "$3.eager"
	(cd "$3" && find . -type f -size +$((LAZY_MIN - 1))c) | LC_ALL=C sort | while read -r f; do
		grep -qxF "$f" "$3.eager" && continue
		case $f in ./etc/*|./init|./lib/bootbench/*|./lib/modules/*/modules.dep) continue ;; esac
		mkdir -p "$3.lazy/${f%/*}"
		mv "$3/$f" "$3.lazy/$f"
		ln -s "$PARTS/$1/${f#./}" "$3/$f"
	done
	# its time and every file's: SOURCE_DATE_EPOCH's (mksquashfs reads it);
	# padded to 4 KiB, as the loop device reads whole blocks
	early_sort "$3.lazy" > "$3.sort"
	# the key: the tree as an archive of names, modes, times and bytes (no
	# owners: -all-root; no xattrs: -no-xattrs, or the host's would leak in)
	find "$3.lazy" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
	key=$( { (cd "$3.lazy" && find . -mindepth 1 | LC_ALL=C sort |
		cpio --quiet -o -H newc -R 0:0 --reproducible) | sha256sum; sha256sum < "$3.sort"; } |
		cache_key "mksquashfs $squashfs_version -all-root -no-xattrs -comp xz $SQUASHFS_BCJ -b 1M -processors 2 $SOURCE_DATE_EPOCH")
	if ! cache_get "$1.sqfs" "$key" "$3$PARTS/$1.sqfs"; then
		SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH mksquashfs "$3.lazy" "$3$PARTS/$1.sqfs" \
			-noappend -quiet -no-progress -all-root -no-xattrs -comp xz $SQUASHFS_BCJ -b 1M -processors 2 \
			-sort "$3.sort" >/dev/null || die "mksquashfs failed on the $1 part"
		cache_put "$1.sqfs" "$key" "$3$PARTS/$1.sqfs"
	fi
	rm -rf "$3.lazy" "$3.eager" "$3.sort"
}
archive() { # part stage out.img
	tree=$OUT/parts/$1
	find "$2" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
	lazy_split "$1" "$2" "$tree"
	find "$tree" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
	(cd "$tree" && find . -mindepth 1 | LC_ALL=C sort |
		cpio --quiet -o -H newc -R 0:0 --reproducible) > "${3%.img}.cpio"
	rm -rf "$tree"
	c=$(compress_of "$1")
	case $c in
	xz) how="xz $(xz --version | head -n1) $XZ_BCJ --lzma2=preset=9 -T2 --check=crc32" ;;
	zstd) how="zstd $(zstd --version) --ultra -22 -T2" ;;
	esac
	key=$(sha256sum < "${3%.img}.cpio" | cache_key "$how")
	if ! cache_get "$1.$c" "$key" "$3"; then
		case $c in
		xz) xz $XZ_BCJ --lzma2=preset=9 -T2 --check=crc32 -q -f -c "${3%.img}.cpio" > "$3" ;;
		zstd) zstd --ultra -22 -T2 -q -f "${3%.img}.cpio" -o "$3" ;;
		esac
		cache_put "$1.$c" "$key" "$3"
	fi
	rm -f "${3%.img}.cpio"
}
KiB() { echo "$(( ($(stat -c %s "$1") + 1023) / 1024 )) KiB"; }
for p in $PACKS; do
	[ "$p" != base ] || continue
	s=$(stage_of $p)
	count_files "$s" "$s/etc/bootbench/packs.d/$p"
	archive $p "$s" "$OUT/$(file_of $p)"
done

# 10. What the image is made of: every package and version, the firmware,
#     the toolchain that compiled busybox and bootbench, and the packs'
#     checksums. Then the base archive.
host_version() { dpkg-query -W -f '${Version}' "$1" 2>/dev/null || echo unknown; }
{
	echo "bootbench $(run_target "$OUT/bootbench" version | awk '{print $NF}')"
	echo "kernel $kver"
	for p in $PACKS; do echo "modules $p $(nmods $p)"; done
	for p in $PACKS; do echo "compression $p $(compress_of $p)"; done
	echo "compression modules $MODULE_COMPRESS"
	echo "compression lazy squashfs xz ${SQUASHFS_BCJ:+${SQUASHFS_BCJ#-Xbcj } }1M, files of $LAZY_MIN bytes or more in $PARTS/NAME.sqfs"
	echo "source-date-epoch $SOURCE_DATE_EPOCH"
	# the host's compiler and the libraries bootbench and busybox link; the
	# autotools that make wolfssl's configure script (curl's TLS)
	case $ARCH in
	x86_64) echo "host gcc $(host_version gcc-12) musl $(host_version musl-dev) liburing $(host_version liburing-dev) linux-libc-dev $(host_version linux-libc-dev)" ;;
	# musl and liburing are built from the sources of the manifest's src lines
	arm64) echo "host gcc-aarch64-linux-gnu $(host_version gcc-aarch64-linux-gnu) binutils-aarch64-linux-gnu $(host_version binutils-aarch64-linux-gnu) linux-libc-dev-arm64-cross $(host_version linux-libc-dev-arm64-cross)" ;;
	esac
	echo "host autoconf $(host_version autoconf) automake $(host_version automake) libtool $(host_version libtool)"
	echo "host squashfs-tools $(host_version squashfs-tools)"
	# the ZFS pack (out/zfs.img): what scripts/build-zfs.sh built
	sed 's/^/part /' "$OUT/zfs/release"
	cat "$ABSENT"
	for p in $PACKS; do
		[ "$p" = base ] || echo "pack $p $(file_of $p) $(sha256sum < "$OUT/$(file_of $p)" | cut -d' ' -f1)"
	done
	echo "# firmware NAME MODULE PACKAGE VERSION; firmware-missing NAME MODULE"
	cat "$fw_list"
	echo "# role package version sha256"
	awk -F'\t' '{ print $1, $2, $3, $4 }' "$MANIFEST"
} > "$STAGE/etc/bootbench-release"
count_files "$STAGE" "$STAGE/etc/bootbench/packs.d/base"
archive base "$STAGE" "$OUT/initramfs.img"
nfw=$(grep -c '^firmware ' "$fw_list" || true)
nmiss=$(grep -c '^firmware-missing ' "$fw_list" || true)
say "kernel $kver; initramfs.img $(KiB "$OUT/initramfs.img") ($(nmods base) modules)"
for p in $PACKS; do
	case $p in
	base) ;;
	firmware) say "$(file_of $p) $(KiB "$OUT/$(file_of $p)") ($nfw files; $nmiss named by modules are in no Debian package)" ;;
	*) say "$(file_of $p) $(KiB "$OUT/$(file_of $p)") ($(nmods $p) modules, $(programs_in "$(stage_of $p)" | wc -l) programs)" ;;
	esac
done
