# SPDX-License-Identifier: MIT
# burnin_disks.sh - bootbench burnin's disks component on loop devices and
# a device-mapper disk with a failing stretch: a disk consented to gets the
# burnin profile's verified passes, one not consented to is only read (and
# left as it was); a disk whose blocks fail FAILs naming it; a drive with
# no self-test of its own (a loop device has none) is an ERROR unless
# disks_need_selftest=0; the boot and results media are refused. The
# drive's own self-test and its counters need a drive: QEMU's NVMe in
# tests/boot/burnin_nvme.sh.
. tests/lib.sh
loopdev a "$T/a.img" 32M
loopdev b "$T/b.img" 32M
dd if=/dev/urandom of="$b" bs=1M count=32 status=none oflag=direct
before_b=$(sha256sum < "$b")
burn() { # NAME ARGS...: the disks component, its results in $T/NAME
	n=$1; shift
	mkdir -p "$T/$n"
	BOOTBENCH_SCALE=0.05 "$BB" burnin --components=disks --duration=20s --output="$T/$n" "$@" > "$T/$n.out" 2>&1
	echo $? > "$T/$n.rc"
}
disks() { json "$T/$1/burnin.json" "(lambda c: $2)([x for x in d['components'] if x['name'] == 'disks'][0])"; }

burn noself "$a"
check "a drive with no self-test of its own: ERROR in so many words" disks noself \
	"c['verdict'] == 'ERROR' and '${a#/dev/}: no self-test: ${a#/dev/} has no self-test bootbench can start' in c['reason']"
burn both --limits=disks_need_selftest=0 --destroy="$a" "$a" "$b"
check "disks_need_selftest=0: the passes decide, PASS" disks both "c['verdict'] == 'PASS' and c['figures']['disks_tested']['value'] == 2"
check "... the disk consented to: written, read back and verified" grep -q "$a: written, read back and verified (burnin profile)" "$T/both/burnin.txt"
check "... the other: read only, and left as it was" sh -c \
	"grep -q '$b: read (no consent to write: --destroy)' '$T/both/burnin.txt' && [ \"\$(sha256sum < $b)\" = '$before_b' ]"
printf 'results %s %s\n' "$a" "$("$BB" disks --identity="$a")" > "$T/media"
BOOTBENCH_MEDIA_FILE="$T/media" burn onmedia --limits=disks_need_selftest=0 --destroy="$a" "$a"
check "the results medium is refused, even with consent: ERROR" disks onmedia \
	"c['verdict'] == 'ERROR' and 'cannot be tested: it is the results medium' in c['reason']"
if command -v dmsetup >/dev/null && dmsetup version >/dev/null 2>&1; then
	name=bbburn-err-$$
	printf '0 32768 linear %s 0\n32768 8192 error\n' "$b" | dmsetup create "$name"
	trap 'dmsetup remove "$name" 2>/dev/null; cleanup' EXIT
	burn bad --limits=disks_need_selftest=0 --destroy=/dev/mapper/$name /dev/mapper/$name
	check "a disk whose blocks fail: FAIL naming it, exit 1" sh -c \
		"[ \$(cat '$T/bad.rc') = 1 ] && grep -q '^disks     FAIL     /dev/mapper/$name: its write/verify pass failed' '$T/bad/burnin.txt'"
else
	echo "note: device-mapper unavailable in this kernel: the failing disk is not checked here"
fi
finish
