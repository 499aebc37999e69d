#!/bin/sh
# SPDX-License-Identifier: MIT
# Stage 3 of the image chain: the root filesystem, as one initramfs, and
# the optional ZFS part the boot loaders load after it.
# Reads only what the earlier stages wrote: dl/debs + dl/manifest.tsv (fetch),
# out/busybox/busybox (build-busybox.sh), out/fio/fio (build-fio.sh),
# out/bootbench (make), out/zfs/ (build-zfs.sh), plus the data in image/
# and the rootfs/ overlay. Writes out/rootfs/ (the staging tree),
# out/vmlinuz, out/initramfs.img (newc cpio, zstd) and out/zfs.img (the
# ZFS modules and tools, unpacked by the kernel over the first). No root needed: owners
# are set by cpio, device nodes come from devtmpfs at boot.
set -eu
ROOT=${ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
DL=$ROOT/dl
OUT=$ROOT/out
PKGS=$OUT/pkgs
STAGE=$OUT/rootfs
IMG=$ROOT/image
die() { echo "rootfs: $*" >&2; exit 2; }
say() { echo "  ROOTFS  $*"; }

for t in readelf cpio zstd depmod; do
	command -v $t >/dev/null 2>&1 || {
		case $t in readelf) p=binutils ;; depmod) p=kmod ;; *) p=$t ;; esac
		die "$t is missing: apt-get install $p (or run 'make deps' as root)"; }
done
[ -f "$DL/manifest.tsv" ] || die "dl/manifest.tsv is missing: run scripts/fetch.sh"
[ -x "$OUT/busybox/busybox" ] || die "out/busybox/busybox is missing: run scripts/build-busybox.sh"
[ -x "$OUT/bootbench" ] || die "out/bootbench is missing: run make"
[ -x "$OUT/fio/fio" ] || die "out/fio/fio is missing: run scripts/build-fio.sh"
[ -f "$OUT/zfs/release" ] || die "out/zfs/ is missing: run scripts/build-zfs.sh"

# 1. Unpack every fetched package once (dpkg-deb -x; nothing is installed).
mkdir -p "$PKGS"
while IFS='	' read -r role pkg ver sha file; do
	[ "$role" != src ] || continue
	d=$PKGS/$pkg
	[ -f "$d/.$sha" ] && continue
	rm -rf "$d"; mkdir -p "$d"
	dpkg-deb -x "$DL/debs/$file" "$d" || die "cannot unpack $file (package '$pkg')"
	touch "$d/.$sha"
done < "$DL/manifest.tsv"
pkgs_of() { awk -F'\t' -v r="$1" '$1 == r { print $2 }' "$DL/manifest.tsv"; }

rm -rf "$STAGE"
mkdir -p "$STAGE"
for d in bin sbin usr/bin usr/sbin lib lib64 lib/x86_64-linux-gnu etc proc sys dev run tmp \
	mnt media root var/log var/tmp usr/share/terminfo; do
	mkdir -p "$STAGE/$d"
done

# 2. busybox, its applets as links, and bootbench.
cp "$OUT/busybox/busybox" "$STAGE/bin/busybox"
"$OUT/busybox/busybox" --list-full | while read -r app; do
	[ -e "$STAGE/$app" ] || [ -L "$STAGE/$app" ] || ln -s /bin/busybox "$STAGE/$app"
done
cp "$OUT/bootbench" "$STAGE/usr/bin/bootbench"
# fio, static, for bootbench fio-server (scripts/build-fio.sh)
cp "$OUT/fio/fio" "$STAGE/usr/bin/fio"

