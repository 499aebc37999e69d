#!/bin/sh
# SPDX-License-Identifier: MIT
# Names the package to install when a build tool or library is missing.
rc=0
need() {
	[ -e "$1" ] || command -v "$1" >/dev/null 2>&1 && return 0
	echo "build: $1 is missing: apt-get install $2 (or run 'make deps' as root)" >&2
	rc=2
}
need musl-gcc musl-tools
need /usr/lib/x86_64-linux-gnu/liburing.a liburing-dev
need /usr/include/liburing.h liburing-dev
need /usr/include/linux/fs.h linux-libc-dev
exit $rc
