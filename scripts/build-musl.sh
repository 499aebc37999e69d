#!/bin/sh
# SPDX-License-Identifier: MIT
# Stage 2 of the chain for a machine Debian ships no musl-tools for (make
# ARCH=arm64, issue 47): musl, the C library every program of ours links
# statically, from Debian's source (dl/src, fetched by scripts/fetch.sh),
# built with Debian's cross gcc. Debian's x86_64 musl-dev is this source
# built the same way (its --enable-debug; no shared library: nothing of ours
# is linked dynamically). Its musl-gcc wrapper runs the cross gcc with
# musl's headers, crt files and libc.a only (a specs file), as Debian's
# musl-gcc does on x86_64; the kernel's headers come from OUT/include.
# Output: OUT/musl/{bin/musl-gcc,include,lib} (OUT absolute: the wrapper
# names its specs file by its full path).
set -eu
ROOT=${ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
SRC=$ROOT/dl/src/musl
OUT=${OUT:-$ROOT/out/${ARCH:-x86_64}}
. "$ROOT/scripts/arch.sh"
BUILD=$OUT/musl
die() { echo "musl: $*" >&2; exit 2; }

[ -f "$SRC/configure" ] || die "no musl source in dl/src: run ARCH=$ARCH scripts/fetch.sh"
[ -n "$CROSS_COMPILE" ] || die "ARCH=$ARCH builds with Debian's musl-tools: nothing to build"
stamp=$BUILD/.built
if [ -f "$stamp" ] && [ "$stamp" -nt "$0" ] && [ "$stamp" -nt "$SRC/configure" ] && [ -x "$MUSL_GCC" ]; then
	exit 0
fi
echo "  BUILD   musl ($ARCH, ${CROSS_COMPILE}gcc, static)"
rm -rf "$BUILD"
mkdir -p "$BUILD"
# built in a copy: dl/ stays as fetched. Paths in the debug information are
# mapped to fixed names, so that equal sources give an equal libc.a.
cp -a "$SRC/." "$BUILD/src"
# ARCH on make's command line: configure's config.mak names musl's own
# (aarch64), which an ARCH=arm64 in make's flags would override
(cd "$BUILD/src" && ./configure --prefix="$BUILD" --target="${CROSS_COMPILE%-}" \
	CROSS_COMPILE="$CROSS_COMPILE" CFLAGS="-ffile-prefix-map=$BUILD/src=/build/musl" \
	--disable-shared --enable-debug --enable-wrapper=gcc) > "$BUILD/build.log" 2>&1 ||
	{ tail -20 "$BUILD/build.log" >&2; die "configure failed ($BUILD/build.log)"; }
musl_arch=$(sed -n 's/^ARCH = //p' "$BUILD/src/config.mak")
make -C "$BUILD/src" -j"$(nproc)" ARCH="$musl_arch" install >> "$BUILD/build.log" 2>&1 ||
	{ tail -20 "$BUILD/build.log" >&2; die "build failed ($BUILD/build.log)"; }
rm -rf "$BUILD/src"
# the wrapper works: a static program for the machine comes out of it
printf 'int main(void) { return 0; }\n' > "$BUILD/probe.c"
"$MUSL_GCC" -static -o "$BUILD/probe" "$BUILD/probe.c" 2>> "$BUILD/build.log" ||
	die "$MUSL_GCC does not link a program ($BUILD/build.log)"
$RUN_TARGET "$BUILD/probe" || die "a program linked with $MUSL_GCC does not run under $RUN_TARGET"
rm -f "$BUILD/probe" "$BUILD/probe.c"
touch "$stamp"