# 3. Tools from the unpacked tool packages; a busybox applet of the same name
#    gives way to the real program.
tool_pkgs=$(pkgs_of tool)
find_tool() {
	for p in $tool_pkgs; do
		for d in sbin bin usr/sbin usr/bin; do
			[ -e "$PKGS/$p/$d/$1" ] && { echo "$PKGS/$p/$d/$1 $d"; return 0; }
		done
	done
	return 1
}
for name in $(grep -v '^[[:space:]]*#' "$IMG/tools.list"); do
	found=$(find_tool "$name") || die "image/tools.list: '$name' is in none of the tool packages"
	set -- $found
	dest=$STAGE/usr/${2#usr/}
	mkdir -p "$dest"
	rm -f "$STAGE/bin/$name" "$STAGE/sbin/$name" "$STAGE/usr/bin/$name" "$STAGE/usr/sbin/$name"
	cp -L "$1" "$dest/$name"
done

# The command links image/links.list names (lvm's vgchange, fsck.ext4, ...).
grep -v '^[[:space:]]*#' "$IMG/links.list" | while read -r link target; do
	[ -n "$link" ] || continue
	[ -e "$STAGE$(dirname "$link")/$target" ] || die "image/links.list: $link -> $target, which the image does not have"
	rm -f "$STAGE$link"
	ln -s "$target" "$STAGE$link"
done

# 4. Shared libraries, by reading each ELF's DT_NEEDED entries (transitively)
#    and finding the soname in the unpacked library and tool packages.
libdirs_of() { # packages...
	for p in "$@"; do
		for d in lib/x86_64-linux-gnu usr/lib/x86_64-linux-gnu lib64; do
			[ -d "$PKGS/$p/$d" ] && echo "$PKGS/$p/$d"
		done
	done
}
needed() { readelf -d "$1" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
is_dynamic_elf() { readelf -l "$1" 2>/dev/null | grep -q 'Requesting program interpreter'; }
# copy_libs DEST "LIBDIRS" "HAVE" FILES...: the libraries FILES need, into
# DEST/lib/x86_64-linux-gnu, except the sonames in HAVE (another archive's)
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
				mkdir -p "$dest/lib/x86_64-linux-gnu"
				cp -L "$src" "$dest/lib/x86_64-linux-gnu/$so"
				have="$have$so "
				next="$next $dest/lib/x86_64-linux-gnu/$so"
			done
		done
		queue=$next
	done
}
copy_libs "$STAGE" "$(libdirs_of $(pkgs_of lib) $tool_pkgs)" "" $(find "$STAGE/usr/bin" "$STAGE/usr/sbin" -type f)
# The dynamic loader the ELF entries name (PT_INTERP).
ld=$(find "$PKGS/libc6" -name 'ld-linux-x86-64.so.2' | head -n1)
[ -n "$ld" ] || die "libc6 has no ld-linux-x86-64.so.2"
cp -L "$ld" "$STAGE/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
ln -sf /lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 "$STAGE/lib64/ld-linux-x86-64.so.2"

# 5. Terminal descriptions for dialog.
for t in $(grep -v '^[[:space:]]*#' "$IMG/terminfo.list"); do
	src=$(ls "$PKGS"/ncurses-base/lib/terminfo/$t "$PKGS"/ncurses-term/usr/share/terminfo/$t 2>/dev/null | head -n1)
	[ -n "$src" ] || die "image/terminfo.list: no terminfo entry '$t'"
	mkdir -p "$STAGE/usr/share/terminfo/${t%/*}"
	cp -L "$src" "$STAGE/usr/share/terminfo/$t"
done

# 6. Kernel and modules: the names in image/modules/*.modules with the
#    dependencies depmod finds, then depmod again on the subset.
kpkg=$(pkgs_of kernel | grep '^linux-image-[0-9]' | head -n1)
[ -n "$kpkg" ] || die "no kernel image package in dl/manifest.tsv"
kver=$(ls "$PKGS/$kpkg/lib/modules" | head -n1)
kdir=$PKGS/$kpkg/lib/modules/$kver
cp "$PKGS/$kpkg/boot/vmlinuz-$kver" "$OUT/vmlinuz"
[ -f "$kdir/modules.dep" ] || depmod -b "$PKGS/$kpkg" "$kver" || die "depmod failed on $kpkg"
norm() { echo "$1" | tr '-' '_'; }
index=$OUT/modules.index
awk -F: '{ n=$1; sub(/.*\//,"",n); sub(/\.ko.*$/,"",n); gsub(/-/,"_",n); print n, $0 }' "$kdir/modules.dep" > "$index"
mods=""
for f in "$IMG"/modules/*.modules; do
	for m in $(grep -v '^[[:space:]]*#' "$f"); do
		line=$(awk -v n="$(norm "$m")" '$1 == n { $1=""; print; exit }' "$index")
		if [ -z "$line" ]; then
			grep -q "/$m.ko\$\|/$(norm "$m").ko\$" "$kdir/modules.builtin" && continue
			die "${f#$ROOT/}: no module '$m' in $kver"
		fi
		mods="$mods $(echo "$line" | tr -d ':')"
	done
done
# Soft dependencies (cifs names its crypto this way): busybox modprobe does
# not follow them, so the build adds them here and bootbench loads them
# before the mount. A name may be an alias (aes -> aesni_intel); one that is
# built in, or names no module, needs nothing.
soft=$(for m in $mods; do n=${m##*/}; n=${n%%.ko*}; echo "$n"; done | sort -u |
	awk 'NR == FNR { want[$1] = 1; next }
	     $1 == "softdep" && want[$2] { for (i = 3; i <= NF; i++) if ($i != "pre:" && $i != "post:") print $i }' \
	- "$kdir/modules.softdep" | sort -u)
