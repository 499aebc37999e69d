#!/bin/sh
# SPDX-License-Identifier: MIT
# Stage 2 of the image chain, beside busybox: curl, the HTTP(S) client
# bootbench runs for WebDAV results, the Pushgateway and fetch-config, from
# Debian's source (dl/src, fetched by scripts/fetch.sh), statically with
# musl-gcc and TLS from Debian's wolfssl built the same way. Debian's own
# curl program needs 16 MB of shared libraries (GnuTLS through RTMP and
# LDAP, Kerberos, libssh2, OpenSSL): a third of the base initramfs, for
# protocols bootbench never speaks. This one speaks HTTP and HTTPS (TLS 1.2
# and 1.3), verifies servers against /etc/ssl/certs/ca-certificates.crt (or
# --cacert), by name or by IP address (racks name their servers by address:
# mbedtls 2.28, tried first, matches DNS names only), and nothing else.
# Output: out/curl/curl (stripped). ARCH=arm64: with its musl-gcc and the
# cross binutils (scripts/arch.sh), into out/arm64/curl/curl, checked under
# qemu-user.
set -eu
ROOT=${ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
OUT=${OUT:-$ROOT/out}
CURL_SRC=$ROOT/dl/src/curl
TLS_SRC=$ROOT/dl/src/wolfssl
BUILD=$OUT/curl
INC=$OUT/include
. "$ROOT/scripts/arch.sh"
die() { echo "curl: $*" >&2; exit 2; }

[ -f "$CURL_SRC/configure" ] || die "no curl source in dl/src: run scripts/fetch.sh"
[ -f "$TLS_SRC/configure.ac" ] || die "no wolfssl source in dl/src: run scripts/fetch.sh"
command -v autoreconf >/dev/null || die "autoreconf is missing: apt-get install autoconf automake libtool"
command -v "$MUSL_GCC" >/dev/null || die "$MUSL_GCC is missing: apt-get install musl-tools (arm64: make ARCH=arm64 builds it)"
[ -e "$INC/linux" ] || die "no kernel headers for musl in out/include: run make first"
stamp=$BUILD/.built
if [ -f "$stamp" ] && [ "$stamp" -nt "$0" ] && [ "$stamp" -nt "$CURL_SRC/configure" ] &&
	[ "$stamp" -nt "$TLS_SRC/configure.ac" ] && [ -x "$BUILD/curl" ]; then
	exit 0
fi
echo "  BUILD   curl (musl, static, with wolfssl)"
rm -rf "$BUILD"
mkdir -p "$BUILD"
# both built in copies: dl/ stays as fetched. The build paths are mapped to
# fixed names, so that equal sources give an equal program.
cp -a "$CURL_SRC/." "$BUILD/curl-src"
cp -a "$TLS_SRC/." "$BUILD/wolfssl-src"
CC="$MUSL_GCC -isystem $INC"
MAP="-ffile-prefix-map=$BUILD=/build"
# -Os: the stick's size is a target (issue 21), and a TLS client's time
# goes to the network and the public-key steps, not to its own code
OPT=-Os
TLS=$BUILD/tls
# TLS 1.2 and 1.3 only; SNI and ALPN for curl; IP addresses in a
# certificate's subjectAltName matched (WOLFSSL_IP_ALT_NAME); the OpenSSL
# compatibility layer, which curl's SHA-256 and MD5 use; no configure line
# or build flags (build paths) kept in the library (reproducible-build)
(cd "$BUILD/wolfssl-src" && autoreconf -fi && ./configure CC="$CC" CFLAGS="$OPT $MAP" \
	--host=$HOST_TRIPLET $CONFIGURE_CROSS --prefix="$TLS" --disable-shared --enable-static \
	--disable-oldtls --enable-tls13 --enable-sni --enable-alpn --enable-ip-alt-name --enable-opensslextra \
	--disable-sha3 --disable-des3 --disable-examples --disable-crypttests --disable-benchmark \
	--disable-jobserver --enable-reproducible-build) \
	> "$BUILD/build.log" 2>&1 || { tail -20 "$BUILD/build.log" >&2; die "wolfssl configure failed ($BUILD/build.log)"; }
make -C "$BUILD/wolfssl-src" -j"$(nproc)" install >> "$BUILD/build.log" 2>&1 ||
	{ tail -20 "$BUILD/build.log" >&2; die "wolfssl build failed ($BUILD/build.log)"; }
(cd "$BUILD/curl-src" && ./configure CC="$CC" CFLAGS="$OPT $MAP" LDFLAGS="-static" \
	--host=$HOST_TRIPLET $CONFIGURE_CROSS --disable-shared --enable-static \
	--with-wolfssl="$TLS" --with-ca-bundle=/etc/ssl/certs/ca-certificates.crt --without-ca-path \
	--disable-ldap --disable-ldaps --disable-rtsp --disable-dict --disable-telnet --disable-tftp \
	--disable-pop3 --disable-imap --disable-smtp --disable-gopher --disable-mqtt --disable-smb \
	--disable-ftp --disable-file --disable-manual --disable-ntlm --disable-unix-sockets \
	--without-zlib --without-brotli --without-zstd --without-libpsl --without-libidn2 \
	--without-nghttp2 --without-libssh2 --without-librtmp --without-libgsasl --without-gssapi \
	--disable-cookies --disable-alt-svc --disable-hsts --disable-mime --disable-doh --disable-headers-api) \
	>> "$BUILD/build.log" 2>&1 || { tail -20 "$BUILD/build.log" >&2; die "configure failed ($BUILD/build.log)"; }
# libtool's -all-static links the program static (configure's -static does
# not reach it); LDFLAGS given here replaces configure's, -L included
make -C "$BUILD/curl-src" -j"$(nproc)" V=0 LDFLAGS="-all-static -L$TLS/lib" >> "$BUILD/build.log" 2>&1 ||
	{ tail -20 "$BUILD/build.log" >&2; die "build failed ($BUILD/build.log)"; }
${CROSS_COMPILE}strip -o "$BUILD/curl" "$BUILD/curl-src/src/curl"
readelf -l "$BUILD/curl" | grep -q INTERP && die "${BUILD#$ROOT/}/curl is not static"
$RUN_TARGET "$BUILD/curl" --version | grep -q 'wolfSSL' || die "${BUILD#$ROOT/}/curl has no TLS"
rm -rf "$BUILD/curl-src" "$BUILD/wolfssl-src" "$TLS"
touch "$stamp"
