# SPDX-License-Identifier: MIT
# The machine's one name (sys/machine.c), asked by /init's shell too: the DMI
# serial unless it is a vendor's placeholder, compared whole and ignoring
# case and blanks, else "mac-" and the first wired NIC's MAC. A real serial
# that starts like a placeholder ("0A7F3K21", "NoneSuch") is a serial;
# "To Be Filled By O.E.M." is not, nor is one character repeated. The same
# name is ${serial} in a config URL, and the result folder's name in the
# shell. A serial is firmware's text: only [A-Za-z0-9._-] of it is used.
# Before the fix, "To Be Filled By O.E.M." was a serial (every such board
# fetched one config) and "0A7F3K21" had none (the unattended run stopped).
. tests/lib.sh
mkdir -p "$T/root/sys/class/dmi/id" "$T/root/sys/class/net/aaw0/device" "$T/root/sys/class/net/aaw0/wireless" \
	"$T/root/sys/class/net/eno1/device" "$T/root/sys/class/net/lo"
echo "02:11:22:33:44:55" > "$T/root/sys/class/net/aaw0/address"
echo "52:54:00:AB:CD:EF" > "$T/root/sys/class/net/eno1/address"
echo "00:00:00:00:00:00" > "$T/root/sys/class/net/lo/address"
SH=sh
[ -x out/busybox/busybox ] && SH="out/busybox/busybox sh"

# row SERIAL EXPECTED: C, the shell and ${serial} all give EXPECTED
row() {
	printf '%s\n' "$1" > "$T/root/sys/class/dmi/id/product_serial"
	c=$(BOOTBENCH_SYSROOT="$T/root" "$BB" sysinfo --machine-id)
	sh_id=$(ROOT="$T/root" BOOTBENCH="$BB" $SH -c '. rootfs/lib/bootbench/results.sh; machine_id')
	url=$(BOOTBENCH_SYSROOT="$T/root" "$BB" fetch-config --print-url 'http://10.0.0.1/conf/${serial}.conf' 2>&1)
	if [ "$c" = "$2" ] && [ "$sh_id" = "$2" ] && [ "$url" = "http://10.0.0.1/conf/$2.conf" ]; then
		ok "serial '$1' -> $2"
	else
		bad "serial '$1': want $2; C $c, shell $sh_id, URL $url"
	fi
}
row "To Be Filled By O.E.M." mac-525400abcdef
row "to be filled by o.e.m." mac-525400abcdef
row "Default string" mac-525400abcdef
row "  System Serial Number  " mac-525400abcdef
row "None" mac-525400abcdef
row "0" mac-525400abcdef
row "0000000000" mac-525400abcdef
row "          " mac-525400abcdef
row "0123456789" mac-525400abcdef
row "0A7F3K21" 0A7F3K21
row "NoneSuch123" NoneSuch123
row "Default-77" Default-77
row "SN 12/../34" SN_12_.._34
row "..hidden" _.hidden

# no wired NIC with an address, no serial: no name of its own for ${serial}
rm -rf "$T/root/sys/class/net/eno1"
echo "Default string" > "$T/root/sys/class/dmi/id/product_serial"
refuses "no serial and only a wireless NIC: \${serial} has no value, said in one line" "this machine has no serial" \
	env BOOTBENCH_SYSROOT="$T/root" "$BB" fetch-config --print-url 'http://10.0.0.1/${serial}'
check "... the folder name falls back to the hostname" \
	[ "$(BOOTBENCH_SYSROOT="$T/root" "$BB" sysinfo --machine-id)" = "$(hostname | tr -c 'A-Za-z0-9._\n-' _)" ]
finish
