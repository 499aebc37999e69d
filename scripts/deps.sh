#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs what building and testing bootbench needs on Debian 12, as root
# (with "fuzz": what make fuzz needs too; with "arm64": what the arm64 image
# and its tests need too).
# Quiet when everything is there already.
set -e
# engine build and tests
# fio_jsonplus_clat2csv (fio_compat.sh) imports six, which fio only recommends
pkgs="make musl-tools liburing-dev fio python3 python3-six util-linux e2fsprogs dmsetup"
# image: fetch (apt, dpkg-source), busybox build, rootfs, FAT/ISO images
pkgs="$pkgs apt dpkg-dev debian-archive-keyring bzip2 xz-utils binutils cpio zstd kmod"
# each part's large files in a squashfs image (scripts/build-rootfs.sh)
pkgs="$pkgs squashfs-tools"
# curl's TLS library, wolfssl: Debian's source ships no configure script
pkgs="$pkgs autoconf automake libtool"
# (with "arm64", as make test-arm64 and ARCH=arm64's deps, run and
# bench-image ask: issue 47) make all ARCH=arm64: Debian's cross gcc and binutils (musl is built
# for them from its source) and arm64's kernel headers; its programs are
# checked under qemu-user, in their builds and in tests/arm64/programs.sh
# (run by make all ARCH=arm64); make image and make run ARCH=arm64:
# qemu-system-aarch64's virt machine with AAVMF (Debian's EDK2 for it) boots
# the arm64 stick. make test needs none of them: a fresh root's make test
# does without their download and unpacking.
case " $* " in *" arm64 "*)
	pkgs="$pkgs gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu linux-libc-dev-arm64-cross"
	pkgs="$pkgs qemu-user-static qemu-system-arm qemu-efi-aarch64" ;;
esac
# UEFI HTTP boot (arm64_httpboot.sh): dnsmasq, the README's DHCP server, on a
# tap device in the test's own network namespace (its binary alone, no service)
pkgs="$pkgs dnsmasq-base"
pkgs="$pkgs mtools dosfstools xorriso fdisk"
# boot tests and make run: QEMU with SeaBIOS, OVMF (with Microsoft keys), iPXE
pkgs="$pkgs qemu-system-x86 qemu-utils ovmf seabios ipxe-qemu"
# the menu test types on the serial console through tmux
pkgs="$pkgs tmux"
# the RAID tests read the disks back with mdadm --examine (no md driver needed)
pkgs="$pkgs mdadm"
# network results: the real servers the save tests start on loopback (nginx
# WebDAV over TLS with a CA made by openssl, smbd, nfs-ganesha, a
# Pushgateway), and curl for the host-side checks
pkgs="$pkgs curl openssl nginx samba nfs-ganesha nfs-ganesha-vfs rpcbind prometheus-pushgateway"
# the alert rules (tools/monitoring) are checked and unit-tested by promtool,
# which comes with Debian's Prometheus server
pkgs="$pkgs prometheus"
# the inhibition rules (tools/monitoring/alertmanager-inhibit.yml) run in Debian's
# Alertmanager and are checked by its amtool (tests/cli/alertmanager.sh)
pkgs="$pkgs prometheus-alertmanager"
# bootbench.syslog's receiving end in its tests: Debian's rsyslog on loopback,
# with GnuTLS for syslog over TLS (RFC 5425)
pkgs="$pkgs rsyslog rsyslog-gnutls"
# make bench: the erase's clear pass against Debian's nwipe on the same device
pkgs="$pkgs nwipe"
# a network namespace of its own for the NFS test (rpcbind on port 111)
pkgs="$pkgs iproute2"
# the burn-in tests run the cpu, memory and net components for real on the
# host: stress-ng, and iperf3's server in a network namespace, ethtool
pkgs="$pkgs stress-ng iperf3 ethtool"
# the sandbox test shows its system calls under strace (sandbox.sh)
pkgs="$pkgs strace"
# the ssh test logs in with Debian's OpenSSH client (ssh, ssh-keygen, ssh-keyscan)
pkgs="$pkgs openssh-client"
# the rescue tests: a real installed Debian (scripts/build-installed.sh)
pkgs="$pkgs debootstrap"
# the ZFS modules (scripts/build-zfs.sh): the kernel's compiler, libc's
# headers for configure, libelf for the headers' prebuilt objtool
pkgs="$pkgs gcc-12 libc6-dev libelf1"
# make sanitize (in make test): the same sources with the host's gcc under
# ASan, UBSan and TSan (their runtimes come with gcc's libgcc-12-dev)
pkgs="$pkgs gcc"
# the report's pictures are checked by rendering the page (headless
# Chromium) and reading the screenshot's pixels (PIL)
pkgs="$pkgs chromium python3-pil"
# make fuzz (scripts/deps.sh fuzz): clang's libFuzzer and its sanitizers'
# runtime; make test replays the corpus with gcc's ASan and needs neither
case " $* " in *" fuzz "*) pkgs="$pkgs clang-14 libfuzzer-14-dev libclang-rt-14-dev" ;; esac
# nfs-ganesha finds its exports' filesystems through /etc/mtab, the link
# every booted Debian has and a bare debootstrap'd root lacks
if [ ! -e /etc/mtab ] && [ "$(id -u)" = 0 ]; then
	ln -s ../proc/self/mounts /etc/mtab
fi
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages:$missing (run as root, or: apt-get install$missing)" >&2
	exit 2
fi
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing >/dev/null
