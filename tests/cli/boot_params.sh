# SPDX-License-Identifier: MIT
# The image's boot parameter whitelist (rootfs/etc/bootbench/params) as /init
# reads it, run on the build host with a fake /proc/cmdline ($ROOT, $CMDLINE):
# rows of command line, bootbench.conf, and the variables or the error that
# must result.
. tests/lib.sh
SH=sh
[ -x out/busybox/busybox ] && SH="out/busybox/busybox sh"
mkdir -p "$T/root/etc/bootbench" "$T/root/proc"
cp rootfs/etc/bootbench/params "$T/root/etc/bootbench/params"

# row NAME CMDLINE CONF EXPECTED: EXPECTED is a shell test run after parsing
row() {
	printf '%s\n' "$2" > "$T/cmdline"
	printf '%b' "$3" > "$T/conf"
	out=$(ROOT="$T/root" CMDLINE="$T/cmdline" BB_RUNDIR="$T/run" $SH -c '
		. rootfs/lib/bootbench/boot.sh
		BB_PARAM_ERRORS=""
		params_from_cmdline
		params_from_conf "$1"
		params_defaults
		'"$4"' && echo RESULT=yes || echo RESULT=no' sh "$T/conf" 2>&1)
	if echo "$out" | grep -q 'RESULT=yes'; then ok "$1"; else bad "$1"; echo "$out" | sed 's/^/    /'; fi
}
row "defaults when nothing is given" "quiet" "" \
	'[ "$BB_SAVE" = usb ] && [ "$BB_AFTER" = menu ] && [ "$BB_NET" = dhcp ] && [ -z "${BB_RUN:-}" ] && [ -z "$BB_PARAM_ERRORS" ]'
row "an unattended run from the command line" \
	"console=ttyS0 bootbench.run=smoke bootbench.targets=all bootbench.destroy=nvme0n1,/dev/sdb bootbench.after=poweroff" "" \
	'[ "$BB_RUN" = smoke ] && [ "$BB_TARGETS" = all ] && [ "$BB_DESTROY" = nvme0n1,/dev/sdb ] && [ "$BB_AFTER" = poweroff ]'
row "bootbench.conf sets what the command line does not" "bootbench.after=reboot" \
	"# comment\nrun=smoke\r\nafter=poweroff\n  bootbench.save=console  \n" \
	'[ "$BB_RUN" = smoke ] && [ "$BB_AFTER" = reboot ] && [ "$BB_SAVE" = console ] && [ -z "$BB_PARAM_ERRORS" ]'
row "an empty value clears the stick's unattended run" "bootbench.run=" "run=smoke\n" \
	'[ -z "$BB_RUN" ] && [ -z "$BB_PARAM_ERRORS" ]'
row "a value outside the list is an error naming it" "bootbench.after=sideways" "" \
	'echo "$BB_PARAM_ERRORS" | grep -q "bootbench.after=sideways: expected one of poweroff|reboot|menu|shell" && [ "$BB_AFTER" = menu ]'
row "an unknown bootbench.* parameter is an error" "bootbench.colour=red" "" \
	'echo "$BB_PARAM_ERRORS" | grep -q "unknown boot parameter bootbench.colour"'
row "a device list with a path escape is refused" "bootbench.destroy=../../etc/passwd" "" \
	'echo "$BB_PARAM_ERRORS" | grep -q "is not a device name"'
row "a job file name with shell characters is refused" 'bootbench.run=x;reboot' "" \
	'echo "$BB_PARAM_ERRORS" | grep -q "bootbench.run=x;reboot: expected a profile name"'
row "a wrong line in bootbench.conf is an error too" "" "targets=all\nsave=floppy\n" \
	'echo "$BB_PARAM_ERRORS" | grep -q "bootbench.save=floppy" && [ "$BB_TARGETS" = all ]'
row "module lists take names only" "bootbench.modules=null_blk,brd" "" \
	'[ "$BB_MODULES" = null_blk,brd ] && [ -z "$BB_PARAM_ERRORS" ]'
row "a scale is a number" "bootbench.scale=0.02" "" '[ "$BB_SCALE" = 0.02 ] && [ -z "$BB_PARAM_ERRORS" ]'
row "a scale that is not a number is refused" "bootbench.scale=fast" "" \
	'echo "$BB_PARAM_ERRORS" | grep -q "bootbench.scale=fast: expected a number"'
finish
