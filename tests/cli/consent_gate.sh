# SPDX-License-Identifier: MIT
# consent_gate.sh - safety/consent.c is the only gate to writing a device
# (issue 14 B). Every place in bootbench's C that could write one, and every
# script in the image, is listed and must go through it:
#   - running a program: spawn() only in consent.c (consent_spawn); elsewhere
#     a call says on its line why it writes no device ("consent: ...");
#   - opening for writing (O_WRONLY, O_RDWR, fopen "w"/"a"/"+"): only in
#     consent.c, or a regular file said so on its line ("consent: ...");
#   - mount(2): only in consent.c (consent_mount);
#   - the image's scripts run no writing tool themselves (mkfs, mdadm,
#     wipefs, sfdisk, dd, fsck, grub-install, ...): they call bootbench.
# The device-level rules themselves are tested by profiles.sh, raid.sh and
# blockdev.sh; this test fails when a new writer bypasses the gate.
. tests/lib.sh
src=tools/bootbench
# file:line:text of C lines, comments and the gate itself left out
lines() { grep -rnE "$1" --include=*.c "$src" | grep -v "^$src/safety/consent.c:" | grep -vE '^[^:]*:[0-9]+:\s*(\*|/\*|//)'; }

out=$(lines '(^|[^_a-z])spawn(_for)?\(' | grep -v 'consent:' | grep -vE '^tools/bootbench/lib/util.c:[0-9]*:int spawn(_for)?\(')
check "spawn() and spawn_for() only through the gate or said harmless${out:+: $out}" [ -z "$out" ]
out=$(lines '(^|[^a-z_])open(at)?\(.*O_(WRONLY|RDWR)' | grep -v 'consent:')
check "open() for writing only through the gate or on a regular file said so${out:+: $out}" [ -z "$out" ]
out=$(lines 'fopen\([^)]*"[wa+]|fopen\([^)]*"r\+' | grep -v 'consent:')
check "fopen() for writing only said so${out:+: $out}" [ -z "$out" ]
out=$(lines '(^|[^_a-z])mount\(' )
check "mount(2) only in consent.c${out:+: $out}" [ -z "$out" ]
out=$(lines 'popen\(|system\(|exec[lv]p?\(' | grep -v 'consent:' | grep -v '^tools/bootbench/lib/util.c:')
check "no other way to run a program${out:+: $out}" [ -z "$out" ]
# the gate's users: each writer calls it
for f in job/target.c raid/mdraid.c raid/members.c raid/zfs.c; do
	check "$f writes through consent_*()" grep -q 'consent_\(open\|spawn\|tool\|mount\|check\)' "$src/$f"
done
out=$(grep -rnE "(^|[^a-z-])(mkfs[.a-z0-9]*|mdadm|wipefs|sfdisk|grub-install|fsck[.a-z0-9]*|dd|blkdiscard|parted|mkswap)( |$)" \
	rootfs/etc rootfs/lib rootfs/init rootfs/usr/libexec rootfs/usr/share/bootbench/menu.d |
	grep -vE '^[^:]*:[0-9]+:\s*#' | grep -vE '^[^:]*:[0-9]+:\s*[a-z0-9]+ "')
check "the image's scripts run no writing tool${out:+: $out}" [ -z "$out" ]
# the check can fail: a planted bypass is found
mkdir -p "$T/src/cmd" && printf 'int f(void) { return open("/dev/sdb", O_RDWR); }\n' > "$T/src/cmd/bad.c"
src=$T/src
out=$(lines '(^|[^a-z_])open(at)?\(.*O_(WRONLY|RDWR)' | grep -v 'consent:')
check "a planted open(O_RDWR) is caught" [ -n "$out" ]
finish
