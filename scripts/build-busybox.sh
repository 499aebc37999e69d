#!/bin/sh
# SPDX-License-Identifier: MIT
# Stage 2 of the image chain: build busybox from Debian's source (dl/src,
# fetched by scripts/fetch.sh) statically with musl-gcc, configured by
# `make defconfig` plus image/busybox.config. Output: out/busybox/busybox.
# ARCH=arm64: with its musl-gcc and the cross binutils (scripts/arch.sh),
# into out/arm64/busybox/busybox.
set -eu
ROOT=${ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
SRC=$ROOT/dl/src/busybox
OUT=${OUT:-$ROOT/out}
BUILD=$OUT/busybox
FRAG=$ROOT/image/busybox.config
INC=$OUT/include
. "$ROOT/scripts/arch.sh"
die() { echo "busybox: $*" >&2; exit 2; }

[ -f "$SRC/Makefile" ] || die "no busybox source in dl/src: run scripts/fetch.sh"
command -v "$MUSL_GCC" >/dev/null || die "$MUSL_GCC is missing: apt-get install musl-tools (arm64: make ARCH=arm64 builds it)"
[ -e "$INC/linux" ] || die "no kernel headers for musl in out/include: run make first"

# The banner's date (busybox --help) is SOURCE_DATE_EPOCH, the last
# commit's (make exports it): a build of another commit is not reused.
SOURCE_DATE_EPOCH=$("$ROOT/scripts/source-date.sh")
export SOURCE_DATE_EPOCH
stamp=$BUILD/.built
if [ -f "$stamp" ] && [ "$stamp" -nt "$FRAG" ] && [ "$stamp" -nt "$SRC/Makefile" ] &&
	[ "$(cat "$stamp")" = "$SOURCE_DATE_EPOCH" ]; then
	exit 0
fi
# from scratch: kconfig rewrites the banner's date only with a new .config
rm -rf "$BUILD"
mkdir -p "$BUILD"
mk() { make -s -C "$SRC" O="$BUILD" CC="$MUSL_GCC -isystem $INC" HOSTCC=gcc ${CROSS_COMPILE:+CROSS_COMPILE=$CROSS_COMPILE} "$@"; }
mk defconfig >/dev/null
# Apply the fragment: drop every symbol it names, append its lines, let
# oldconfig settle the dependencies.
syms=$(sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=.*/\1/p; s/^# \(CONFIG_[A-Z0-9_]*\) is not set/\1/p' "$FRAG")
for s in $syms; do
	sed -i "/^$s=/d; /^# $s is not set/d" "$BUILD/.config"
done
grep -E '^(CONFIG_|# CONFIG_.* is not set)' "$FRAG" >> "$BUILD/.config"
yes "" | mk oldconfig >/dev/null 2>&1
for s in $syms; do
	want=$(grep -E "^$s=|^# $s is not set" "$FRAG")
	grep -qxF "$want" "$BUILD/.config" || die "image/busybox.config: '$want' does not hold after oldconfig"
done
echo "  BUILD   busybox (musl, static)"
mk -j"$(nproc)" busybox >"$BUILD/build.log" 2>&1 || { tail -20 "$BUILD/build.log" >&2; die "build failed (${BUILD#$ROOT/}/build.log)"; }
readelf -l "$BUILD/busybox" | grep -q INTERP && die "${BUILD#$ROOT/}/busybox is not static"
echo "$SOURCE_DATE_EPOCH" > "$stamp"
