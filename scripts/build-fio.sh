#!/bin/sh
# SPDX-License-Identifier: MIT
# Stage 2 of the image chain, beside busybox: fio for `bootbench fio-server`
# (fio's client/server mode), from Debian's source (dl/src, fetched by
# scripts/fetch.sh), statically with musl-gcc and Debian's libaio built the
# same way, so that the libaio engine of the job files racks send is there.
# Engines needing libraries the image does not carry (rbd, gluster, RDMA,
# pmem, NFS, HTTP, xnvme, DAOS) are left out; io_uring, io_uring_cmd, sg
# and the synchronous ones are fio's own code. Output: out/fio/fio (stripped).
# ARCH=arm64: with its musl-gcc and the cross binutils (scripts/arch.sh),
# into out/arm64/fio/fio, checked under qemu-user.
set -eu
ROOT=${ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
FIO_SRC=$ROOT/dl/src/fio
AIO_SRC=$ROOT/dl/src/libaio
OUT=${OUT:-$ROOT/out}
BUILD=$OUT/fio
INC=$OUT/include
. "$ROOT/scripts/arch.sh"
die() { echo "fio: $*" >&2; exit 2; }

[ -f "$FIO_SRC/configure" ] || die "no fio source in dl/src: run scripts/fetch.sh"
[ -f "$AIO_SRC/src/Makefile" ] || die "no libaio source in dl/src: run scripts/fetch.sh"
command -v "$MUSL_GCC" >/dev/null || die "$MUSL_GCC is missing: apt-get install musl-tools (arm64: make ARCH=arm64 builds it)"
[ -e "$INC/linux" ] || die "no kernel headers for musl in out/include: run make first"
stamp=$BUILD/.built
if [ -f "$stamp" ] && [ "$stamp" -nt "$0" ] && [ "$stamp" -nt "$FIO_SRC/configure" ] && [ -x "$BUILD/fio" ]; then
	exit 0
fi
echo "  BUILD   fio (musl, static, with libaio)"
rm -rf "$BUILD"
mkdir -p "$BUILD"
# both built in copies: dl/ stays as fetched
cp -a "$FIO_SRC/." "$BUILD/fio-src"
cp -a "$AIO_SRC/." "$BUILD/libaio-src"
CC="$MUSL_GCC -isystem $INC"
make -C "$BUILD/libaio-src/src" CC="$CC" libaio.a > "$BUILD/build.log" 2>&1 ||
	{ tail -20 "$BUILD/build.log" >&2; die "libaio build failed (${BUILD#$ROOT/}/build.log)"; }
AIO=$BUILD/libaio-src/src
(cd "$BUILD/fio-src" && ./configure --cc="$CC" --extra-cflags="-I$AIO -L$AIO" --build-static \
	--disable-numa --disable-rdma --disable-rados --disable-rbd --disable-http --disable-gfapi \
	--disable-libnfs --disable-lex --disable-pmem --disable-native --disable-xnvme --disable-libzbc \
	--disable-tcmalloc --disable-dfs) >> "$BUILD/build.log" 2>&1 || { tail -20 "$BUILD/build.log" >&2; die "configure failed"; }
grep -q '^Linux AIO support *yes' "$BUILD/build.log" || die "configure did not find the libaio built here"
make -C "$BUILD/fio-src" -j"$(nproc)" fio LDFLAGS="-static -Wl,--gc-sections -L$AIO" >> "$BUILD/build.log" 2>&1 ||
	{ tail -20 "$BUILD/build.log" >&2; die "build failed (${BUILD#$ROOT/}/build.log)"; }
${CROSS_COMPILE}strip -o "$BUILD/fio" "$BUILD/fio-src/fio"
readelf -l "$BUILD/fio" | grep -q INTERP && die "${BUILD#$ROOT/}/fio is not static"
$RUN_TARGET "$BUILD/fio" --enghelp | grep -qw libaio || die "${BUILD#$ROOT/}/fio has no libaio engine"
rm -rf "$BUILD/fio-src" "$BUILD/libaio-src"
touch "$stamp"
