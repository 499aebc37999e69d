# SPDX-License-Identifier: MIT
# The machines bootbench's programs are built for, as the build scripts of
# stage 2 need to know them (sourced, after ROOT and OUT are set; ARCH is
# make's, issue 47):
#   x86_64  Debian's musl-gcc (musl-tools), the host's binutils; the programs
#           run here
#   arm64   Debian's cross gcc and binutils (gcc-aarch64-linux-gnu) through
#           the musl-gcc wrapper of the musl built into OUT/musl from Debian's
#           source (scripts/build-musl.sh); the programs run here under
#           qemu-user (qemu-aarch64-static), which the builds' checks use
# Sets MUSL_GCC (the compiler), CROSS_COMPILE (binutils' prefix, empty for
# the host's), HOST_TRIPLET (configure's --host), CONFIGURE_CROSS (for arm64
# --build too: autoconf then knows it cross-compiles, instead of guessing
# from whether a test program runs here, which it does while
# scripts/build-installed.sh has qemu-aarch64's binfmt entry registered)
# and RUN_TARGET (what runs
# one of the programs here, empty when the host does); for arm64 it exports
# AR, RANLIB, STRIP and NM, which configure scripts and Makefiles take from
# the environment, so that none of them reaches for the host's.
case ${ARCH:=x86_64} in
x86_64)
	MUSL_GCC=musl-gcc
	CROSS_COMPILE=
	HOST_TRIPLET=x86_64-linux-musl
	CONFIGURE_CROSS=
	RUN_TARGET=
	;;
arm64)
	case $OUT in /*) MUSL_GCC=$OUT/musl/bin/musl-gcc ;; *) MUSL_GCC=$ROOT/$OUT/musl/bin/musl-gcc ;; esac
	CROSS_COMPILE=aarch64-linux-gnu-
	HOST_TRIPLET=aarch64-linux-musl
	CONFIGURE_CROSS=--build=$(gcc -dumpmachine)
	RUN_TARGET=qemu-aarch64-static
	export AR=${CROSS_COMPILE}ar RANLIB=${CROSS_COMPILE}ranlib STRIP=${CROSS_COMPILE}strip NM=${CROSS_COMPILE}nm
	command -v ${CROSS_COMPILE}gcc >/dev/null ||
		{ echo "$0: ${CROSS_COMPILE}gcc is missing: apt-get install gcc-aarch64-linux-gnu (or make ARCH=arm64 deps)" >&2; exit 2; }
	command -v $RUN_TARGET >/dev/null ||
		{ echo "$0: $RUN_TARGET is missing: apt-get install qemu-user-static (or make ARCH=arm64 deps)" >&2; exit 2; }
	;;
*)
	echo "$0: ARCH=$ARCH: no such ARCH (x86_64, arm64)" >&2
	exit 2
	;;
esac