for n in $soft; do
	for target in $(awk -v n="$n" '$1 == "alias" && ($2 == n || $2 == "crypto-" n) { print $3 }' "$kdir/modules.alias" | sort -u) "$n"; do
		line=$(awk -v n="$(norm "$target")" '$1 == n { $1=""; print; exit }' "$index")
		[ -n "$line" ] && mods="$mods $(echo "$line" | tr -d ':')"
	done
done
kdest=$STAGE/lib/modules/$kver
mkdir -p "$kdest"
for m in $(echo $mods | tr ' ' '\n' | sort -u); do
	mkdir -p "$kdest/$(dirname "$m")"
	cp "$kdir/$m" "$kdest/$m"
done
cp "$kdir/modules.builtin" "$kdir/modules.order" "$kdest/"
[ -f "$kdir/modules.builtin.modinfo" ] && cp "$kdir/modules.builtin.modinfo" "$kdest/"
depmod -b "$STAGE" "$kver" || die "depmod failed on the image's module set"
nmods=$(find "$kdest" -name '*.ko' | wc -l)

# The CA bundle curl reads (update-ca-certificates would write it on an
# installed system; packages are only unpacked here): Mozilla's set.
if [ -d "$PKGS/ca-certificates/usr/share/ca-certificates/mozilla" ]; then
	mkdir -p "$STAGE/etc/ssl/certs"
	cat "$PKGS"/ca-certificates/usr/share/ca-certificates/mozilla/*.crt > "$STAGE/etc/ssl/certs/ca-certificates.crt"
fi

# 7. Our overlay, then what git cannot carry.
cp -a "$ROOT/rootfs/." "$STAGE/"
grep -v '^[[:space:]]*#' "$IMG/permissions.table" | while read -r path mode; do
	[ -n "$path" ] || continue
	[ -e "$STAGE$path" ] || die "image/permissions.table: $path is not in the image"
	chmod "$mode" "$STAGE$path"
done

# 8. What the image is made of: every package and version.
{
	echo "bootbench $("$OUT/bootbench" version | awk '{print $NF}')"
	echo "kernel $kver"
	echo "modules $nmods"
	# the ZFS part (out/zfs.img): what scripts/build-zfs.sh built
	sed 's/^/part /' "$OUT/zfs/release"
	echo "# role package version sha256"
	awk -F'\t' '{ print $1, $2, $3, $4 }' "$DL/manifest.tsv"
} > "$STAGE/etc/bootbench-release"

# 9. One archive: sorted names, fixed times and owners, so equal inputs give
#    equal bytes.
archive() { # stage out.img
	find "$1" -exec touch -h -d @0 {} +
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort |
		cpio --quiet -o -H newc -R 0:0 --reproducible) > "${2%.img}.cpio"
	# zstd -9: with curl and its libraries (network results) LZ4 made kernel +
	# initramfs 43.7 MB, over the 40 MB bar; zstd -9 makes it 34.7 MB for about
	# 1.3 s more unpacking under TCG (LZ4 unpacked in 1.0 s, zstd in 2.3 s; on
	# hardware a tenth of that), and builds in 2.5 s (-19 would save 3 MB more
	# for 55 s of every build).
	zstd -9 -T0 -q -f --rm "${2%.img}.cpio" -o "$2"
}
archive "$STAGE" "$OUT/initramfs.img"
say "kernel $kver, $nmods modules, initramfs $(du -k "$OUT/initramfs.img" | cut -f1) KiB"

# 10. The ZFS part: a second archive the kernel unpacks over the first (the
#     boot loaders load both), so the base stays as small as it was and a
#     rack that wants no ZFS leaves it out of its boot script. It carries the
#     modules of scripts/build-zfs.sh, the module index of base + ZFS (it
#     replaces the base's), zpool, zfs and zdb, and the libraries of theirs
#     the base lacks.
ZSTAGE=$OUT/rootfs-zfs
rm -rf "$ZSTAGE"
zmods=$ZSTAGE/lib/modules/$kver/extra/zfs
mkdir -p "$zmods" "$ZSTAGE/usr/sbin"
cp "$OUT"/zfs/modules/*.ko "$zmods/"
own=" $(cd "$OUT/zfs/modules" && ls | sed 's/\.ko$//' | tr '\n' ' ') "
for dep in $(modinfo -F depends "$OUT"/zfs/modules/*.ko | tr ',' '\n' | sort -u); do
	case "$own" in *" $dep "*) continue ;; esac
	line=$(awk -v n="$(norm "$dep")" '$1 == n { $1=""; print; exit }' "$index")
	[ -n "$line" ] || die "the ZFS modules need '$dep', which $kver does not have"
	for m in $(echo "$line" | tr -d ':'); do
		[ -f "$kdest/$m" ] && continue
		mkdir -p "$ZSTAGE/lib/modules/$kver/$(dirname "$m")"
		cp "$kdir/$m" "$ZSTAGE/lib/modules/$kver/$m"
	done
done
both=$OUT/rootfs-zfs.depmod
rm -rf "$both"; mkdir -p "$both/lib/modules"
cp -a "$kdest" "$both/lib/modules/"
cp -a "$ZSTAGE/lib/modules/$kver/." "$both/lib/modules/$kver/"
depmod -b "$both" "$kver" || die "depmod failed on the image's modules with ZFS's"
cp "$both/lib/modules/$kver"/modules.* "$ZSTAGE/lib/modules/$kver/"
rm -rf "$both"
zpkgs=$(pkgs_of zfs)
for name in zpool zfs zdb; do
	src=""
	for p in $zpkgs; do
		for d in sbin usr/sbin; do
			[ -e "$PKGS/$p/$d/$name" ] && { src=$PKGS/$p/$d/$name; break 2; }
		done
	done
	[ -n "$src" ] || die "no $name in the zfs packages ($zpkgs)"
	cp -L "$src" "$ZSTAGE/usr/sbin/$name"
done
copy_libs "$ZSTAGE" "$(libdirs_of $(pkgs_of lib) $(pkgs_of zfs-lib) $tool_pkgs $zpkgs)" \
	"$(ls "$STAGE/lib/x86_64-linux-gnu" | tr '\n' ' ')" "$ZSTAGE"/usr/sbin/*
archive "$ZSTAGE" "$OUT/zfs.img"
say "ZFS part $(sed -n 's/^zfs-dkms //p' "$OUT/zfs/release"): $(find "$zmods" -name '*.ko' | wc -l) modules, zfs.img $(du -k "$OUT/zfs.img" | cut -f1) KiB"
