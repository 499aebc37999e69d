# SPDX-License-Identifier: MIT
# The arm64 programs (issue 47's first phase), checked as the last step of
# `make all ARCH=arm64` (not in `make test`: its 230 CPU-s build is not in
# the suite's budget yet, and a test that skips fails the suite):
# bootbench, busybox, fio and curl in out/arm64/ are aarch64 ELF programs,
# statically linked, and run under qemu-user (qemu-aarch64-static):
# bootbench --version, busybox's banner, fio's version, curl's with its TLS
# (wolfSSL). Builds nothing: skips, saying why, when out/arm64 was not built.
. tests/lib.sh
A=out/arm64
PROGRAMS="bootbench busybox/busybox fio/fio curl/curl"
[ -e "$A/bootbench" ] || skip "$A/bootbench is not built (make all ARCH=arm64 builds it; docs/build.md)"
need_commands file qemu-aarch64-static

for p in $PROGRAMS; do
	kind=$(file -b "$A/$p" 2>&1)
	check "$A/$p is an aarch64 ELF program, statically linked ($kind)" \
		sh -c 'case "$1" in "ELF 64-bit LSB executable, ARM aarch64,"*", statically linked"*) ;; *) exit 1 ;; esac' - "$kind"
done

# emulated: a wedged emulator ends the check, not the test's time
run_arm64() { timeout 60 qemu-aarch64-static "$@" 2>&1; }
version=$(run_arm64 "$A/bootbench" --version)
check "bootbench --version runs under qemu-aarch64: '$version'" \
	sh -c 'echo "$1" | grep -qx "bootbench [0-9][0-9.]*"' - "$version"
banner=$(run_arm64 "$A/busybox/busybox" --help | head -1)
check "busybox --help | head -1 runs under qemu-aarch64: '$banner'" \
	sh -c 'echo "$1" | grep -q "^BusyBox v[0-9.]* (.*) multi-call binary\.$"' - "$banner"
fio_version=$(run_arm64 "$A/fio/fio" --version)
check "fio --version runs under qemu-aarch64: '$fio_version'" \
	sh -c 'echo "$1" | grep -qx "fio-[0-9][0-9.]*"' - "$fio_version"
curl_version=$(run_arm64 "$A/curl/curl" --version | head -1)
check "curl --version runs under qemu-aarch64, built for aarch64 with wolfSSL: '$curl_version'" \
	sh -c 'echo "$1" | grep -q "^curl [0-9.]* (aarch64-.*) .* wolfSSL/"' - "$curl_version"
finish
