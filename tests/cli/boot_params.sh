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
	rm -f "$T/run/credentials"
	out=$(ROOT="$T/root" CMDLINE="$T/cmdline" BB_RUNDIR="$T/run" BOOTBENCH="$BB" $SH -c '
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
	'echo "$BB_PARAM_ERRORS" | grep -q "bootbench.save: destination .floppy." && [ "$BB_TARGETS" = all ]'
row "module lists take names only" "bootbench.modules=null_blk,brd" "" \
	'[ "$BB_MODULES" = null_blk,brd ] && [ -z "$BB_PARAM_ERRORS" ]'
row "a scale is a number" "bootbench.scale=0.02" "" '[ "$BB_SCALE" = 0.02 ] && [ -z "$BB_PARAM_ERRORS" ]'
row "a scale that is not a number is refused" "bootbench.scale=fast" "" \
	'echo "$BB_PARAM_ERRORS" | grep -q "bootbench.scale=fast: expected a number"'
# issue 14 A.6: these names reached an eval (busybox sh: "bad substitution", PID 1 died)
row "an escaped name on the command line is reported, not evaluated" 'bootbench.r\165n=smoke' "" \
	'echo "$BB_PARAM_ERRORS" | grep -q "bad boot parameter name" && [ -z "${BB_RUN:-}" ]'
row "an escaped name in bootbench.conf is reported, not evaluated" "" 'r\\165n=smoke\nrun\\=smoke\n' \
	'[ "$(echo "$BB_PARAM_ERRORS" | grep -o "bad boot parameter name" | wc -l)" = 2 ] && [ -z "${BB_RUN:-}" ]'
row "a build id is a file name" "bootbench.id=bootbench-0123abcd.id" "" '[ "$BB_ID" = bootbench-0123abcd.id ] && [ -z "$BB_PARAM_ERRORS" ]'
row "a build id with a path is refused" "bootbench.id=../x" "" 'echo "$BB_PARAM_ERRORS" | grep -q "bootbench.id=../x"'

# issue 32: the whole server's burn-in, checked by bootbench burnin itself
row "a burn-in's components, time, iperf3 server and limits" \
	"bootbench.run=burnin bootbench.burnin=cpu,memory,net bootbench.duration=24h bootbench.iperf=10.0.0.5:5201" \
	"burnin_cpu_temp_max=85\nburnin_net_min_mbps=9000\n" \
	'[ "$BB_BURNIN" = cpu,memory,net ] && [ "$BB_DURATION" = 24h ] && [ "$BB_IPERF" = 10.0.0.5:5201 ] && [ "$BB_BURNIN_CPU_TEMP_MAX" = 85 ] && [ "$BB_BURNIN_NET_MIN_MBPS" = 9000 ] && [ -z "$BB_PARAM_ERRORS" ]'
row "an unknown component is an error naming it" "bootbench.burnin=cpu,gpu" "" \
	'echo "$BB_PARAM_ERRORS" | grep -q "bootbench.burnin: --components: unknown component .gpu." && [ -z "${BB_BURNIN:-}" ]'
row "a duration that does not parse is an error" "bootbench.duration=forever" "" \
	'echo "$BB_PARAM_ERRORS" | grep -q "bootbench.duration: --duration=forever: expected a time"'
row "an iperf3 server with shell characters is refused" 'bootbench.iperf=h;reboot' "" \
	'echo "$BB_PARAM_ERRORS" | grep -q "bootbench.iperf: --iperf=h;reboot: expected HOST" && [ -z "${BB_IPERF:-}" ]'
row "the consent to clear the BMC's event log: off unless given, on as given (issue 45)" "bootbench.clear_sel=on" "" \
	'[ "$BB_CLEAR_SEL" = on ] && [ -z "$BB_PARAM_ERRORS" ]'
row "... off by default" "quiet" "" '[ "$BB_CLEAR_SEL" = off ]'
row "... a value other than on or off is refused" "bootbench.clear_sel=yes" "" \
	'echo "$BB_PARAM_ERRORS" | grep -q "bootbench.clear_sel=yes: expected one of on|off" && [ "$BB_CLEAR_SEL" = off ]'
row "a limit out of its range is an error with the range" "" "burnin_memory_fraction=2\n" \
	'echo "$BB_PARAM_ERRORS" | grep -q "bootbench.burnin_memory_fraction: --limits: memory_fraction=2: expected a number from 0.1 to 0.95" && [ -z "${BB_BURNIN_MEMORY_FRACTION:-}" ]'

row "an unattended erase: method, read-back, key on the stick, an operator with blanks (bootbench.conf)" \
	"bootbench.run=erase bootbench.erase=purge bootbench.erase_verify=sample" "erase_key=keys/erase.pem\nerase_operator=Jo O'Neil\n" \
	'[ "$BB_RUN" = erase ] && [ "$BB_ERASE" = purge ] && [ "$BB_ERASE_VERIFY" = sample ] && [ "$BB_ERASE_KEY" = keys/erase.pem ] &&
	 [ "$BB_ERASE_OPERATOR" = "Jo O'"'"'Neil" ] && [ -z "$BB_PARAM_ERRORS" ]'
row "erase's defaults: auto, every byte read back" "bootbench.run=erase" "" '[ "$BB_ERASE" = auto ] && [ "$BB_ERASE_VERIFY" = full ]'
row "an unknown erase method is refused, with bootbench erase's words" "bootbench.erase=shred" "" \
	'echo "$BB_PARAM_ERRORS" | grep -q "bootbench.erase: --method=shred: expected auto, purge" && [ "$BB_ERASE" = auto ]'
row "an erase key over plain HTTP is refused" "bootbench.erase_key=http://10.0.0.5/erase.pem" "" \
	'echo "$BB_PARAM_ERRORS" | grep -q "bootbench.erase_key=http://10.0.0.5/erase.pem: expected a path on the stick or an https:// URL" && [ -z "${BB_ERASE_KEY:-}" ]'
row "an operator name with markup is refused" "" "erase_operator=<b>x</b>\n" \
	'echo "$BB_PARAM_ERRORS" | grep -q "bootbench.erase_operator: --operator: a name on one line" && [ -z "${BB_ERASE_OPERATOR:-}" ]'

row "fixed addresses: a link by name and one by MAC" "bootbench.ip=eth1=10.55.0.1/24,52:54:00:be:00:02=192.168.7.2/30" "" \
	'[ "$BB_IP" = "eth1=10.55.0.1/24,52:54:00:be:00:02=192.168.7.2/30" ] && [ -z "$BB_PARAM_ERRORS" ]'
row "a fixed address without its prefix is refused" "bootbench.ip=eth1=10.55.0.1" "" \
	'echo "$BB_PARAM_ERRORS" | grep -q "bootbench.ip=eth1=10.55.0.1: .10.55.0.1. is not an IPv4 address with its prefix" && [ -z "${BB_IP:-}" ]'
row "a fixed address out of range is refused" "bootbench.ip=eth1=10.300.0.1/24" "" \
	'echo "$BB_PARAM_ERRORS" | grep -q "is not an IPv4 address with its prefix" && [ -z "${BB_IP:-}" ]'
row "a link name with shell characters is refused" 'bootbench.ip=eth1;reboot=10.0.0.1/24' "" \
	'echo "$BB_PARAM_ERRORS" | grep -q "is not a link.s name or MAC" && [ -z "${BB_IP:-}" ]'

# The results folder's name: DMI serial, else the first NIC's MAC (A.12), else the hostname.
mkdir -p "$T/root/sys/class/dmi/id" "$T/root/sys/class/net/eth0/device" "$T/root/sys/class/net/lo"
echo "To be filled by O.E.M." > "$T/root/sys/class/dmi/id/product_serial"
echo "52:54:00:12:34:56" > "$T/root/sys/class/net/eth0/address"
echo "00:00:00:00:00:00" > "$T/root/sys/class/net/lo/address"
id=$(ROOT="$T/root" BOOTBENCH="$BB" $SH -c '. rootfs/lib/bootbench/results.sh; machine_id')
check "no DMI serial: the folder is named by the NIC's MAC ($id)" [ "$id" = mac-525400123456 ]
echo "SN1234" > "$T/root/sys/class/dmi/id/product_serial"
id=$(ROOT="$T/root" BOOTBENCH="$BB" $SH -c '. rootfs/lib/bootbench/results.sh; machine_id')
check "a DMI serial names the folder ($id)" [ "$id" = SN1234 ]
# issue 15: destinations, config URL, credentials
row "save takes a comma-separated list of destinations" "bootbench.save=usb,nfs://10.0.2.2/results/r1,smb://RACK;bench@10.0.2.2:14450/results" "" \
	'[ "$BB_SAVE" = "usb,nfs://10.0.2.2/results/r1,smb://RACK;bench@10.0.2.2:14450/results" ] && [ -z "$BB_PARAM_ERRORS" ]'
row "a destination with an unknown scheme is refused, named" "bootbench.save=usb,ftp://h/x" "" \
	'echo "$BB_PARAM_ERRORS" | grep -q "bootbench.save: destination .ftp://h/x.: unknown scheme" && [ "$BB_SAVE" = usb ]'
row "a password in a destination URL is refused" "bootbench.save=smb://u:pw@h/s" "" \
	'echo "$BB_PARAM_ERRORS" | grep -q "no password in the URL"'
row "conf takes an http, https or tftp URL with \${serial} and \${mac}" 'bootbench.conf=http://10.0.2.2:8080/bb/${mac}.conf' "" \
	'[ "$BB_CONF" = "http://10.0.2.2:8080/bb/\${mac}.conf" ] && [ -z "$BB_PARAM_ERRORS" ]'
row "conf refuses anything else" "bootbench.conf=/etc/x" "" 'echo "$BB_PARAM_ERRORS" | grep -q "bootbench.conf=/etc/x: expected an http"'
row "ca takes a path on the stick, relative or from its top" "" "ca=certs/ca.crt\n" \
	'[ "$BB_CA" = certs/ca.crt ] && [ -z "$BB_PARAM_ERRORS" ]'
row "ca takes a URL" "bootbench.ca=http://10.0.2.2:8080/ca.crt" "" '[ "$BB_CA" = http://10.0.2.2:8080/ca.crt ] && [ -z "$BB_PARAM_ERRORS" ]'
row "ca refuses a path out of the stick, in one line naming what it takes" "" "ca=../etc/ssl/x.pem\n" \
	'echo "$BB_PARAM_ERRORS" | grep -qx "bootbench.ca=../etc/ssl/x.pem: expected a path on the stick or an http://, https:// or tftp:// URL"'
row "ca refuses another scheme" "bootbench.ca=ftp://h/ca.crt" "" 'echo "$BB_PARAM_ERRORS" | grep -q "bootbench.ca=ftp://h/ca.crt: expected a path on the stick or an http"'
row "save_timeout is whole seconds, 600 by default" "" "" '[ "$BB_SAVE_TIMEOUT" = 600 ] && [ "$BB_UNSAVED" = wait ] && [ "$BB_SMB_VERS" = 3 ]'
row "a credential line in bootbench.conf goes to the root-only file, whole" "" \
	'credential=smb://RACK;bench@10.0.2.2:14450 pa,ss "wo'"'"'rd" 1\n' \
	'[ "$(cat "$BB_RUNDIR/credentials")" = "smb://RACK;bench@10.0.2.2:14450 pa,ss \"wo'"'"'rd\" 1" ] && [ "$(stat -c %a "$BB_RUNDIR/credentials")" = 600 ] && [ -z "${BB_CREDENTIAL:-}" ] && [ -z "$BB_PARAM_ERRORS" ]'
row "a credential on the kernel command line is refused and not stored" "bootbench.credential=https://u@h%20secret" "" \
	'echo "$BB_PARAM_ERRORS" | grep -q "not taken from the kernel command line" && [ ! -e "$BB_RUNDIR/credentials" ]'
row "a malformed credential line is refused without echoing the password" "" 'credential=nonsense s3cret\n' \
	'echo "$BB_PARAM_ERRORS" | grep -q "expected .credential=URL PASSWORD." && ! echo "$BB_PARAM_ERRORS" | grep -q s3cret'
# issue 36: the operator's reach
mkdir -p "$T/root/usr/share/bootbench/keymaps"
printf 'us English (US)\nde German\n' > "$T/root/usr/share/bootbench/keymaps/list"
row "a keymap the image has" "bootbench.keymap=de" "" '[ "$BB_KEYMAP" = de ] && [ -z "$BB_PARAM_ERRORS" ]'
row "a keymap it lacks is one line listing the known ones" "bootbench.keymap=xx" "" \
	'echo "$BB_PARAM_ERRORS" | grep -qx "bootbench.keymap=xx: not a keyboard layout of this image (known: us de)"'
row "a keymap name with a path or pattern is refused" "" "keymap=../de\n" 'echo "$BB_PARAM_ERRORS" | grep -q "bootbench.keymap=../de: not a keyboard layout"'
row "a serial console with its speed, from bootbench.conf" "" "console=ttyS1,115200\n" '[ "$BB_CONSOLE" = ttyS1,115200 ] && [ -z "$BB_PARAM_ERRORS" ]'
row "a serial console with 57600n8, or none" "bootbench.console=ttyS1,57600n8" "" '[ "$BB_CONSOLE" = ttyS1,57600n8 ] && [ -z "$BB_PARAM_ERRORS" ]'
row "a serial console that is a path or a strange speed is refused" "bootbench.console=../sda,115200" "console=ttyS1,1234\n" \
	'[ "$(echo "$BB_PARAM_ERRORS" | grep -o "expected a serial port and its speed" | wc -l)" = 2 ]'
row "serial_console splits the port and speed" "" "" '[ "$(serial_console ttyS1,115200n8)" = "ttyS1 115200" ] && [ "$(serial_console hvc0)" = "hvc0 " ] && ! serial_console tty1'
row "ssh_key: https or the stick, ssh_hostkeys=stick" "bootbench.ssh_key=https://10.0.0.5/keys bootbench.ssh_hostkeys=stick" "" \
	'[ "$BB_SSH_KEY" = https://10.0.0.5/keys ] && [ "$BB_SSH_HOSTKEYS" = stick ] && [ -z "$BB_PARAM_ERRORS" ]'
row "ssh_key over plain http is refused (a key changed on the wire lets anyone in)" "bootbench.ssh_key=http://10.0.0.5/keys" "" \
	'echo "$BB_PARAM_ERRORS" | grep -qx "bootbench.ssh_key=http://10.0.0.5/keys: expected a path on the stick or an https:// URL"'
row "ssh host keys are made at boot by default" "" "" '[ "$BB_SSH_HOSTKEYS" = boot ]'
export H=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
row "hooks: https and the stick, each with its SHA-256" "bootbench.hook_before=https://h/b.sh#sha256=$H" "hook_after=hooks/a.sh#sha256=$H\n" \
	'[ "$BB_HOOK_BEFORE" = "https://h/b.sh#sha256=$H" ] && [ "$BB_HOOK_AFTER" = "hooks/a.sh#sha256=$H" ] && [ -z "$BB_PARAM_ERRORS" ]'
row "a hook without its checksum is refused" "bootbench.hook_before=https://h/b.sh" "" \
	'echo "$BB_PARAM_ERRORS" | grep -q "bootbench.hook_before=https://h/b.sh: expected LOCATION#sha256=HEX"'
row "a hook with a short or upper-case checksum is refused" "bootbench.hook_before=https://h/b.sh#sha256=abc" "hook_after=a.sh#sha256=$(echo $H | tr a-f A-F)\n" \
	'[ "$(echo "$BB_PARAM_ERRORS" | grep -o "expected LOCATION#sha256=HEX" | wc -l)" = 2 ]'
row "a hook over http or out of the stick is refused" "bootbench.hook_before=http://h/b.sh#sha256=$H" "hook_after=../x.sh#sha256=$H\n" \
	'[ "$(echo "$BB_PARAM_ERRORS" | grep -o "a path on the stick or an https:// URL" | wc -l)" = 2 ]'
finish
