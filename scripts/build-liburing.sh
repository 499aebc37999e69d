#!/bin/sh
# SPDX-License-Identifier: MIT
# Stage 2 of the chain for a machine Debian's musl-tools is not for (make
# ARCH=arm64, issue 47), before bootbench links: liburing, the io_uring
# library of bootbench's engine, from Debian's source (dl/src, fetched by
# scripts/fetch.sh), static with the machine's musl-gcc
# (scripts/build-musl.sh) and the kernel's headers of OUT/include. On x86_64
# bootbench links Debian's own liburing.a (liburing-dev): this is the same
# source with the flags Debian builds it with (the stack protector, which
# musl provides, and no _FORTIFY_SOURCE, which musl ignores).
# Output: OUT/liburing/liburing.a and OUT/liburing/include/ (liburing.h,
# liburing/ with configure's compat.h), which OUT/include links.
set -eu
ROOT=${ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
SRC=$ROOT/dl/src/liburing
OUT=${OUT:-$ROOT/out/${ARCH:-x86_64}}
. "$ROOT/scripts/arch.sh"
BUILD=$OUT/liburing
INC=$OUT/include
die() { echo "liburing: $*" >&2; exit 2; }

[ -f "$SRC/configure" ] || die "no liburing source in dl/src: run ARCH=$ARCH scripts/fetch.sh"
[ -n "$CROSS_COMPILE" ] || die "ARCH=$ARCH links Debian's liburing.a (liburing-dev): nothing to build"
[ -x "$MUSL_GCC" ] || die "$MUSL_GCC is missing: run scripts/build-musl.sh first"
[ -e "$INC/linux" ] || die "no kernel headers for musl in ${INC#$ROOT/}: run make ARCH=$ARCH first"
stamp=$BUILD/.built
if [ -f "$stamp" ] && [ "$stamp" -nt "$0" ] && [ "$stamp" -nt "$SRC/configure" ] &&
	[ "$stamp" -nt "$MUSL_GCC" ] && [ -f "$BUILD/liburing.a" ]; then
	exit 0
fi
echo "  BUILD   liburing ($ARCH, musl, static)"
rm -rf "$BUILD"
mkdir -p "$BUILD/include"
# built in a copy: dl/ stays as fetched; build paths mapped to fixed names
# (musl's and the kernel's headers are in OUT too), so that equal sources
# give an equal library whichever folder OUT is. The kernel's are named as
# OUT/include links them: gcc would name each by the shorter of its two
# paths, which hangs on OUT's length.
cp -a "$SRC/." "$BUILD/src"
CC="$MUSL_GCC -isystem $INC"
CFLAGS="-g -O2 -Wall -fstack-protector-strong -fno-canonical-system-headers -ffile-prefix-map=$BUILD/src=/build/liburing -ffile-prefix-map=$OUT=out"
(cd "$BUILD/src" && ./configure --cc="$CC") > "$BUILD/build.log" 2>&1 ||
	{ tail -20 "$BUILD/build.log" >&2; die "configure failed ($BUILD/build.log)"; }
make -C "$BUILD/src/src" CC="$CC" CFLAGS="$CFLAGS" AR="$AR" RANLIB="$RANLIB" liburing.a >> "$BUILD/build.log" 2>&1 ||
	{ tail -20 "$BUILD/build.log" >&2; die "build failed ($BUILD/build.log)"; }
cp "$BUILD/src/src/liburing.a" "$BUILD/"
cp -R "$BUILD/src/src/include/." "$BUILD/include/"
rm -rf "$BUILD/src"
touch "$stamp"
