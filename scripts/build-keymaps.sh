#!/bin/sh
# SPDX-License-Identifier: MIT
# Part of stage 3 (scripts/build-rootfs.sh calls it): the keyboard layouts of
# image/keymaps.table, compiled from Debian's console keymaps (console-data)
# by kbd's loadkeys, both unpacked from dl/ and neither shipped, into the
# binary keymaps busybox's loadkmap reads: DEST/NAME.bmap, and DEST/list
# (NAME and layout, a line each) for the menu and the boot parameter.
# usage: scripts/build-keymaps.sh DEST
# ARCH=arm64: the packages are arm64's (dl/arm64), so their loadkeys runs
# under qemu-user, through its own loader and libc (unpacked, not the host's).
set -eu
ROOT=${ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
OUT=${OUT:-$ROOT/out}
PKGS=$OUT/pkgs
TABLE=$ROOT/image/keymaps.table
die() { echo "keymaps: $*" >&2; exit 2; }
[ $# -eq 1 ] || die "usage: scripts/build-keymaps.sh DEST"
dest=$1
loadkeys=$PKGS/kbd/bin/loadkeys
maps=$PKGS/console-data/usr/share/keymaps/i386
[ -x "$loadkeys" ] || die "out/pkgs/kbd/bin/loadkeys is missing: run scripts/fetch.sh (kbd is in image/packages.list)"
[ -d "$maps" ] || die "out/pkgs/console-data has no keymaps: run scripts/fetch.sh (console-data is in image/packages.list)"
. "$ROOT/scripts/arch.sh"
case $ARCH in
x86_64) run_loadkeys() { "$loadkeys" "$@"; } ;;
arm64)
	libc=$PKGS/libc6/lib/aarch64-linux-gnu
	run_loadkeys() { $RUN_TARGET "$libc/ld-linux-aarch64.so.1" --library-path "$libc" "$loadkeys" "$@"; } ;;
esac
rm -rf "$dest"; mkdir -p "$dest"
grep -v '^[[:space:]]*#' "$TABLE" | while read -r name src layout; do
	[ -n "$name" ] || continue
	case "$name" in *[!a-z0-9-]*) die "image/keymaps.table: '$name' is not a keymap name (a-z, 0-9, -)" ;; esac
	[ -e "$maps/$src.kmap.gz" ] || die "image/keymaps.table: $name: console-data has no $src.kmap.gz"
	# loadkeys finds what a keymap includes beside it and in ../include
	run_loadkeys --bkeymap "$maps/$src.kmap.gz" > "$dest/$name.bmap" 2>"$dest/.err" ||
		{ cat "$dest/.err" >&2; die "loadkeys could not compile $src ($name)"; }
	[ "$(head -c 7 "$dest/$name.bmap")" = bkeymap ] || die "$name: loadkeys wrote no binary keymap"
	printf '%s %s\n' "$name" "$layout" >> "$dest/list"
done
rm -f "$dest/.err"
[ -s "$dest/list" ] || die "image/keymaps.table names no keymap"
