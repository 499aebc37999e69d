#!/bin/sh
# SPDX-License-Identifier: MIT
# Stage 2 of the chain, before bootbench links: jansson, the JSON reader of
# `bootbench report` and `bootbench compare` (decision 5: a maintained
# library, not a parser of our own), from Debian's source (dl/src, fetched
# by scripts/fetch.sh), built statically with musl-gcc. Debian's own
# libjansson.a is built for glibc with _FORTIFY_SOURCE (__snprintf_chk and
# kin, which musl lacks), so it cannot be linked into a musl program.
# jansson's build system is skipped: its sources are plain C11 and its
# configuration is two headers, written here with what musl offers.
# Output: OUT/jansson/libjansson.a, OUT/jansson/include/jansson{,_config}.h
# (OUT: out/, or the sanitizer and fuzzing builds' out/asan, out/fuzz with
# their compiler in CC and its instrumentation in EXTRA_CFLAGS, so that the
# JSON reader is fuzzed and checked down to its parser). ARCH=arm64: CC is
# the musl-gcc of scripts/build-musl.sh, the archive made with the cross ar.
set -eu
ROOT=${ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
SRC=$ROOT/dl/src/jansson
OUT=${OUT:-out}
case $OUT in /*) OUT_DIR=$OUT ;; *) OUT_DIR=$ROOT/$OUT ;; esac
BUILD=$OUT_DIR/jansson
CC=${CC:-musl-gcc}
EXTRA_CFLAGS=${EXTRA_CFLAGS:-}
. "$ROOT/scripts/arch.sh"
die() { echo "jansson: $*" >&2; exit 2; }

[ -f "$SRC/src/jansson.h" ] || die "no jansson source in dl/src: run scripts/fetch.sh"
command -v "${CC%% *}" >/dev/null || die "$CC is missing (musl-gcc: apt-get install musl-tools)"
stamp=$BUILD/.built
if [ -f "$stamp" ] && [ "$stamp" -nt "$0" ] && [ "$stamp" -nt "$SRC/src/jansson.h" ] &&
	[ -f "$BUILD/libjansson.a" ]; then
	exit 0
fi
echo "  BUILD   jansson ($CC, static)"
rm -rf "$BUILD"
mkdir -p "$BUILD/include" "$BUILD/obj"
sed -e 's/@json_inline@/inline/' -e 's/@json_have_long_long@/1/' \
	-e 's/@json_have_localeconv@/1/' -e 's/@json_have_atomic_builtins@/1/' \
	-e 's/@json_have_sync_builtins@/1/' "$SRC/src/jansson_config.h.in" > "$BUILD/include/jansson_config.h"
cp "$SRC/src/jansson.h" "$BUILD/include/"
# what configure would find in musl; the seed of the hash tables from /dev/urandom
cat > "$BUILD/obj/jansson_private_config.h" <<'EOF'
#define HAVE_STDINT_H 1
#define HAVE_ENDIAN_H 1
#define HAVE_FCNTL_H 1
#define HAVE_UNISTD_H 1
#define HAVE_SYS_PARAM_H 1
#define HAVE_SYS_STAT_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_CLOSE 1
#define HAVE_OPEN 1
#define HAVE_READ 1
#define HAVE_GETPID 1
#define HAVE_GETTIMEOFDAY 1
#define HAVE_SCHED_H 1
#define HAVE_SCHED_YIELD 1
#define HAVE_LOCALECONV 1
#define HAVE_ATOMIC_BUILTINS 1
#define HAVE_SYNC_BUILTINS 1
#define USE_URANDOM 1
#define INITIAL_HASHTABLE_ORDER 3
EOF
for c in "$SRC"/src/*.c; do
	$CC -std=gnu11 -O2 -g -ffunction-sections -fdata-sections -ffile-prefix-map="$ROOT"=. -ffile-prefix-map="$BUILD"=out/jansson \
		-ffile-prefix-map="$OUT_DIR"=out $EXTRA_CFLAGS -DHAVE_CONFIG_H \
		-I"$BUILD/obj" -I"$BUILD/include" -I"$SRC/src" \
		-c -o "$BUILD/obj/$(basename "$c" .c).o" "$c" 2>> "$BUILD/build.log" ||
		{ tail -20 "$BUILD/build.log" >&2; die "building $(basename "$c") failed ($BUILD/build.log)"; }
done
${CROSS_COMPILE}ar rcs "$BUILD/libjansson.a" "$BUILD"/obj/*.o
rm -rf "$BUILD/obj"
touch "$stamp"
