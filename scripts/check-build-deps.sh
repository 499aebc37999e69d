#!/bin/sh
# SPDX-License-Identifier: MIT
# Names the package to install when a build tool or library is missing
# (for make's ARCH: x86_64's musl-tools and liburing-dev, arm64's cross
# toolchain, its kernel headers and the emulator its programs are checked in).
rc=0
need() {
	[ -e "$1" ] || command -v "$1" >/dev/null 2>&1 && return 0
	echo "build: $1 is missing: apt-get install $2 (or run 'make${ARCH:+ ARCH=$ARCH} deps' as root)" >&2
	rc=2
}
case ${ARCH:-x86_64} in
arm64)
	need aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu
	need aarch64-linux-gnu-ar binutils-aarch64-linux-gnu
	need /usr/aarch64-linux-gnu/include/linux/fs.h linux-libc-dev-arm64-cross
	need qemu-aarch64-static qemu-user-static
	;;
*)
	need musl-gcc musl-tools
	need /usr/lib/x86_64-linux-gnu/liburing.a liburing-dev
	need /usr/include/liburing.h liburing-dev
	need /usr/include/linux/fs.h linux-libc-dev
	;;
esac
exit $rc
